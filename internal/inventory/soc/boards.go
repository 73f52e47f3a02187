package soc

import (
	"boardbench/internal/lazyre"
	"strings"
)

// The Hardware line of /proc/cpuinfo on older ARM kernels often names the
// board (the machine description of a board file: "Wandboard",
// "ODROID-U2/U3", "cardhu") or a codename rather than the chip. This file
// maps well-known board names and codenames to their SoC, and matches the
// chip names the older rules in hardware.go do not know. Facts only: which
// SoC a board or reference design carries is public.

// boardName maps one board name (or a prefix of it followed by a space) to
// its SoC, or to a family the core combination chooses in (members set).
type boardName struct {
	board, name, vendor string
	members             []string
}

// boardNames is matched case-insensitively against the Hardware line with
// any " (Device Tree)" or " (Flattened Device Tree)" suffix removed.
var boardNames = [...]boardName{
	{"ODROID-U2/U3", "Samsung Exynos 4412", "Samsung", nil},
	{"ODROID-U2", "Samsung Exynos 4412", "Samsung", nil},
	{"ODROID-U3", "Samsung Exynos 4412", "Samsung", nil},
	{"ODROID-X", "Samsung Exynos 4412", "Samsung", nil},
	{"ODROID-X2", "Samsung Exynos 4412", "Samsung", nil},
	{"ODROID-XU", "Samsung Exynos 5410", "Samsung", nil},
	{"ODROID-XU3", "Samsung Exynos 5422", "Samsung", nil},
	{"ODROID-XU4", "Samsung Exynos 5422", "Samsung", nil},
	{"ODROID-HC1", "Samsung Exynos 5422", "Samsung", nil},
	{"ODROID-C1", "Amlogic S805", "Amlogic", nil},
	{"ODROID-C2", "Amlogic S905", "Amlogic", nil},
	{"ODROID-C4", "Amlogic S905X3", "Amlogic", nil},
	{"ODROID-N2", "Amlogic S922X", "Amlogic", nil},
	{"ODROID-M1", "Rockchip RK3568", "Rockchip", nil},
	{"Khadas VIM1", "Amlogic S905X", "Amlogic", nil},
	{"Khadas VIM1S", "Amlogic S905Y4", "Amlogic", nil},
	{"Khadas VIM2", "Amlogic S912", "Amlogic", nil},
	{"Khadas VIM3", "Amlogic A311D", "Amlogic", nil},
	{"Khadas VIM3L", "Amlogic S905D3", "Amlogic", nil},
	{"Khadas VIM4", "Amlogic A311D2", "Amlogic", nil},
	{"Radxa ROCK Pi 4", "Rockchip RK3399", "Rockchip", nil},
	{"Radxa ROCK Pi S", "Rockchip RK3308", "Rockchip", nil},
	{"Radxa ROCK Pi E", "Rockchip RK3328", "Rockchip", nil},
	{"Radxa ROCK 3 Model A", "Rockchip RK3568", "Rockchip", nil},
	{"Radxa ROCK3 Model A", "Rockchip RK3568", "Rockchip", nil},
	{"Radxa ROCK 5 Model B", "Rockchip RK3588", "Rockchip", nil},
	{"Radxa ROCK 5B", "Rockchip RK3588", "Rockchip", nil},
	{"Wandboard", "NXP i.MX6 family", "NXP", []string{"i.MX6 Solo", "i.MX6 Dual/DualLite", "i.MX6 Quad"}},
	{"SMDK6410", "Samsung S3C6410", "Samsung", nil},
	{"SMDKV210", "Samsung S5PV210", "Samsung", nil},
	{"SMDKC110", "Samsung S5PV210", "Samsung", nil},
	{"SMDK4X12", "Samsung Exynos 4412", "Samsung", nil},
	{"SMDK5250", "Samsung Exynos 5250", "Samsung", nil},
	// NVIDIA reference boards and tablets by codename.
	{"harmony", "NVIDIA Tegra 2 (Tegra20)", "NVIDIA", nil},
	{"ventana", "NVIDIA Tegra 2 (Tegra20)", "NVIDIA", nil},
	{"seaboard", "NVIDIA Tegra 2 (Tegra20)", "NVIDIA", nil},
	{"whistler", "NVIDIA Tegra 2 (Tegra20)", "NVIDIA", nil},
	{"star", "NVIDIA Tegra 2 (Tegra20)", "NVIDIA", nil},
	{"startablet", "NVIDIA Tegra 2 (Tegra20)", "NVIDIA", nil},
	{"cardhu", "NVIDIA Tegra 3 (Tegra30)", "NVIDIA", nil},
	{"grouper", "NVIDIA Tegra 3 (Tegra30)", "NVIDIA", nil},
	{"dalmore", "NVIDIA Tegra 4 (Tegra114)", "NVIDIA", nil},
	// TI boards with several SoC options.
	{"OMAP3 Beagle Board", "TI OMAP3 family", "Texas Instruments", []string{"OMAP3530", "DM3730/AM3703 (OMAP36xx)"}},
	{"Gumstix Overo", "TI OMAP3 family", "Texas Instruments", []string{"OMAP3530", "DM3730/AM3703 (OMAP36xx)"}},
	{"OMAP4 Panda board", "TI OMAP4430/4460/4470", "Texas Instruments", nil},
	// Vendors only: the core combination chooses.
	{"Oxsemi NAS", "", "PLX/Oxford Semiconductor", nil},
	{"Northstar Prototype", "", "Broadcom", []string{"BCM4708/BCM4709 (Northstar)"}},
	{"MStar/Sigmastar Armv7", "", "SigmaStar", nil},
	{"STi SoC with Flattened Device Tree", "", "STMicroelectronics", nil},
}

