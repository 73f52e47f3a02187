package soc

import (
	"boardbench/internal/lazyre"
	"strings"
)

// compatibleName names the SoC of a device-tree compatible string.
type compatibleName struct {
	compatible, soc string
}

// compatibleSoCs maps device-tree compatible strings that name a SoC (or a
// vendor kernel's name for it) to the SoC. It is a slice, static data that
// costs nothing when boardbench starts (a map literal is built at init);
// compatibleSoC scans it.
var compatibleSoCs = []compatibleName{
	// Broadcom (Raspberry Pi and others)
	{"brcm,bcm2712", "Broadcom BCM2712"},
	{"brcm,bcm2711", "Broadcom BCM2711"},
	{"brcm,bcm2837", "Broadcom BCM2837"},
	{"brcm,bcm2710", "Broadcom BCM2837 (BCM2710)"},
	{"brcm,bcm2836", "Broadcom BCM2836"},
	{"brcm,bcm2709", "Broadcom BCM2836 (BCM2709)"},
	{"brcm,bcm2835", "Broadcom BCM2835"},
	{"brcm,bcm2708", "Broadcom BCM2835 (BCM2708)"},
	{"brcm,bcm4908", "Broadcom BCM4908"},
	{"brcm,bcm4708", "Broadcom BCM4708"},
	{"brcm,bcm47094", "Broadcom BCM47094"},

	// Rockchip
	{"rockchip,rk3588", "Rockchip RK3588"},
	{"rockchip,rk3588s", "Rockchip RK3588S"},
	{"rockchip,rk3576", "Rockchip RK3576"},
	{"rockchip,rk3568", "Rockchip RK3568"},
	{"rockchip,rk3566", "Rockchip RK3566"},
	{"rockchip,rk3562", "Rockchip RK3562"},
	{"rockchip,rk3528", "Rockchip RK3528"},
	{"rockchip,rk3399", "Rockchip RK3399"},
	{"rockchip,rk3399pro", "Rockchip RK3399Pro"},
	{"rockchip,rk3368", "Rockchip RK3368"},
	{"rockchip,rk3328", "Rockchip RK3328"},
	{"rockchip,rk3326", "Rockchip RK3326"},
	{"rockchip,rk3318", "Rockchip RK3318"},
	{"rockchip,rk3308", "Rockchip RK3308"},
	{"rockchip,rk3288", "Rockchip RK3288"},
	{"rockchip,rk3229", "Rockchip RK3229"},
	{"rockchip,rk3228", "Rockchip RK3228"},
	{"rockchip,rk3188", "Rockchip RK3188"},
	{"rockchip,rk3128", "Rockchip RK3128"},
	{"rockchip,rk3066a", "Rockchip RK3066A"},
	{"rockchip,rk3036", "Rockchip RK3036"},
	{"rockchip,px30", "Rockchip PX30"},
	{"rockchip,rv1108", "Rockchip RV1108"},
	{"rockchip,rv1109", "Rockchip RV1109"},
	{"rockchip,rv1126", "Rockchip RV1126"},

	// Allwinner (mainline names)
	{"allwinner,sun4i-a10", "Allwinner A10"},
	{"allwinner,sun5i-a10s", "Allwinner A10s"},
	{"allwinner,sun5i-a13", "Allwinner A13"},
	{"allwinner,sun5i-r8", "Allwinner R8"},
	{"allwinner,sun6i-a31", "Allwinner A31"},
	{"allwinner,sun6i-a31s", "Allwinner A31s"},
	{"allwinner,sun7i-a20", "Allwinner A20"},
	{"allwinner,sun8i-a23", "Allwinner A23"},
	{"allwinner,sun8i-a33", "Allwinner A33"},
	{"allwinner,sun8i-a83t", "Allwinner A83T"},
	{"allwinner,sun8i-h2-plus", "Allwinner H2+"},
	{"allwinner,sun8i-h3", "Allwinner H3"},
	{"allwinner,sun8i-r40", "Allwinner R40"},
	{"allwinner,sun8i-v3s", "Allwinner V3s"},
	{"allwinner,sun8i-v3", "Allwinner V3"},
	{"allwinner,sun8i-s3", "Allwinner S3"},
	{"allwinner,sun8i-t113s", "Allwinner T113-S"},
	{"allwinner,sun9i-a80", "Allwinner A80"},
	{"allwinner,sun20i-d1", "Allwinner D1"},
	{"allwinner,sun20i-d1s", "Allwinner D1s"},
	{"allwinner,sun50i-a64", "Allwinner A64"},
	{"allwinner,sun50i-h5", "Allwinner H5"},
	{"allwinner,sun50i-h6", "Allwinner H6"},
	{"allwinner,sun50i-h616", "Allwinner H616"},
	{"allwinner,sun50i-h618", "Allwinner H618"},
	{"allwinner,sun50i-a100", "Allwinner A100"},
	{"allwinner,sun55i-a523", "Allwinner A523"},
	{"allwinner,sun55i-t527", "Allwinner T527"},
	// Allwinner (vendor kernel names)
	{"arm,sun8iw7p1", "Allwinner H3"},
	{"arm,sun50iw1p1", "Allwinner A64"},
	{"arm,sun50iw2p1", "Allwinner H5"},
	{"arm,sun50iw6p1", "Allwinner H6"},
	{"arm,sun50iw9p1", "Allwinner H616/H618/H313 (sun50iw9)"},
	{"arm,sun50iw10p1", "Allwinner A100/A133 (sun50iw10)"},
	{"arm,sun50iw11p1", "Allwinner R329"},
	{"arm,sun55iw3p1", "Allwinner A523/A527/T527 (sun55iw3)"},

	// Amlogic
	{"amlogic,meson6", "Amlogic 8726-MX (Meson6)"},
	{"amlogic,meson8", "Amlogic S802 (Meson8)"},
	{"amlogic,meson8b", "Amlogic S805 (Meson8b)"},
	{"amlogic,meson8m2", "Amlogic S812 (Meson8m2)"},
	{"amlogic,meson-gxbb", "Amlogic S905 (GXBB)"},
	{"amlogic,s905", "Amlogic S905"},
	{"amlogic,meson-gxl", "Amlogic S905X/S905D/S905W/S805X (GXL)"},
	{"amlogic,s905x", "Amlogic S905X"},
	{"amlogic,s905d", "Amlogic S905D"},
	{"amlogic,s905w", "Amlogic S905W"},
	{"amlogic,s805x", "Amlogic S805X"},
	{"amlogic,meson-gxm", "Amlogic S912 (GXM)"},
	{"amlogic,s912", "Amlogic S912"},
	{"amlogic,meson-axg", "Amlogic A113X/A113D (AXG)"},
	{"amlogic,a113d", "Amlogic A113D"},
	{"amlogic,g12a", "Amlogic S905X2/S905Y2/S905D2 (G12A)"},
	{"amlogic,meson-g12a", "Amlogic S905X2/S905Y2/S905D2 (G12A)"},
	{"amlogic,g12b", "Amlogic S922X/A311D (G12B)"},
	{"amlogic,meson-g12b", "Amlogic S922X/A311D (G12B)"},
	{"amlogic,s922x", "Amlogic S922X"},
	{"amlogic,a311d", "Amlogic A311D"},
	{"amlogic,sm1", "Amlogic S905X3/S905D3/S905Y3 (SM1)"},
	{"amlogic,meson-sm1", "Amlogic S905X3/S905D3/S905Y3 (SM1)"},
	{"amlogic,a1", "Amlogic A113L (A1)"},
	{"amlogic,c3", "Amlogic C308L (C3)"},
	{"amlogic,s4", "Amlogic S805X2/S905Y4 (S4)"},
	{"amlogic,t7", "Amlogic A311D2 (T7)"},
	{"amlogic,a311d2", "Amlogic A311D2"},
	{"amlogic,meson-s4", "Amlogic S805X2/S905Y4 (S4)"},
	{"amlogic,meson-gxlx2", "Amlogic S905L (GXLX2)"},

	// Qualcomm (marketing names where they are well known; other qcom,
	// SoC names are handled by a pattern below)
	{"qcom,msm8916", "Qualcomm Snapdragon 410 (MSM8916)"},
	{"qcom,apq8016", "Qualcomm APQ8016 (Snapdragon 410)"},
	{"qcom,msm8953", "Qualcomm Snapdragon 625 (MSM8953)"},
	{"qcom,msm8996", "Qualcomm Snapdragon 820 (MSM8996)"},
	{"qcom,apq8096", "Qualcomm APQ8096 (Snapdragon 820)"},
	{"qcom,msm8998", "Qualcomm Snapdragon 835 (MSM8998)"},
	{"qcom,sdm845", "Qualcomm Snapdragon 845 (SDM845)"},
	{"qcom,sdm850", "Qualcomm Snapdragon 850 (SDM850)"},
	{"qcom,sm8150", "Qualcomm Snapdragon 855 (SM8150)"},
	{"qcom,sm8250", "Qualcomm Snapdragon 865 (SM8250)"},
	{"qcom,kona", "Qualcomm Snapdragon 865 (SM8250)"},
	{"qcom,qrb5165", "Qualcomm QRB5165 (Snapdragon 865 class)"},
	{"qcom,sm8350", "Qualcomm Snapdragon 888 (SM8350)"},
	{"qcom,sm8450", "Qualcomm Snapdragon 8 Gen 1 (SM8450)"},
	{"qcom,sm8550", "Qualcomm Snapdragon 8 Gen 2 (SM8550)"},
	{"qcom,sm8650", "Qualcomm Snapdragon 8 Gen 3 (SM8650)"},
	{"qcom,sm8750", "Qualcomm Snapdragon 8 Elite (SM8750)"},
	{"qcom,sdm660", "Qualcomm Snapdragon 660 (SDM660)"},
	{"qcom,sm6115", "Qualcomm Snapdragon 662 (SM6115)"},
	{"qcom,sm6125", "Qualcomm Snapdragon 665 (SM6125)"},
	{"qcom,sm7125", "Qualcomm Snapdragon 720G (SM7125)"},
	{"qcom,sc7180", "Qualcomm Snapdragon 7c (SC7180)"},
	{"qcom,sc7280", "Qualcomm SC7280"},
	{"qcom,qcm6490", "Qualcomm QCM6490"},
	{"qcom,qcs6490", "Qualcomm QCS6490"},
	{"qcom,sc8180x", "Qualcomm Snapdragon 8cx (SC8180X)"},
	{"qcom,sc8280xp", "Qualcomm Snapdragon 8cx Gen 3 (SC8280XP)"},
	{"qcom,x1e80100", "Qualcomm Snapdragon X Elite (X1E80100)"},
	{"qcom,x1e78100", "Qualcomm Snapdragon X Elite (X1E78100)"},
	{"qcom,x1p42100", "Qualcomm Snapdragon X Plus (X1P42100)"},
	{"qcom,qcs404", "Qualcomm QCS404"},
	{"qcom,ipq8074", "Qualcomm IPQ8074"},
	{"qcom,ipq6018", "Qualcomm IPQ6018"},
	{"qcom,ipq4019", "Qualcomm IPQ4019"},
	{"qcom,apq8064", "Qualcomm APQ8064 (Snapdragon S4 Pro)"},
	{"qcom,msm8974", "Qualcomm Snapdragon 800 (MSM8974)"},
	{"qcom,msm8974pro", "Qualcomm Snapdragon 801 (MSM8974PRO)"},

	// NVIDIA
	{"nvidia,tegra20", "NVIDIA Tegra 2 (Tegra20)"},
	{"nvidia,tegra30", "NVIDIA Tegra 3 (Tegra30)"},
	{"nvidia,tegra114", "NVIDIA Tegra 4 (Tegra114)"},
	{"nvidia,tegra124", "NVIDIA Tegra K1 (Tegra124)"},
	{"nvidia,tegra132", "NVIDIA Tegra K1 64-bit (Tegra132)"},
	{"nvidia,tegra210", "NVIDIA Tegra X1 (Tegra210)"},
	{"nvidia,tegra186", "NVIDIA Tegra X2 (Tegra186)"},
	{"nvidia,tegra194", "NVIDIA Xavier (Tegra194)"},
	{"nvidia,tegra234", "NVIDIA Orin (Tegra234)"},
	{"nvidia,tegra264", "NVIDIA Thor (Tegra264)"},

	// NXP / Freescale
	{"fsl,imx8mq", "NXP i.MX 8M Quad"},
	{"fsl,imx8mm", "NXP i.MX 8M Mini"},
	{"fsl,imx8mn", "NXP i.MX 8M Nano"},
	{"fsl,imx8mp", "NXP i.MX 8M Plus"},
	{"fsl,imx8qm", "NXP i.MX 8QuadMax"},
	{"fsl,imx8qxp", "NXP i.MX 8QuadXPlus"},
	{"fsl,imx8dxl", "NXP i.MX 8DXL"},
	{"fsl,imx8ulp", "NXP i.MX 8ULP"},
	{"fsl,imx91", "NXP i.MX 91"},
	{"fsl,imx93", "NXP i.MX 93"},
	{"fsl,imx95", "NXP i.MX 95"},
	{"fsl,imx7d", "NXP i.MX 7Dual"},
	{"fsl,imx7s", "NXP i.MX 7Solo"},
	{"fsl,imx6q", "NXP i.MX 6Quad"},
	{"fsl,imx6qp", "NXP i.MX 6QuadPlus"},
	{"fsl,imx6dl", "NXP i.MX 6DualLite/Solo"},
	{"fsl,imx6sx", "NXP i.MX 6SoloX"},
	{"fsl,imx6sl", "NXP i.MX 6SoloLite"},
	{"fsl,imx6ul", "NXP i.MX 6UltraLite"},
	{"fsl,imx6ull", "NXP i.MX 6ULL"},
	{"fsl,imx53", "Freescale i.MX53"},
	{"fsl,imx51", "Freescale i.MX51"},
	{"fsl,imx28", "Freescale i.MX28"},
	{"fsl,ls1012a", "NXP LS1012A"},
	{"fsl,ls1021a", "NXP LS1021A"},
	{"fsl,ls1028a", "NXP LS1028A"},
	{"fsl,ls1043a", "NXP LS1043A"},
	{"fsl,ls1046a", "NXP LS1046A"},
	{"fsl,ls1088a", "NXP LS1088A"},
	{"fsl,ls2088a", "NXP LS2088A"},
	{"fsl,lx2160a", "NXP LX2160A"},

	// Texas Instruments
	{"ti,am625", "TI AM625"},
	{"ti,am62a7", "TI AM62A7"},
	{"ti,am62p5", "TI AM62P5"},
	{"ti,am642", "TI AM642"},
	{"ti,am654", "TI AM654"},
	{"ti,j721e", "TI J721E (TDA4VM)"},
	{"ti,j721s2", "TI J721S2"},
	{"ti,j784s4", "TI J784S4"},
	{"ti,j722s", "TI J722S"},
	{"ti,am33xx", "TI AM335x"},
	{"ti,am4372", "TI AM437x"},
	{"ti,am5728", "TI AM5728"},
	{"ti,dra7", "TI DRA7xx / AM57xx family"},
	{"ti,omap3430", "TI OMAP3430"},
	{"ti,omap3630", "TI OMAP3630 / DM3730 family"},
	{"ti,omap36xx", "TI OMAP36xx / DM37xx family"},
	{"ti,omap3", "TI OMAP3 family"},
	{"ti,omap4430", "TI OMAP4430"},
	{"ti,omap4460", "TI OMAP4460"},
	{"ti,omap4", "TI OMAP4 family"},
	{"ti,omap5", "TI OMAP5"},

	// Samsung and Google
	{"samsung,exynos3250", "Samsung Exynos 3250"},
	{"samsung,exynos4210", "Samsung Exynos 4210"},
	{"samsung,exynos4412", "Samsung Exynos 4412"},
	{"samsung,exynos5250", "Samsung Exynos 5250"},
	{"samsung,exynos5410", "Samsung Exynos 5410"},
	{"samsung,exynos5420", "Samsung Exynos 5420"},
	{"samsung,exynos5800", "Samsung Exynos 5422/5800"},
	{"samsung,exynos5433", "Samsung Exynos 5433"},
	{"samsung,exynos7", "Samsung Exynos 7"},
	{"samsung,exynos850", "Samsung Exynos 850"},
	{"samsung,exynosautov9", "Samsung Exynos Auto V9"},
	{"google,gs101", "Google Tensor (GS101)"},

	// RISC-V
	{"starfive,jh7110", "StarFive JH7110"},
	{"starfive,jh7100", "StarFive JH7100"},
	{"thead,th1520", "T-Head TH1520"},
	{"thead,light", "T-Head TH1520"},
	{"spacemit,k1", "SpacemiT K1"},
	{"spacemit,k1-x", "SpacemiT K1"},
	{"sophgo,sg2042", "Sophgo SG2042"},
	{"sophgo,mango", "Sophgo SG2042"},
	{"sophgo,sg2044", "Sophgo SG2044"},
	{"sophgo,sg2000", "Sophgo SG2000"},
	{"sophgo,sg2002", "Sophgo SG2002"},
	{"sophgo,cv1800b", "Sophgo CV1800B"},
	{"sophgo,cv1812h", "Sophgo CV1812H"},
	{"cvitek,cv1800b", "CVITEK CV1800B"},
	{"cvitek,cv1812h", "CVITEK CV1812H"},
	{"sifive,fu740-c000", "SiFive FU740"},
	{"sifive,fu540-c000", "SiFive FU540"},
	{"canaan,kendryte-k210", "Canaan Kendryte K210"},
	{"eswin,eic7700", "ESWIN EIC7700"},
	{"microchip,mpfs", "Microchip PolarFire SoC"},
	{"renesas,r9a07g043", "Renesas RZ/G2UL or RZ/Five (R9A07G043)"},
	{"renesas,r9a07g044", "Renesas RZ/G2L (R9A07G044)"},
	{"renesas,r9a07g054", "Renesas RZ/V2L (R9A07G054)"},

	// Marvell
	{"marvell,armada3720", "Marvell Armada 3720"},
	{"marvell,armada3710", "Marvell Armada 3710"},
	{"marvell,armada8040", "Marvell Armada 8040"},
	{"marvell,armada7040", "Marvell Armada 7040"},
	{"marvell,cn9130", "Marvell CN9130"},
	{"marvell,armada388", "Marvell Armada 388"},
	{"marvell,armada385", "Marvell Armada 385"},
	{"marvell,armada380", "Marvell Armada 380"},
	{"marvell,armada375", "Marvell Armada 375"},
	{"marvell,armada370", "Marvell Armada 370"},
	{"marvell,armadaxp", "Marvell Armada XP"},
	{"marvell,kirkwood", "Marvell Kirkwood"},
	{"marvell,pxa1908", "Marvell PXA1908"},

	// Others
	{"apple,t8103", "Apple M1 (T8103)"},
	{"apple,t6000", "Apple M1 Pro (T6000)"},
	{"apple,t6001", "Apple M1 Max (T6001)"},
	{"apple,t6002", "Apple M1 Ultra (T6002)"},
	{"apple,t8112", "Apple M2 (T8112)"},
	{"apple,t6020", "Apple M2 Pro (T6020)"},
	{"apple,t6021", "Apple M2 Max (T6021)"},
	{"amd,seattle", "AMD Opteron A1100 (Seattle)"},
	{"nexell,s5p6818", "Nexell S5P6818"},
	{"sprd,ums9620", "Unisoc UMS9620"},
	{"sprd,ums512", "Unisoc UMS512"},
	{"sprd,sc9863a", "Unisoc SC9863A"},
	{"hisilicon,hi3660", "HiSilicon Kirin 960 (Hi3660)"},
	{"hisilicon,hi3670", "HiSilicon Kirin 970 (Hi3670)"},
	{"hisilicon,hi6220", "HiSilicon Kirin 620 (Hi6220)"},
	{"hisilicon,hi3798cv200", "HiSilicon Hi3798CV200"},
	{"realtek,rtd1295", "Realtek RTD1295"},
	{"realtek,rtd1296", "Realtek RTD1296"},
	{"realtek,rtd1395", "Realtek RTD1395"},
	{"realtek,rtd1619", "Realtek RTD1619"},
	{"xlnx,zynqmp", "Xilinx Zynq UltraScale+ MPSoC"},
	{"xlnx,zynq-7000", "Xilinx Zynq-7000"},
	{"st,stm32mp157", "ST STM32MP157"},
	{"st,stm32mp153", "ST STM32MP153"},
	{"st,stm32mp151", "ST STM32MP151"},
	{"st,stm32mp135", "ST STM32MP135"},
	{"st,stm32mp257", "ST STM32MP257"},
	{"ingenic,jz4780", "Ingenic JZ4780"},
	{"ingenic,x1000", "Ingenic X1000"},
	{"actions,s500", "Actions S500"},
	{"actions,s700", "Actions S700"},
	{"actions,s900", "Actions S900"},
	{"loongson,ls2k1000", "Loongson 2K1000"},
	{"mediatek,mt7623", "MediaTek MT7623"},
}

