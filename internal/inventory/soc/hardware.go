package soc

import (
	"boardbench/internal/lazyre"
	"fmt"
	"slices"
	"strings"
)

// hardwareGuess is what the Hardware line of /proc/cpuinfo says.
type hardwareGuess struct {
	// Name is the SoC or SoC family; "" when the line names only a vendor.
	Name string
	// Vendor is the vendor as spelled in the core-combination table
	// ("Amlogic", "Rockchip"...), for narrowing candidates; "" when unknown.
	Vendor string
	// RaspberryPi marks the Broadcom names Raspberry Pi kernels print.
	RaspberryPi bool
	// Members lists the SoCs (names as in the core tables) of the family
	// a Hardware line names, for the core combination to choose among;
	// nil when the line names one SoC or only a vendor.
	Members []string
}

// member reports whether a SoC of the tables belongs to the family; it is
// nil (no restriction) when the line names no family.
func (g hardwareGuess) memberFilter() func(vendor, name string) bool {
	if g.Members == nil {
		return nil
	}
	return func(vendor, name string) bool {
		return strings.EqualFold(vendor, g.Vendor) && slices.Contains(g.Members, name)
	}
}

// hardwareRule maps a Hardware line to a SoC. Name may use $1 and $2 for the
// captures, upper-cased when upper is set.
type hardwareRule struct {
	re     lazyre.Regexp
	name   string
	vendor string
	upper  bool
	rpi    bool
	// members lists a family's SoCs (see hardwareGuess.Members).
	members []string
}

// qualcommCodename maps a platform name Qualcomm vendor kernels print in
// the Hardware line to the SoC; "" for other names. (A switch, not a map
// literal, so that it costs nothing when boardbench starts.)
func qualcommCodename(code string) string {
	switch code {
	case "KONA":
		return "Qualcomm Snapdragon 865 (SM8250)"
	case "LITO":
		return "Qualcomm Snapdragon 765 (SM7250)"
	case "BENGAL":
		return "Qualcomm Snapdragon 662 (SM6115)"
	case "TRINKET":
		return "Qualcomm Snapdragon 665 (SM6125)"
	case "LAHAINA":
		return "Qualcomm Snapdragon 888 (SM8350)"
	case "TARO":
		return "Qualcomm Snapdragon 8 Gen 1 (SM8450)"
	case "KALAMA":
		return "Qualcomm Snapdragon 8 Gen 2 (SM8550)"
	case "PINEAPPLE":
		return "Qualcomm Snapdragon 8 Gen 3 (SM8650)"
	case "SM8150_PLUS":
		return "Qualcomm Snapdragon 855+ (SM8150)"
	case "MSM8996PRO":
		return "Qualcomm Snapdragon 821 (MSM8996 Pro)"
	}
	return ""
}

