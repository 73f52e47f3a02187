package review

import (
	"slices"
	"strings"
	"testing"
	"time"

	"boardbench/internal/finding"
	"boardbench/internal/testutil/fixture"
)

// now is the review time of the tests: inside the kernel table's range.
var now = time.Date(2025, time.August, 1, 0, 0, 0, 0, time.UTC)

// base is a quiet arm64 machine: a maintained mainline kernel, nothing else.
var base = map[string]string{
	"/proc/sys/kernel/osrelease": "6.12.30\n",
	"/proc/sys/kernel/version":   "#1 SMP PREEMPT (2025-06-01)\n",
	"/proc/sys/kernel/arch":      "aarch64\n",
	"/proc/version":              "Linux version 6.12.30 (builder@host) (gcc (GCC) 14.2.0) #1 SMP PREEMPT (2025-06-01)\n",
	"/proc/cmdline":              "root=/dev/mmcblk0p2 rootwait\n",
	"/proc/meminfo":              "MemTotal:        8048576 kB\n",
}

const pol0 = "/sys/devices/system/cpu/cpufreq/policy0"

func policy(gov string) map[string]string {
	return map[string]string{
		pol0 + "/scaling_governor": gov + "\n", pol0 + "/scaling_driver": "cpufreq-dt\n",
		pol0 + "/scaling_max_freq": "1800000\n", pol0 + "/cpuinfo_max_freq": "1800000\n",
		pol0 + "/scaling_min_freq": "408000\n", pol0 + "/related_cpus": "0 1 2 3\n",
	}
}

func ondemand(busy string) map[string]string {
	return fixture.Merge(policy("ondemand"), map[string]string{
		pol0 + "/ondemand/io_is_busy": busy + "\n", pol0 + "/ondemand/up_threshold": "80\n",
		pol0 + "/ondemand/sampling_down_factor": "1\n", pol0 + "/ondemand/sampling_rate": "10000\n",
	})
}

const dmc = "/sys/class/devfreq/dmc"

func devfreq(gov string) map[string]string {
	return map[string]string{
		dmc + "/governor": gov + "\n", dmc + "/cur_freq": "528000000\n", dmc + "/max_freq": "2112000000\n",
		dmc + "/min_freq":              "528000000\n",
		dmc + "/available_frequencies": "528000000 1068000000 1560000000 2112000000\n",
		dmc + "/available_governors":   "dmc_ondemand userspace powersave performance simple_ondemand\n",
	}
}

const aspm = "/sys/module/pcie_aspm/parameters/policy"

// The dphys swap file on an SD card's root partition (a Raspberry Pi OS
// default), as sysfs shows it.
const sdDev = "/sys/devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:aaaa"

var swapFileOnSD = map[string]string{
	"/proc/swaps":                                "Filename\tType\tSize\tUsed\tPriority\n/var/swap                               file\t\t102396\t\t0\t\t-2\n",
	"/proc/self/mountinfo":                       "21 1 179:2 / / rw,noatime shared:1 - ext4 /dev/root rw\n",
	sdDev + "/block/mmcblk0/dev":                 "179:0\n",
	sdDev + "/block/mmcblk0/mmcblk0p2/dev":       "179:2\n",
	sdDev + "/block/mmcblk0/mmcblk0p2/partition": "2\n",
	sdDev + "/type":                              "SD\n",
	sdDev + "/block/mmcblk0/device":              "->../../../mmc0:aaaa",
	"/sys/class/block/mmcblk0":                   "->../../devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0",
	"/sys/class/block/mmcblk0p2":                 "->../../devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0/mmcblk0p2",
}

var swapOnZram = map[string]string{
	"/proc/swaps": "Filename\tType\tSize\tUsed\tPriority\n/dev/zram0                              partition\t8051092\t\t1024\t\t5\n",
}

// usbDisk is a SuperSpeed USB disk with the given interface driver.
func usbDisk(driver, speed string) map[string]string {
	const usb = "/sys/devices/platform/usbdrd3_0/fc000000.usb/xhci-hcd.0.auto/usb2/2-1"
	return map[string]string{
		"/sys/block/sda": "->../devices/platform/usbdrd3_0/fc000000.usb/xhci-hcd.0.auto/usb2/2-1/2-1:1.0/host0/target0:0:0/0:0:0:0/block/sda",
		usb + "/2-1:1.0/host0/target0:0:0/0:0:0:0/block/sda/size": "1000000\n",
		usb + "/2-1:1.0/driver":                                   "->../../../../../../../../bus/usb/drivers/" + driver,
		usb + "/speed":                                            speed + "\n",
		usb + "/version":                                          " 3.20\n",
		usb + "/idVendor":                                         "152d\n",
		usb + "/idProduct":                                        "0578\n",
		"/sys/bus/usb/devices/2-1":                                "->../../../devices/platform/usbdrd3_0/fc000000.usb/xhci-hcd.0.auto/usb2/2-1",
		"/sys/bus/usb/devices/2-1:1.0":                            "->../../../devices/platform/usbdrd3_0/fc000000.usb/xhci-hcd.0.auto/usb2/2-1/2-1:1.0",
	}
}

