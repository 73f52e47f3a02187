package infotext

import (
	"fmt"
	"strings"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/rpi"
	"boardbench/internal/inventory/soc"
	"boardbench/internal/textfmt"
)

// boardMaxCandidates is how many SoC candidates the text lists; the JSON
// has them all.
const boardMaxCandidates = 8

// renderBoard writes the Board and SoC section: the board's model and where
// it comes from, device-tree compatible strings, DMI, the Raspberry Pi
// revision decoded, what the kernel's SoC drivers report, and the SoC guess
// with its evidence and candidates, and whether the machine is a virtual
// machine.
func renderBoard(w *textfmt.Writer, in *inventory.Info) {
	b, s := in.Board, in.SoC
	w.Section("Board and SoC")
	model := b.Model
	if model != "" && b.ModelSource != "" {
		model += " (from " + boardSourceName(b.ModelSource) + ")"
	}
	pairs := [][2]string{{"board", model}}
	if len(b.Compatible) > 0 {
		pairs = append(pairs, [2]string{"compatible", strings.Join(b.Compatible, ", ")})
	}
	if d := b.DMI; d != nil {
		pairs = append(pairs, [2]string{"DMI system", boardJoin(d.SysVendor, d.ProductName, d.ProductVersion)})
		pairs = append(pairs, [2]string{"DMI board", boardJoin(d.BoardVendor, d.BoardName)})
		bios := boardJoin(d.BIOSVendor, d.BIOSVersion)
		if d.BIOSDate != "" {
			bios = boardJoin(bios, "("+d.BIOSDate+")")
		}
		pairs = append(pairs, [2]string{"BIOS", bios})
	}
	if b.CPUInfoHardware != "" {
		pairs = append(pairs, [2]string{"cpuinfo Hardware", b.CPUInfoHardware})
	}
	if r := b.RaspberryPi; r != nil {
		pairs = append(pairs, [2]string{"Raspberry Pi revision", boardRevision(r, b.RaspberryPiSource)})
		if flags := boardRevisionFlags(r); flags != "" {
			pairs = append(pairs, [2]string{"revision flags", flags})
		}
	}
	for _, k := range s.KernelSoC {
		pairs = append(pairs, [2]string{"kernel SoC " + k.Device, boardKernelSoC(k)})
	}
	guess := s.Guess
	if guess == "" {
		guess = "unknown"
	}
	label := ChipLabel(s)
	pairs = append(pairs,
		[2]string{label, guess},
		[2]string{label + " evidence", boardEvidence(s)},
	)
	if len(s.Candidates) > 1 || (len(s.Candidates) == 1 && s.Candidates[0] != s.Guess) {
		pairs = append(pairs, [2]string{"SoC candidates", boardCandidates(s.Candidates)})
	}
	pairs = append(pairs, [2]string{"Virtual machine", vmLine(in.VM)})
	w.KV(pairs...)
	for _, n := range b.Notes {
		w.Line("unknown: %s (%s)", n.Item, n.Reason)
	}
}

func boardSourceName(src string) string {
	switch src {
	case "device-tree":
		return "device tree"
	case "dmi":
		return "DMI"
	case "cpuinfo":
		return "/proc/cpuinfo"
	case "raspberry-pi-revision":
		return "Raspberry Pi revision code"
	}
	return src
}

// boardJoin joins the non-empty parts with spaces.
func boardJoin(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}

// boardRevision renders a decoded revision code, e.g. "c03114: Raspberry Pi
// 4 Model B rev 1.4, 4 GiB, BCM2711, made by Sony UK".
func boardRevision(r *rpi.Revision, source string) string {
	s := r.Code
	if !r.Known {
		s += ": unknown board type"
	} else {
		s += ": " + r.Model
		if r.BoardRevision != "" {
			s += " rev " + r.BoardRevision
		}
	}
	var parts []string
	if r.MemoryBytes != nil {
		parts = append(parts, textfmt.Bytes(*r.MemoryBytes))
	} else if r.Known {
		parts = append(parts, "memory size not encoded")
	}
	if r.Processor != "" {
		parts = append(parts, r.Processor)
	}
	if r.Manufacturer != "" {
		parts = append(parts, "made by "+r.Manufacturer)
	}
	if len(parts) > 0 {
		s += ", " + strings.Join(parts, ", ")
	}
	if source != "" {
		s += " (" + r.Style + "-style code from " + boardSourceName(source) + ")"
	}
	return s
}

// boardRevisionFlags renders the warranty and permission bits.
func boardRevisionFlags(r *rpi.Revision) string {
	var flags []string
	if r.WarrantyVoided {
		flags = append(flags, "warranty bit set (voided)")
	} else {
		flags = append(flags, "warranty intact")
	}
	allowed := func(v *bool, what string) {
		if v == nil {
			return
		}
		if *v {
			flags = append(flags, what+" allowed")
		} else {
			flags = append(flags, what+" disallowed")
		}
	}
	allowed(r.OvervoltageAllowed, "overvoltage")
	allowed(r.OTPProgramAllowed, "OTP programming")
	allowed(r.OTPReadAllowed, "OTP reading")
	return strings.Join(flags, ", ")
}

// boardKernelSoC renders what one /sys/devices/socN reports, e.g. "family
// Snapdragon, machine QCS6490, soc_id 498, revision 1.0".
func boardKernelSoC(k soc.KernelSoC) string {
	var parts []string
	for _, f := range [][2]string{{"family", k.Family}, {"machine", k.Machine}, {"soc_id", k.SoCID}, {"revision", k.Revision}} {
		if f[1] != "" {
			parts = append(parts, f[0]+" "+f[1])
		}
	}
	return strings.Join(parts, ", ")
}

func boardEvidence(s soc.SoC) string {
	if s.Confidence == "" {
		return s.Reason
	}
	if s.Reason == "" {
		return s.Confidence
	}
	return s.Confidence + ": " + s.Reason
}

func boardCandidates(c []string) string {
	if len(c) <= boardMaxCandidates {
		return strings.Join(c, ", ")
	}
	return strings.Join(c[:boardMaxCandidates], ", ") + fmt.Sprintf(" and %d more", len(c)-boardMaxCandidates)
}

// ChipLabel names what the SoC guess is: "processor" when it rests only on
// the CPU's model name (a PC, a server, a VM: the chip is a processor, not a
// system-on-chip), "SoC" otherwise.
func ChipLabel(s soc.SoC) string {
	if s.Confidence == "cpu-model" {
		return "processor"
	}
	return "SoC"
}
