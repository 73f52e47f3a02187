package results

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
	"boardbench/internal/store"
)

// TestListWidth: `results list` writes one line per result whatever the
// length of the names: on a terminal every line fits its width, long names
// shortened with an ellipsis; on a pipe every name is whole.
func TestListWidth(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	longSoC := "Rockchip RK3588S2 octa-core (4x Cortex-A76 + 4x Cortex-A55) with a Mali-G610 MP4 and a 6 TOPS NPU"
	longBoard := "Xunlong Orange Pi 5 Plus (32 GB LPDDR4X, 2x 2.5GbE, M.2 M-key, eMMC socket) revision 1.2b"
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	const n = 5
	for i := range n {
		r := testResult(fmt.Sprintf("%04d0000000000000000000000000001", i), longBoard, 16000+float64(i), t0.Add(time.Duration(i)*time.Hour))
		r.Info.SoC.Guess = longSoC
		doc, _ := json.Marshal(r)
		if _, _, err := st.Put(context.Background(), doc); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	for _, tc := range []struct {
		name  string
		tty   bool
		width int
	}{
		{"terminal 80", true, 80},
		{"terminal 120", true, 120},
		{"pipe", false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ios, out, _ := iostreams.Test()
			ios.SetTTY(tc.tty, false, false)
			ios.SetWidth(tc.width)
			f := &cmdutil.Factory{IO: ios, Store: cmdutil.StoreOptions{Spec: path}}
			cmd := NewCmd(f)
			cmd.SetArgs([]string{"list"})
			cmd.SilenceErrors, cmd.SilenceUsage = true, true
			if err := cmd.ExecuteContext(context.Background()); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if len(lines) != n+1 {
				t.Fatalf("%d lines for %d results, want one header and one line each:\n%s", len(lines), n, out)
			}
			for _, l := range lines[1:] {
				if !strings.Contains(l, "2025-03-01") || !strings.HasSuffix(l, "1600"+l[len(l)-1:]) {
					t.Errorf("line without its date or 7-Zip figure: %q", l)
				}
				if tc.tty {
					if w := utf8.RuneCountInString(l); w > tc.width {
						t.Errorf("line of %d columns on a %d-column terminal: %q", w, tc.width, l)
					}
					if !strings.Contains(l, "…") {
						t.Errorf("long names not shortened: %q", l)
					}
					continue
				}
				if !strings.Contains(l, longSoC) || !strings.Contains(l, longBoard) {
					t.Errorf("a pipe gets whole names: %q", l)
				}
			}
			if tc.width >= 100 && !strings.Contains(out.String(), "2025-03-01 ") {
				t.Errorf("a wide terminal shows the time of day:\n%s", out)
			}
		})
	}
}
