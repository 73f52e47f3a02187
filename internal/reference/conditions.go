package reference

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/inventory"
	"boardbench/internal/kernelinfo"
	"boardbench/internal/result"
)

// Figure is one headline figure the set holds.
type Figure struct {
	// Key names it in Entry.Figures and in JSON; Label in text; Unit is
	// its unit.
	Key, Label, Unit string
	// SevenZip is set for the 7-Zip figures, whose populations are split
	// by 7-Zip version; CPUBound for those that scale with the CPU clock;
	// Memory for the memory bandwidth figures.
	SevenZip, CPUBound, Memory bool
}

// The keys of the headline figures.
const (
	KeyClock   = "clock_mhz"
	KeyMulti   = "sevenzip_multi_mips"
	KeySingle  = "sevenzip_single_mips"
	KeyAES     = "aes256_16k_kb_s"
	KeyMemcpy  = "memcpy_mb_s"
	KeyMemset  = "memset_mb_s"
	labelClock = "clock"
)

// Figures returns the headline figures in report order. Per-core figures
// (clock, 7-Zip single, AES, memcpy, memset) are those of the fastest core
// type: the highest value the result has.
func Figures() []Figure {
	return []Figure{
		{Key: KeyClock, Label: labelClock, Unit: "MHz"},
		{Key: KeyMulti, Label: "7-zip multi", Unit: "MIPS", SevenZip: true, CPUBound: true},
		{Key: KeySingle, Label: "7-zip single", Unit: "MIPS", SevenZip: true, CPUBound: true},
		{Key: KeyAES, Label: "AES-256 16 KiB", Unit: "kB/s", CPUBound: true},
		{Key: KeyMemcpy, Label: "memcpy", Unit: "MB/s", Memory: true},
		{Key: KeyMemset, Label: "memset", Unit: "MB/s", Memory: true},
	}
}

// Conditions are what a result ran under, as far as comparisons need.
type Conditions struct {
	SoC, Cores string
	// SevenZip is the 7-Zip version, "" when unknown.
	SevenZip string
	// Bits is the userland bitness, 0 when unknown; Userland its name.
	Bits     int
	Userland string
	// Kernel, KernelKind: see Entry.
	Kernel, KernelKind string
	// Governor is the cpufreq governor(s) during the run, joined by ",".
	Governor string
	// DMCGovernor and DMCMHz: the memory controller during the run; "" and
	// nil when not known.
	DMCGovernor string
	DMCMHz      *float64
}

// FiguresOf returns a result's headline figures by key (see Figures),
// rounded as the reference file keeps them.
func FiguresOf(s result.Summary) map[string]float64 {
	out := map[string]float64{}
	put := func(k string, v float64) {
		if !math.IsNaN(v) && !math.IsInf(v, 0) && v > 0 {
			out[k] = roundFigure(k, v)
		}
	}
	put(KeyClock, highest(s.ClockMHz))
	if m := s.SevenZipMultiHeadline(); m != nil {
		put(KeyMulti, *m)
	}
	put(KeySingle, highest(s.SevenZipSingleMIPS))
	put(KeyAES, highest(s.AES256At16K))
	put(KeyMemcpy, highest(s.MemcpyMBs))
	put(KeyMemset, highest(s.MemsetMBs))
	return out
}

func roundFigure(k string, v float64) float64 {
	if k == KeyMemcpy || k == KeyMemset {
		return math.Round(v*10) / 10
	}
	return math.Round(v)
}

// highest returns the highest value, 0 for none.
func highest(vs []result.Value) float64 {
	best := 0.0
	for _, v := range vs {
		best = max(best, v.Value)
	}
	return best
}

// CoresOf returns the core configuration of a machine: the count of each
// core type, by name ("4×Cortex-A55 + 4×Cortex-A76"); "" when a cluster's
// core type is not named.
func CoresOf(in *inventory.Info) string {
	if in == nil || len(in.CPU.Clusters) == 0 {
		return ""
	}
	count := map[string]int{}
	for _, c := range in.CPU.Clusters {
		n := strings.TrimSpace(c.CoreName)
		if n == "" || n == "-" || n == "unknown" || len(c.CPUs) == 0 {
			return ""
		}
		count[n] += len(c.CPUs)
	}
	names := make([]string, 0, len(count))
	for n := range count {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%d×%s", count[n], n)
	}
	return strings.Join(parts, " + ")
}

