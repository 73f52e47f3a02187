package soc

// This file is boardbench's own table of SoC core configurations: how many
// cores of each type a SoC has. The generated table (socs_table.go) lists
// core types without counts and has few 32-bit SoCs; this one adds the
// counts, which tell apart SoCs with the same core types (2× Cortex-A9 is a
// RK3066, 4× a RK3188), and the 32-bit SoCs boards still run. The entries
// are public facts from vendors' product pages and datasheets; an entry
// whose vendor and name equal a generated one gives that SoC its counts.
//
// The table is a static array (no construction at start-up); lookups scan
// it, which costs microseconds for the few hundred entries.

// MIDR implementers and parts the table uses.
const (
	implARM      = 0x41
	implBroadcom = 0x42
	implNVIDIA   = 0x4e
	implQualcomm = 0x51
	implSamsung  = 0x53
	implPhytium  = 0x70

	partARM1176  = 0xb76
	partARM11MP  = 0xb02
	partA5       = 0xc05
	partA7       = 0xc07
	partA8       = 0xc08
	partA9       = 0xc09
	partA12      = 0xc0d
	partA17      = 0xc0e
	partA15      = 0xc0f
	partA53      = 0xd03
	partA35      = 0xd04
	partA55      = 0xd05
	partA57      = 0xd07
	partA72      = 0xd08
	partA73      = 0xd09
	partA75      = 0xd0a
	partA76      = 0xd0b
	partN1       = 0xd0c
	partA77      = 0xd0d
	partA78      = 0xd41
	partX1       = 0xd44
	partA510     = 0xd46
	partA710     = 0xd47
	partX2       = 0xd48
	partA715     = 0xd4d
	partX3       = 0xd4e
	partA520     = 0xd80
	partA720     = 0xd81
	partX4       = 0xd82
	partB53      = 0x100 // Broadcom Brahma-B53
	partKrait    = 0x06f
	partScorpion = 0x00f
	partDenver2  = 0x003 // NVIDIA
	partCarmel   = 0x004 // NVIDIA
	partKryo2G   = 0x800 // Qualcomm Kryo 2xx Gold
	partKryo2S   = 0x801 // Qualcomm Kryo 2xx Silver
	partKryo3G   = 0x802
	partKryo3S   = 0x803
	partKryo4G   = 0x804
	partKryo4S   = 0x805
	partExynosM1 = 0x001 // Samsung Exynos M1/M2
	partExynosM3 = 0x002
	partExynosM4 = 0x003
)

// coreCount is a number of cores of one type (MIDR implementer and part).
type coreCount struct {
	Implementer, Part, Count int
}

// socFact is one SoC with its core configuration.
type socFact struct {
	Vendor, Name string
	Cores        []coreCount
	// AES is 1 when the SoC's cores have the ARMv8 crypto extensions
	// (cpuinfo's "aes" feature), -1 when they lack them, 0 when the table
	// does not say.
	AES int8
}

// fullName is "Vendor Name", as knownSoC.fullName.
func (f *socFact) fullName() string {
	return knownSoC{Vendor: f.Vendor, Name: f.Name}.fullName()
}

// a is a shorthand for an ARM Ltd core count.
type a = coreCount

