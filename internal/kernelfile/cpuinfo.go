package kernelfile

import (
	"strconv"
	"strings"
)

// MaxCPUID is the highest logical CPU number the parsers accept, so that a
// corrupt number cannot make a caller allocate without limit. Linux supports
// at most 8192 CPUs (NR_CPUS) today.
const MaxCPUID = 65535

// CPUNumber parses a logical CPU number as the kernel prints it ("12"):
// decimal, from 0 to MaxCPUID.
func CPUNumber(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > MaxCPUID {
		return 0, false
	}
	return n, true
}

// CPUInfo is /proc/cpuinfo split into one record per logical CPU plus the
// lines that belong to no CPU. It is produced by ParseCPUInfo.
type CPUInfo struct {
	// Entries holds one record per CPU, in the order of the file.
	Entries []CPUInfoEntry
	// Global holds the lines outside any CPU record: lines before the first
	// "processor" line (e.g. "Processor : ARMv7 Processor rev 2 (v7l)" on
	// old ARM kernels), and blocks after a blank line that carry no
	// "processor" line (e.g. "Hardware", "Revision", and the single MIDR
	// block old ARM kernels print once for all CPUs). The first value of a
	// key wins.
	Global map[string]string
	// First maps every key to its first value anywhere in the file, inside
	// a CPU record or not (a repeated record included), for the
	// machine-wide lines a kernel may print inside or after the records.
	First map[string]string
	// Synthesized is true when the file had no "processor" (or "hart")
	// lines and the single CPU in Entries was derived from Global, as
	// single-core ARM kernels print.
	Synthesized bool
	// SharedBlock is true when the MIDR and feature lines were printed once
	// for all CPUs (old ARM kernels). They then describe the CPU that read
	// the file; other core types of a big.LITTLE SoC are not visible.
	SharedBlock bool
	// Duplicates counts records dropped because their CPU number was
	// already seen.
	Duplicates int
}

// CPUInfoEntry is the record of one logical CPU in /proc/cpuinfo.
type CPUInfoEntry struct {
	// ID is the logical CPU number from the "processor" line; in files that
	// only have "hart" lines it is the record's position.
	ID int
	// Fields maps each key (as written, surrounding white space removed) to
	// its value. The first value of a key wins.
	Fields map[string]string
}

// Get returns the value of key for this CPU, falling back to the file's
// global lines (old ARM kernels print the MIDR fields once for all CPUs).
// A nil e reads the global lines alone.
func (f *CPUInfo) Get(e *CPUInfoEntry, key string) string {
	if e != nil {
		if v, ok := e.Fields[key]; ok {
			return v
		}
	}
	return f.Global[key]
}

// cpuKeys are keys that show a block describes a processor; a file without
// "processor" lines but with one of these describes a single CPU.
var cpuKeys = []string{
	"CPU implementer", "CPU part", "Processor", "Processor name", "model name",
	"cpu model", "isa", "uarch", "BogoMIPS", "bogomips", "Features", "flags",
	"vendor_id",
}

