package sbcimport

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"boardbench/internal/inventory/soc"
	"boardbench/internal/report/mdrow"
	"boardbench/internal/result"
	"boardbench/internal/store"
	"boardbench/internal/testutil/shareddata"
)

// logsWithSoC is how many reference logs get a SoC (docs/import.md cites
// it): 117 from their "SoC guess" line, the rest from a device-tree
// compatible string, a cpuinfo Hardware line, an x86 or LoongArch model
// name or the firmware's processor name.
const logsWithSoC = 164

var (
	reTestSoCGuess  = regexp.MustCompile(`(?m)^SoC guess: *(.*?)\s*$`)
	reTestHexID     = regexp.MustCompile(`^\((SID:|[0-9a-fA-F]{8}\b)`)
	reTestAmlRev    = regexp.MustCompile(`^(Revision|Rev[A-Z])$`)
	reTestTopoCore  = regexp.MustCompile(`(?m)^\s*\d+\s+-?\d+\s+(?:\d+|-)\s+(?:\d+|-)\s+(?:\d+|-)\s+[A-Za-z]`)
	reTestDpkgArch  = regexp.MustCompile(`(?m)^Architecture:\t([a-z0-9]+)$`)
	reTestOriginal  = regexp.MustCompile(`(?s)Original governor settings:\n\n(.*?)\n\n`)
	reTestPolicyGov = regexp.MustCompile(`(?m)^\s+cpufreq-policy(\d+): (\S+) /`)
)

// guessLineSoC derives the SoC a "SoC guess" line names token by token,
// independently of CleanSoCGuess: the words up to the caveat after " / ",
// an "or URL", a chip id in parentheses or an Amlogic revision.
func guessLineSoC(raw string) string {
	if strings.HasPrefix(raw, "Not able to guess") {
		return ""
	}
	if i := strings.Index(raw, " / guess"); i >= 0 {
		raw = raw[:i]
	}
	var kept []string
	words := strings.Fields(raw)
	for k, w := range words {
		if reTestHexID.MatchString(w) || reTestAmlRev.MatchString(w) ||
			(w == "or" && k+1 < len(words) && strings.HasPrefix(words[k+1], "http")) {
			break
		}
		kept = append(kept, w)
	}
	return strings.Join(kept, " ")
}

// TestSoCOfEveryLog checks the SoC of every reference log: where the log
// has a "SoC guess" line, the SoC is what that line names (found by a
// regexp of the test's own), and the store indexes it; the number of logs
// with a SoC is the one the documentation gives.
func TestSoCOfEveryLog(t *testing.T) {
	results := importAll(t)
	withSoC, fromGuess := 0, 0
	for _, lg := range shareddata.Logs(t) {
		r, ok := results[lg.Name]
		if !ok {
			continue
		}
		s := r.Info.SoC
		if rec := store.RecordOf(r); rec.SoC != s.Guess {
			t.Errorf("%s: store indexes SoC %q, result has %q", lg.Name, rec.SoC, s.Guess)
		}
		if s.Guess != "" {
			withSoC++
			if s.Reason == "" || s.Confidence == "" || s.Confidence == soc.ConfidenceNone {
				t.Errorf("%s: SoC %q without its source: %+v", lg.Name, s.Guess, s)
			}
		} else if s.Confidence != soc.ConfidenceNone || s.Reason == "" {
			t.Errorf("%s: no SoC, but confidence %q reason %q", lg.Name, s.Confidence, s.Reason)
		}
		m := reTestSoCGuess.FindStringSubmatch(lg.Text)
		if m == nil {
			continue
		}
		if want := guessLineSoC(m[1]); want != "" {
			fromGuess++
			if s.Guess != want || s.Confidence != ConfidenceLogGuess || !strings.Contains(s.Reason, m[1]) {
				t.Errorf("%s: SoC %q (%s: %s), the log's line %q names %q", lg.Name, s.Guess, s.Confidence, s.Reason, m[1], want)
			}
		} else if s.Confidence == ConfidenceLogGuess {
			t.Errorf("%s: line %q names no SoC, but the SoC %q is taken from it", lg.Name, m[1], s.Guess)
		}
	}
	t.Logf("%d logs with a SoC, %d of them from their SoC guess line", withSoC, fromGuess)
	if withSoC != logsWithSoC {
		t.Errorf("%d logs have a SoC, docs/import.md says %d", withSoC, logsWithSoC)
	}
	if fromGuess < 110 {
		t.Errorf("only %d SoCs from SoC guess lines", fromGuess)
	}
}

