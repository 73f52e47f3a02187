package kernelinfo

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/inventory/osinfo"
)

// ConfigPath is where kernels built with CONFIG_IKCONFIG_PROC expose their
// configuration.
const ConfigPath = "/proc/config.gz"

// maxConfigBytes bounds the uncompressed kernel config (real ones are
// 100–300 KiB).
const maxConfigBytes = 4 << 20

// Collect judges the kernel behind h at time now.
func Collect(h *host.Host, now time.Time) Info {
	u := h.Uname()
	in := Input{Release: u.Release, Build: u.Version, Now: now}
	if pv, err := h.ReadString("/proc/version"); err == nil {
		in.ProcVersion = strings.SplitN(pv, "\n", 2)[0]
		in.Compiler = osinfo.KernelCompiler(in.ProcVersion)
	}
	var configNote string
	if b, err := h.ReadFile(ConfigPath); err == nil {
		// Only the symbols the judgement reads are kept: a whole config is
		// thousands of symbols (about 1 MB of allocations in `info`).
		cfg, err := ParseConfigGz(b, vendorSymbol)
		if err != nil {
			configNote = fmt.Sprintf("%s: %v", ConfigPath, err)
		} else {
			in.Config = cfg
		}
	} else {
		configNote = ConfigPath + ": not exposed (kernel built without CONFIG_IKCONFIG_PROC)"
	}
	info := Judge(in)
	if configNote != "" {
		info.Notes = append(info.Notes, configNote)
	}
	return info
}

// ParseConfigGz decompresses a kernel config (at most 4 MiB of it) and
// returns its symbols: CONFIG_X → "y", "m", a number or a quoted string;
// "# CONFIG_X is not set" gives "n". keep, when not nil, chooses the
// symbols returned. The text is read as it is decompressed, never whole.
func ParseConfigGz(b []byte, keep func(sym []byte) bool) (map[string]string, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("not gzip data: %w", err)
	}
	defer zr.Close()
	out, err := parseConfig(io.LimitReader(zr, maxConfigBytes), keep)
	if err != nil {
		return nil, fmt.Errorf("corrupt gzip data: %w", err)
	}
	return out, nil
}

// ParseConfig parses the text of a kernel config.
func ParseConfig(data []byte) map[string]string {
	out, _ := parseConfig(bytes.NewReader(data), nil)
	return out
}

// parseConfig reads a kernel config's lines from r, keeping the symbols
// keep chooses (all when nil).
func parseConfig(r io.Reader, keep func(sym []byte) bool) (map[string]string, error) {
	out := map[string]string{}
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
		if !bytes.HasPrefix(sym, []byte("CONFIG_")) || (keep != nil && !keep(sym)) {
			continue
		}
		out[string(sym)] = string(val)
	}
	return out, sc.Err()
}

// Summary is the one line `info` shows, e.g. "6.1.63 (Armbian current,
// mainline): longterm series 6.1, maintained until December 2027
// (projected, as of July 2025); build 19 months behind the newest release
// of its series, as of the table's date (2025-07-01)".
func (i Info) Summary() string {
	if i.Series == "" {
		return "unknown kernel"
	}
	kind := i.Kind
	if i.Tree != "" && i.Kind != KindUnknown {
		kind = i.Tree + ", " + i.Kind
	}
	s := fmt.Sprintf("%s (%s): %s", i.Release, kind, i.Status)
	if age := i.Age(); age != "" {
		s += "; build " + age
	}
	if i.FarBehind {
		s += "; a vendor kernel far behind mainline"
	}
	return s
}
