// Package reference holds boardbench's reference set: the headline figures
// of published sbc-bench result logs, with the conditions each ran under
// (SoC, core configuration, measured clock, 7-Zip version, userland
// bitness, kernel, cpufreq governor, memory controller state, the log's
// own verdict). It places a result's headline figures among the reference
// results of the same SoC (Place) and explains a figure that falls clearly
// below them from the result's own evidence (see gap.go).
//
// The set is embedded compressed (data/reference.json.gz, built by
// internal/reference/refbuild from directories of logs; see
// scripts/build-reference.sh) and decoded only when a view asks for it:
// nothing happens at package initialisation. docs/reference.md describes
// the set and the rules.
package reference

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// FormatVersion is the version of the reference file's layout.
const FormatVersion = 1

//go:embed data/reference.json.gz
var embedded []byte

// EmbeddedSize is the size in bytes of the compressed set in the binary.
func EmbeddedSize() int { return len(embedded) }

// Entry is one reference result: one published log.
type Entry struct {
	// Log is the log's id at its source (the file name without .txt).
	Log string `json:"log"`
	// SoC is the SoC the log names ("Rockchip RK3588/RK3588s"); "" when
	// it names none.
	SoC string `json:"soc,omitempty"`
	// Cores is the core configuration ("4×Cortex-A55 + 4×Cortex-A76");
	// "" when a core type is not named.
	Cores string `json:"cores,omitempty"`
	// ClockMHz is the measured clock of each cluster, MHz.
	ClockMHz []float64 `json:"clock_mhz,omitempty"`
	// Figures are the headline figures by key (see Figures); absent when
	// the log has none.
	Figures map[string]float64 `json:"figures"`
	// SevenZip is the 7-Zip version ("16.02"), "" when unknown.
	SevenZip string `json:"sevenzip,omitempty"`
	// Bits is the userland's bitness, 32 or 64; 0 when the log does not say.
	Bits int `json:"bits,omitempty"`
	// Kernel is the kernel release, KernelKind boardbench's judgement of
	// it ("vendor", "mainline", "distribution", "raspberry-pi", "unknown").
	Kernel     string `json:"kernel,omitempty"`
	KernelKind string `json:"kernel_kind,omitempty"`
	// Governor is the cpufreq governor(s) the log names, joined by ",".
	Governor string `json:"governor,omitempty"`
	// DMCGovernor and DMCMHz are the memory controller's devfreq governor
	// and clock where the log shows them.
	DMCGovernor string   `json:"dmc_governor,omitempty"`
	DMCMHz      *float64 `json:"dmc_mhz,omitempty"`
	// Clean is the log's own verdict: true when its validation reported
	// no problem, false when it did, nil when the log has no validation.
	Clean *bool `json:"clean"`
	// Disturbed lists what the log's validation says disturbed the run
	// ("throttling", "background activity", "swapping"); such entries are
	// left out of every comparison.
	Disturbed []string `json:"disturbed,omitempty"`
}

// Set is the reference set.
type Set struct {
	Version int `json:"version"`
	// Source says where the entries come from.
	Source string `json:"source"`
	// Files is the number of files read; Entries those kept.
	Files   int     `json:"files"`
	Entries []Entry `json:"entries"`
}

// Embedded decodes the reference set shipped with boardbench. Each call
// decodes it anew (a few milliseconds); callers keep the set they need.
func Embedded() (*Set, error) { return Decode(bytes.NewReader(embedded)) }

// Decode reads a gzip-compressed reference file.
func Decode(r io.Reader) (*Set, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("reference set: %v", err)
	}
	var s Set
	if err := json.NewDecoder(io.LimitReader(zr, 64<<20)).Decode(&s); err != nil {
		return nil, fmt.Errorf("reference set: %v", err)
	}
	if s.Version != FormatVersion {
		return nil, fmt.Errorf("reference set: version %d, want %d", s.Version, FormatVersion)
	}
	return &s, nil
}

// Encode writes s as a gzip-compressed file whose bytes depend only on s
// (no time stamp or name in the gzip header), so that a rebuild from the
// same logs gives the same file.
func (s *Set) Encode(w io.Writer) error {
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(append(data, '\n')); err != nil {
		return err
	}
	return zw.Close()
}

// Usable reports whether an entry takes part in comparisons: its own log
// did not judge it disturbed.
func (e Entry) Usable() bool { return len(e.Disturbed) == 0 }

// noise are tokens of SoC names that name no model.
func noise(t string) bool {
	switch t {
	case "i3", "i5", "i7", "i9", "x5", "x7":
		return true
	}
	return false
}

