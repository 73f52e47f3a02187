package runtext

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"boardbench/internal/result"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestMain(m *testing.M) {
	// Sample lines and start times are printed in local time; the golden
	// files are in UTC.
	time.Local = time.UTC
	os.Exit(m.Run())
}

func TestRenderGolden(t *testing.T) {
	cases := []struct {
		name string
		r    *result.Result
	}{
		{"rk3588-complete", completeRK3588()},
		{"rk3588-interrupted", interruptedRK3588()},
		{"rpi4-invalid", invalidRPi4()},
		{"monitor-command", monitoredCommand()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			Render(&b, c.r, false)
			golden := filepath.Join("testdata", c.name+".golden")
			if *update {
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got := b.String(); got != string(want) {
				t.Errorf("output differs from %s (run with -update after checking):\n%s", golden, firstDiff(got, string(want)))
			}
		})
	}
}

// firstDiff shows the first differing line of two texts.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + ":\n got: " + gl + "\nwant: " + wl
		}
	}
	return "(no line differs)"
}
