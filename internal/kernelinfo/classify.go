package kernelinfo

import (
	"boardbench/internal/lazyre"
	"bytes"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// armbianBranchRE matches Armbian's release suffixes: "-current-rockchip64",
// "-legacy-rk35xx", "-vendor-rk35xx", "-edge-sunxi64".
var armbianBranchRE = lazyre.Regexp(`-(legacy|vendor|current|edge)-([a-z0-9]+)$`)

// vendorMarker is a release-string marker of a vendor tree.
type vendorMarker struct {
	re   lazyre.Regexp
	tree string
}

// vendorMarkers are release suffixes of known vendor (BSP) trees.
var vendorMarkers = []vendorMarker{
	{lazyre.Regexp(`-(rockchip|rk3\d{3}|rk35xx|rk356x|rk3588)\b|rockchip-ayufan`), "Rockchip BSP"},
	{lazyre.Regexp(`-tegra\b`), "NVIDIA Linux for Tegra"},
	{lazyre.Regexp(`-(sun[0-9]+i|sun50iw\d+)\b`), "Allwinner BSP"},
	{lazyre.Regexp(`-(amlogic|meson64-vendor|aml)\b`), "Amlogic BSP"},
	{lazyre.Regexp(`BPI-[A-Z0-9-]+-Kernel`), "Banana Pi BSP"},
	{lazyre.Regexp(`-odroid`), "Hardkernel ODROID"},
	{lazyre.Regexp(`-(cix)\b`), "CIX BSP"},
	{lazyre.Regexp(`-(imx|lf-)`), "NXP i.MX BSP"},
	{lazyre.Regexp(`-(starfive|visionfive|jh7110)`), "StarFive BSP"},
	{lazyre.Regexp(`-(th1520|lpi4a|revyos)`), "T-Head BSP"},
	{lazyre.Regexp(`-(spacemit|k1)\b`), "SpacemiT BSP"},
	{lazyre.Regexp(`-(mtk|mediatek)\b`), "MediaTek BSP"},
}

// vendorSeries are the series of known BSP trees per Armbian family name
// (the part after the branch): these branches carry a vendor kernel.
var armbianVendorFamilies = []string{"rk35xx", "rk3588", "rockchip-rk3588", "sun50iw9", "sun55iw3", "meson64", "rk356x"}

// raspberryPiRE matches the Raspberry Pi kernels' suffixes ("-v7+", "-v7l+",
// "-v8+", "+rpt-rpi-2712", "-rpi-v8").
var raspberryPiRE = lazyre.Regexp(`-v[678]l?\+$|rpi|-v8-16k`)

// distributionRE matches distribution kernels' suffixes.
var distributionRE = lazyre.Regexp(`-(generic|lowlatency|amd64|arm64|armmp|armmp-lpae|rt-arm64|cloud-amd64|cloud-arm64|default|aws|azure|gcp|raspi|raspi2)$|\.fc\d+\.|\.el\d+|-MANJARO|-arch\d|\.mga\d`)

// vendorConfig are kernel config symbols that only vendor trees define.
var vendorConfig = []struct{ prefix, tree string }{
	{"CONFIG_CPU_RK3", "Rockchip BSP"},
	{"CONFIG_ROCKCHIP_MPP", "Rockchip BSP"},
	{"CONFIG_AMLOGIC_", "Amlogic BSP"},
	{"CONFIG_ARCH_SUN50IW", "Allwinner BSP"},
	{"CONFIG_ARCH_SUN8IW", "Allwinner BSP"},
	{"CONFIG_SUNXI_", "Allwinner BSP"},
}

// vendorSymbol says whether a kernel config symbol is one of vendorConfig's.
func vendorSymbol(sym []byte) bool {
	for _, vc := range vendorConfig {
		if bytes.HasPrefix(sym, []byte(vc.prefix)) {
			return true
		}
	}
	return false
}

// classify judges the kind of tree from the release string, the build host
// and the kernel config.
func classify(release, series, host string, config map[string]string) (kind, tree string, evidence []string) {
	evidence = []string{}
	if m := armbianBranchRE.FindStringSubmatch(release); m != nil {
		switch m[1] {
		case "legacy", "vendor":
			return KindVendor, "Armbian " + m[1] + " (" + m[2] + ")", append(evidence,
				fmt.Sprintf("release %q: Armbian's %q branch carries the board vendor's kernel", release, m[1]))
		default:
			if slices.Contains(armbianVendorFamilies, m[2]) && m[1] == "current" {
				return KindVendor, "Armbian current (" + m[2] + ")", append(evidence,
					fmt.Sprintf("release %q: family %q is built from a vendor tree", release, m[2]))
			}
			evidence = append(evidence, fmt.Sprintf("release %q: Armbian's %q branch follows kernel.org", release, m[1]))
			return withConfig(KindMainline, "Armbian "+m[1], evidence, config)
		}
	}
	for _, vm := range vendorMarkers {
		if vm.re.MatchString(release) {
			return KindVendor, vm.tree, append(evidence, fmt.Sprintf("release %q names the %s", release, vm.tree))
		}
	}
	if raspberryPiRE.MatchString(release) {
		return KindRaspberryPi, "Raspberry Pi", append(evidence,
			fmt.Sprintf("release %q is the Raspberry Pi kernel tree", release))
	}
	if distributionRE.MatchString(release) {
		return withConfig(KindDistribution, "", append(evidence,
			fmt.Sprintf("release %q is a distribution kernel's", release)), config)
	}
	if host != "" {
		evidence = append(evidence, "built by "+host)
	}
	kind, tree, evidence = withConfig(KindUnknown, "", evidence, config)
	if kind != KindUnknown {
		return kind, tree, evidence
	}
	rest := strings.TrimPrefix(release, series)
	if rest == "" || regexp.MustCompile(`^\.\d+(-rc\d+)?\+?$`).MatchString(rest) {
		return KindMainline, "", append(evidence, fmt.Sprintf("release %q carries no vendor suffix", release))
	}
	return KindUnknown, "", append(evidence, fmt.Sprintf("release %q matches no known tree", release))
}

// withConfig overrides a judgement when the kernel config holds symbols
// that only a vendor tree defines.
func withConfig(kind, tree string, evidence []string, config map[string]string) (string, string, []string) {
	syms := slices.Sorted(maps.Keys(config))
	for _, vc := range vendorConfig {
		for _, sym := range syms {
			v := config[sym]
			if strings.HasPrefix(sym, vc.prefix) && v != "n" {
				return KindVendor, vc.tree, append(evidence, fmt.Sprintf("kernel config sets %s, which only the %s defines", sym, vc.tree))
			}
		}
	}
	return kind, tree, evidence
}

// distributions recognise a distribution kernel's maker from its release,
// build and /proc/version strings, first match wins.
var distributions = []struct {
	re   lazyre.Regexp
	name string
}{
	{lazyre.Regexp(`(?i)ubuntu`), "Ubuntu"},
	{lazyre.Regexp(`(?i)debian`), "Debian"},
	{lazyre.Regexp(`\.fc\d+\.`), "Fedora"},
	{lazyre.Regexp(`\.el\d+`), "Red Hat Enterprise Linux (or a rebuild of it)"},
	{lazyre.Regexp(`(?i)suse`), "SUSE"},
	{lazyre.Regexp(`-MANJARO`), "Manjaro"},
	{lazyre.Regexp(`-arch\d`), "Arch Linux"},
	{lazyre.Regexp(`\.mga\d`), "Mageia"},
}

// distributionOf names the distribution of a distribution kernel from its
// strings ("Ubuntu" for "#45-Ubuntu SMP", "Debian" for
// "debian-kernel@lists.debian.org"), "a distribution" when they do not
// say.
func distributionOf(release, build, procVersion string) string {
	all := release + " " + build + " " + procVersion
	for _, d := range distributions {
		if d.re.MatchString(all) {
			return d.name
		}
	}
	return "a distribution"
}
