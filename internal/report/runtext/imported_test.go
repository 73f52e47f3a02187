package runtext

import (
	"bytes"
	"regexp"
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

// TestImportedNotRecorded renders every imported log: what a log does not
// record (when a benchmark ran and for how long, the userland, a
// validation section) is said to be not recorded, never shown as a
// made-up value (0.0 s, "did not end", "no problem seen").
func TestImportedNotRecorded(t *testing.T) {
	never := []string{
		"did not end", "no readable executable", "os-release not readable",
		"none: no throttling, swapping", // a local run's wording
		"cpu-1",                         // the importer's number for a CPU the log does not name
	}
	reZeroRun := regexp.MustCompile(`\s0\.0 s(\s|$)`)
	var noValidation, validated int
	for _, lg := range shareddata.Logs(t) {
		l, err := sbcimport.Parse([]byte(lg.Text))
		if err != nil {
			continue // not a log: the importer's tests cover it
		}
		r := l.Result(lg.Name)
		var b bytes.Buffer
		Render(&b, r, false)
		out := b.String()
		for _, s := range never {
			if strings.Contains(out, s) {
				t.Errorf("%s: report says %q", lg.Name, s)
			}
		}
		if m := reZeroRun.FindString(out); m != "" {
			t.Errorf("%s: report shows a duration of 0.0 s", lg.Name)
		}
		if !strings.Contains(out, "duration: n/a (not recorded)") {
			t.Errorf("%s: phase durations not said to be unrecorded", lg.Name)
		}
		// the phases, not the reference set's placement of the figures
		_, phases, _ := strings.Cut(out, "Validation findings")
		if strings.Contains(phases, "7-Zip ") && strings.Contains(phases, "MIPS") && !strings.Contains(phases, "not recorded\n") &&
			!strings.Contains(phases, "not recorded ") {
			t.Errorf("%s: 7-Zip run durations not said to be unrecorded", lg.Name)
		}
		switch {
		case !l.HasValidation:
			noValidation++
			if !strings.Contains(out, "imported_no_validation: The imported log has no validation section") {
				t.Errorf("%s: findings do not say the log has no validation section", lg.Name)
			}
		case len(r.Findings) == 0:
			validated++
			if !strings.Contains(out, "none: neither the log's own validation nor boardbench's rules on its evidence find a problem") {
				t.Errorf("%s: findings do not say the log's validation reported no problem", lg.Name)
			}
		}
		for _, p := range r.Phases {
			if !p.TimingNotRecorded {
				t.Errorf("%s: phase %s has timing_not_recorded unset", lg.Name, p.Name)
			}
		}
		if t.Failed() {
			t.Log(out)
			return
		}
	}
	if noValidation == 0 || validated == 0 {
		t.Errorf("logs without a validation section: %d, validated without problem: %d; want both", noValidation, validated)
	}
}

// TestImportedUnknownCPU: figures of CPUs a log does not name are shown as
// "unknown CPU" with the core the log names, one row each unless the same
// core lines them up, never merged into one made-up CPU; the cpuminer
// rate has a line of its own.
func TestImportedUnknownCPU(t *testing.T) {
	l, err := sbcimport.Parse([]byte(shareddata.ReadLog(t, "1BsF.txt"))) // ODROID-N2, sbc-bench 0.6.2
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	Render(&b, l.Result("1BsF.txt"), false)
	out := b.String()
	for _, want := range []string{
		"cpuminer:          11.39 kH/s",
		`unknown CPU +- +- +1187 MIPS +- +- +-\n`, // the two single-threaded runs: a row each
		`unknown CPU +- +- +1669 MIPS +- +- +-\n`,
		`unknown CPU +little core +- +- +- +1929 MB/s +6833 MB/s\n`,
		`unknown CPU +big core +- +- +- +4118 MB/s +8606 MB/s\n`,
		`bandwidth on unknown CPU \(little core\)`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("report lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(out)
	}
}
