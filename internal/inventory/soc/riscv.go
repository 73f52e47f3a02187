package soc

import (
	"fmt"
	"slices"
	"strings"
)

// riscvSoC is a RISC-V SoC as /proc/cpuinfo shows it: the core named by the
// "uarch" line (a device-tree compatible string), or, on kernels that
// print no uarch, the "mvendorid" of the core's vendor, and the number of
// harts Linux runs on. Public facts from the vendors' datasheets.
type riscvSoC struct {
	uarch, mvendorid string
	harts            int
	names            []string
}

// riscvSoCs is boardbench's table of RISC-V SoCs.
var riscvSoCs = [...]riscvSoC{
	{"thead,c906", "0x5b7", 1, []string{"Allwinner D1", "Allwinner D1s (F133)", "Sophgo CV1800B", "Sophgo SG2000/SG2002"}},
	{"thead,c910", "0x5b7", 4, []string{"T-Head TH1520"}},
	{"thead,c910", "0x5b7", 64, []string{"Sophgo SG2042"}},
	{"thead,c920", "0x5b7", 64, []string{"Sophgo SG2042"}},
	{"sifive,u54-mc", "0x489", 4, []string{"SiFive FU540"}},
	{"sifive,u74-mc", "0x489", 2, []string{"StarFive JH7100"}},
	{"sifive,u74-mc", "0x489", 4, []string{"StarFive JH7110", "SiFive FU740"}},
	{"sifive,p550", "0x489", 4, []string{"ESWIN EIC7700X"}},
	{"eswin,eic770x", "0x489", 4, []string{"ESWIN EIC7700X"}},
	{"eswin,eic770x", "0x489", 8, []string{"ESWIN EIC7702X"}},
	{"spacemit,x60", "0x710", 8, []string{"SpacemiT K1", "SpacemiT M1"}},
	{"andestech,ax45mp", "0x31e", 1, []string{"Renesas RZ/Five (R9A07G043F)"}},
}

// riscvGuess names a RISC-V SoC from its core and hart count. The uarch
// line decides the core when there is one; without it the mvendorid (the
// core vendor's JEDEC code) stands in, and then every core of that vendor
// with that hart count is a candidate.
func riscvGuess(ci cpuinfoFacts) (SoC, bool) {
	uarch := strings.ToLower(strings.TrimSpace(ci.Uarch))
	vendor := strings.ToLower(strings.TrimSpace(ci.MVendorID))
	if (uarch == "" && vendor == "") || ci.Harts == 0 {
		return SoC{}, false
	}
	var names []string
	for i := range riscvSoCs {
		r := &riscvSoCs[i]
		if r.harts != ci.Harts {
			continue
		}
		if uarch != "" && r.uarch != uarch || uarch == "" && r.mvendorid != vendor {
			continue
		}
		for _, n := range r.names {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	if len(names) == 0 {
		return SoC{}, false
	}
	what := fmt.Sprintf("the RISC-V core %q", uarch)
	if uarch == "" {
		what = fmt.Sprintf("the RISC-V core vendor (mvendorid %s)", vendor)
	}
	reason := fmt.Sprintf("a guess from %s and its %d harts", what, ci.Harts)
	if len(names) == 1 {
		reason += ", which only this known SoC has"
	} else {
		reason += fmt.Sprintf(", which %d known SoCs share", len(names))
	}
	return SoC{Guess: strings.Join(names, " or "), Confidence: ConfidenceCoreCombination, Candidates: names, Reason: reason}, true
}
