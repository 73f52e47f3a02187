package buildinfo

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromSettings(t *testing.T) {
	vcs := []debug.BuildSetting{
		{Key: "vcs.revision", Value: "2f6e0d1c4a5b6c7d8e9f00112233445566778899"},
		{Key: "vcs.time", Value: "2026-03-04T10:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
		{Key: "CGO_ENABLED", Value: "1"},
	}
	tests := []struct {
		name         string
		settings     []debug.BuildSetting
		commit, date string
		want         []string
		wantNot      []string
	}{
		{"toolchain stamp", vcs, "", "",
			[]string{"commit 2f6e0d1c4a5b with uncommitted changes", "committed 2026-03-04 10:00 UTC", "build date unknown", "with C library"},
			[]string{"2f6e0d1c4a5b6"}},
		{"nothing known", nil, "", "",
			[]string{"commit unknown", "build date unknown", "without C library"}, []string{"committed 2"}},
		{"linker values win", vcs, "abcdef0123456789-dirty", "2026-03-05T08:30:00+01:00",
			[]string{"commit abcdef012345 with uncommitted changes", "built 2026-03-05 07:30 UTC"},
			[]string{"committed 2", "2f6e0d1c"}},
		{"clean linker commit, free-form date", nil, "abc123", "yesterday",
			[]string{"commit abc123,", "built yesterday"}, []string{"uncommitted"}},
	}
	for _, tt := range tests {
		in := fromSettings(tt.settings, tt.commit, tt.date)
		s := in.String()
		if !strings.HasPrefix(s, "boardbench "+Version+" (") || strings.Contains(s, "\n") {
			t.Errorf("%s: %q is not one line starting with the version", tt.name, s)
		}
		for _, w := range tt.want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: %q lacks %q", tt.name, s, w)
			}
		}
		for _, w := range tt.wantNot {
			if strings.Contains(s, w) {
				t.Errorf("%s: %q has %q", tt.name, s, w)
			}
		}
	}
}
