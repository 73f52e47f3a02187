package kernelfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxConfigBytes bounds the uncompressed kernel config (real ones are
// 100–300 KiB).
const maxConfigBytes = 4 << 20

// ParseConfigGz decompresses a kernel config (at most 4 MiB of it) and
// returns its symbols: CONFIG_X → "y", "m", a number or a quoted string;
// "# CONFIG_X is not set" gives "n". keep, when not nil, chooses the
// symbols returned (a whole config is thousands of symbols). The text is
// read as it is decompressed, never whole.
func ParseConfigGz(b []byte, keep func(sym []byte) bool) (map[string]string, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("not gzip data: %w", err)
	}
	defer zr.Close()
	out, _, err := parseConfig(io.LimitReader(zr, maxConfigBytes), keep)
	if err != nil {
		return nil, fmt.Errorf("corrupt gzip data: %w", err)
	}
	return out, nil
}

// ParseConfig parses the text of a kernel config.
func ParseConfig(data []byte) map[string]string {
	out, _, _ := parseConfig(bytes.NewReader(data), nil)
	return out
}

// parseConfig reads a kernel config's lines from r, keeping the symbols
// keep chooses (all when nil); seen counts every CONFIG_ symbol read.
func parseConfig(r io.Reader, keep func(sym []byte) bool) (out map[string]string, seen int, err error) {
	out = map[string]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4<<10), 1<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		var sym, val []byte
		if rest, ok := bytes.CutPrefix(line, []byte("# ")); ok {
			s, ok := bytes.CutSuffix(rest, []byte(" is not set"))
			if !ok {
				continue
			}
			sym, val = s, []byte("n")
		} else if k, v, ok := bytes.Cut(line, []byte("=")); ok {
			sym, val = k, v
		} else {
			continue
		}
		if !bytes.HasPrefix(sym, []byte("CONFIG_")) {
			continue
		}
		seen++
		if keep != nil && !keep(sym) {
			continue
		}
		out[string(sym)] = string(val)
	}
	return out, seen, sc.Err()
}

// ProcConfigPath is where kernels built with CONFIG_IKCONFIG_PROC expose
// their configuration (gzip-compressed).
const ProcConfigPath = "/proc/config.gz"

// BootConfigPath is where distributions install the configuration of the
// kernel release ("/boot/config-6.1.0-18-arm64"); "" for a release that
// cannot name a file there (empty, or holding a slash or "..").
func BootConfigPath(release string) string {
	if release == "" || strings.ContainsAny(release, "/\x00") || strings.Contains(release, "..") {
		return ""
	}
	return "/boot/config-" + release
}

// ReadKernelConfig reads the running kernel's configuration: /proc/config.gz,
// else /boot/config-RELEASE. It returns the symbols keep chooses (all when
// nil: a whole config is thousands of symbols) and the file they came
// from; the error says why neither could be used (both reasons).
func ReadKernelConfig(r Reader, release string, keep func(sym []byte) bool) (map[string]string, string, error) {
	var why []string
	if b, err := r.ReadFile(ProcConfigPath); err == nil {
		cfg, err := ParseConfigGz(b, keep)
		if err == nil {
			return cfg, ProcConfigPath, nil
		}
		why = append(why, fmt.Sprintf("%s: %v", ProcConfigPath, err))
	} else {
		why = append(why, ProcConfigPath+": not exposed (kernel built without CONFIG_IKCONFIG_PROC)")
	}
	if p := BootConfigPath(release); p != "" {
		if b, err := r.ReadFile(p); err == nil {
			if cfg, seen, _ := parseConfig(bytes.NewReader(b), keep); seen > 0 {
				return cfg, p, nil
			}
			why = append(why, p+": no CONFIG_ symbol in it")
		} else {
			why = append(why, p+": not readable")
		}
	}
	return nil, "", fmt.Errorf("%s", strings.Join(why, "; "))
}

// KernelConfig is one read of the running kernel's configuration
// (ReadKernelConfig's three answers), read once and handed to every part
// of a description that looks at it.
type KernelConfig struct {
	// Symbols are the symbols kept; nil when Err is set.
	Symbols map[string]string
	// Source is the file read: /proc/config.gz or /boot/config-RELEASE.
	Source string
	// Err says why neither file could be used.
	Err error
}

// LoadKernelConfig is ReadKernelConfig with its answers in one value.
func LoadKernelConfig(r Reader, release string, keep func(sym []byte) bool) *KernelConfig {
	cfg, src, err := ReadKernelConfig(r, release, keep)
	return &KernelConfig{Symbols: cfg, Source: src, Err: err}
}

// Preemption models of a kernel build (ConfigFacts.Preempt).
const (
	PreemptNone      = "none"
	PreemptVoluntary = "voluntary"
	PreemptFull      = "full"
	PreemptLazy      = "lazy"
	PreemptRT        = "rt"
)

// Timer tick modes of a kernel build (ConfigFacts.Tick).
const (
	TickPeriodic = "periodic"
	TickIdle     = "idle"
	TickFull     = "full"
)

// ConfigFacts are the build options of a kernel that bear on benchmark
// results and that reviewers read beside them.
type ConfigFacts struct {
	// HZ is CONFIG_HZ, the timer frequency; nil when not set.
	HZ *int
	// Preempt is the preemption model chosen at build time (one of the
	// Preempt* constants), "" when no symbol says.
	Preempt string
	// PreemptDynamic is CONFIG_PREEMPT_DYNAMIC: the model can be changed
	// at boot (preempt=) and at run time; Preempt is then the default.
	PreemptDynamic bool
	// Tick is the timer tick mode (one of the Tick* constants), "" when
	// no symbol says.
	Tick string
}

// ConfigFactsSymbol says whether a kernel config symbol is one that
// ConfigFactsOf reads (a filter for ReadKernelConfig).
func ConfigFactsSymbol(sym []byte) bool {
	for _, p := range []string{"CONFIG_HZ", "CONFIG_PREEMPT", "CONFIG_NO_HZ_"} {
		if bytes.HasPrefix(sym, []byte(p)) {
			return true
		}
	}
	return false
}

// ConfigFactsOf reads ConfigFacts from a kernel config's symbols.
func ConfigFactsOf(cfg map[string]string) ConfigFacts {
	var f ConfigFacts
	if n, err := strconv.Atoi(cfg["CONFIG_HZ"]); err == nil && n > 0 && n <= 100000 {
		f.HZ = &n
	}
	on := func(sym string) bool { return cfg[sym] == "y" }
	switch {
	case on("CONFIG_PREEMPT_RT"):
		f.Preempt = PreemptRT
	case on("CONFIG_PREEMPT_LAZY"):
		f.Preempt = PreemptLazy
	case on("CONFIG_PREEMPT"):
		f.Preempt = PreemptFull
	case on("CONFIG_PREEMPT_VOLUNTARY"):
		f.Preempt = PreemptVoluntary
	case on("CONFIG_PREEMPT_NONE"):
		f.Preempt = PreemptNone
	}
	f.PreemptDynamic = on("CONFIG_PREEMPT_DYNAMIC")
	switch {
	case on("CONFIG_NO_HZ_FULL"):
		f.Tick = TickFull
	case on("CONFIG_NO_HZ_IDLE"):
		f.Tick = TickIdle
	case on("CONFIG_HZ_PERIODIC"):
		f.Tick = TickPeriodic
	}
	return f
}