// SoCKey is the key SoCs are grouped and matched by: the SoC name's first
// model token with at least three digits ("rk3588", "s922x", "jh7110",
// "n100"; a stepping code dropped: "bcm2711b0" is "bcm2711"), else its
// first token with letters and a digit ("h3", "a64", "k1"), lower case;
// "" for an empty or unmodelled name. Tokens are the runs of letters and
// digits; what follows "@" (a clock) is ignored. The Raspberry Pi
// kernel's names of Broadcom chips are their chip names (see alias).
// Two names with the same key are the same SoC for comparisons
// (docs/reference.md).
func SoCKey(soc string) string {
	return alias(socKey(soc))
}

// alias maps the names the Raspberry Pi kernel gives Broadcom SoCs (the
// cpuinfo Hardware line and logs of Raspberry Pis say "BCM2709",
// "BCM2710") to the chip each is: the same silicon, so the same key as
// the device tree's name ("brcm,bcm2837").
func alias(k string) string {
	switch k {
	case "bcm2708":
		return "bcm2835"
	case "bcm2709":
		return "bcm2836"
	case "bcm2710":
		return "bcm2837"
	}
	return k
}

func socKey(soc string) string {
	s := strings.ToLower(soc)
	if i := strings.IndexByte(s, '@'); i >= 0 {
		s = s[:i] // "@ 1.50GHz"
	}
	tokens := strings.FieldsFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
	var weak string
	for _, t := range tokens {
		digits, letters := 0, 0
		for _, c := range t {
			if c >= '0' && c <= '9' {
				digits++
			} else {
				letters++
			}
		}
		if digits == 0 || letters == 0 || noise(t) {
			continue
		}
		if digits >= 3 {
			return dropStepping(t)
		}
		if weak == "" {
			weak = t
		}
	}
	return weak
}

// dropStepping removes a stepping code ("b0") after a four-digit model
// number: "bcm2711b0" is "bcm2711".
func dropStepping(t string) string {
	n := len(t)
	if n < 6 || t[n-1] < '0' || t[n-1] > '9' || t[n-2] < 'a' || t[n-2] > 'c' {
		return t
	}
	for _, c := range t[n-6 : n-2] {
		if c < '0' || c > '9' {
			return t
		}
	}
	return t[:n-2]
}

// Group is the reference results of one SoC.
type Group struct {
	// Key is SoCKey of the SoC; Label the name most of its logs use.
	Key, Label string
	Entries    []Entry
}

// Groups returns the entries grouped by SoC (entries without an SoC are
// left out), sorted by label.
func (s *Set) Groups() []Group {
	byKey := map[string]*Group{}
	labels := map[string]map[string]int{}
	for _, e := range s.Entries {
		k := SoCKey(e.SoC)
		if k == "" {
			continue
		}
		g := byKey[k]
		if g == nil {
			g = &Group{Key: k}
			byKey[k] = g
			labels[k] = map[string]int{}
		}
		g.Entries = append(g.Entries, e)
		labels[k][e.SoC]++
	}
	out := make([]Group, 0, len(byKey))
	for k, g := range byKey {
		g.Label = mostCommon(labels[k])
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool {
		if li, lj := strings.ToLower(out[i].Label), strings.ToLower(out[j].Label); li != lj {
			return li < lj
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// Group returns the group of an SoC name (or key); false when the set
// holds no result of it, and for an empty name (the entries whose SoC name
// has no model key are of many SoCs, not a group).
func (s *Set) Group(soc string) (Group, bool) {
	k := SoCKey(soc)
	if k == "" {
		k = strings.ToLower(strings.TrimSpace(soc))
	}
	if k == "" {
		return Group{}, false
	}
	g := Group{Key: k}
	labels := map[string]int{}
	for _, e := range s.Entries {
		if e.SoC != "" && SoCKey(e.SoC) == k {
			g.Entries = append(g.Entries, e)
			labels[e.SoC]++
		}
	}
	g.Label = mostCommon(labels)
	return g, len(g.Entries) > 0
}

// ByCores returns the entries of a core configuration. Core names are
// compared by CoresKey, so that a machine's "4×SiFive U74-MC" meets a
// log's "4×sifive,u74-mc" (its device tree's spelling).
func (s *Set) ByCores(cores string) []Entry {
	var out []Entry
	k := CoresKey(cores)
	if k == "" {
		return nil
	}
	for _, e := range s.Entries {
		if CoresKey(e.Cores) == k {
			out = append(out, e)
		}
	}
	return out
}

// CoresKey is the key core configurations are matched by: lower case,
// with only letters, digits, "×" and "+" kept ("4×SiFive U74-MC" and
// "4×sifive,u74-mc" are both "4×sifiveu74mc").
func CoresKey(cores string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(cores) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '×' || r == '+' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mostCommon returns the most frequent name, the shortest and then the
// first in order on ties.
func mostCommon(m map[string]int) string {
	best, n := "", -1
	for s, c := range m {
		if c > n || c == n && (len(s) < len(best) || len(s) == len(best) && s < best) {
			best, n = s, c
		}
	}
	return best
}
