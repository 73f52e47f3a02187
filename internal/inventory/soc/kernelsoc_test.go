package soc

import (
	"reflect"
	"strings"
	"testing"

	"boardbench/internal/inventory/cpu"
	"boardbench/internal/testutil/fixture"
)

// socDevice returns the files of /sys/devices/<dev> with the given
// attributes (empty values are left out).
func socDevice(dev, machine, family, socID, revision string) map[string]string {
	files := map[string]string{}
	for name, v := range map[string]string{"machine": machine, "family": family, "soc_id": socID, "revision": revision} {
		if v != "" {
			files["/sys/devices/"+dev+"/"+name] = v + "\n"
		}
	}
	return files
}

// dtFiles is a device tree with model and compatible strings.
func dtFiles(model string, compatible ...string) map[string]string {
	return map[string]string{
		"/sys/firmware/devicetree/base/model":      model + "\x00",
		"/sys/firmware/devicetree/base/compatible": strings.Join(compatible, "\x00") + "\x00",
		"/proc/device-tree":                        "->/sys/firmware/devicetree/base",
	}
}

func TestKernelSoC(t *testing.T) {
	a55a78 := cpuinfoBlocks(0, 4, "0x41", "0x2", "0xd05", 0, featA55) + cpuinfoBlocks(4, 4, "0x41", "0x1", "0xd41", 1, featA55)
	cases := []struct {
		name       string
		files      map[string]string
		guess      string
		confidence string
		reason     []string // substrings the reason must contain
		kernel     []KernelSoC
	}{
		{
			name: "Qualcomm socinfo names the chip the compatible only relates to",
			files: fixture.Merge(dtFiles("Thundercomm, Inc. Rubik Pi C6490P", "qcom,qcm6490-addons-idp", "qcom,sc7280"),
				socDevice("soc0", "QCS6490", "Snapdragon", "498", "1.0"),
				map[string]string{"/sys/devices/soc0/serial_number": "3735928559\n", "/proc/cpuinfo": a55a78}),
			guess: "Qualcomm QCS6490", confidence: ConfidenceKernelSoCInfo,
			reason: []string{`machine "QCS6490"`, `"qcom,qcm6490-addons-idp"`, "Qualcomm QCM6490"},
			kernel: []KernelSoC{{Device: "soc0", Machine: "QCS6490", Family: "Snapdragon", SoCID: "498", Revision: "1.0"}},
		},
		{
			name: "Qualcomm chip with a marketing name in the table",
			files: fixture.Merge(dtFiles("Qualcomm Technologies, Inc. Robotics RB5", "qcom,qrb5165-rb5", "qcom,sm8250"),
				socDevice("soc0", "SM8250", "Snapdragon", "356", "2.1")),
			guess: "Qualcomm Snapdragon 865 (SM8250)", confidence: ConfidenceKernelSoCInfo,
			reason: []string{`machine "SM8250"`, "names Qualcomm QRB5165"},
		},
		{
			name: "Qualcomm id unknown to the kernel: machine is the board model, the device tree decides",
			files: fixture.Merge(dtFiles("Some Board", "vendor,some-board", "qcom,sc7280"),
				socDevice("soc0", "Some Board", "Snapdragon", "999", "1.0")),
			guess: "Qualcomm SC7280", confidence: ConfidenceDeviceTree,
		},
		{
			name: "Amlogic package from soc_id, device tree agrees",
			files: fixture.Merge(dtFiles("Hardkernel ODROID-N2Plus", "hardkernel,odroid-n2-plus", "amlogic,s922x", "amlogic,g12b"),
				socDevice("soc0", "Hardkernel ODROID-N2Plus", "Amlogic Meson", "G12B (S922X)", "29:c - 40:2")),
			guess: "Amlogic S922X", confidence: ConfidenceKernelSoCInfo,
			reason: []string{`soc_id "G12B (S922X)"`, "agrees"},
			kernel: []KernelSoC{{Device: "soc0", Machine: "Hardkernel ODROID-N2Plus", Family: "Amlogic Meson", SoCID: "G12B (S922X)", Revision: "29:c - 40:2"}},
		},
		{
			name: "Amlogic package the device tree does not name",
			files: fixture.Merge(dtFiles("Khadas VIM3", "khadas,vim3", "amlogic,a311d", "amlogic,g12b"),
				socDevice("soc0", "Khadas VIM3", "Amlogic Meson", "G12B (A311D)", "29:b - 10:2")),
			guess: "Amlogic A311D", confidence: ConfidenceKernelSoCInfo,
		},
		{
			name: "Amlogic unknown package: only the family, the device tree decides",
			files: fixture.Merge(dtFiles("Generic TV box", "amlogic,s905x3", "amlogic,sm1"),
				socDevice("soc0", "Generic TV box", "Amlogic Meson", "SM1 (Unknown)", "2b:c - 10:2")),
			guess: "Amlogic S905X3", confidence: ConfidenceDeviceTree,
		},
		{
			name: "NXP i.MX 8M Plus",
			files: fixture.Merge(dtFiles("NXP i.MX8MPlus EVK board", "fsl,imx8mp-evk", "fsl,imx8mp"),
				socDevice("soc0", "NXP i.MX8MPlus EVK board", "Freescale i.MX", "i.MX8MP", "1.1")),
			guess: "NXP i.MX 8M Plus", confidence: ConfidenceKernelSoCInfo,
			reason: []string{`soc_id "i.MX8MP"`, "Freescale i.MX", "agrees"},
		},
		{
			name:  "NXP chip missing from the table, no device tree",
			files: socDevice("soc0", "", "Freescale i.MX", "i.MX8ULP", "A0"),
			guess: "NXP i.MX 8ULP", confidence: ConfidenceKernelSoCInfo,
		},
		{
			name: "NVIDIA chip id and a second, uninterpreted SMCCC device",
			files: fixture.Merge(dtFiles("NVIDIA Jetson AGX Orin Developer Kit", "nvidia,p3737-0000+p3701-0000", "nvidia,tegra234"),
				socDevice("soc0", "", "Tegra", "35", "A01"),
				socDevice("soc1", "", "jep106:036b", "jep106:036b:0234", "0x00000004")),
			guess: "NVIDIA Orin (Tegra234)", confidence: ConfidenceKernelSoCInfo,
			kernel: []KernelSoC{{Device: "soc0", Family: "Tegra", SoCID: "35", Revision: "A01"},
				{Device: "soc1", Family: "jep106:036b", SoCID: "jep106:036b:0234", Revision: "0x00000004"}},
		},
		{
			name: "TI K3 family only: recorded, the device tree decides",
			files: fixture.Merge(dtFiles("BeagleBoard.org BeaglePlay", "beagle,am625-beagleplay", "ti,am625"),
				socDevice("soc0", "BeagleBoard.org BeaglePlay", "AM62X", "", "SR1.0")),
			guess: "TI AM625", confidence: ConfidenceDeviceTree,
			kernel: []KernelSoC{{Device: "soc0", Machine: "BeagleBoard.org BeaglePlay", Family: "AM62X", Revision: "SR1.0"}},
		},
		{
			name:  "no SoC device",
			files: dtFiles("Radxa ROCK 5B", "radxa,rock-5b", "rockchip,rk3588"),
			guess: "Rockchip RK3588", confidence: ConfidenceDeviceTree,
			kernel: []KernelSoC{},
		},
		{
			name: "numeric order, empty devices skipped, not a SoC device name",
			files: fixture.Merge(socDevice("soc10", "", "Tegra", "99", ""), socDevice("soc2", "", "Tegra", "98", ""),
				map[string]string{"/sys/devices/soc1/uevent": "", "/sys/devices/soc/machine": "X\n"}),
			confidence: ConfidenceNone,
			kernel: []KernelSoC{{Device: "soc2", Family: "Tegra", SoCID: "98"},
				{Device: "soc10", Family: "Tegra", SoCID: "99"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, s := Collect(fixture.Host(t, c.files), cpu.Info{}, true)
			if s.Confidence != c.confidence || s.Guess != c.guess {
				t.Errorf("got %q (%s), want %q (%s); reason: %s", s.Guess, s.Confidence, c.guess, c.confidence, s.Reason)
			}
			for _, want := range c.reason {
				if !strings.Contains(s.Reason, want) {
					t.Errorf("reason %q lacks %q", s.Reason, want)
				}
			}
			if s.KernelSoC == nil {
				t.Fatal("kernel_soc is nil, want a list")
			}
			if c.kernel != nil && !reflect.DeepEqual(s.KernelSoC, c.kernel) {
				t.Errorf("kernel_soc = %+v, want %+v", s.KernelSoC, c.kernel)
			}
		})
	}
}

func TestChipFromKernelSoCJunk(t *testing.T) {
	junk := []KernelSoC{
		{Family: "Snapdragon", Machine: "qcs6490"},
		{Family: "Snapdragon", Machine: "QCS6490 rev 2"},
		{Family: "Amlogic Meson", SoCID: "G12B"},
		{Family: "Amlogic Meson", SoCID: "G12B ()"},
		{Family: "Freescale i.MX", SoCID: "unknown"},
		{Family: "Samsung Exynos", SoCID: "Exynos"},
		{Family: "Tegra", SoCID: "0x23"},
		{Family: "\x00\xff", SoCID: "\xff"},
	}
	for _, k := range junk {
		if chip, ok := chipFromKernelSoC(k, ""); ok {
			t.Errorf("chipFromKernelSoC(%+v) = %+v, want no chip", k, chip)
		}
	}
}
