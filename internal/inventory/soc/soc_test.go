package soc

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/testutil/fixture"
)

// cpus builds a cpu.Info by hand: groups of (count, implementer, part, name).
func cpus(groups ...any) cpu.Info {
	var in cpu.Info
	id := 0
	for i := 0; i+3 < len(groups); i += 4 {
		for n := 0; n < groups[i].(int); n++ {
			in.CPUs = append(in.CPUs, cpu.CPU{ID: id, Implementer: groups[i+1].(string), Part: groups[i+2].(string),
				CoreName: groups[i+3].(string), Core: groups[i+3].(string)})
			id++
		}
	}
	in.Arch = "arm64"
	return in
}

// cpuinfoBlocks renders /proc/cpuinfo processor blocks for n cores.
func cpuinfoBlocks(first, n int, impl, variant, part string, rev int, features string) string {
	var b strings.Builder
	for i := first; i < first+n; i++ {
		b.WriteString("processor\t: " + strconv.Itoa(i) + "\nBogoMIPS\t: 48.00\nFeatures\t: " + features +
			"\nCPU implementer\t: " + impl + "\nCPU architecture: 8\nCPU variant\t: " + variant +
			"\nCPU part\t: " + part + "\nCPU revision\t: " + strconv.Itoa(rev) + "\n\n")
	}
	return b.String()
}

const (
	featA55 = "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp"
	featA53 = "fp asimd evtstrm aes pmull sha1 sha2 crc32 cpuid"
)