// BitsOf returns the bitness of a userland architecture name ("arm64" 64,
// "armhf" 32); 0 when unknown.
func BitsOf(arch string) int {
	switch strings.ToLower(arch) {
	case "arm64", "aarch64", "amd64", "x86_64", "riscv64", "loongarch64", "loong64", "ppc64el", "ppc64le", "s390x", "mips64el":
		return 64
	case "armhf", "armel", "arm", "armv7l", "armv6l", "i386", "i686", "x32", "mipsel", "riscv32":
		return 32
	}
	return 0
}

// KernelKind judges a kernel release the way `boardbench kernel` does,
// from the release string alone; "" when it cannot tell: a release with
// no suffix is judged mainline by default, which says nothing of a board
// kernel ("5.4.180" on an RK3588 is the vendor's).
func KernelKind(release string) string {
	if release == "" {
		return ""
	}
	k := kernelinfo.Judge(kernelinfo.Input{Release: release, Now: time.Unix(0, 0)})
	if k.Kind == kernelinfo.KindUnknown || k.Kind == kernelinfo.KindMainline && k.Tree == "" {
		return ""
	}
	return k.Kind
}

// ConditionsOf reads a result's conditions: its machine description, its
// tools and, for governors, what its tuning changed for the run.
func ConditionsOf(r *result.Result) Conditions {
	var c Conditions
	for _, t := range r.Tools {
		if isSevenZip(t.Name) && t.Version != "" {
			c.SevenZip = t.Version
			break
		}
	}
	if r.Info != nil {
		c.SoC = r.Info.SoC.Guess
		c.Cores = CoresOf(r.Info)
		c.Userland = r.Info.OS.Userland.Arch
		if b := r.Info.OS.Userland.Bits; b != nil {
			c.Bits = *b
		} else {
			c.Bits = BitsOf(c.Userland)
		}
		c.Kernel = r.Info.OS.Kernel.Release
		c.KernelKind = KernelKind(c.Kernel)
		var govs []string
		for _, cl := range r.Info.CPU.Clusters {
			if g := strings.TrimSpace(cl.Governor); g != "" && !contains(govs, g) {
				govs = append(govs, g)
			}
		}
		c.Governor = strings.Join(govs, ",")
		for _, m := range r.Info.Memory.Controllers {
			c.DMCGovernor, c.DMCMHz = m.Governor, m.CurMHz
			break
		}
	}
	// The tuning switched governors for the run: "policy0 governor
	// schedutil → performance", "devfreq dmc governor dmc_ondemand →
	// performance".
	cpuTuned := false
	for _, ch := range r.Tuning.Changed {
		to, ok := tunedTo(ch)
		if !ok {
			continue
		}
		if strings.HasPrefix(ch, "devfreq ") {
			c.DMCGovernor, c.DMCMHz = to, nil
		} else if strings.HasPrefix(ch, "policy") {
			cpuTuned = true
		}
	}
	if cpuTuned {
		c.Governor = "performance"
	}
	return c
}

// tunedTo returns the governor a tuning line set.
func tunedTo(line string) (string, bool) {
	_, after, ok := strings.Cut(line, " → ")
	if !ok || !strings.Contains(line, " governor ") {
		return "", false
	}
	return strings.TrimSpace(after), true
}

func isSevenZip(name string) bool {
	switch strings.ToLower(name) {
	case "7zip", "7zz", "7z", "7za", "7zr", "7-zip", "sevenzip":
		return true
	}
	return false
}

// SevenZipClass is the population a 7-Zip version belongs to: "16.02"
// (p7zip 16.02, what published logs use), "≥ 21" (7-Zip 21 and later,
// about 1.5× higher on the same board) or the version itself.
func SevenZipClass(v string) string {
	major, _, _ := strings.Cut(v, ".")
	n, err := strconv.Atoi(major)
	switch {
	case v == "":
		return ""
	case err == nil && n >= 21:
		return "≥ 21"
	}
	return v
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