// compatibleSoC returns the SoC compatibleSoCs names for the compatible
// string c (lower case).
func compatibleSoC(c string) (string, bool) {
	for _, e := range compatibleSoCs {
		if e.compatible == c {
			return e.soc, true
		}
	}
	return "", false
}

// compatiblePattern names SoCs by the shape of a vendor's compatible
// strings, for SoCs not in compatibleSoCs. The capture is upper-cased
// after the prefix. Every pattern starts with its vendor's "vendor,",
// checked before the expression is compiled and run: a description
// compiles only the pattern of its own vendor.
type compatiblePattern struct {
	re     lazyre.Regexp
	prefix string
}

// vendor returns the literal "vendor," the pattern's expression starts with.
func (p compatiblePattern) vendor() string {
	e := strings.TrimPrefix(p.re.String(), "^")
	if i := strings.IndexByte(e, ','); i > 0 {
		return e[:i+1]
	}
	return ""
}

var compatiblePatterns = []compatiblePattern{
	{lazyre.Regexp(`^rockchip,((?:rk|rv|px)\d+[a-z]?)$`), "Rockchip "},
	{lazyre.Regexp(`^allwinner,sun\d+i-([a-z]\d+[a-z0-9]*)$`), "Allwinner "},
	{lazyre.Regexp(`^qcom,((?:msm|apq|sdm|sm|sc|sa|qcs|qcm|qrb|ipq|x1e|x1p|sdx)\d+[a-z0-9]*)$`), "Qualcomm "},
	{lazyre.Regexp(`^mediatek,(mt\d+[a-z]?)$`), "MediaTek "},
	{lazyre.Regexp(`^nvidia,(tegra\d+)$`), "NVIDIA "},
	{lazyre.Regexp(`^fsl,((?:ls|lx)\d+a?)$`), "NXP "},
	{lazyre.Regexp(`^ti,((?:am|j7)\d+[a-z0-9]*)$`), "TI "},
	{lazyre.Regexp(`^samsung,(exynos\d+)$`), "Samsung "},
	{lazyre.Regexp(`^amlogic,((?:s|a|t)\d{3}[a-z0-9]*)$`), "Amlogic "},
	{lazyre.Regexp(`^starfive,(jh\d+)$`), "StarFive "},
	{lazyre.Regexp(`^sophgo,((?:sg|cv)\d+[a-z]?)$`), "Sophgo "},
	{lazyre.Regexp(`^sprd,((?:ums|sc)\d+[a-z]?)$`), "Unisoc "},
}

