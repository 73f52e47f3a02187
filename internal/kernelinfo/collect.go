package kernelinfo

import (
	"fmt"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
)

// ConfigPath is where kernels built with CONFIG_IKCONFIG_PROC expose their
// configuration; /boot/config-RELEASE is read when it is absent
// (kernelfile.ReadKernelConfig).
const ConfigPath = kernelfile.ProcConfigPath

// Collect judges the kernel behind h at time now by the built-in table.
func Collect(h *host.Host, now time.Time) Info {
	return CollectWith(h, now, nil)
}

// CollectWith is Collect by the table tbl (nil: the built-in one).
func CollectWith(h *host.Host, now time.Time, tbl *Table) Info {
	return CollectConfig(h, now, tbl, nil)
}

// ConfigSymbol says whether a kernel config symbol is one the judgement
// reads (a filter for kernelfile.LoadKernelConfig).
func ConfigSymbol(sym []byte) bool { return vendorSymbol(sym) }

// CollectConfig is CollectWith with the kernel config already read (kc,
// holding at least the symbols ConfigSymbol chooses); nil: read it here.
func CollectConfig(h *host.Host, now time.Time, tbl *Table, kc *kernelfile.KernelConfig) Info {
	u := h.Uname()
	in := Input{Release: u.Release, Build: u.Version, Now: now, Table: tbl}
	if pv, err := h.ReadString("/proc/version"); err == nil {
		in.ProcVersion = kernelfile.VersionLine(pv)
		in.Compiler = kernelfile.VersionCompiler(in.ProcVersion)
	}
	var configNote string
	// Only the symbols the judgement reads are kept: a whole config is
	// thousands of symbols (about 1 MB of allocations in `info`).
	if kc == nil {
		kc = kernelfile.LoadKernelConfig(h, u.Release, vendorSymbol)
	}
	if kc.Err == nil {
		in.Config = kc.Symbols
	} else {
		configNote = "kernel config: " + kc.Err.Error()
	}
	info := Judge(in)
	if configNote != "" {
		info.Notes = append(info.Notes, configNote)
	}
	return info
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