// guessFromBoardName looks the Hardware line up in boardNames.
func guessFromBoardName(hw string) (hardwareGuess, bool) {
	for _, suffix := range []string{" (Flattened Device Tree)", " (Device Tree)"} {
		hw = strings.TrimSuffix(hw, suffix)
	}
	for i := range boardNames {
		b := &boardNames[i]
		if strings.EqualFold(hw, b.board) ||
			(len(hw) > len(b.board) && strings.EqualFold(hw[:len(b.board)], b.board) && hw[len(b.board)] == ' ') {
			return hardwareGuess{Name: b.name, Vendor: b.vendor, Members: b.members}, true
		}
	}
	return hardwareGuess{}, false
}

// chipRules match chip names in the Hardware line (and in the MIPS "system
// type" and ARM "model name" lines) that the rules of hardware.go do not
// know. The captures are upper-cased into the name.
var chipRules = []hardwareRule{
	{re: lazyre.Regexp(`(?i)^Phytium\s*,\s*([A-Z]+-?\d+\S*)`), name: "Phytium $1", vendor: "Phytium"},
	{re: lazyre.Regexp(`(?i)^(?:Sophgo\s+|Sophon\s+)?(BM1684X?|BM1688|SG20\d\dX?|SG2300X|CV18\d\d[A-Z]?)$`), name: "Sophgo $1", vendor: "Sophgo"},
	{re: lazyre.Regexp(`(?i)^(JZ47\d\d[A-Z]?|X[12]\d{3}[A-Z]?)$`), name: "Ingenic $1", vendor: "Ingenic"},
	{re: lazyre.Regexp(`(?i)^((?:AM|DM)\d{3,4}X?)[A-Z]*EVM$`), name: "TI $1", vendor: "Texas Instruments"},
	{re: lazyre.Regexp(`(?i)\bComcerto\s*(\d{3,4})\b`), name: "Mindspeed Comcerto $1", vendor: "Mindspeed"},
	{re: lazyre.Regexp(`(?i)^MStar\s+((?:Infinity|Mercury)\d*[A-Z0-9]*)`), name: "SigmaStar/MStar $1", vendor: "SigmaStar"},
	{re: lazyre.Regexp(`(?i)\b(STiH\d{3})\b`), name: "STMicroelectronics $1", vendor: "STMicroelectronics"},
	{re: lazyre.Regexp(`(?i)\b(STM32MP\d{3}[A-F]?)\b`), name: "STMicroelectronics $1", vendor: "STMicroelectronics"},
	{re: lazyre.Regexp(`(?i)\b(S5P\d{4}|S3C\d{4}X?)\b`), name: "Samsung $1", vendor: "Samsung"},
}