// socFacts lists SoCs by core configuration. A SoC with several possible
// readings (the RK3288's cores report part 0xc0d on some kernels, 0xc0e on
// others) has one entry per reading.
var socFacts = [...]socFact{
	// ARM11 and Cortex-A5/A8 single and dual cores.
	{"Broadcom", "BCM2835", []coreCount{{implARM, partARM1176, 1}}, 0},
	{"Samsung", "S3C6410", []coreCount{{implARM, partARM1176, 1}}, 0},
	{"PLX/Oxford Semiconductor", "OX820 (NAS7820)", []coreCount{{implARM, partARM11MP, 2}}, 0},
	{"Amlogic", "S805", []coreCount{{implARM, partA5, 4}}, 0},
	{"Qualcomm", "MSM8625Q", []coreCount{{implARM, partA5, 4}}, 0},
	{"Allwinner", "A10", []coreCount{{implARM, partA8, 1}}, 0},
	{"Allwinner", "A13", []coreCount{{implARM, partA8, 1}}, 0},
	{"Samsung", "S5PV210", []coreCount{{implARM, partA8, 1}}, 0},
	{"Texas Instruments", "AM335x", []coreCount{{implARM, partA8, 1}}, 0},
	{"Texas Instruments", "OMAP3530", []coreCount{{implARM, partA8, 1}}, 0},
	{"Texas Instruments", "DM3730/AM3703 (OMAP36xx)", []coreCount{{implARM, partA8, 1}}, 0},
	{"Texas Instruments", "DM385", []coreCount{{implARM, partA8, 1}}, 0},
	{"NXP", "i.MX53", []coreCount{{implARM, partA8, 1}}, 0},

	// Cortex-A7.
	{"Allwinner", "V3s", []coreCount{{implARM, partA7, 1}}, 0},
	{"Allwinner", "A20", []coreCount{{implARM, partA7, 2}}, 0},
	{"Allwinner", "A23", []coreCount{{implARM, partA7, 2}}, 0},
	{"Allwinner", "T113", []coreCount{{implARM, partA7, 2}}, 0},
	{"Allwinner", "A31", []coreCount{{implARM, partA7, 4}}, 0},
	{"Allwinner", "A33", []coreCount{{implARM, partA7, 4}}, 0},
	{"Allwinner", "H2+", []coreCount{{implARM, partA7, 4}}, 0},
	{"Allwinner", "H3", []coreCount{{implARM, partA7, 4}}, 0},
	{"Allwinner", "R40", []coreCount{{implARM, partA7, 4}}, 0},
	{"Allwinner", "A83T", []coreCount{{implARM, partA7, 8}}, 0},
	{"Broadcom", "BCM2836", []coreCount{{implARM, partA7, 4}}, 0},
	{"MediaTek", "MT6572", []coreCount{{implARM, partA7, 2}}, 0},
	{"MediaTek", "MT7629", []coreCount{{implARM, partA7, 2}}, 0},
	{"MediaTek", "MT6582", []coreCount{{implARM, partA7, 4}}, 0},
	{"MediaTek", "MT6589", []coreCount{{implARM, partA7, 4}}, 0},
	{"MediaTek", "MT7623", []coreCount{{implARM, partA7, 4}}, 0},
	{"MediaTek", "MT8127", []coreCount{{implARM, partA7, 4}}, 0},
	{"MediaTek", "MT6592", []coreCount{{implARM, partA7, 8}}, 0},
	{"MediaTek", "MT8135", []coreCount{{implARM, partA7, 2}, {implARM, partA15, 2}}, 0},
	{"NXP", "i.MX6UL/ULL", []coreCount{{implARM, partA7, 1}}, 0},
	{"NXP", "i.MX7 Dual", []coreCount{{implARM, partA7, 2}}, 0},
	{"Qualcomm", "MSM8610", []coreCount{{implARM, partA7, 2}}, 0},
	{"Qualcomm", "MSM8226", []coreCount{{implARM, partA7, 4}}, 0},
	{"Qualcomm", "MSM8926", []coreCount{{implARM, partA7, 4}}, 0},
	{"Qualcomm", "Snapdragon 210 (MSM8909)", []coreCount{{implARM, partA7, 4}}, 0},
	{"Rockchip", "RV1108", []coreCount{{implARM, partA7, 1}}, 0},
	{"Rockchip", "RK3036", []coreCount{{implARM, partA7, 2}}, 0},
	{"Rockchip", "RK3126", []coreCount{{implARM, partA7, 4}}, 0},
	{"Rockchip", "RK3128", []coreCount{{implARM, partA7, 4}}, 0},
	{"Rockchip", "RK3228A", []coreCount{{implARM, partA7, 4}}, 0},
	{"Rockchip", "RK3229", []coreCount{{implARM, partA7, 4}}, 0},
	{"Rockchip", "RV1126", []coreCount{{implARM, partA7, 4}}, 0},
	{"Samsung", "Exynos 3250", []coreCount{{implARM, partA7, 2}}, 0},
	{"SigmaStar", "SSD201/SSD202D", []coreCount{{implARM, partA7, 2}}, 0},
	{"STMicroelectronics", "STM32MP151", []coreCount{{implARM, partA7, 1}}, 0},
	{"STMicroelectronics", "STM32MP153/157", []coreCount{{implARM, partA7, 2}}, 0},
	{"Spreadtrum", "SC7731", []coreCount{{implARM, partA7, 4}}, 0},
	{"Spreadtrum", "SC8830", []coreCount{{implARM, partA7, 4}}, 0},
	{"HiSilicon", "Hi3798M V100", []coreCount{{implARM, partA7, 4}}, 0},

	// Cortex-A9.
	{"Amlogic", "S802", []coreCount{{implARM, partA9, 4}}, 0},
	{"Amlogic", "S812", []coreCount{{implARM, partA9, 4}}, 0},
	{"Amlogic", "8726-MX", []coreCount{{implARM, partA9, 2}}, 0},
	{"Broadcom", "BCM4708/BCM4709 (Northstar)", []coreCount{{implARM, partA9, 2}}, 0},
	{"Mindspeed", "Comcerto 2000", []coreCount{{implARM, partA9, 2}}, 0},
	{"Marvell", "Armada 385/388", []coreCount{{implARM, partA9, 2}}, 0},
	{"NVIDIA", "Tegra 2 (Tegra20)", []coreCount{{implARM, partA9, 2}}, 0},
	{"NVIDIA", "Tegra 3 (Tegra30)", []coreCount{{implARM, partA9, 4}}, 0},
	{"NXP", "i.MX6 Solo", []coreCount{{implARM, partA9, 1}}, 0},
	{"NXP", "i.MX6 Dual/DualLite", []coreCount{{implARM, partA9, 2}}, 0},
	{"NXP", "i.MX6 Quad", []coreCount{{implARM, partA9, 4}}, 0},
	{"Rockchip", "RK3066", []coreCount{{implARM, partA9, 2}}, 0},
	{"Rockchip", "RK3188", []coreCount{{implARM, partA9, 4}}, 0},
	{"Samsung", "Exynos 4210", []coreCount{{implARM, partA9, 2}}, 0},
	{"Samsung", "Exynos 4412", []coreCount{{implARM, partA9, 4}}, 0},
	{"STMicroelectronics", "STiH407/STiH410/STiH415", []coreCount{{implARM, partA9, 2}}, 0},
	{"Texas Instruments", "OMAP4430/4460/4470", []coreCount{{implARM, partA9, 2}}, 0},
	{"Xilinx", "Zynq-7000S", []coreCount{{implARM, partA9, 1}}, 0},
	{"Xilinx", "Zynq-7000", []coreCount{{implARM, partA9, 2}}, 0},
	{"Altera", "Cyclone V SoC", []coreCount{{implARM, partA9, 2}}, 0},
	{"Actions", "S500", []coreCount{{implARM, partA9, 4}}, 0},

	// Cortex-A12/A15/A17.
	{"Rockchip", "RK3288", []coreCount{{implARM, partA17, 4}}, 0},
	{"Rockchip", "RK3288", []coreCount{{implARM, partA12, 4}}, 0},
	{"NVIDIA", "Tegra 4 (Tegra114)", []coreCount{{implARM, partA15, 4}}, 0},
	{"NVIDIA", "Tegra K1 (Tegra124)", []coreCount{{implARM, partA15, 4}}, 0},
	{"Samsung", "Exynos 5250", []coreCount{{implARM, partA15, 2}}, 0},
	{"Samsung", "Exynos 5410", []coreCount{{implARM, partA7, 4}, {implARM, partA15, 4}}, 0},
	{"Samsung", "Exynos 5420/5422", []coreCount{{implARM, partA7, 4}, {implARM, partA15, 4}}, 0},
	{"Texas Instruments", "AM5718", []coreCount{{implARM, partA15, 1}}, 0},
	{"Texas Instruments", "AM5728/DRA74x", []coreCount{{implARM, partA15, 2}}, 0},
	{"Allwinner", "A80", []coreCount{{implARM, partA7, 4}, {implARM, partA15, 4}}, 0},

	// Qualcomm's own 32-bit cores.
	{"Qualcomm", "MSM8260/MSM8660", []coreCount{{implQualcomm, partScorpion, 2}}, 0},
	{"Qualcomm", "APQ8064 (Snapdragon S4 Pro)", []coreCount{{implQualcomm, partKrait, 4}}, 0},
	{"Qualcomm", "MSM8960", []coreCount{{implQualcomm, partKrait, 2}}, 0},
	{"Qualcomm", "Snapdragon 800 (MSM8974)", []coreCount{{implQualcomm, partKrait, 4}}, 0},
	{"Qualcomm", "Snapdragon 805 (APQ8084)", []coreCount{{implQualcomm, partKrait, 4}}, 0},

	// Cortex-A35/A53/A55 alone.
	{"Amlogic", "S905Y4", []coreCount{{implARM, partA35, 4}}, 0},
	{"NXP", "i.MX 8QuadXPlus", []coreCount{{implARM, partA35, 4}}, 0},
	{"Rockchip", "RK3308", []coreCount{{implARM, partA35, 4}}, 0},
	{"Rockchip", "RK3326", []coreCount{{implARM, partA35, 4}}, 0},
	{"Rockchip", "PX30", []coreCount{{implARM, partA35, 4}}, 0},
	{"Allwinner", "A64", []coreCount{{implARM, partA53, 4}}, 0},
	{"Allwinner", "H5", []coreCount{{implARM, partA53, 4}}, 0},
	{"Allwinner", "H6", []coreCount{{implARM, partA53, 4}}, 0},
	{"Allwinner", "H313", []coreCount{{implARM, partA53, 4}}, 0},
	{"Allwinner", "H616", []coreCount{{implARM, partA53, 4}}, 0},
	{"Allwinner", "H618", []coreCount{{implARM, partA53, 4}}, 1},
	{"Allwinner", "A133", []coreCount{{implARM, partA53, 4}}, 0},
	{"Allwinner", "R329", []coreCount{{implARM, partA53, 2}}, 0},
	{"Allwinner", "A523/A527/T527", []coreCount{{implARM, partA55, 8}}, 0},
	{"Airoha", "AN7581", []coreCount{{implARM, partA53, 4}}, 0},
	{"Amlogic", "A113X", []coreCount{{implARM, partA53, 4}}, 0},
	{"Amlogic", "S805X", []coreCount{{implARM, partA53, 4}}, 0},
	{"Amlogic", "S905", []coreCount{{implARM, partA53, 4}}, 0},
	{"Amlogic", "S905D", []coreCount{{implARM, partA53, 4}}, 0},
	{"Amlogic", "S905L2", []coreCount{{implARM, partA53, 4}}, 0},
	{"Amlogic", "S905W", []coreCount{{implARM, partA53, 4}}, 0},
	{"Amlogic", "S905X", []coreCount{{implARM, partA53, 4}}, 0},
	{"Amlogic", "S905Y2", []coreCount{{implARM, partA53, 4}}, 0},
	{"Amlogic", "S912", []coreCount{{implARM, partA53, 8}}, 0},
	{"Amlogic", "S905X3", []coreCount{{implARM, partA55, 4}}, 0},
	{"Amlogic", "S905X4", []coreCount{{implARM, partA55, 4}}, 0},
	{"Broadcom", "BCM2837", []coreCount{{implARM, partA53, 4}}, 0},
	{"Broadcom", "BCM4908", []coreCount{{implBroadcom, partB53, 4}}, 0},
	{"HiSilicon", "Kirin 620", []coreCount{{implARM, partA53, 8}}, 0},
	{"HiSilicon", "Kirin 650/655/658/659 (Hi6250)", []coreCount{{implARM, partA53, 8}}, 0},
	{"Huawei", "Kirin 659", []coreCount{{implARM, partA53, 8}}, 0},
	{"HiSilicon", "Hi3798C V200", []coreCount{{implARM, partA53, 4}}, 0},
	{"Marvell", "Armada 3710", []coreCount{{implARM, partA53, 1}}, 0},
	{"Marvell", "Armada 3720", []coreCount{{implARM, partA53, 2}}, 0},
	{"MediaTek", "MT6735", []coreCount{{implARM, partA53, 4}}, 0},
	{"MediaTek", "MT6752", []coreCount{{implARM, partA53, 8}}, 0},
	{"MediaTek", "MT6762/MT6765 (Helio P22/P35)", []coreCount{{implARM, partA53, 8}}, 0},
	{"MediaTek", "MT7622B", []coreCount{{implARM, partA53, 2}}, 0},
	{"MediaTek", "MT7981B", []coreCount{{implARM, partA53, 2}}, 0},
	{"MediaTek", "MT7986B", []coreCount{{implARM, partA53, 4}}, 0},
	{"MediaTek", "MT8167", []coreCount{{implARM, partA35, 4}}, 0},
	{"Nexell", "S5P6818", []coreCount{{implARM, partA53, 8}}, 0},
	{"NXP", "i.MX 8M Quad", []coreCount{{implARM, partA53, 4}}, 0},
	{"NXP", "i.MX 8M Mini/Nano/Plus", []coreCount{{implARM, partA53, 4}}, 1},
	{"NXP", "LS1012A", []coreCount{{implARM, partA53, 1}}, 0},
	{"NXP", "LS1043A", []coreCount{{implARM, partA53, 4}}, 1},
	{"NXP", "i.MX 93", []coreCount{{implARM, partA55, 2}}, 0},
	{"Qualcomm", "APQ8017", []coreCount{{implARM, partA53, 4}}, 0},
	{"Qualcomm", "Snapdragon 410 (MSM8916)", []coreCount{{implARM, partA53, 4}}, 0},
	{"Qualcomm", "Snapdragon 425 (MSM8917)", []coreCount{{implARM, partA53, 4}}, 0},
	{"Qualcomm", "Snapdragon 430 (MSM8937)", []coreCount{{implARM, partA53, 8}}, 0},
	{"Qualcomm", "Snapdragon 435 (MSM8940)", []coreCount{{implARM, partA53, 8}}, 0},
	{"Qualcomm", "Snapdragon 439 (SDM439)", []coreCount{{implARM, partA53, 8}}, 0},
	{"Qualcomm", "Snapdragon 450", []coreCount{{implARM, partA53, 8}}, 0},
	{"Qualcomm", "Snapdragon 615 (MSM8939)", []coreCount{{implARM, partA53, 8}}, 0},
	{"Qualcomm", "Snapdragon 617 (MSM8952)", []coreCount{{implARM, partA53, 8}}, 0},
	{"Qualcomm", "Snapdragon 625 (MSM8953)", []coreCount{{implARM, partA53, 8}}, 0},
	{"Realtek", "RTD1295/RTD1296", []coreCount{{implARM, partA53, 4}}, 0},
	{"Realtek", "RTD1619B", []coreCount{{implARM, partA55, 4}}, 0},
	{"Rockchip", "RK3318", []coreCount{{implARM, partA53, 4}}, 0},
	{"Rockchip", "RK3328", []coreCount{{implARM, partA53, 4}}, 1},
	{"Rockchip", "RK3368", []coreCount{{implARM, partA53, 8}}, 0},
	{"Rockchip", "RK3528", []coreCount{{implARM, partA53, 4}}, 1},
	{"Rockchip", "RK3562", []coreCount{{implARM, partA53, 4}}, 0},
	{"Rockchip", "RK3566", []coreCount{{implARM, partA55, 4}}, 1},
	{"Rockchip", "RK3568", []coreCount{{implARM, partA55, 4}}, 0},
	{"Samsung", "Exynos 7570", []coreCount{{implARM, partA53, 4}}, 0},
	{"Samsung", "Exynos 7580", []coreCount{{implARM, partA53, 8}}, 0},
	{"Samsung", "Exynos 7870", []coreCount{{implARM, partA53, 8}}, 0},
	{"Socionext", "SC2A11", []coreCount{{implARM, partA53, 24}}, 0},
	{"Sophgo", "BM1684X (SG2300X)", []coreCount{{implARM, partA53, 8}}, 0},
	{"Texas Instruments", "AM625", []coreCount{{implARM, partA53, 4}}, 1},
	{"Texas Instruments", "AM64x", []coreCount{{implARM, partA53, 2}}, 1},
	{"Texas Instruments", "AM654", []coreCount{{implARM, partA53, 4}}, 1},
	{"Xiaomi", "Surge S1", []coreCount{{implARM, partA53, 8}}, 0},
	{"Xilinx", "XCZU9EG", []coreCount{{implARM, partA53, 4}}, 0},
	{"Xilinx", "Zynq UltraScale+ CG", []coreCount{{implARM, partA53, 2}}, 0},

	// Cortex-A57/A72/A73 alone and with little cores.
	{"AMD", "Opteron A1100", []coreCount{{implARM, partA57, 8}}, 0},
	{"NVIDIA", "Tegra X1", []coreCount{{implARM, partA57, 4}}, 0},
	{"NVIDIA", "Jetson Nano", []coreCount{{implARM, partA57, 4}}, 0},
	{"NVIDIA", "Tegra X2 (Tegra186)", []coreCount{{implARM, partA57, 4}, {implNVIDIA, partDenver2, 2}}, 0},
	{"Arm", "Juno r0/r1", []coreCount{{implARM, partA53, 4}, {implARM, partA57, 2}}, 0},
	{"Arm", "Juno r2", []coreCount{{implARM, partA53, 4}, {implARM, partA72, 2}}, 1},
	{"Qualcomm", "Snapdragon 808 (MSM8992)", []coreCount{{implARM, partA53, 4}, {implARM, partA57, 2}}, 0},
	{"Qualcomm", "Snapdragon 810 (MSM8994)", []coreCount{{implARM, partA53, 4}, {implARM, partA57, 4}}, 0},
	{"Samsung", "Exynos 7420", []coreCount{{implARM, partA53, 4}, {implARM, partA57, 4}}, 0},
	{"Samsung", "Exynos 5433", []coreCount{{implARM, partA53, 4}, {implARM, partA57, 4}}, 0},
	{"Amazon", "Graviton", []coreCount{{implARM, partA72, 16}}, 0},
	{"Broadcom", "BCM2711", []coreCount{{implARM, partA72, 4}}, 0},
	{"Marvell", "Armada 8040", []coreCount{{implARM, partA72, 4}}, 0},
	{"Marvell", "Armada 7040", []coreCount{{implARM, partA72, 4}}, 1},
	{"Marvell", "CN9130", []coreCount{{implARM, partA72, 4}}, 1},
	{"NXP", "LS1028A", []coreCount{{implARM, partA72, 2}}, 0},
	{"NXP", "LS1046A", []coreCount{{implARM, partA72, 4}}, 1},
	{"NXP", "LX2160A", []coreCount{{implARM, partA72, 16}}, 0},
	{"Texas Instruments", "TDA4VM J721E", []coreCount{{implARM, partA72, 2}}, 0},
	{"HiSilicon", "Kirin 950", []coreCount{{implARM, partA53, 4}, {implARM, partA72, 4}}, 0},
	{"MediaTek", "Helio P60T (MT8173)", []coreCount{{implARM, partA53, 2}, {implARM, partA72, 2}}, 0},
	{"MediaTek", "Helio X20/X25/X27 (MT6797)", []coreCount{{implARM, partA53, 8}, {implARM, partA72, 2}}, 0},
	{"NXP", "i.MX 8QuadMax", []coreCount{{implARM, partA53, 4}, {implARM, partA72, 2}}, 1},
	{"Qualcomm", "Snapdragon 650 (MSM8956)", []coreCount{{implARM, partA53, 4}, {implARM, partA72, 2}}, 0},
	{"Qualcomm", "Snapdragon 653 (MSM8976SG)", []coreCount{{implARM, partA53, 4}, {implARM, partA72, 4}}, 0},
	{"Qualcomm", "Snapdragon 652 (MSM8976)", []coreCount{{implARM, partA53, 4}, {implARM, partA72, 4}}, 0},
	{"Rockchip", "RK3399", []coreCount{{implARM, partA53, 4}, {implARM, partA72, 2}}, 0},
	{"Rockchip", "RK3576", []coreCount{{implARM, partA53, 4}, {implARM, partA72, 4}}, 0},
	{"Amlogic", "S922X", []coreCount{{implARM, partA53, 2}, {implARM, partA73, 4}}, 0},
	{"Amlogic", "A311D", []coreCount{{implARM, partA53, 2}, {implARM, partA73, 4}}, 0},
	{"Amlogic", "A311D2", []coreCount{{implARM, partA53, 4}, {implARM, partA73, 4}}, 0},
	{"HiSilicon", "Kirin 710", []coreCount{{implARM, partA53, 4}, {implARM, partA73, 4}}, 0},
	{"HiSilicon", "Kirin 960", []coreCount{{implARM, partA53, 4}, {implARM, partA73, 4}}, 0},
	{"HiSilicon", "Kirin 970", []coreCount{{implARM, partA53, 4}, {implARM, partA73, 4}}, 0},
	{"MediaTek", "Helio P60/P70 (MT6771)", []coreCount{{implARM, partA53, 4}, {implARM, partA73, 4}}, 0},
	{"MediaTek", "MT8183", []coreCount{{implARM, partA53, 4}, {implARM, partA73, 4}}, 0},
	{"MediaTek", "MT7988A", []coreCount{{implARM, partA73, 4}}, 0},
	{"MediaTek", "Helio X30 (MT6799)", []coreCount{{implARM, partA35, 4}, {implARM, partA53, 4}, {implARM, partA73, 2}}, 0},
	{"Samsung", "Exynos 7885", []coreCount{{implARM, partA53, 6}, {implARM, partA73, 2}}, 0},
	{"Samsung", "Exynos 9610", []coreCount{{implARM, partA53, 4}, {implARM, partA73, 4}}, 0},

	// DynamIQ: Cortex-A55 with big cores.
	{"Rockchip", "RK3588", []coreCount{{implARM, partA55, 4}, {implARM, partA76, 4}}, 0},
	{"Amlogic", "S928X", []coreCount{{implARM, partA55, 4}, {implARM, partA76, 1}}, 0},
	{"HiSilicon", "Kirin 810", []coreCount{{implARM, partA55, 6}, {implARM, partA76, 2}}, 0},
	{"HiSilicon", "Kirin 980", []coreCount{{implARM, partA55, 4}, {implARM, partA76, 4}}, 0},
	{"HiSilicon", "Kirin 990", []coreCount{{implARM, partA55, 4}, {implARM, partA76, 4}}, 0},
	{"MediaTek", "Helio G90T (MT6785)", []coreCount{{implARM, partA55, 6}, {implARM, partA76, 2}}, 0},
	{"MediaTek", "Helio G95 (MT6785V)", []coreCount{{implARM, partA55, 6}, {implARM, partA76, 2}}, 0},
	{"MediaTek", "Dimensity 6300", []coreCount{{implARM, partA55, 6}, {implARM, partA76, 2}}, 0},
	{"MediaTek", "Helio G70 (MT6769V/CB)", []coreCount{{implARM, partA55, 6}, {implARM, partA75, 2}}, 0},
	{"MediaTek", "Helio G85 (MT6769Z)", []coreCount{{implARM, partA55, 6}, {implARM, partA75, 2}}, 0},
	{"MediaTek", "Helio P95 (MT6779V/CV)", []coreCount{{implARM, partA55, 6}, {implARM, partA75, 2}}, 0},
	{"Unisoc", "T7200/T606 (UMS9230)", []coreCount{{implARM, partA55, 6}, {implARM, partA75, 2}}, 0},
	{"Unisoc", "UMS9620", []coreCount{{implARM, partA55, 4}, {implARM, partA76, 4}}, 0},
	{"MediaTek", "Genio 1200", []coreCount{{implARM, partA55, 4}, {implARM, partA78, 4}}, 0},
	{"MediaTek", "Dimensity 1200 (MT6893)", []coreCount{{implARM, partA55, 4}, {implARM, partA78, 4}}, 0},
	{"MediaTek", "MT8188JV/A", []coreCount{{implARM, partA55, 6}, {implARM, partA78, 2}}, 0},
	{"Qualcomm", "QCS6490 (SC7280)", []coreCount{{implARM, partA55, 4}, {implARM, partA78, 4}}, 0},
	{"Qualcomm", "Snapdragon 695 5G (SM6375)", []coreCount{{implARM, partA55, 6}, {implARM, partA78, 2}}, 0},
	{"Qualcomm", "Snapdragon 7c (SC7180)", []coreCount{{implARM, partA55, 6}, {implARM, partA76, 2}}, 0},
	{"Qualcomm", "Snapdragon 675 (SM6150)", []coreCount{{implARM, partA55, 6}, {implARM, partA76, 2}}, 0},
	{"Qualcomm", "Snapdragon 720G (SM7125)", []coreCount{{implARM, partA55, 6}, {implARM, partA76, 2}}, 0},
	{"Qualcomm", "Snapdragon 730 (SM7150-AA)", []coreCount{{implARM, partA55, 6}, {implARM, partA76, 2}}, 0},
	{"Qualcomm", "Snapdragon 765 (SM7250-AA)", []coreCount{{implARM, partA55, 6}, {implARM, partA76, 2}}, 0},
	{"Qualcomm", "Snapdragon 855+ (SM8150P)", []coreCount{{implARM, partA55, 4}, {implARM, partA76, 4}}, 0},
	{"Qualcomm", "Snapdragon 865 (SM8250)", []coreCount{{implARM, partA55, 4}, {implARM, partA77, 4}}, 0},
	{"Qualcomm", "Snapdragon 888 (SM8350)", []coreCount{{implARM, partA55, 4}, {implARM, partA78, 3}, {implARM, partX1, 1}}, 0},
	{"Qualcomm", "Snapdragon 888+ (SM8350-AC)", []coreCount{{implARM, partA55, 4}, {implARM, partA78, 3}, {implARM, partX1, 1}}, 0},
	{"Google", "Tensor G1", []coreCount{{implARM, partA55, 4}, {implARM, partA76, 2}, {implARM, partX1, 2}}, 0},
	{"Google", "Tensor G2", []coreCount{{implARM, partA55, 4}, {implARM, partA78, 2}, {implARM, partX1, 2}}, 0},
	{"Qualcomm", "Snapdragon 8 Gen 1 (SM8450)", []coreCount{{implARM, partA510, 4}, {implARM, partA710, 3}, {implARM, partX2, 1}}, 0},
	{"Qualcomm", "Snapdragon 8+ Gen 1 (SM8475)", []coreCount{{implARM, partA510, 4}, {implARM, partA710, 3}, {implARM, partX2, 1}}, 0},
	{"MediaTek", "Dimensity 9000", []coreCount{{implARM, partA510, 4}, {implARM, partA710, 3}, {implARM, partX2, 1}}, 0},
	{"Samsung", "Exynos 2200", []coreCount{{implARM, partA510, 4}, {implARM, partA710, 3}, {implARM, partX2, 1}}, 0},
	{"Qualcomm", "Snapdragon 8 Gen 2 (SM8550)", []coreCount{{implARM, partA510, 3}, {implARM, partA710, 2}, {implARM, partA715, 2}, {implARM, partX3, 1}}, 0},
	{"Qualcomm", "Snapdragon 8 Gen 3 (SM8650)", []coreCount{{implARM, partA520, 2}, {implARM, partA720, 5}, {implARM, partX4, 1}}, 0},
	{"Samsung", "Exynos 2400", []coreCount{{implARM, partA520, 4}, {implARM, partA720, 5}, {implARM, partX4, 1}}, 0},
	{"MediaTek", "Dimensity 9300", []coreCount{{implARM, partA720, 4}, {implARM, partX4, 4}}, 0},
	{"Amazon", "Graviton 2", []coreCount{{implARM, partN1, 64}}, 0},
	{"Ampere", "Altra", []coreCount{{implARM, partN1, 80}}, 0},
	{"Ampere", "Altra Max", []coreCount{{implARM, partN1, 128}}, 0},
	{"Arm", "N1SDP", []coreCount{{implARM, partN1, 4}}, 0},

	// Vendor cores.
	{"Phytium", "FT-2000+/64", []coreCount{{implPhytium, 0x662, 64}}, 0},
	{"Phytium", "S2500", []coreCount{{implPhytium, 0x663, 64}}, 0},
	{"Phytium", "D2000/8", []coreCount{{implPhytium, 0x663, 8}}, 0},
	{"Phytium", "FT-2000/4", []coreCount{{implPhytium, 0x663, 4}}, 0},
	{"NVIDIA", "Tegra Xavier", []coreCount{{implNVIDIA, partCarmel, 8}}, 0},
	{"Qualcomm", "Snapdragon 835 (MSM8998)", []coreCount{{implQualcomm, partKryo2S, 4}, {implQualcomm, partKryo2G, 4}}, 0},
	{"Qualcomm", "Snapdragon 660 (SDM660)", []coreCount{{implQualcomm, partKryo2S, 4}, {implQualcomm, partKryo2G, 4}}, 0},
	{"Qualcomm", "Snapdragon 662 (SM6115)", []coreCount{{implQualcomm, partKryo2S, 4}, {implQualcomm, partKryo2G, 4}}, 0},
	{"Qualcomm", "Snapdragon 665 (SM6125)", []coreCount{{implQualcomm, partKryo2S, 4}, {implQualcomm, partKryo2G, 4}}, 0},
	{"Qualcomm", "Snapdragon 845 (SDM845)", []coreCount{{implQualcomm, partKryo3S, 4}, {implQualcomm, partKryo3G, 4}}, 0},
	{"Qualcomm", "Snapdragon 710 (SDM710)", []coreCount{{implQualcomm, partKryo3S, 6}, {implQualcomm, partKryo3G, 2}}, 0},
	{"Qualcomm", "Snapdragon 855 (SM8150)", []coreCount{{implQualcomm, partKryo4S, 4}, {implQualcomm, partKryo4G, 4}}, 0},
	{"Samsung", "Exynos 8890", []coreCount{{implARM, partA53, 4}, {implSamsung, partExynosM1, 4}}, 0},
	{"Samsung", "Exynos 8895", []coreCount{{implARM, partA53, 4}, {implSamsung, partExynosM1, 4}}, 0},
	{"Samsung", "Exynos 9810", []coreCount{{implARM, partA55, 4}, {implSamsung, partExynosM3, 4}}, 0},
	{"Samsung", "Exynos 9820", []coreCount{{implARM, partA55, 4}, {implARM, partA75, 2}, {implSamsung, partExynosM4, 2}}, 0},
}

// factCores returns the core counts the table records for a SoC named
// like a generated entry; nil when it has none.
func factCores(vendor, name string) []coreCount {
	for i := range socFacts {
		if socFacts[i].Vendor == vendor && socFacts[i].Name == name {
			return socFacts[i].Cores
		}
	}
	return nil
}
