package soc

import (
	"boardbench/internal/lazyre"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"boardbench/internal/host"
)

// KernelSoC is what a kernel SoC driver registered as /sys/devices/socN:
// Qualcomm's socinfo, Amlogic's meson-gx-socinfo, NXP's i.MX drivers,
// Samsung's exynos-chipid, NVIDIA's Tegra fuse driver, TI's k3-socinfo,
// Renesas, the Arm SMCCC SOC_ID interface and others. Drivers fill the
// fields differently; a driver that sets no machine gets the device tree's
// model (the board's name) from the kernel. Serial numbers are never read.
type KernelSoC struct {
	// Device is the sysfs name, e.g. "soc0".
	Device string `json:"device"`
	// Machine is the machine attribute: the chip on Qualcomm ("QCS6490"),
	// elsewhere usually the device tree's model; "" when absent.
	Machine string `json:"machine"`
	// Family is the family attribute, e.g. "Snapdragon", "Amlogic Meson",
	// "Freescale i.MX", "Tegra", "jep106:0426"; "" when absent.
	Family string `json:"family"`
	// SoCID is the soc_id attribute, e.g. "498" (Qualcomm's numeric id),
	// "G12B (S922X)" (Amlogic family and package), "i.MX8MP"; "" when
	// absent.
	SoCID string `json:"soc_id"`
	// Revision is the revision attribute as the driver prints it, e.g.
	// "1.0", "29:c - 40:2"; "" when absent.
	Revision string `json:"revision"`
}

// sysDevices is where the kernel registers SoC devices (soc0, soc1, …).
const sysDevices = "/sys/devices"

var socDeviceRE = lazyre.Regexp(`^soc([0-9]+)$`)

// readKernelSoCs returns every /sys/devices/socN that has at least one
// attribute, in device order; empty when there is none.
func readKernelSoCs(h *host.Host) []KernelSoC {
	out := []KernelSoC{}
	names, err := h.ReadDirNames(sysDevices)
	if err != nil {
		return out
	}
	type numbered struct {
		n    int
		name string
	}
	var devs []numbered
	for _, name := range names {
		if m := socDeviceRE.FindStringSubmatch(name); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				devs = append(devs, numbered{n, name})
			}
		}
	}
	sort.Slice(devs, func(i, j int) bool { return devs[i].n < devs[j].n })
	for _, d := range devs {
		dir := sysDevices + "/" + d.name + "/"
		attr := func(name string) string {
			s, err := h.ReadString(dir + name)
			if err != nil {
				return ""
			}
			return cleanString(s)
		}
		k := KernelSoC{Device: d.name, Machine: attr("machine"), Family: attr("family"),
			SoCID: attr("soc_id"), Revision: attr("revision")}
		if k.Machine != "" || k.Family != "" || k.SoCID != "" || k.Revision != "" {
			out = append(out, k)
		}
	}
	return out
}

// kernelChip is a chip a kernel SoC driver names.
type kernelChip struct {
	// Name is the chip in the form the guess uses, e.g. "Qualcomm QCS6490".
	Name string
	// Evidence names the device and attributes, for the reason.
	Evidence string
}

var (
	// qcomChipRE matches the chip names Qualcomm's socinfo prints as
	// machine (QCS6490, SM8250, SDM845, MSM8916, APQ8016, X1E80100, …),
	// not a board model the kernel may substitute for an unknown id.
	qcomChipRE = lazyre.Regexp(`^[A-Z]{2,4}[0-9]{3,5}[A-Z0-9]*$`)
	// amlogicSoCIDRE splits meson-gx-socinfo's soc_id "G12B (S922X)" into
	// family and package.
	amlogicSoCIDRE = lazyre.Regexp(`^([A-Za-z0-9]+) \(([^()]*)\)$`)
	// imxSoCIDRE matches NXP's soc_id, e.g. "i.MX8MP", "i.MX6Q", "i.MX93".
	imxSoCIDRE = lazyre.Regexp(`^i\.MX([0-9][A-Za-z0-9]*)$`)
	// exynosSoCIDRE matches exynos-chipid's soc_id, e.g. "EXYNOS5422".
	exynosSoCIDRE = lazyre.Regexp(`^EXYNOS([0-9]+[A-Z]?)$`)
)

