package proc

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"boardbench/internal/host"
)

// TestChildrenDoNotInheritSecrets: boardbench's own secret variables (the
// store's URL may hold a password) never reach a child; PGPASSWORD, the
// user's own, reaches the user's command (it may be psql or pgbench) but
// no benchmark tool; the short commands of host.Run get neither.
func TestChildrenDoNotInheritSecrets(t *testing.T) {
	t.Setenv("BOARDBENCH_STORE", "postgres://u:s3cretStore@db/b")
	t.Setenv("BOARDBENCH_TEST_POSTGRES", "postgres://u:s3cretTest@db/b")
	t.Setenv("PGPASSWORD", "s3cretPG")
	t.Setenv("BOARDBENCH_HARMLESS", "kept")
	tests := []struct {
		name      string
		spec      Spec
		want      []string
		wantNot   []string
		extraWant string
	}{
		{name: "benchmark tool", spec: Spec{Argv: []string{"env"}},
			want: []string{"BOARDBENCH_HARMLESS=kept"}, wantNot: []string{"s3cretStore", "s3cretTest", "s3cretPG"}},
		{name: "the user's command", spec: Spec{Argv: []string{"env"}, UserCommand: true},
			want: []string{"PGPASSWORD=s3cretPG", "BOARDBENCH_HARMLESS=kept"}, wantNot: []string{"s3cretStore", "s3cretTest"}},
		{name: "explicit environment", spec: Spec{Argv: []string{"env"}, Env: []string{"BOARDBENCH_STORE=x:s3cretStore", "A=b"}},
			want: []string{"A=b"}, wantNot: []string{"s3cretStore"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			tc.spec.Stdout = &out
			h, err := Start(context.Background(), tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := h.Wait(); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("the child's environment lacks %s", w)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(out.String(), w) {
					t.Errorf("the child's environment holds %s", w)
				}
			}
		})
	}
	hst, err := host.New("/")
	if err != nil {
		t.Fatal(err)
	}
	out, err := hst.Run(context.Background(), "env")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"s3cretStore", "s3cretTest", "s3cretPG"} {
		if strings.Contains(string(out), w) {
			t.Errorf("host.Run's child environment holds %s", w)
		}
	}
}