func TestGuessPrecedence(t *testing.T) {
	rk3588cpus := cpus(4, "0x41", "0xd05", "Cortex-A55", 4, "0x41", "0xd0b", "Cortex-A76")
	a53cpus := cpus(4, "0x41", "0xd03", "Cortex-A53")
	a53info := cpuinfoBlocks(0, 4, "0x41", "0x0", "0xd03", 4, featA53)
	cases := []struct {
		name       string
		files      map[string]string
		cpu        cpu.Info
		guess      string
		confidence string
		candidate  string // must be among the candidates when set
	}{
		{"device tree beats Hardware line and cores", map[string]string{
			"/sys/firmware/devicetree/base/model":      "Radxa ROCK 5B\x00",
			"/sys/firmware/devicetree/base/compatible": "radxa,rock-5b\x00rockchip,rk3588\x00",
			"/proc/device-tree":                        "->/sys/firmware/devicetree/base",
			"/proc/cpuinfo":                            a53info + "Hardware\t: sun8i\n",
		}, a53cpus, "Rockchip RK3588", ConfidenceDeviceTree, ""},
		{"Hardware line beats cores", map[string]string{
			"/proc/cpuinfo": a53info + "Hardware\t: sun50iw9\n",
		}, a53cpus, "Allwinner H616/H618/H313 (sun50iw9)", ConfidenceCPUInfoHardware, ""},
		{"Hardware line with a Rockchip part number", map[string]string{
			"/proc/cpuinfo": "Hardware\t: Rockchip RK3399\n",
		}, cpu.Info{}, "Rockchip RK3399", ConfidenceCPUInfoHardware, ""},
		{"vendor-only Hardware line narrowed by cores", map[string]string{
			"/proc/cpuinfo": cpuinfoBlocks(0, 4, "0x41", "0x2", "0xd05", 0, featA55) + "Hardware\t: Amlogic\n",
		}, cpus(4, "0x41", "0xd05", "Cortex-A55"), "", ConfidenceCoreCombination, "Amlogic S905X3"},
		{"cores alone", map[string]string{
			"/proc/cpuinfo": cpuinfoBlocks(0, 4, "0x41", "0x2", "0xd05", 0, featA55) + cpuinfoBlocks(4, 4, "0x41", "0x4", "0xd0b", 0, featA55),
		}, rk3588cpus, "", ConfidenceCoreCombination, "Rockchip RK3588"},
		{"cores from cpuinfo when the cpu section is empty", map[string]string{
			"/proc/cpuinfo": cpuinfoBlocks(0, 4, "0x41", "0x2", "0xd05", 0, featA55) + cpuinfoBlocks(4, 4, "0x41", "0x4", "0xd0b", 0, featA55),
		}, cpu.Info{}, "", ConfidenceCoreCombination, "Rockchip RK3588"},
		{"too many candidates", map[string]string{"/proc/cpuinfo": a53info}, a53cpus, "", ConfidenceNone, "Allwinner H616"},
		{"Raspberry Pi kernel's BCM2835 on Cortex-A72", map[string]string{
			"/proc/cpuinfo": cpuinfoBlocks(0, 4, "0x41", "0x0", "0xd08", 3, "fp asimd evtstrm crc32 cpuid") + "Hardware\t: BCM2835\n",
		}, cpus(4, "0x41", "0xd08", "Cortex-A72"), "Broadcom BCM2711", ConfidenceCPUInfoHardware, ""},
		{"x86 model name", map[string]string{
			"/proc/cpuinfo": "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) N100\n",
		}, cpu.Info{Arch: "x86_64"}, "Intel(R) N100", ConfidenceCPUModel, ""},
		{"QEMU virt machine", map[string]string{
			"/proc/device-tree/compatible": "linux,dummy-virt\x00",
		}, cpus(2, "0x41", "0xd08", "Cortex-A72"), "QEMU virtual machine (no physical SoC)", ConfidenceDeviceTree, ""},
		{"nothing known", map[string]string{"/proc/cpuinfo": "processor\t: 0\nisa\t: rv64imafdc\n"},
			cpu.Info{Arch: "riscv64"}, "", ConfidenceNone, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, s := Collect(fixture.Host(t, c.files), c.cpu, true)
			if s.Confidence != c.confidence || (c.guess != "" && s.Guess != c.guess) {
				t.Errorf("got %q (%s), want %q (%s); reason: %s", s.Guess, s.Confidence, c.guess, c.confidence, s.Reason)
			}
			if c.confidence == ConfidenceNone && c.guess == "" && s.Guess != "" {
				t.Errorf("guess %q, want none", s.Guess)
			}
			if s.Reason == "" || s.Candidates == nil {
				t.Errorf("reason %q, candidates %v: want a reason and a non-nil list", s.Reason, s.Candidates)
			}
			if c.candidate != "" && !contains(s.Candidates, c.candidate) {
				t.Errorf("candidates %v lack %q", s.Candidates, c.candidate)
			}
			if c.confidence == ConfidenceCoreCombination && !strings.Contains(s.Reason, "guess from the core combination") {
				t.Errorf("reason %q does not say it is a guess from the cores", s.Reason)
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestRaspberryPiBoard(t *testing.T) {
	pi4cpuinfo := cpuinfoBlocks(0, 4, "0x41", "0x0", "0xd08", 3, "fp asimd evtstrm crc32 cpuid") +
		"Hardware\t: BCM2835\nRevision\t: c03114\nSerial\t\t: 10000000abcdef01\nModel\t\t: Raspberry Pi 4 Model B Rev 1.4\n"
	cases := []struct {
		name        string
		files       map[string]string
		model       string
		modelSource string
		piModel     string // "" wants no revision decoded
		piSource    string
		soc         string
		confidence  string
	}{
		{"Pi 4 with device tree", map[string]string{
			"/proc/device-tree/model":      "Raspberry Pi 4 Model B Rev 1.4\x00",
			"/proc/device-tree/compatible": "raspberrypi,4-model-b\x00brcm,bcm2711\x00",
			"/proc/cpuinfo":                pi4cpuinfo,
		}, "Raspberry Pi 4 Model B Rev 1.4", "device-tree", "Raspberry Pi 4 Model B", "/proc/cpuinfo", "Broadcom BCM2711", ConfidenceDeviceTree},
		{"old Pi without device tree", map[string]string{
			"/proc/cpuinfo": "Processor\t: ARMv6-compatible processor rev 7 (v6l)\nHardware\t: BCM2708\nRevision\t: 000e\n",
		}, "Raspberry Pi Model B", "raspberry-pi-revision", "Raspberry Pi Model B", "/proc/cpuinfo", "Broadcom BCM2835", ConfidenceRevision},
		{"Pi 5 on a mainline arm64 kernel: revision from the device tree", map[string]string{
			"/proc/device-tree/model":                 "Raspberry Pi 5 Model B Rev 1.0\x00",
			"/proc/device-tree/compatible":            "raspberrypi,5-model-b\x00brcm,bcm2712\x00",
			"/proc/device-tree/system/linux,revision": "\x00\xd0\x41\x70",
			"/proc/cpuinfo":                           cpuinfoBlocks(0, 4, "0x41", "0x4", "0xd0b", 1, featA55),
		}, "Raspberry Pi 5 Model B Rev 1.0", "device-tree", "Raspberry Pi 5", "device-tree", "Broadcom BCM2712", ConfidenceDeviceTree},
		{"Pi Zero 2 W", map[string]string{
			"/proc/device-tree/model":      "Raspberry Pi Zero 2 W Rev 1.0\x00",
			"/proc/device-tree/compatible": "raspberrypi,model-zero-2-w\x00brcm,bcm2837\x00",
			"/proc/cpuinfo":                "Hardware\t: BCM2835\nRevision\t: 902120\n",
		}, "Raspberry Pi Zero 2 W Rev 1.0", "device-tree", "Raspberry Pi Zero 2 W", "/proc/cpuinfo", "Broadcom BCM2837", ConfidenceDeviceTree},
		{"non-Pi board printing Revision 0000", map[string]string{
			"/proc/device-tree/model":      "Xunlong Orange Pi PC\x00",
			"/proc/device-tree/compatible": "xunlong,orangepi-pc\x00allwinner,sun8i-h3\x00",
			"/proc/cpuinfo":                "Hardware\t: Allwinner sun8i Family\nRevision\t: 0000\n",
		}, "Xunlong Orange Pi PC", "device-tree", "", "", "Allwinner H3", ConfidenceDeviceTree},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, s := Collect(fixture.Host(t, c.files), cpu.Info{}, true)
			if b.Model != c.model || b.ModelSource != c.modelSource {
				t.Errorf("model %q from %q, want %q from %q", b.Model, b.ModelSource, c.model, c.modelSource)
			}
			switch {
			case c.piModel == "" && b.RaspberryPi != nil:
				t.Errorf("revision decoded on a non-Pi: %+v", b.RaspberryPi)
			case c.piModel != "" && (b.RaspberryPi == nil || b.RaspberryPi.Model != c.piModel || b.RaspberryPiSource != c.piSource):
				t.Errorf("revision %+v from %q, want %q from %q", b.RaspberryPi, b.RaspberryPiSource, c.piModel, c.piSource)
			}
			if s.Guess != c.soc || s.Confidence != c.confidence {
				t.Errorf("SoC %q (%s), want %q (%s)", s.Guess, s.Confidence, c.soc, c.confidence)
			}
		})
	}
}

func TestBoardNotesAndJunk(t *testing.T) {
	// Unknown revision code on a Pi: kept, flagged.
	b, _ := Collect(fixture.Host(t, map[string]string{"/proc/cpuinfo": "Hardware\t: BCM2835\nRevision\t: a021f0\n"}), cpu.Info{}, true)
	if b.RaspberryPi == nil || b.RaspberryPi.Known || len(b.Notes) == 0 {
		t.Errorf("unknown code: %+v, notes %v", b.RaspberryPi, b.Notes)
	}
	// Binary junk in device-tree strings and cpuinfo.
	b, s := Collect(fixture.Host(t, map[string]string{
		"/proc/device-tree/model":      "\xff\xfeBoard\x01\x00\x00",
		"/proc/device-tree/compatible": "\x00\x00\xff\x00vendor,board\x00",
		"/proc/cpuinfo":                "\x00\x01:\x02\nprocessor : -1\nCPU part : zz\nHardware :\n::::\n",
	}), cpu.Info{CPUs: []cpu.CPU{{ID: 0, Implementer: "junk", Part: "0x"}}}, false)
	if b.Model != "Board" || !reflect.DeepEqual(b.Compatible, []string{"vendor,board"}) || s.Confidence != ConfidenceNone {
		t.Errorf("junk: model %q compatible %q soc %+v", b.Model, b.Compatible, s)
	}
	// Nothing at all.
	b, s = Collect(fixture.Host(t, map[string]string{"/etc/hostname": "x"}), cpu.Info{}, true)
	if b.Model != "" || len(b.Notes) < 2 || s.Guess != "" || s.Confidence != ConfidenceNone {
		t.Errorf("empty root: %+v %+v", b, s)
	}
}

func TestDMI(t *testing.T) {
	rec := host.NewRecorder()
	h := fixture.Host(t, map[string]string{
		"/sys/class/dmi/id/sys_vendor":     "To Be Filled By O.E.M.\n",
		"/sys/class/dmi/id/product_name":   "To Be Filled By O.E.M.\n",
		"/sys/class/dmi/id/board_vendor":   "ASRock\n",
		"/sys/class/dmi/id/board_name":     "N100DC-ITX\n",
		"/sys/class/dmi/id/bios_version":   "1.30\n",
		"/sys/class/dmi/id/product_serial": "SECRET123\n",
		"/sys/class/dmi/id/board_serial":   "SECRET456\n",
		"/sys/class/dmi/id/product_uuid":   "03000200-0400-0500-0006-000700080009\n",
		"/proc/cpuinfo":                    "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) N100\n",
	}, host.WithRecorder(rec))
	b, s := Collect(h, cpu.Info{Arch: "x86_64"}, false)
	if b.DMI == nil || b.DMI.BoardName != "N100DC-ITX" || b.DMI.BIOSVersion != "1.30" {
		t.Fatalf("DMI = %+v", b.DMI)
	}
	if b.Model != "ASRock N100DC-ITX" || b.ModelSource != "dmi" {
		t.Errorf("model %q from %q", b.Model, b.ModelSource)
	}
	if s.Guess != "Intel(R) N100" {
		t.Errorf("SoC %+v", s)
	}
	for p := range rec.Snapshot().Files {
		if strings.Contains(p, "serial") || strings.Contains(p, "uuid") {
			t.Errorf("read %s: serial numbers must never be read", p)
		}
	}
}

func TestSoCFromCompatible(t *testing.T) {
	cases := []struct {
		compat []string
		want   string
	}{
		{[]string{"rockchip,rk3588s-orangepi-5", "rockchip,rk3588s"}, "Rockchip RK3588S"},
		{[]string{"xunlong,orangepi-zero3", "allwinner,sun50i-h618"}, "Allwinner H618"},
		{[]string{"hardkernel,odroid-n2", "amlogic,s922x", "amlogic,g12b"}, "Amlogic S922X"},
		{[]string{"radxa,zero", "amlogic,g12a"}, "Amlogic S905X2/S905Y2/S905D2 (G12A)"},
		{[]string{"hardkernel,odroid-c4", "amlogic,sm1"}, "Amlogic S905X3/S905D3/S905Y3 (SM1)"},
		{[]string{"raspberrypi,model-zero-2-w", "brcm,bcm2837"}, "Broadcom BCM2837"},
		{[]string{"starfive,visionfive-2-v1.3b", "starfive,jh7110"}, "StarFive JH7110"},
		{[]string{"thead,light-lpi4a", "thead,light"}, "T-Head TH1520"},
		{[]string{"qcom,qcs6490-rb3gen2", "qcom,qcs6490"}, "Qualcomm QCS6490"},
		{[]string{"qcom,sm7325-nothing-spacewar", "qcom,sm7325"}, "Qualcomm SM7325"},
		{[]string{"nvidia,p3768-0000+p3767-0005", "nvidia,p3767-0005", "nvidia,tegra234"}, "NVIDIA Orin (Tegra234)"},
		{[]string{"mediatek,mt8390-evk", "mediatek,mt8390"}, "MediaTek MT8390"},
		{[]string{"fsl,imx8mp-evk", "fsl,imx8mp"}, "NXP i.MX 8M Plus"},
		{[]string{"beagle,am625-beagleplay", "ti,am625"}, "TI AM625"},
		{[]string{"pine64,star64", "starfive,jh7110"}, "StarFive JH7110"},
		{[]string{"sophgo,mango"}, "Sophgo SG2042"},
		{[]string{"allwinner,sun20i-d1"}, "Allwinner D1"},
		{[]string{"anbernic,rg35xx-h", "allwinner,sun50i-h700"}, "Allwinner H700"},
		{[]string{"rockchip,rk3588-evb1-v10"}, "Rockchip RK3588"},
		{[]string{"rockchip,rk3588s-orangepi-5", "rockchip,rk3588"}, "Rockchip RK3588S"},
		{[]string{"qcom,qcm6490-addons-idp", "qcom,sc7280"}, "Qualcomm QCM6490"},
		{[]string{"xunlong,orangepi-zero3", "arm,sun50iw9p1"}, "Allwinner H616/H618/H313 (sun50iw9)"},
		{[]string{"radxa,rock-5b", "rockchip,rk3588"}, "Rockchip RK3588"},
		{[]string{"pine64,pine-h64", "allwinner,sun50i-h6"}, "Allwinner H6"},
		{[]string{"some,board"}, ""},
		{nil, ""},
	}
	for _, c := range cases {
		if got, _ := socFromCompatible(c.compat); got != c.want {
			t.Errorf("socFromCompatible(%q) = %q, want %q", c.compat, got, c.want)
		}
	}
}

func TestHardwareLine(t *testing.T) {
	cases := []struct {
		line, name, vendor string
		ok                 bool
	}{
		{"BCM2835", "Broadcom BCM2835", "Broadcom", true},
		{"BCM2709", "Broadcom BCM2836", "Broadcom", true},
		{"sun8i", "Allwinner sun8i family (H2+/H3/A33/A83T/R40/V3s…)", "Allwinner", true},
		{"sun50iw1p1", "Allwinner A64", "Allwinner", true},
		{"Allwinner A83t board", "Allwinner A83T", "Allwinner", true},
		{"Amlogic", "", "Amlogic", true},
		{"Rockchip RK3399", "Rockchip RK3399", "Rockchip", true},
		{"ODROID-GO2 for linux based on Rockchip rk3326", "Rockchip RK3326", "Rockchip", true},
		{"Qualcomm Technologies, Inc SM8250", "Qualcomm Snapdragon 865 (SM8250)", "Qualcomm", true},
		{"Qualcom Technologies, Inc LITO", "Qualcomm Snapdragon 765 (SM7250)", "Qualcomm", true},
		{"Qualcomm APQ 8084 (Flattened Device Tree)", "Qualcomm APQ8084", "Qualcomm", true},
		{"MT6785V/CD", "MediaTek MT6785V/CD", "MediaTek", true},
		{"MT6739WA", "MediaTek MT6739WA", "MediaTek", true},
		{"Qualcomm Technologies, Inc MSM8974PRO-AC", "Qualcomm Snapdragon 801 (MSM8974PRO-AC)", "Qualcomm", true},
		{"QCT MSM8974PRO-AC MTP", "Qualcomm Snapdragon 801 (MSM8974PRO-AC)", "Qualcomm", true},
		{"Qualcomm Technologies, Inc MSM8996pro", "Qualcomm Snapdragon 821 (MSM8996 Pro)", "Qualcomm", true},
		{"ODROID-U2/U3", "Samsung Exynos 4412", "Samsung", true},
		{"Khadas VIM1S", "Amlogic S905Y4", "Amlogic", true},
		{"Radxa ROCK 3 Model A", "Rockchip RK3568", "Rockchip", true},
		{"cardhu", "NVIDIA Tegra 3 (Tegra30)", "NVIDIA", true},
		{"SMDK6410", "Samsung S3C6410", "Samsung", true},
		{"dm385evm", "TI DM385", "Texas Instruments", true},
		{"Phytium,D2000/8", "Phytium D2000/8", "Phytium", true},
		{"bm1684x", "Sophgo BM1684X", "Sophgo", true},
		{"JZ4780", "Ingenic JZ4780", "Ingenic", true},
		{"Oxsemi NAS", "", "PLX/Oxford Semiconductor", true},
		{"Freescale i.MX6 Quad/DualLite (Device Tree)", "NXP i.MX6 Quad/DualLite", "NXP", true},
		{"Generic AM33XX (Flattened Device Tree)", "TI AM33XX", "Texas Instruments", true},
		{"Generic DT based system", "", "", false},
		{"Wandboard", "NXP i.MX6 family", "NXP", true},
		{"Wandboard rev B1", "NXP i.MX6 family", "NXP", true},
		{"Wandboardx", "", "", false},
		{"", "", "", false},
	}
	for _, c := range cases {
		g, ok := guessFromHardware(c.line)
		if ok != c.ok || g.Name != c.name || g.Vendor != c.vendor {
			t.Errorf("guessFromHardware(%q) = %+v, %v", c.line, g, ok)
		}
	}
}

func FuzzCPUInfo(f *testing.F) {
	f.Add("processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0xd03\nHardware\t: BCM2835\nRevision\t: a02082\n")
	f.Add("Hardware : Qualcomm Technologies, Inc \nRevision : zz")
	f.Fuzz(func(t *testing.T, text string) {
		ci := parseCPUInfo(text)
		hw, ok := guessFromHardware(cleanString(ci.Hardware))
		b := Board{Compatible: []string{}, CPUInfoHardware: cleanString(ci.Hardware)}
		_ = looksLikeRaspberryPi(b, ci, hw)
		s := guess(b, cpu.Info{}, ci, hw, ok, nil)
		if s.Confidence == "" || s.Reason == "" {
			t.Errorf("%q: empty confidence or reason: %+v", text, s)
		}
	})
}

// TestLoongArch612 names a Loongson 3C6000 from the 6.12 kernel's
// capitalised "Model Name" line.
func TestLoongArch612(t *testing.T) {
	cpuinfo := `system type		: Generic Loongson64 System

processor		: 0
package			: 0
core			: 0
global_id		: 0
CPU Family		: Loongson-64bit
Model Name		: Loongson-3C6000/S
CPU Revision		: 0x10
FPU Revision		: 0x01
CPU MHz			: 2200.00
BogoMIPS		: 4400.00
ISA			: loongarch32r loongarch32s loongarch64
Features		: cpucfg lam ual fpu lsx lasx crc32 complex crypto lvz
`
	h := fixture.Host(t, map[string]string{"/proc/cpuinfo": cpuinfo})
	c := cpu.Collect(h)
	_, s := Collect(h, c, true)
	if s.Guess != "Loongson-3C6000/S" || s.Confidence != ConfidenceCPUModel {
		t.Errorf("got %q (%s): %s", s.Guess, s.Confidence, s.Reason)
	}
	if len(c.CPUs) != 1 || c.CPUs[0].CoreName != "Loongson-3C6000/S" {
		t.Errorf("core not named: %+v", c.CPUs)
	}
}
