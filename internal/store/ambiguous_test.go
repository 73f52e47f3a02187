package store

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	st, _ := openTemp(t)
	ctx := context.Background()
	for _, id := range []string{"4a11aa", "4b22bb", "5c33cc"} {
		if _, _, err := st.Put(ctx, mustJSON(t, testResult(id, "Board "+id, "SoC", "6.1.0", 1000, t0))); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		in, want  string
		wantErr   error
		errSubstr string
	}{
		{in: "5c33cc", want: "5c33cc"},
		{in: "4a", want: "4a11aa"},
		{in: "4", wantErr: ErrAmbiguous, errSubstr: `"4" is the start of 2 result ids`},
		{in: "9", wantErr: ErrNotFound},
	} {
		got, err := Lookup(ctx, st, tc.in)
		switch {
		case tc.wantErr == nil && (err != nil || got != tc.want):
			t.Errorf("Lookup(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		case tc.wantErr != nil && !errors.Is(err, tc.wantErr):
			t.Errorf("Lookup(%q) error = %v, want %v", tc.in, err, tc.wantErr)
		case tc.wantErr != nil && !IsUnknownID(err):
			t.Errorf("IsUnknownID(%v) = false", err)
		case err != nil && !strings.Contains(err.Error(), tc.errSubstr):
			t.Errorf("Lookup(%q) error = %q, want it to contain %q", tc.in, err, tc.errSubstr)
		}
	}
	if IsUnknownID(errors.New("disk I/O error")) {
		t.Error("a store failure counted as an unknown id")
	}
}