// tegraChipID maps the chip id NVIDIA's fuse driver prints as soc_id
// (decimal) to the device-tree name of the chip; "" for an unknown id. (A
// switch, not a map literal, so that it costs nothing when boardbench
// starts.)
func tegraChipID(socID string) string {
	switch socID {
	case "32":
		return "tegra20"
	case "48":
		return "tegra30"
	case "53":
		return "tegra114"
	case "64":
		return "tegra124"
	case "19":
		return "tegra132"
	case "33":
		return "tegra210"
	case "24":
		return "tegra186"
	case "25":
		return "tegra194"
	case "35":
		return "tegra234"
	}
	return ""
}

// chipFromKernelSoC returns the specific chip a kernel SoC device names,
// false when it names none (an unknown id, only a family, or a driver whose
// fields boardbench does not interpret).
func chipFromKernelSoC(k KernelSoC, boardModel string) (kernelChip, bool) {
	where := "/sys/devices/" + k.Device
	family := strings.TrimSpace(k.Family)
	switch {
	case family == "Snapdragon":
		m := k.Machine
		if !qcomChipRE.MatchString(m) || m == boardModel {
			return kernelChip{}, false
		}
		name, _ := compatibleSoC("qcom," + strings.ToLower(m))
		if name == "" {
			name = "Qualcomm " + m
		}
		ev := fmt.Sprintf("%s (Qualcomm socinfo) reports machine %q", where, m)
		if k.SoCID != "" {
			ev += fmt.Sprintf(" with soc_id %s", k.SoCID)
		}
		return kernelChip{Name: name, Evidence: ev}, true
	case strings.HasPrefix(family, "Amlogic"):
		sm := amlogicSoCIDRE.FindStringSubmatch(k.SoCID)
		if sm == nil {
			return kernelChip{}, false
		}
		pkg := strings.TrimSpace(sm[2])
		if pkg == "" || strings.EqualFold(pkg, "unknown") || strings.ContainsAny(pkg, " /") {
			return kernelChip{}, false
		}
		name, _ := compatibleSoC("amlogic," + strings.ToLower(pkg))
		if name == "" {
			name = "Amlogic " + strings.ToUpper(pkg)
		}
		return kernelChip{Name: name, Evidence: fmt.Sprintf("%s (Amlogic socinfo) reports soc_id %q", where, k.SoCID)}, true
	case strings.Contains(family, "i.MX"):
		sm := imxSoCIDRE.FindStringSubmatch(k.SoCID)
		if sm == nil {
			return kernelChip{}, false
		}
		name, _ := compatibleSoC("fsl,imx" + strings.ToLower(sm[1]))
		if name == "" {
			name = "NXP " + k.SoCID
		}
		return kernelChip{Name: name, Evidence: fmt.Sprintf("%s (%s) reports soc_id %q", where, family, k.SoCID)}, true
	case family == "Samsung Exynos":
		sm := exynosSoCIDRE.FindStringSubmatch(k.SoCID)
		if sm == nil {
			return kernelChip{}, false
		}
		name, _ := compatibleSoC("samsung,exynos" + strings.ToLower(sm[1]))
		if name == "" {
			name = "Samsung Exynos " + sm[1]
		}
		return kernelChip{Name: name, Evidence: fmt.Sprintf("%s (Samsung chip id) reports soc_id %q", where, k.SoCID)}, true
	case family == "Tegra":
		dt := tegraChipID(k.SoCID)
		if dt == "" {
			return kernelChip{}, false
		}
		name, _ := compatibleSoC("nvidia," + dt)
		return kernelChip{Name: name,
			Evidence: fmt.Sprintf("%s (NVIDIA fuses) reports chip id %s", where, k.SoCID)}, true
	}
	return kernelChip{}, false
}

// kernelSoCGuess returns the guess from the first kernel SoC device that
// names a specific chip, with the device tree's compatible string compared
// in the reason; false when no device names one.
func kernelSoCGuess(ks []KernelSoC, b Board) (SoC, bool) {
	for _, k := range ks {
		chip, ok := chipFromKernelSoC(k, b.Model)
		if !ok {
			continue
		}
		reason := chip.Evidence
		if dtName, compat := socFromCompatible(b.Compatible); dtName != "" {
			if dtName == chip.Name {
				reason += fmt.Sprintf("; the device tree's compatible string %q agrees", compat)
			} else {
				reason += fmt.Sprintf("; the device tree's compatible string %q names %s, but the kernel's driver "+
					"identified the chip itself, and related chips often share one device tree", compat, dtName)
			}
		}
		return SoC{Guess: chip.Name, Confidence: ConfidenceKernelSoCInfo, Candidates: []string{}, Reason: reason}, true
	}
	return SoC{}, false
}
