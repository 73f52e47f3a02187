package soc

import (
	"strconv"
	"strings"
)

// cpuinfoFacts is what /proc/cpuinfo says that matters for the board and SoC.
type cpuinfoFacts struct {
	// Hardware, Revision and Model are the machine-wide lines of ARM
	// kernels ("Hardware : BCM2835", "Revision : c03114",
	// "Model : Raspberry Pi 4 Model B Rev 1.4").
	Hardware, Revision, Model string
	// ModelName and VendorID are the first "model name" and "vendor_id"
	// lines (x86, LoongArch, some RISC-V).
	ModelName, VendorID string
	// Features is the first "Features" (ARM) line split into words.
	Features []string
	// Cores has the MIDR fields of each "processor" block that has them.
	Cores map[int]midr
}

// midr holds the MIDR fields /proc/cpuinfo prints per processor on ARM.
type midr struct {
	Implementer, Part, Variant, Revision int
	// HasVariant is false when the block lacks variant or revision.
	HasVariant bool
}

// parseCPUInfo extracts the facts from /proc/cpuinfo text. Malformed lines
// are skipped.
func parseCPUInfo(text string) cpuinfoFacts {
	f := cpuinfoFacts{Cores: map[int]midr{}}
	cur := -1
	type partial struct {
		impl, part, variant, rev int
		has                      int // bit mask of the fields seen
	}
	blocks := map[int]*partial{}
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "processor":
			if n, err := strconv.Atoi(v); err == nil && n >= 0 {
				cur = n
				blocks[cur] = &partial{}
			}
		case "Hardware":
			if f.Hardware == "" {
				f.Hardware = v
			}
		case "Revision":
			if f.Revision == "" {
				f.Revision = v
			}
		case "Model":
			if f.Model == "" {
				f.Model = v
			}
		case "model name":
			if f.ModelName == "" {
				f.ModelName = v
			}
		case "vendor_id":
			if f.VendorID == "" {
				f.VendorID = v
			}
		case "Features":
			if f.Features == nil {
				f.Features = strings.Fields(v)
			}
		case "CPU implementer", "CPU part", "CPU variant", "CPU revision":
			b := blocks[cur]
			if b == nil {
				continue
			}
			n, err := strconv.ParseInt(v, 0, 32)
			if err != nil || n < 0 {
				continue
			}
			switch k {
			case "CPU implementer":
				b.impl, b.has = int(n), b.has|1
			case "CPU part":
				b.part, b.has = int(n), b.has|2
			case "CPU variant":
				b.variant, b.has = int(n), b.has|4
			case "CPU revision":
				b.rev, b.has = int(n), b.has|8
			}
		}
	}
	for id, b := range blocks {
		if b.has&3 == 3 {
			f.Cores[id] = midr{Implementer: b.impl, Part: b.part, Variant: b.variant, Revision: b.rev, HasVariant: b.has&12 == 12}
		}
	}
	return f
}

// hexField parses a MIDR field printed as hex ("0x41", "0xd0b").
func hexField(s string) (int, bool) {
	t := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(s), "0x"), "0X")
	if t == "" {
		return 0, false
	}
	n, err := strconv.ParseUint(t, 16, 32)
	if err != nil {
		return 0, false
	}
	return int(n), true
}