// pcieNVMe is an NVMe SSD whose link (and its port) could run at 8 GT/s x4.
func pcieNVMe(speed, width string) map[string]string {
	const port = "/sys/devices/platform/a40000000.pcie/pci0000:00/0000:00:00.0"
	const dev = port + "/0000:01:00.0"
	return map[string]string{
		dev + "/current_link_speed": speed + " GT/s PCIe\n", dev + "/max_link_speed": "8.0 GT/s PCIe\n",
		dev + "/current_link_width": width + "\n", dev + "/max_link_width": "4\n", dev + "/class": "0x010802\n",
		port + "/current_link_speed": speed + " GT/s PCIe\n", port + "/max_link_speed": "8.0 GT/s PCIe\n",
		port + "/current_link_width": width + "\n", port + "/max_link_width": "4\n", port + "/class": "0x060400\n",
		"/sys/bus/pci/devices/0000:01:00.0": "->../../../devices/platform/a40000000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0",
		"/sys/bus/pci/devices/0000:00:00.0": "->../../../devices/platform/a40000000.pcie/pci0000:00/0000:00:00.0",
	}
}

func interrupts(cpu1 string) map[string]string {
	return map[string]string{"/proc/interrupts": "           CPU0       CPU1\n" +
		" 11:     500000     400000     GICv3  27 Level     arch_timer\n" +
		" 41:     250000     " + cpu1 + "     GICv3 260 Level     eth0\n" +
		" 42:     120000          0     GICv3 141 Level     xhci-hcd:usb1\n" +
		"IPI0:      1000       1000       Rescheduling interrupts\n"}
}

const pdSupply = "/sys/class/power_supply/tcpm-source-psy-4-0022"

func pd(volts string) map[string]string {
	return map[string]string{
		pdSupply + "/online": "1\n", pdSupply + "/voltage_now": volts + "\n",
		pdSupply + "/current_max": "3000000\n", pdSupply + "/usb_type": "C [PD] PD_PPS\n",
	}
}

const rapl = "/sys/class/powercap/intel-rapl:0"

func powercap(limit string) map[string]string {
	return map[string]string{
		rapl + "/enabled": "1\n", rapl + "/name": "package-0\n",
		rapl + "/constraint_0_power_limit_uw": limit + "\n", rapl + "/constraint_0_max_power_uw": "28000000\n",
	}
}