// hardwareRules are tried in order; the first match wins. A rule without a
// name names only the vendor.
var hardwareRules = []hardwareRule{
	{re: lazyre.Regexp(`(?i)^BCM(2708|2835)$`), name: "Broadcom BCM2835", vendor: "Broadcom", rpi: true},
	{re: lazyre.Regexp(`(?i)^BCM(2709|2836)$`), name: "Broadcom BCM2836", vendor: "Broadcom", rpi: true},
	{re: lazyre.Regexp(`(?i)^BCM(2710|2837)$`), name: "Broadcom BCM2837", vendor: "Broadcom", rpi: true},
	{re: lazyre.Regexp(`(?i)^BCM2711$`), name: "Broadcom BCM2711", vendor: "Broadcom", rpi: true},
	{re: lazyre.Regexp(`(?i)^BCM2712$`), name: "Broadcom BCM2712", vendor: "Broadcom", rpi: true},
	{re: lazyre.Regexp(`(?i)sun50iw1`), name: "Allwinner A64", vendor: "Allwinner"},
	{re: lazyre.Regexp(`(?i)sun50iw2`), name: "Allwinner H5", vendor: "Allwinner"},
	{re: lazyre.Regexp(`(?i)sun50iw6`), name: "Allwinner H6", vendor: "Allwinner"},
	{re: lazyre.Regexp(`(?i)sun50iw9`), name: "Allwinner H616/H618/H313 (sun50iw9)", vendor: "Allwinner"},
	{re: lazyre.Regexp(`(?i)sun50iw10`), name: "Allwinner A100/A133 (sun50iw10)", vendor: "Allwinner"},
	{re: lazyre.Regexp(`(?i)sun50iw11`), name: "Allwinner R329", vendor: "Allwinner"},
	{re: lazyre.Regexp(`(?i)sun55iw3`), name: "Allwinner A523/A527/T527 (sun55iw3)", vendor: "Allwinner"},
	{re: lazyre.Regexp(`(?i)sun8iw7`), name: "Allwinner H3/H2+ (sun8iw7)", vendor: "Allwinner"},
	{re: lazyre.Regexp(`(?i)sun8iw11`), name: "Allwinner R40/V40/A40i (sun8iw11)", vendor: "Allwinner"},
	{re: lazyre.Regexp(`(?i)sun8iw6`), name: "Allwinner A83T", vendor: "Allwinner"},
	{re: lazyre.Regexp(`(?i)sun6i \(A31\)`), name: "Allwinner A31", vendor: "Allwinner"},
	{re: lazyre.Regexp(`(?i)\bsun7i\b`), name: "Allwinner A20", vendor: "Allwinner"},
	{re: lazyre.Regexp(`(?i)\bAllwinner\s+([AHRVT]\d+[A-Z]?)\b`), name: "Allwinner $1", vendor: "Allwinner", upper: true},
	{re: lazyre.Regexp(`(?i)\bsun8i\b`), name: "Allwinner sun8i family (H2+/H3/A33/A83T/R40/V3s…)", vendor: "Allwinner",
		members: []string{"A23", "A33", "A83T", "H2+", "H3", "R40", "V3s", "T113"}},
	{re: lazyre.Regexp(`(?i)\b(rk\d{4}[a-z]?|px30|rv\d{4})\b`), name: "Rockchip $1", vendor: "Rockchip", upper: true},
	{re: lazyre.Regexp(`(?i)^(Rockchip\b|RK30board$)`), vendor: "Rockchip"},
	{re: lazyre.Regexp(`(?i)^Amlogic`), vendor: "Amlogic"},
	{re: lazyre.Regexp(`(?i)^Qualcomm?\s+(MSM|APQ)\s*(\d{4})`), name: "Qualcomm $1$2", vendor: "Qualcomm", upper: true},
	{re: lazyre.Regexp(`(?i)\b((?:MSM|APQ|SDM|SM|QCS|QCM)\d{3,4}(?:PRO(?:-[A-Z]{2})?|[A-Z]{1,2}(?:-[A-Z]{2})?)?)(?:[^A-Za-z]|$)`), name: "Qualcomm $1", vendor: "Qualcomm", upper: true},
	{re: lazyre.Regexp(`(?i)^(?:MediaTek\s+)?(MT\d{4}[A-Z]{0,2}(?:/[A-Z]{1,3})?)`), name: "MediaTek $1", vendor: "MediaTek", upper: true},
	{re: lazyre.Regexp(`(?i)^MediaTek\b`), vendor: "MediaTek"},
	{re: lazyre.Regexp(`(?i)\bKirin\s?(\d+[A-Z]?)`), name: "HiSilicon Kirin $1", vendor: "HiSilicon", upper: true},
	{re: lazyre.Regexp(`(?i)^hi(\d{4}[a-z0-9]*)$`), name: "HiSilicon Hi$1", vendor: "HiSilicon", upper: true},
	{re: lazyre.Regexp(`(?i)\bExynos\s?(\d{4})`), name: "Samsung Exynos $1", vendor: "Samsung"},
	{re: lazyre.Regexp(`(?i)\bExynos`), vendor: "Samsung"},
	{re: lazyre.Regexp(`(?i)\bi\.?MX\s?(\d[0-9A-Za-z]*(?: [A-Za-z/]+)?)`), name: "NXP i.MX$1", vendor: "NXP"},
	{re: lazyre.Regexp(`(?i)\bOMAP\s?(\d+[A-Z0-9]*)`), name: "TI OMAP$1", vendor: "Texas Instruments", upper: true},
	{re: lazyre.Regexp(`(?i)^Generic\s+((?:AM|DRA|DM)\d+[A-Z0-9]*)`), name: "TI $1", vendor: "Texas Instruments", upper: true},
	{re: lazyre.Regexp(`(?i)^Unisoc\s+(\w+)`), name: "Unisoc $1", vendor: "Unisoc", upper: true},
	{re: lazyre.Regexp(`(?i)^sc(\d{4}[a-z]?)$`), name: "Spreadtrum SC$1", vendor: "Unisoc", upper: true},
	{re: lazyre.Regexp(`(?i)\bArmada[- ](\d+[0-9/x]*)`), name: "Marvell Armada $1", vendor: "Marvell"},
	{re: lazyre.Regexp(`(?i)^Feroceon-KW`), name: "Marvell Kirkwood", vendor: "Marvell"},
	{re: lazyre.Regexp(`(?i)^PXA(\d+)$`), name: "Marvell PXA$1", vendor: "Marvell"},
	{re: lazyre.Regexp(`(?i)^jetson[-_]tx1$`), name: "NVIDIA Tegra X1 (Tegra210)", vendor: "NVIDIA"},
	{re: lazyre.Regexp(`(?i)^jetson[-_]tk1$`), name: "NVIDIA Tegra K1 (Tegra124)", vendor: "NVIDIA"},
	{re: lazyre.Regexp(`(?i)^Xilinx Zynq`), name: "Xilinx Zynq", vendor: "Xilinx"},
}