// ParseCPUInfo splits the content of /proc/cpuinfo into CPU records. It
// accepts every format Linux has printed on ARM, RISC-V, x86, MIPS and
// LoongArch, including a file with a single "Processor" line and no
// "processor" lines, and tolerates surrounding junk (text pasted around a
// dump, binary data). It never fails; a file without anything that looks
// like a CPU yields no entries.
func ParseCPUInfo(data []byte) CPUInfo {
	f := CPUInfo{Global: map[string]string{}, First: map[string]string{}}
	lines := strings.Split(string(data), "\n")

	// A file with "processor : N" lines numbers CPUs by them; otherwise
	// "hart : N" lines (early RISC-V kernels) start records.
	hasProcessor := false
	for _, line := range lines {
		if k, v, ok := splitCPUInfoLine(line); ok && isProcessorKey(k) {
			if _, ok := CPUNumber(v); ok {
				hasProcessor = true
				break
			}
		}
	}

	seen := map[int]bool{}
	var cur map[string]string // fields of the current record, nil outside one
	discard := false          // inside a duplicate record
	for _, line := range lines {
		k, v, ok := splitCPUInfoLine(line)
		if !ok {
			if strings.TrimSpace(line) == "" {
				// A blank line ends a record; what follows belongs to no
				// CPU until the next processor line.
				cur, discard = nil, false
			}
			continue
		}
		setFirst(f.First, k, v)
		if starts, id := startsRecord(k, v, hasProcessor, len(f.Entries)+f.Duplicates); starts {
			if seen[id] {
				f.Duplicates++
				cur, discard = nil, true
				continue
			}
			seen[id] = true
			cur, discard = map[string]string{}, false
			f.Entries = append(f.Entries, CPUInfoEntry{ID: id, Fields: cur})
			if !hasProcessor {
				cur[k] = v
			}
			continue
		}
		switch {
		case discard:
		case cur != nil:
			setFirst(cur, k, v)
		default:
			setFirst(f.Global, k, v)
		}
	}
	f.hoistSharedBlock()
	if len(f.Entries) == 0 && f.describesOneCPU() {
		f.Entries = []CPUInfoEntry{{ID: 0, Fields: map[string]string{}}}
		f.Synthesized = true
	}
	return f
}

// describesOneCPU reports whether the global lines of a file without CPU
// records describe a processor (a numeric "Processor" line does not).
func (f *CPUInfo) describesOneCPU() bool {
	for _, k := range cpuKeys {
		v, ok := f.Global[k]
		if !ok {
			continue
		}
		if k == "Processor" {
			if _, numeric := CPUNumber(v); numeric {
				continue
			}
		}
		return true
	}
	return false
}

// setFirst stores v under k unless k already has a value.
func setFirst(m map[string]string, k, v string) {
	if _, dup := m[k]; !dup {
		m[k] = v
	}
}

// hoistSharedBlock handles the format of some old arm64 kernels, which list
// "processor : N" lines back to back and then one block of fields without a
// blank line in between: that block belongs to all CPUs, not the last one.
// It also marks files whose CPU records carry no MIDR while the global lines
// do (old 32-bit ARM kernels).
func (f *CPUInfo) hoistSharedBlock() {
	n := len(f.Entries)
	if n < 2 {
		return
	}
	allButLastEmpty := true
	for _, e := range f.Entries[:n-1] {
		if len(e.Fields) > 0 {
			allButLastEmpty = false
			break
		}
	}
	if last := f.Entries[n-1].Fields; allButLastEmpty && len(last) > 0 {
		for k, v := range last {
			setFirst(f.Global, k, v)
		}
		f.Entries[n-1].Fields = map[string]string{}
	}
	if _, ok := f.Global["CPU part"]; ok {
		for _, e := range f.Entries {
			if _, own := e.Fields["CPU part"]; !own {
				f.SharedBlock = true
				break
			}
		}
	}
}

// startsRecord reports whether a line opens a new CPU record and its id.
func startsRecord(k, v string, hasProcessor bool, next int) (bool, int) {
	if hasProcessor {
		if isProcessorKey(k) {
			if id, ok := CPUNumber(v); ok {
				return true, id
			}
		}
		return false, 0
	}
	if k == "hart" {
		if _, ok := CPUNumber(v); ok {
			return true, next
		}
	}
	return false, 0
}

func isProcessorKey(k string) bool { return k == "processor" || k == "Processor" }

// splitCPUInfoLine splits "key<tabs>: value" into trimmed key and value.
func splitCPUInfoLine(line string) (key, value string, ok bool) {
	k, v, found := strings.Cut(line, ":")
	if !found {
		return "", "", false
	}
	k = strings.TrimSpace(k)
	if k == "" {
		return "", "", false
	}
	return k, strings.TrimSpace(v), true
}