// ruleCases are, per rule, a fixture on which it fires and one on which it
// stays quiet.
var ruleCases = []struct {
	id           string
	fires, quiet map[string]string
}{
	{"cpufreq_governor", policy("powersave"), policy("schedutil")},
	{"cpufreq_governor", fixture.Merge(policy("schedutil"), map[string]string{pol0 + "/scaling_max_freq": "1416000\n"}), policy("performance")},
	{"ondemand_io_is_busy", ondemand("0"), ondemand("1")},
	{"devfreq_governor", devfreq("powersave"), devfreq("dmc_ondemand")},
	{"devfreq_governor", devfreq("performance"), devfreq("simple_ondemand")},
	{"swap_on_flash", swapFileOnSD, swapOnZram},
	{"zram_and_zswap", fixture.Merge(swapOnZram, map[string]string{"/sys/module/zswap/parameters/enabled": "Y\n"}),
		fixture.Merge(swapOnZram, map[string]string{"/sys/module/zswap/parameters/enabled": "N\n"})},
	{"thp_setting", map[string]string{"/proc/meminfo": "MemTotal:         443000 kB\n", "/sys/kernel/mm/transparent_hugepage/enabled": "[always] madvise never\n"},
		map[string]string{"/proc/meminfo": "MemTotal:         443000 kB\n", "/sys/kernel/mm/transparent_hugepage/enabled": "always [madvise] never\n"}},
	{"pcie_link_downgraded", pcieNVMe("2.5", "4"), pcieNVMe("8.0", "4")},
	{"usb_storage_not_uas", usbDisk("usb-storage", "5000"), usbDisk("uas", "5000")},
	{"coherent_pool_small", usbDisk("uas", "5000"), fixture.Merge(usbDisk("uas", "5000"), map[string]string{"/proc/cmdline": "root=/dev/sda1 coherent_pool=2M\n"})},
	{"ext4_commit", map[string]string{"/proc/mounts": "/dev/mmcblk0p2 / ext4 rw,relatime 0 0\n"},
		map[string]string{"/proc/mounts": "/dev/mmcblk0p2 / ext4 rw,noatime,commit=600 0 0\n/dev/nvme0n1p1 /data ext4 rw,relatime 0 0\n"}},
	{"nvme_apst_latency", nvmeSysfs("100000"), nvmeSysfs("2000")},
	{"pcie_aspm_powersave", map[string]string{aspm: "default performance [powersave] powersupersave\n"},
		map[string]string{aspm: "[default] performance powersave powersupersave\n"}},
	{"irq_single_cpu", interrupts("0"), interrupts("240000")},
	{"rpi_config", map[string]string{"/boot/firmware/config.txt": "[all]\nover_voltage=2\narm_freq=1200\n"},
		map[string]string{"/boot/firmware/config.txt": "[all]\ndtparam=audio=on\narm_freq=1200\n"}},
	{"usb_pd_contract", pd("5000000"), pd("12000000")},
	{"powercap_limit", powercap("15000000"), powercap("28000000")},
	{"cpu_mitigations", map[string]string{"/sys/devices/system/cpu/vulnerabilities/meltdown": "Mitigation: PTI\n"},
		map[string]string{"/sys/devices/system/cpu/vulnerabilities/meltdown": "Not affected\n"}},
	{"cpu_vulnerable", map[string]string{"/sys/devices/system/cpu/vulnerabilities/retbleed": "Vulnerable\n"},
		map[string]string{"/sys/devices/system/cpu/vulnerabilities/retbleed": "Mitigation: untrained return thunk; SMT enabled with STIBP protection\n"}},
	{"cpu_vulnerable", map[string]string{"/sys/devices/system/cpu/vulnerabilities/mds": "Vulnerable: Clear CPU buffers attempted, no microcode; SMT vulnerable\n"},
		map[string]string{"/sys/devices/system/cpu/vulnerabilities/mds": "Not affected\n"}},
	{"cpu_vulnerability_unknown", map[string]string{"/sys/devices/system/cpu/vulnerabilities/mmio_stale_data": "Unknown: No mitigations\n"},
		map[string]string{"/sys/devices/system/cpu/vulnerabilities/mmio_stale_data": "Not affected\n"}},
	{"kernel_eol", map[string]string{"/proc/sys/kernel/osrelease": "4.4.154-rk3399\n"}, map[string]string{"/proc/sys/kernel/osrelease": "6.1.140\n"}},
}

func ids(r Report) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.ID)
	}
	return out
}

func TestRulesFireAndStayQuiet(t *testing.T) {
	for _, tc := range ruleCases {
		t.Run(tc.id, func(t *testing.T) {
			fires := Run(fixture.Host(t, fixture.Merge(base, tc.fires)), now)
			if !slices.Contains(ids(fires), tc.id) {
				t.Errorf("%s did not fire; findings %v", tc.id, ids(fires))
			}
			for _, f := range fires.Findings {
				if f.ID == tc.id && (len(f.Evidence) == 0 || f.Advice == "" || f.Cost == "" || f.Area == "") {
					t.Errorf("%s lacks evidence, advice, cost or area: %+v", tc.id, f)
				}
			}
			quiet := Run(fixture.Host(t, fixture.Merge(base, tc.quiet)), now)
			if slices.Contains(ids(quiet), tc.id) {
				t.Errorf("%s fired on the quiet fixture: %+v", tc.id, quiet.Findings)
			}
		})
	}
}

func TestEveryRuleHasCases(t *testing.T) {
	for _, r := range Rules {
		if !slices.ContainsFunc(ruleCases, func(c struct {
			id           string
			fires, quiet map[string]string
		}) bool {
			return c.id == r.ID
		}) {
			t.Errorf("rule %s has no fixture", r.ID)
		}
	}
}

// rock5b is the ROCK 5B of the preview: a vendor image with ASPM at
// powersave, ondemand without io_is_busy, UAS disks without coherent_pool
// and a 5 V USB-PD contract from a charger without PD.
var rock5b = fixture.Merge(base, ondemand("0"), usbDisk("uas", "5000"), pd("5000000"), map[string]string{
	aspm:                         "default performance [powersave] powersupersave\n",
	"/proc/sys/kernel/osrelease": "5.10.110-rockchip-rk3588\n",
	"/proc/cmdline":              "storagemedia=emmc androidboot.mode=normal root=PARTUUID=614e0000-0000 rw rootwait\n",
})

