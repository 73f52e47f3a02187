package labapi

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/result"
	"boardbench/internal/serve/servetest"
)

// doc returns generated result i as its JSON document.
func doc(t *testing.T, i int) []byte {
	t.Helper()
	r, _ := servetest.Result(i)
	b, err := result.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// withField puts raw JSON text as the value of a new top-level field.
func withField(t *testing.T, d []byte, name, raw string) []byte {
	t.Helper()
	s := strings.TrimSpace(string(d))
	return []byte(s[:len(s)-1] + `, "` + name + `": ` + raw + "}")
}

func TestCheckUpload(t *testing.T) {
	good := doc(t, 3)
	for _, c := range []struct {
		name   string
		doc    []byte
		max    int
		status int // 0: accepted
		want   string
	}{
		{"a result", good, 0, 0, ""},
		{"larger than the limit", good, len(good) - 1, 413, "at most"},
		{"not JSON", []byte("hello"), 0, 400, "not JSON"},
		{"NaN", withField(t, good, "x", "NaN"), 0, 400, "NaN"},
		{"Infinity", withField(t, good, "x", "-Infinity"), 0, 400, "not JSON"},
		{"a number beyond float64", withField(t, good, "x", "1e999"), 0, 400, "not finite"},
		{"an underflowing number is zero", withField(t, good, "x", "1e-999"), 0, 0, ""},
		{"escape in text", withField(t, good, "x", `"a\u001b[31mred"`), 0, 400, "U+001B"},
		{"C1 control in text", withField(t, good, "x", "\"a\u009bz\""), 0, 400, "U+009B"},
		{"bidirectional override", withField(t, good, "x", "\"a\u202ez\""), 0, 400, "U+202E"},
		{"control in a name", withField(t, good, "x\\u0007", "1"), 0, 400, "U+0007"},
		{"newline and tab in text", withField(t, good, "x", `"a\n\tb"`), 0, 0, ""},
		{"invalid UTF-8", withField(t, good, "x", "\"\xff\""), 0, 400, "UTF-8"},
		{"data after the document", append(append([]byte{}, good...), []byte(" {}")...), 0, 400, "after"},
		{"nested too deep", withField(t, good, "x", strings.Repeat("[", MaxDepth+1)+strings.Repeat("]", MaxDepth+1)), 0, 400, "nested"},
		{"wrong schema: no status", []byte(`{"schema_version": "1.1", "id": "0123456789abcdef"}`), 0, 400, "not a result"},
		{"wrong schema: other major version", []byte(`{"schema_version": "2.0", "status": "complete", "id": "0123456789abcdef"}`), 0, 400, "not supported"},
		{"wrong schema: a field of the wrong type", withField(t, good, "summary", `"fast"`), 0, 400, "not a result"},
		{"an id that is no id", []byte(strings.Replace(string(good), `"id": "`, `"id": "../`, 1)), 0, 400, "id"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec, err := CheckUpload(c.doc, c.max)
			if c.status == 0 {
				if err != nil || rec.ID == "" {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var rf *Refusal
			if !errors.As(err, &rf) {
				t.Fatalf("got %v, want a refusal %d", err, c.status)
			}
			if rf.Status != c.status || !strings.Contains(rf.Msg, c.want) {
				t.Errorf("refusal %d %q, want %d with %q", rf.Status, rf.Msg, c.status, c.want)
			}
			if strings.ContainsAny(rf.Msg, "\x1b\u009b\u202e\a") {
				t.Errorf("the message carries the control character: %q", rf.Msg)
			}
		})
	}
}

func TestParseLab(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"https://lab.example.org", "https://lab.example.org", true},
		{"https://lab.example.org/boardbench/", "https://lab.example.org/boardbench", true},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080", true},
		{"https://user:pw@lab.example.org", "", false},
		{"https://lab.example.org/?token=x", "", false},
		{"ftp://lab.example.org", "", false},
		{"https://", "", false},
	} {
		u, err := ParseLab(c.in)
		if (err == nil) != c.ok {
			t.Errorf("%s: err %v, want ok %v", c.in, err, c.ok)
			continue
		}
		if err != nil && strings.Contains(err.Error(), "pw") {
			t.Errorf("%s: the error shows the password: %v", c.in, err)
		}
		if c.ok && Target(u) != c.want {
			t.Errorf("%s: target %s, want %s", c.in, Target(u), c.want)
		}
	}
}

func TestPlainOverNetwork(t *testing.T) {
	for in, want := range map[string]bool{"http://127.0.0.1:1": false, "http://localhost": false, "http://[::1]:8": false,
		"http://192.168.1.5": true, "http://lab.lan": true, "https://lab.lan": false} {
		u, err := ParseLab(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := PlainOverNetwork(u); got != want {
			t.Errorf("%s: %v, want %v", in, got, want)
		}
	}
}

func TestReadToken(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Setenv(TokenEnv, "bbt_fromenv")
	for _, c := range []struct {
		file, want string
		ok         bool
	}{
		{"", "bbt_fromenv", true},
		{write("t1", "bbt_fromfile\n"), "bbt_fromfile", true},
		{write("t2", "bbt_a b\n"), "", false},
		{write("t3", "\n"), "", false},
		{write("big", strings.Repeat("x", 2000)), "", false},
		{filepath.Join(dir, "missing"), "", false},
	} {
		got, err := ReadToken(c.file)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("%q: %q, %v; want %q (ok %v)", c.file, got, err, c.want, c.ok)
		}
	}
	t.Setenv(TokenEnv, "")
	if _, err := ReadToken(""); err == nil || !strings.Contains(err.Error(), TokenEnv) {
		t.Errorf("no token anywhere: %v", err)
	}
}