// qualcommLine matches the "Qualcomm Technologies, Inc SM8250" style.
var qualcommLine = lazyre.Regexp(`(?i)^Qualcomm?\s+Technologies,?\s+Inc\.?\s+([A-Za-z0-9_]+(?:-[A-Za-z]{2}\b)?)`)

// guessFromHardware interprets the Hardware line; ok is false when the line
// names neither a SoC nor a vendor.
func guessFromHardware(hw string) (g hardwareGuess, ok bool) {
	hw = strings.TrimSpace(hw)
	if hw == "" {
		return g, false
	}
	if m := qualcommLine.FindStringSubmatch(hw); m != nil {
		code := strings.TrimSuffix(strings.ToUpper(m[1]), "PROCESSOR")
		if n := qualcommCodename(code); n != "" {
			return hardwareGuess{Name: n, Vendor: "Qualcomm"}, true
		}
		return hardwareGuess{Name: qualcommName(code), Vendor: "Qualcomm"}, true
	}
	for _, r := range hardwareRules {
		m := r.re.FindStringSubmatch(hw)
		if m == nil {
			continue
		}
		name := r.name
		for i := len(m) - 1; i >= 1; i-- {
			c := m[i]
			if r.upper {
				c = strings.ToUpper(c)
			}
			name = strings.ReplaceAll(name, fmt.Sprintf("$%d", i), c)
		}
		if r.vendor == "Qualcomm" {
			name = qualcommName(strings.TrimPrefix(name, "Qualcomm "))
		}
		return hardwareGuess{Name: name, Vendor: r.vendor, RaspberryPi: r.rpi, Members: r.members}, true
	}
	if g, ok := guessFromBoardName(hw); ok {
		return g, true
	}
	for _, r := range chipRules {
		if m := r.re.FindStringSubmatch(hw); m != nil {
			name := r.name
			for i := len(m) - 1; i >= 1; i-- {
				name = strings.ReplaceAll(name, fmt.Sprintf("$%d", i), strings.ToUpper(m[i]))
			}
			return hardwareGuess{Name: name, Vendor: r.vendor, Members: r.members}, true
		}
	}
	return g, false
}

// qualcommName names a Qualcomm part number ("SM8250"), with its marketing
// name when the device-tree table knows it.
func qualcommName(code string) string {
	if n, ok := compatibleSoC("qcom," + strings.ToLower(code)); ok {
		return n
	}
	// A bin suffix ("MSM8974PRO-AC") is kept in the name of the chip.
	if base, _, ok := strings.Cut(code, "-"); ok {
		if n, ok := compatibleSoC("qcom," + strings.ToLower(base)); ok && strings.Contains(n, base) {
			return strings.Replace(n, base, code, 1)
		}
	}
	return "Qualcomm " + code
}

// raspberryPiSoCByCore names the Raspberry Pi SoC from its (only) core type,
// by MIDR part: Raspberry Pi kernels print "BCM2835" in the Hardware line of
// every model, so the core type tells them apart. "" for other parts.
func raspberryPiSoCByCore(part int) string {
	switch part {
	case 0xb76: // ARM1176
		return "Broadcom BCM2835"
	case 0xc07: // Cortex-A7
		return "Broadcom BCM2836"
	case 0xd03: // Cortex-A53
		return "Broadcom BCM2837"
	case 0xd08: // Cortex-A72
		return "Broadcom BCM2711"
	case 0xd0b: // Cortex-A76
		return "Broadcom BCM2712"
	}
	return ""
}