func TestCleanSoCGuess(t *testing.T) {
	tests := []struct {
		line, name, caveat string
		ok                 bool
	}{
		{"Rockchip RK3328", "Rockchip RK3328", "", true},
		{"Rockchip RK3588 (35880000)", "Rockchip RK3588", "", true},
		{"Rockchip RK3576 (35760000 / 35 76 22 00 ff 00  01 01 41 33 50 52 34 00)", "Rockchip RK3576", "", true},
		{"Allwinner H6 (SID: 82c00001)", "Allwinner H6", "", true},
		{"Amlogic Meson G12B (S922X) Revision 29:c (40:2)", "Amlogic Meson G12B (S922X)", "", true},
		{"Amlogic Meson8m2 (S812) RevA (1d - 0:74E) detected", "Amlogic Meson8m2 (S812)", "", true},
		{"Allwinner A64 or https://tinyurl.com/yyf3d7fg", "Allwinner A64", "", true},
		{"Qualcomm Snapdragon 8 Gen1 / guess flawed since running in proot", "Qualcomm Snapdragon 8 Gen1", "guess flawed since running in proot", true},
		{"Ampere Altra / Altra Max", "Ampere Altra / Altra Max", "", true},
		{"Rockchip RK3566 or RK3568", "Rockchip RK3566 or RK3568", "", true},
		{"Not able to guess since these CPU cores are offline: 1-2", "", "", false},
		{"  ", "", "", false},
	}
	for _, tt := range tests {
		name, caveat, ok := CleanSoCGuess(tt.line)
		if name != tt.name || caveat != tt.caveat || ok != tt.ok {
			t.Errorf("CleanSoCGuess(%q) = %q, %q, %v; want %q, %q, %v", tt.line, name, caveat, ok, tt.name, tt.caveat, tt.ok)
		}
	}
}

// TestIdentityOfEveryLog checks the rest of the identity against the text:
// no board named by a date, the userland dpkg names where the log has no
// Userland line, the governors of the clusters as the log's original
// settings show them, and core types wherever the log has a topology
// table.
func TestIdentityOfEveryLog(t *testing.T) {
	results := importAll(t)
	for _, lg := range shareddata.Logs(t) {
		r, ok := results[lg.Name]
		if !ok {
			continue
		}
		rec := store.RecordOf(r)
		if strings.HasPrefix(rec.Board, "--") {
			t.Errorf("%s: board %q", lg.Name, rec.Board)
		}
		if m := reTestDpkgArch.FindStringSubmatch(lg.Text); m != nil && !strings.Contains(lg.Text, "Userland: ") && rec.Arch != m[1] {
			t.Errorf("%s: arch %q, the log's Architecture line says %q", lg.Name, rec.Arch, m[1])
		}
		if strings.Contains(lg.Text, "CPU sysfs topology") && reTestTopoCore.MatchString(lg.Text) && rec.CoreTypes == "" {
			t.Errorf("%s: a topology table naming core types, but no core types", lg.Name)
		}
		if m := reTestOriginal.FindStringSubmatch(lg.Text); m != nil {
			want := map[string]string{}
			for _, g := range reTestPolicyGov.FindAllStringSubmatch(m[1], -1) {
				want[g[1]] = g[2]
			}
			for _, cl := range r.Info.CPU.Clusters {
				if cl.Policy == nil {
					continue
				}
				if w := want[strconv.Itoa(*cl.Policy)]; cl.Governor != w {
					t.Errorf("%s: policy %d governor %q, the log says %q", lg.Name, *cl.Policy, cl.Governor, w)
				}
			}
		}
		if r.Info.Board.Compatible == nil {
			t.Errorf("%s: compatible is nil", lg.Name)
		}
	}
}

// TestIdentityCases checks the identity of single logs whose facts were
// read by eye.
func TestIdentityCases(t *testing.T) {
	results := importAll(t)
	tests := []struct {
		file, board, soc, confidence, coreTypes, arch string
	}{
		// no statement of the SoC
		{"1ET3.txt", "SolidRun LX2160A COM express type 7 module", "", soc.ConfidenceNone, "", "arm64"},
		// v0.4: no device on the first line; the Armbian release names the board
		{"1iFa.txt", "Clearfog Pro", "", soc.ConfidenceNone, "", "armv7l"},
		// ODROID-N2: two cpufreq groups, lscpu names one core type only: unknown
		{"1BsF.txt", "Hardkernel ODROID-N2", "", soc.ConfidenceNone, "", "arm64"},
		// one cpufreq group: lscpu's model name holds for all CPUs
		{"1I4j.txt", "jetson-nano", "", soc.ConfidenceNone, "4×Cortex-A57", "arm64"},
		// DT compat only
		{"4fea.txt", "OnePlus 5", "Qualcomm Snapdragon 835 (MSM8998)", soc.ConfidenceDeviceTree, "", "arm64"},
		// DT compat and a cpuinfo Hardware line: the compatible string first
		{"46hs.txt", "PXA1908", "Marvell PXA1908", soc.ConfidenceDeviceTree, "", ""},
		// no cpufreq: the topology table's clusters without clocks
		{"3N5c.txt", "bigboy", "2 x ThunderX CN8890", ConfidenceLogGuess, "96×Cavium ThunderX 88XX", ""},
		// the firmware's processor name
		{"1ET4.txt", "Micro Computer (HK) Tech Limited MS-R1 1.0", "CIX P1 CP8180", ConfidenceFirmwareProcessor, "8×Cortex-A720 + 4×Cortex-A520", "arm64"},
		// x86: the processor is the chip
		{"3Qf7.txt", "", "Intel(R) Celeron(R) N5105 @ 2.00GHz", soc.ConfidenceCPUModel, "", ""},
	}
	for _, tt := range tests {
		r, ok := results[tt.file]
		if !ok {
			t.Errorf("%s: not imported", tt.file)
			continue
		}
		rec := store.RecordOf(r)
		if tt.board != "" && rec.Board != tt.board {
			t.Errorf("%s: board %q, want %q", tt.file, rec.Board, tt.board)
		}
		if rec.SoC != tt.soc || r.Info.SoC.Confidence != tt.confidence {
			t.Errorf("%s: SoC %q (%s), want %q (%s)", tt.file, rec.SoC, r.Info.SoC.Confidence, tt.soc, tt.confidence)
		}
		if tt.coreTypes != "" && rec.CoreTypes != tt.coreTypes {
			t.Errorf("%s: core types %q, want %q", tt.file, rec.CoreTypes, tt.coreTypes)
		}
		if tt.arch != "" && rec.Arch != tt.arch {
			t.Errorf("%s: arch %q, want %q", tt.file, rec.Arch, tt.arch)
		}
	}
}