// socFromCompatible returns the SoC named by the first compatible string the
// table or a pattern knows, with that string; "" when none is known. A
// board's string that starts with a SoC's name ("qcom,qcs6490-rb3gen2",
// "rockchip,rk3588s-orangepi-5") counts: it comes first in the list and is
// often more specific than the SoC family string after it.
func socFromCompatible(compatible []string) (name, matched string) {
	for _, c := range compatible {
		c = strings.ToLower(strings.TrimSpace(c))
		if n := socFromOneCompatible(c); n != "" {
			return n, c
		}
		if i := strings.IndexByte(c, '-'); i > 0 && strings.Contains(c[:i], ",") {
			if n := socFromOneCompatible(c[:i]); n != "" {
				return n, c
			}
		}
	}
	return "", ""
}

// socFromOneCompatible names the SoC of one compatible string by the table,
// then by the vendor patterns; "" when neither knows it.
func socFromOneCompatible(c string) string {
	if n, ok := compatibleSoC(c); ok {
		return n
	}
	for _, p := range compatiblePatterns {
		if !strings.HasPrefix(c, p.vendor()) {
			continue
		}
		if m := p.re.FindStringSubmatch(c); m != nil {
			return p.prefix + strings.ToUpper(m[1])
		}
	}
	return ""
}
