// Package refbuild builds boardbench's reference set (package reference)
// from directories of sbc-bench result logs: each log is read by the
// importer (internal/sbcimport) and reduced to what a comparison needs.
// A lab rebuilds the set from its own logs with
// `go run ./internal/reference/gen -o FILE DIR...`
// (scripts/build-reference.sh).
package refbuild

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"boardbench/internal/reference"
	"boardbench/internal/regfile"
	"boardbench/internal/sbcimport"
)

// Source is the Set.Source of a set built from sbc-bench logs.
const Source = "sbc-bench result logs"

// Build reads every regular file directly in the directories, in name
// order per directory, and returns the set of the logs that have a
// headline figure and name an SoC or a core configuration. A file that
// is not a log is skipped; a directory that cannot be read is an error.
func Build(dirs ...string) (*reference.Set, error) {
	s := &reference.Set{Version: reference.FormatVersion, Source: Source, Entries: []reference.Entry{}}
	for _, dir := range dirs {
		ents, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		names := make([]string, 0, len(ents))
		for _, e := range ents {
			if e.Type().IsRegular() {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
		for _, n := range names {
			data, err := regfile.Read(filepath.Join(dir, n), sbcimport.MaxLogBytes, regfile.NoFollow)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", filepath.Join(dir, n), err)
			}
			s.Files++
			if e, ok := FromLog(strings.TrimSuffix(n, ".txt"), data); ok {
				s.Entries = append(s.Entries, e)
			}
		}
	}
	return s, nil
}

// reDMC matches a memory devfreq device's state as the logs print it
// ("dmc: performance / 2112 MHz (...)").
var reDMC = regexp.MustCompile(`^\s*(?:\*\s*)?([\w.:-]*(?:dmc|ddr|dram)[\w.:-]*): (\S+) / (\d+) MHz`)

// FromLog reduces one log to a reference entry; false when it is not a
// log or has nothing to compare.
func FromLog(id string, data []byte) (reference.Entry, bool) {
	l, err := sbcimport.Parse(data)
	if err != nil {
		return reference.Entry{}, false
	}
	r := l.Result(id + ".txt")
	e := reference.Entry{Log: id, SoC: strings.TrimSpace(r.Info.SoC.Guess), Cores: reference.CoresOf(r.Info),
		Figures: reference.FiguresOf(r.Summary)}
	if len(e.Figures) == 0 || e.SoC == "" && e.Cores == "" {
		return reference.Entry{}, false
	}
	for _, v := range r.Summary.ClockMHz {
		e.ClockMHz = append(e.ClockMHz, math.Round(v.Value))
	}
	for _, t := range r.Tools {
		if t.Name == "7zip" {
			e.SevenZip = t.Version
		}
	}
	e.Bits = reference.BitsOf(l.Userland)
	e.Kernel = l.KernelRelease
	e.KernelKind = reference.KernelKind(e.Kernel)
	var govs []string
	seen := map[string]bool{}
	for _, c := range r.Info.CPU.Clusters {
		if g := strings.TrimSpace(c.Governor); g != "" && !seen[g] {
			seen[g] = true
			govs = append(govs, g)
		}
	}
	e.Governor = strings.Join(govs, ",")
	// The last state printed is the one the benchmarks ran under (the
	// tuned settings and the validation come after the original ones).
	for _, line := range strings.Split(l.Text, "\n") {
		if m := reDMC.FindStringSubmatch(line); m != nil {
			if v, err := strconv.ParseFloat(m[3], 64); err == nil && v > 0 {
				e.DMCGovernor, e.DMCMHz = m[2], &v
			}
		}
	}
	if l.HasValidation {
		clean := true
		for _, v := range l.Validation {
			if sbcimport.IsValidationWarning(v) {
				clean = false
			}
			if d := disturbance(v); d != "" && !contains(e.Disturbed, d) {
				e.Disturbed = append(e.Disturbed, d)
			}
		}
		e.Clean = &clean
	}
	return e, true
}

// disturbance names what a validation line says disturbed the run: the
// log's own judgement that its figures are not those of an idle machine
// at full clock.
func disturbance(line string) string {
	l := strings.ToLower(line)
	switch {
	case sbcimport.IsThrottlingLine(line) || strings.HasPrefix(l, "throttling might have"):
		return "throttling"
	case strings.Contains(l, "too much") && strings.Contains(l, "background activity"):
		return "background activity"
	case strings.HasPrefix(l, "swapping") && (strings.Contains(l, "occured") || strings.Contains(l, "occurred")):
		return "swapping"
	}
	return ""
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
