package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeywordValueStoreRefused: a libpq keyword/value string given as the
// store is refused in one line without its password, and no file named
// after it is created (taken as a path, it became a SQLite file whose name
// held the password).
func TestKeywordValueStoreRefused(t *testing.T) {
	t.Chdir(t.TempDir())
	cases := []struct {
		spec    string
		refused bool
	}{
		{"host=127.0.0.1 port=1 user=bench password=Hunter2kv dbname=b", true},
		{"password='Hunter2 quoted' host=db", true},
		{"DBNAME=b", true},
		{"results.db", false},
		{"dir/a=b.db", false},
		{"notes=1.db", false},
	}
	for _, c := range cases {
		t.Run(c.spec, func(t *testing.T) {
			st, err := Open(context.Background(), c.spec)
			if st != nil {
				st.Close()
			}
			if got := err != nil; got != c.refused {
				t.Fatalf("refused %v (%v), want %v", got, err, c.refused)
			}
			if !c.refused {
				return
			}
			if strings.Contains(err.Error(), "Hunter2") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error shows the password or spans lines: %q", err)
			}
			if _, err := os.Stat(filepath.Join(".", c.spec)); err == nil {
				t.Errorf("created a file named %q", c.spec)
			}
		})
	}
}