// TestCurrentRowOfEveryLog checks the rows of every imported log: the
// current-format row (results export --format markdown) has the ten
// columns, and is the log's own row where the log printed one in that
// layout (by the test's own reading of the first line: 0.9.10 and later,
// 0.9.9 from 23 October 2022), its clock in MHz where printed in kHz; the
// rows of 0.9.0 to 0.9.8 have as many cells in the older layout (AES-128
// where 7-zip single stands now) and are derived from the figures instead.
// Row (report --markdown-row) is the log's row as printed.
func TestCurrentRowOfEveryLog(t *testing.T) {
	results := importAll(t)
	current, converted, kHz := 0, 0, 0
	for name, r := range results {
		row := mdrow.CurrentRow(r)
		cells := strings.Split(strings.Trim(row, "| "), " | ")
		if len(cells) != 10 {
			t.Errorf("%s: current row has %d cells: %s", name, len(cells), row)
		}
		printed := result.ImportedOf(r).PrintedRow
		if printed == "" {
			continue
		}
		if got := mdrow.Row(r); got != printed {
			t.Errorf("%s: Row %q, log printed %q", name, got, printed)
		}
		pc := r.Summary.ImportedRow
		switch {
		case len(pc) == 10 && printsCurrentLayout(r.Phases[len(r.Phases)-1].RawOutput):
			current++
			want := printed
			if clock := pc[1]; reKHz.MatchString(clock) {
				kHz++
				want = strings.Replace(printed, clock, mdrow.ClockCellMHz(clock), 1)
				if strings.TrimSpace(row) != strings.Join(strings.Fields(want), " ") {
					t.Errorf("%s: current row %q, want the printed one in MHz %q", name, row, want)
				}
				continue
			}
			if row != want {
				t.Errorf("%s: current row %q, the log printed %q", name, row, printed)
			}
		default:
			converted++
			if want := mdrow.Derive(r).String(); row != want {
				t.Errorf("%s: current row %q, want the derived %q", name, row, want)
			}
			if len(pc) >= 6 && pc[5] != "-" && cells[5] == pc[5] {
				t.Errorf("%s: the older layout's AES-128 cell %q stands as 7-zip single", name, pc[5])
			}
		}
	}
	if current == 0 || converted == 0 || kHz == 0 {
		t.Errorf("%d logs with a current-layout row (%d in kHz), %d with an older one: want all", current, kHz, converted)
	}
	t.Logf("%d current-layout rows (%d with the clock in kHz), %d older ones derived", current, kHz, converted)
}

var (
	reKHz         = regexp.MustCompile(`\d{6,}\S* MHz`)
	reFirstLine99 = regexp.MustCompile(`^sbc-bench v0\.9\.(\d+) .*\((.*)\)\s*$`)
)

// printsCurrentLayout reads a log's first line: 0.9.10 and later print the
// current layout, 0.9.9 from its build of 23 October 2022 on.
func printsCurrentLayout(text string) bool {
	first, _, _ := strings.Cut(text, "\n")
	m := reFirstLine99.FindStringSubmatch(first)
	if m == nil {
		return false
	}
	minor, _ := strconv.Atoi(m[1])
	if minor != 9 {
		return minor > 9
	}
	date, err := time.Parse(time.RFC1123Z, m[2])
	return err == nil && !date.Before(time.Date(2022, 10, 23, 0, 0, 0, 0, time.UTC))
}
