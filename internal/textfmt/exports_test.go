package textfmt

import "testing"

func TestMarkdownText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Raspberry Pi 4 Model B Rev 1.1", "Raspberry Pi 4 Model B Rev 1.1"},
		{"[]()", "[]()"},
		{"~1510 (throttled)", "~1510 (throttled)"},
		{"[Pi](javascript:alert(1))", `[Pi]\(javascript:alert(1))`},
		{"![x](http://evil.example/p.png)", `![x]\(http://evil.example/p.png)`},
		{"<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)>"},
		{"</td><script>", "&lt;/td>&lt;script>"},
		{"<!-- x -->", "&lt;!-- x -->"},
		{"<http://evil.example>", "&lt;http://evil.example>"},
		{"load < 5% and 3 > 2", "load < 5% and 3 > 2"},
		{"a|b", `a\|b`},
		{`a\|b`, `a\|b`},
	}
	for _, tc := range tests {
		if got := MarkdownText(tc.in); got != tc.want {
			t.Errorf("MarkdownText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