func TestRock5BSeed(t *testing.T) {
	r := Run(fixture.Host(t, rock5b), now)
	got := ids(r)
	for _, id := range []string{"pcie_aspm_powersave", "ondemand_io_is_busy", "coherent_pool_small", "usb_pd_contract"} {
		if !slices.Contains(got, id) {
			t.Errorf("%s did not fire on the ROCK 5B; findings %v", id, got)
		}
	}
	// Findings come grouped by area, worst first within an area.
	for i := 1; i < len(r.Findings); i++ {
		a, b := r.Findings[i-1], r.Findings[i]
		if slices.Index(Areas, a.Area) > slices.Index(Areas, b.Area) ||
			a.Area == b.Area && a.Severity.Rank() < b.Severity.Rank() {
			t.Errorf("findings out of order: %s/%s before %s/%s", a.Area, a.ID, b.Area, b.ID)
		}
	}
	// The settings table holds the fine values too, and marks the bad ones.
	var marked, fine bool
	for _, s := range r.Settings {
		if s.Path == aspm && slices.Contains(s.Findings, "pcie_aspm_powersave") {
			marked = true
		}
		if s.Path == "/proc/cmdline" || len(s.Findings) == 0 {
			fine = true
		}
	}
	if !marked || !fine {
		t.Errorf("settings table: ASPM marked %v, fine values present %v: %+v", marked, fine, r.Settings)
	}
	var sb strings.Builder
	Render(&sb, r, false)
	for _, want := range []string{"Network", "pcie_aspm_powersave", "echo default > " + aspm, "Settings read"} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("text output lacks %q", want)
		}
	}
}

// TestKernelEOLSeverityByKind: an old vendor kernel is a warning whose cost
// speaks of the vendor's drivers; a distribution's kernel on a series that
// is not longterm (Ubuntu's 6.8) is information that the distribution
// maintains it, without the vendor-driver cost.
func TestKernelEOLSeverityByKind(t *testing.T) {
	tests := []struct {
		name, release, version string
		severity               finding.Severity
		title, cost            string
	}{
		{"vendor", "4.4.154-rk3399\n", "#1 SMP Mon Jan 7 10:00:00 UTC 2019\n", finding.Warning, "vendor kernel", "vendor kernel has"},
		{"Ubuntu", "6.8.0-45-generic\n", "#45-Ubuntu SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024\n", finding.Info, "Ubuntu maintains this kernel", "none"},
	}
	for _, tc := range tests {
		r := Run(fixture.Host(t, fixture.Merge(base, map[string]string{
			"/proc/sys/kernel/osrelease": tc.release,
			"/proc/sys/kernel/version":   tc.version,
		})), now)
		i := slices.IndexFunc(r.Findings, func(f Finding) bool { return f.ID == "kernel_eol" })
		if i < 0 {
			t.Errorf("%s: kernel_eol did not fire: %v", tc.name, ids(r))
			continue
		}
		f := r.Findings[i]
		if f.Severity != tc.severity || !strings.Contains(f.Title, tc.title) || !strings.Contains(f.Cost, tc.cost) {
			t.Errorf("%s: [%s] %q, cost %q; want [%s] with %q, cost with %q", tc.name, f.Severity, f.Title, f.Cost, tc.severity, tc.title, tc.cost)
		}
	}
}

// TestVulnerableNotOK: a vulnerability the kernel reports as "Vulnerable"
// is cited by a finding in the table of settings, never shown as "ok";
// /proc/cmdline is a setting of the boot area, whichever rule read it.
func TestVulnerableNotOK(t *testing.T) {
	r := Run(fixture.Host(t, fixture.Merge(base, map[string]string{
		"/sys/devices/system/cpu/vulnerabilities/retbleed": "Vulnerable\n",
		"/sys/devices/system/cpu/vulnerabilities/meltdown": "Not affected\n",
		"/proc/cmdline": "root=/dev/sda1\n",
	})), now)
	for _, s := range r.Settings {
		switch s.Path {
		case "/sys/devices/system/cpu/vulnerabilities/retbleed":
			if !slices.Contains(s.Findings, "cpu_vulnerable") {
				t.Errorf("retbleed: Vulnerable is cited by %v", s.Findings)
			}
		case "/sys/devices/system/cpu/vulnerabilities/meltdown":
			if len(s.Findings) != 0 {
				t.Errorf("meltdown: Not affected is cited by %v", s.Findings)
			}
		case "/proc/cmdline":
			if s.Area != AreaBoot {
				t.Errorf("/proc/cmdline is in area %q", s.Area)
			}
		}
	}
	var b strings.Builder
	Render(&b, r, false)
	if !strings.Contains(b.String(), "[WARNING] cpu_vulnerable: ") || !strings.Contains(b.String(), "  boot\n") {
		t.Errorf("text view:\n%s", b.String())
	}
}
