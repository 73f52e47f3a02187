package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidID(t *testing.T) {
	for _, tc := range []struct {
		in        string
		id, idRef bool
	}{
		{"a", false, true},
		{"42d29a42", true, true},
		{"42D29A42", false, true},
		{strings.Repeat("f", 64), true, true},
		{strings.Repeat("f", 65), false, false},
		{"", false, false},
		{"nope.json", false, false},
		{"12g45678", false, false},
		{"../etc", false, false},
	} {
		if got := ValidID(tc.in); got != tc.id {
			t.Errorf("ValidID(%q) = %v, want %v", tc.in, got, tc.id)
		}
		if got := ValidIDRef(tc.in); got != tc.idRef {
			t.Errorf("ValidIDRef(%q) = %v, want %v", tc.in, got, tc.idRef)
		}
	}
}

// TestLoadArg checks every way an argument resolves or fails: a file wins
// over an id, an id or its start (either case) loads from the store, an
// unknown or ambiguous one is one line matching ErrBadArg, and a missing
// store is never created.
func TestLoadArg(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	st, err := Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"42d29a4200000000000000000000000a", "9c1e07b300000000000000000000000b", "9c1e07b400000000000000000000000c"} {
		if _, _, err := st.Put(ctx, mustJSON(t, testResult(id, "Radxa ROCK 5B", "RK3588", "6.1.0", 16000, t0))); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	file := filepath.Join(dir, "abcd")
	if err := os.WriteFile(file, mustJSON(t, testResult("eeee0000000000000000000000000001", "Raspberry Pi 5", "BCM2712", "6.6", 3000, t0)), 0o644); err != nil {
		t.Fatal(err)
	}
	notResult := filepath.Join(dir, "junk.json")
	os.WriteFile(notResult, []byte("{}"), 0o644)
	missing := filepath.Join(dir, "missing.db")
	for _, tc := range []struct {
		name    string
		spec    string
		off     bool
		arg     string
		wantID  string
		wantErr string
	}{
		{"full id", db, false, "42d29a4200000000000000000000000a", "42d29a4200000000000000000000000a", ""},
		{"short id in capitals", db, false, "42D29A", "42d29a4200000000000000000000000a", ""},
		{"file", db, false, file, "eeee0000000000000000000000000001", ""},
		{"unknown id", db, false, "deadbeef", "", "deadbeef: no such file, nor a result id in the store"},
		{"ambiguous id", db, false, "9c1e07b", "", `9c1e07b: no such file, and "9c1e07b" is the start of 2 result ids`},
		{"not an id: a file name", db, false, "nope.json", "", "nope.json: no such file"},
		{"directory", db, false, dir, "", "is a directory, not a result file"},
		{"not a result", db, false, notResult, "", "junk.json: "},
		{"missing store", missing, false, "42d29a42", "", "42d29a42: no such file, nor a results store to look the id up in"},
		{"--no-store", db, true, "42d29a42", "", "--no-store"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := Args{Spec: tc.spec, NoStore: tc.off}
			defer a.Close()
			l, err := a.LoadArg(ctx, tc.arg)
			if tc.wantErr != "" {
				if !errors.Is(err, ErrBadArg) || !strings.Contains(err.Error(), tc.wantErr) || strings.Contains(err.Error(), "\n") {
					t.Errorf("LoadArg(%q) = %v, want one line with %q matching ErrBadArg", tc.arg, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if l.Result.ID != tc.wantID || len(l.Doc) == 0 {
				t.Errorf("LoadArg(%q) = result %q (%d bytes), want %q", tc.arg, l.Result.ID, len(l.Doc), tc.wantID)
			}
			if (l.Path != "") != (tc.arg == file) || (l.ID != "") == (tc.arg == file) {
				t.Errorf("LoadArg(%q): Path %q, ID %q", tc.arg, l.Path, l.ID)
			}
		})
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("LoadArg created the missing store %s", missing)
	}
	if m, _ := filepath.Glob(db + "-*"); len(m) != 0 {
		t.Errorf("LoadArg wrote next to the store: %v", m)
	}
}

func TestResolveID(t *testing.T) {
	ctx := context.Background()
	st, _ := openTemp(t)
	for _, id := range []string{"aaaa0001", "aaaa0002"} {
		if _, _, err := st.Put(ctx, mustJSON(t, testResult(id, "X", "Y", "6.1", 1, t0))); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		ref, want string
		kind      error
	}{
		{"AAAA0001", "aaaa0001", nil},
		{"aaaa", "", ErrAmbiguous},
		{"bbbb", "", ErrNotFound},
		{"x/y", "", ErrNotFound},
	} {
		got, err := ResolveID(ctx, st, tc.ref)
		if got != tc.want || (tc.kind == nil) != (err == nil) || (tc.kind != nil && (!errors.Is(err, tc.kind) || !errors.Is(err, ErrBadArg))) {
			t.Errorf("ResolveID(%q) = %q, %v; want %q, %v", tc.ref, got, err, tc.want, tc.kind)
		}
	}
}
