package runtext

import (
	"bytes"
	"strings"
	"testing"

	"boardbench/internal/sbcimport"
	"boardbench/internal/testutil/shareddata"
)

// TestImportedRendering renders imported logs of the oldest and newest
// formats: the report names the log, shows its figures per phase and its
// imported sections, and stays within the report's width.
func TestImportedRendering(t *testing.T) {
	for _, tc := range []struct {
		log  string
		want []string
	}{
		{"1ET4.txt", []string{
			"boardbench import result: Micro Computer (HK) Tech Limited MS-R1 1.0",
			"sbc-bench result log v0.9.72",
			"Phase 1/", "(clock)", "(memory)", "(openssl)", "(7zip-single)", "(7zip-multi)", "(imported-log)",
			"ramlat on cpu2 (Cortex-A520), ns per access:",
			"monitor lines while running 7-zip multi core benchmark:",
			"32932 MIPS", "Cortex-A720 / r0p1",
		}},
		{"1ism.txt", []string{"sbc-bench result log (version not named)", "3229 MIPS", "(7zip-single)"}},
	} {
		t.Run(tc.log, func(t *testing.T) {
			l, err := sbcimport.Parse([]byte(shareddata.ReadLog(t, tc.log)))
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			Render(&b, l.Result(tc.log), false)
			out := b.String()
			for _, s := range tc.want {
				if !strings.Contains(out, s) {
					t.Errorf("report lacks %q", s)
				}
			}
			for i, line := range strings.Split(out, "\n") {
				if n := len([]rune(line)); n > 100 {
					t.Errorf("line %d is %d columns wide: %q", i+1, n, line)
				}
			}
			if t.Failed() {
				t.Log(out)
			}
		})
	}
}
