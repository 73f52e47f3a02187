package inventory_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/inventory"
)

// boardsDir holds one fixture root per real board; see its README.md for what
// each one models and where its facts come from.
const boardsDir = "../../testdata/boards"

// matcher checks one value of the decoded JSON description.
type matcher interface {
	match(v any) bool
	String() string
}

type eqM struct{ want any }

func (m eqM) match(v any) bool {
	switch w := m.want.(type) {
	case nil:
		return v == nil
	case int:
		f, ok := v.(float64)
		return ok && f == float64(w)
	case int64:
		f, ok := v.(float64)
		return ok && f == float64(w)
	case float64:
		f, ok := v.(float64)
		return ok && math.Abs(f-w) < 1e-6
	case string:
		s, ok := v.(string)
		return ok && s == w
	case bool:
		b, ok := v.(bool)
		return ok && b == w
	default:
		panic(fmt.Sprintf("eq: unsupported type %T", w))
	}
}
func (m eqM) String() string { return fmt.Sprintf("== %#v", m.want) }

// eq matches a string, bool, int or float exactly (floats within 1e-6).
func eq(v any) matcher { return eqM{v} }

type prefixM string

func (m prefixM) match(v any) bool { s, ok := v.(string); return ok && strings.HasPrefix(s, string(m)) }
func (m prefixM) String() string   { return fmt.Sprintf("has prefix %q", string(m)) }

// prefix matches a string starting with p.
func prefix(p string) matcher { return prefixM(p) }

type containsM string

func (m containsM) match(v any) bool {
	s, ok := v.(string)
	return ok && strings.Contains(strings.ToLower(s), strings.ToLower(string(m)))
}
func (m containsM) String() string { return fmt.Sprintf("contains %q (any case)", string(m)) }

// contains matches a string holding sub, ignoring case.
func contains(sub string) matcher { return containsM(sub) }

type reM struct{ re *regexp.Regexp }

func (m reM) match(v any) bool { s, ok := v.(string); return ok && m.re.MatchString(s) }
func (m reM) String() string   { return fmt.Sprintf("matches /%s/", m.re) }

// re matches a string against a regular expression.
func re(expr string) matcher { return reM{regexp.MustCompile(expr)} }

type intsM []int

func (m intsM) match(v any) bool {
	a, ok := v.([]any)
	if !ok || len(a) != len(m) {
		return false
	}
	for i, x := range a {
		f, ok := x.(float64)
		if !ok || f != float64(m[i]) {
			return false
		}
	}
	return true
}
func (m intsM) String() string { return fmt.Sprintf("== %v", []int(m)) }

// ints matches an array of integers exactly.
func ints(v ...int) matcher { return intsM(v) }

type lenM int

func (m lenM) match(v any) bool { a, ok := v.([]any); return ok && len(a) == int(m) }
func (m lenM) String() string   { return fmt.Sprintf("has %d elements", int(m)) }

// length matches an array of n elements.
func length(n int) matcher { return lenM(n) }

type someElemM struct{ m matcher }

func (a someElemM) match(v any) bool {
	arr, ok := v.([]any)
	if !ok {
		return false
	}
	for _, x := range arr {
		if a.m.match(x) {
			return true
		}
	}
	return false
}
func (a someElemM) String() string { return "has an element that " + a.m.String() }

// someElem matches an array one of whose elements matches m.
func someElem(m matcher) matcher { return someElemM{m} }

type approxM struct{ want, tol float64 }

func (m approxM) match(v any) bool { f, ok := v.(float64); return ok && math.Abs(f-m.want) <= m.tol }
func (m approxM) String() string   { return fmt.Sprintf("≈ %g (±%g)", m.want, m.tol) }

// approx matches a number within tol of want.
func approx(want, tol float64) matcher { return approxM{want, tol} }

type noneM struct{}

func (noneM) match(v any) bool { a, ok := v.([]any); return v == nil || ok && len(a) == 0 }
func (noneM) String() string   { return "is null or empty" }

// none matches null or an empty array.
func none() matcher { return noneM{} }

type notNullM struct{}

func (notNullM) match(v any) bool { return v != nil }
func (notNullM) String() string   { return "is not null" }

// present matches any non-null value.
func present() matcher { return notNullM{} }

// step is one element of a path: a key, an array index, or a selector
// "[field=value]" choosing the first array element whose field equals value.
type step struct {
	key, selField, selValue string
	index                   int
	kind                    byte // 'k' key, 'i' index, 's' selector
}

// parsePath splits "storage.devices[name=mmcblk0].mmc.type" into steps.
// Selector values may contain dots ("0000:01:00.0").
func parsePath(p string) []step {
	var steps []step
	var cur strings.Builder
	flush := func() {
		if cur.Len() == 0 {
			return
		}
		s := cur.String()
		cur.Reset()
		if n, err := strconv.Atoi(s); err == nil {
			steps = append(steps, step{kind: 'i', index: n})
		} else {
			steps = append(steps, step{kind: 'k', key: s})
		}
	}
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '.':
			flush()
		case '[':
			flush()
			end := strings.IndexByte(p[i:], ']')
			field, value, _ := strings.Cut(p[i+1:i+end], "=")
			steps = append(steps, step{kind: 's', selField: field, selValue: value})
			i += end
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return steps
}

// get walks a decoded JSON value along path; ok is false when a step is missing.
func get(v any, path string) (any, bool) {
	for _, s := range parsePath(path) {
		switch s.kind {
		case 'k':
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = m[s.key]; !ok {
				return nil, false
			}
		case 'i':
			a, ok := v.([]any)
			if !ok || s.index < 0 || s.index >= len(a) {
				return nil, false
			}
			v = a[s.index]
		case 's':
			a, ok := v.([]any)
			if !ok {
				return nil, false
			}
			found := false
			for _, e := range a {
				m, ok := e.(map[string]any)
				if !ok {
					continue
				}
				if f, ok := m[s.selField]; ok && scalarString(f) == s.selValue {
					v, found = e, true
					break
				}
			}
			if !found {
				return nil, false
			}
		}
	}
	return v, true
}

func scalarString(v any) string {
	if f, ok := v.(float64); ok && f == math.Trunc(f) {
		return strconv.FormatInt(int64(f), 10)
	}
	return fmt.Sprint(v)
}

// fact is one expected property of a board's description.
type fact struct {
	path string
	want matcher
}

// kib, mib and gib turn sizes into bytes for readable expectations.
const (
	kib int64 = 1024
	mib       = 1024 * kib
	gib       = 1024 * mib
)

// coreFacts expects each CPU id in ids to be the named core (core_name) with
// the revision suffix in core when rev is not "".
func coreFacts(name, rev string, ids ...int) []fact {
	var out []fact
	for _, id := range ids {
		p := fmt.Sprintf("cpu.cpus.%d.", id)
		out = append(out, fact{p + "id", eq(id)}, fact{p + "core_name", eq(name)})
		if rev != "" {
			out = append(out, fact{p + "core", eq(name + " / " + rev)})
		} else {
			out = append(out, fact{p + "core", prefix(name)})
		}
	}
	return out
}

// clusterFacts expects cluster i to hold cpus, with its policy and clock range.
func clusterFacts(i int, core string, policy int, minMHz, maxMHz float64, cpus ...int) []fact {
	p := fmt.Sprintf("cpu.clusters.%d.", i)
	out := []fact{
		{p + "cpus", ints(cpus...)},
		{p + "core", prefix(core)},
		{p + "min_mhz", eq(minMHz)},
		{p + "max_mhz", eq(maxMHz)},
	}
	if policy >= 0 {
		out = append(out, fact{p + "policy", eq(policy)})
	}
	for _, c := range cpus {
		cp := fmt.Sprintf("cpu.cpus.%d.", c)
		out = append(out, fact{cp + "cluster", eq(i)}, fact{cp + "min_mhz", eq(minMHz)}, fact{cp + "max_mhz", eq(maxMHz)})
		if policy >= 0 {
			out = append(out, fact{cp + "policy", eq(policy)})
		}
	}
	return out
}

func join(groups ...[]fact) []fact {
	var out []fact
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// board is one fixture root with what a correct description must say and the
// identifiers (MAC tails, serial numbers) the redacted JSON must not contain.
type board struct {
	name    string
	facts   []fact
	secrets []string
}

var boards = []board{
	{
		name: "rpi-zero2w",
		facts: join(
			coreFacts("Cortex-A53", "r0p4", 0, 1, 2, 3),
			clusterFacts(0, "Cortex-A53", 0, 600, 1000, 0, 1, 2, 3),
			[]fact{
				{"cpu.arch", eq("arm")},
				{"cpu.cpus", length(4)},
				{"cpu.clusters", length(1)},
				{"cpu.cpus.0.implementer", eq("0x41")},
				{"cpu.cpus.0.part", eq("0xd03")},
				{"board.model", eq("Raspberry Pi Zero 2 Rev 1.0")},
				{"board.compatible.0", eq("raspberrypi,model-zero-2-w")},
				{"board.raspberry_pi.code", eq("902120")},
				{"board.raspberry_pi.model", contains("Zero 2 W")},
				{"board.raspberry_pi.memory_bytes", eq(512 * mib)},
				{"board.raspberry_pi.processor", eq("BCM2837")},
				{"board.raspberry_pi.manufacturer", eq("Sony UK")},
				{"soc.guess", re(`BCM2837|RP3A0|BCM2710`)},
				{"sensors.soc_temp.kind", eq("thermal_zone")},
				{"sensors.soc_temp.name", eq("cpu-thermal")},
				{"sensors.soc_temp.path", eq("/sys/class/thermal/thermal_zone0/temp")},
				{"sensors.soc_temp.temp_c", eq(49.388)},
				{"sensors.hwmon[name=rpi_volt].readings.0.alarms.lcrit", eq(false)},
				{"os.kernel.machine", eq("armv7l")},
				{"os.kernel.release", eq("5.10.63-v7+")},
				{"os.kernel.bits", eq(32)},
				{"os.userland.arch", eq("armhf")},
				{"os.userland.bits", eq(32)},
				{"os.userland.float_abi", eq("hard")},
				{"os.mixed_arch", eq(false)},
				{"os.distro.id", eq("raspbian")},
				{"os.distro.version_id", eq("11")},
				{"os.libc.name", eq("glibc")},
				{"os.libc.version", eq("2.31")},
				{"memory.total_bytes", eq(437416 * kib)},
				{"memory.swap_total_bytes", eq(102396 * kib)},
				{"memory.swaps.0.path", eq("/var/swap")},
				{"memory.swaps.0.kind", eq("file")},
				{"memory.swaps.0.used_bytes", eq(6912 * kib)},
				{"memory.swaps.0.priority", eq(-2)},
				{"memory.swaps.0.device.disk", eq("mmcblk0")},
				{"memory.swaps.0.device.disk_kind", eq("sd")},
				{"memory.warnings", someElem(contains("SD"))},
				{"storage.devices[name=mmcblk0].kind", eq("SD card")},
				{"storage.devices[name=mmcblk0].size_bytes", eq(int64(62333952) * 512)},
				{"storage.devices[name=mmcblk0].mmc.name", eq("SC32G")},
				{"storage.devices[name=mmcblk0].mmc.date", contains("2021")},
				{"storage.devices[name=mmcblk0].mmc.sd_status.speed_class", eq(10)},
				{"storage.devices[name=mmcblk0].mmc.sd_status.uhs_speed_grade", eq(3)},
				{"storage.devices[name=mmcblk0].mmc.sd_status.video_speed_class", eq(30)},
				{"storage.devices[name=mmcblk0].mmc.sd_status.app_perf_class", eq(2)},
				{"storage.devices[name=mmcblk0].partitions", length(2)},
				{"network.interfaces[name=wlan0].type", eq("wlan")},
				{"network.interfaces[name=wlan0].driver", eq("brcmfmac")},
				{"network.interfaces[name=wlan0].mac", prefix("e4:5f:01")},
				{"raspberry_pi.arm_clock_mhz", eq(600.0)},
				{"raspberry_pi.core_voltage_v", eq(1.2)},
				{"raspberry_pi.temp_c", eq(49.4)},
				{"raspberry_pi.throttled.hex", eq("0x50000")},
				{"raspberry_pi.throttled.under_voltage_occurred", eq(true)},
				{"raspberry_pi.throttled.throttled_occurred", eq(true)},
				{"raspberry_pi.throttled.under_voltage_now", eq(false)},
				{"raspberry_pi.throttled.throttled_now", eq(false)},
				{"raspberry_pi.config.arm_freq", eq(1000)},
				{"raspberry_pi.config.total_mem", eq(512)},
				{"raspberry_pi.version.version", eq("b8a114e5a9877e91ca8f26d1a5ce904b2ad3cf13")},
				{"raspberry_pi.bootloader", eq(nil)},
				{"raspberry_pi.vl805", eq(nil)},
				{"cpu.policies", length(1)},
				{"cpu.policies.0.cpus", ints(0, 1, 2, 3)},
				{"cpu.policies.0.driver", eq("cpufreq-dt")},
				{"cpu.policies.0.governor", eq("ondemand")},
				{"cpu.policies.0.available_mhz", ints(600, 700, 800, 900, 1000)},
				{"cpu.cpus.0.bogomips", eq(64.0)},
				{"cpu.caches", none()},
				{"cpu.heterogeneous", eq(false)},
				{"board.raspberry_pi_source", eq("/proc/cpuinfo")},
				{"sensors.thermal_zones.0.trip_points.0.type", eq("critical")},
				{"sensors.thermal_zones.0.trip_points.0.temp_c", eq(110.0)},
				{"os.raspberry_pi_os.image_date", eq("2021-10-30")},
				{"memory.swappiness", eq(60)},
				{"memory.swaps.0.file_system.mount_point", eq("/")},
				{"memory.swaps.0.device.name", eq("mmcblk0p2")},
				{"storage.devices[name=mmcblk0].partitions[name=mmcblk0p2].mounts.0.mount_point", eq("/")},
				{"storage.devices[name=mmcblk0].partitions[name=mmcblk0p1].mounts.0.fs_type", eq("vfat")},
				{"storage.devices[name=mmcblk0].serial", eq("REDACTED")},
				{"network.interfaces[name=wlan0].bus", eq("SDIO")},
				{"network.interfaces", length(1)},
				{"raspberry_pi.throttled.flags", someElem(contains("under-voltage"))},
			}),
		secrets: []string{"01:02:04", "0badc0de", "1badcafe"},
	},
	{
		name: "rpi4b",
		facts: join(
			coreFacts("Cortex-A72", "r0p3", 0, 1, 2, 3),
			clusterFacts(0, "Cortex-A72", 0, 600, 1500, 0, 1, 2, 3),
			[]fact{
				{"cpu.arch", eq("arm64")},
				{"cpu.clusters", length(1)},
				{"cpu.cpus.3.part", eq("0xd08")},
				{"board.model", eq("Raspberry Pi 4 Model B Rev 1.1")},
				{"board.raspberry_pi.code", eq("a03111")},
				{"raspberry_pi.bootloader.timestamp", eq(1568112110)},
				{"raspberry_pi.bootloader.build_time", eq("2019-09-10T10:41:50Z")},
				{"raspberry_pi.bootloader.version", eq("f626c772b15ba1b7e0532a8d50a761b3ccbdf3bb")},
				{"raspberry_pi.bootloader.source", eq("vcgencmd bootloader_version")},
				{"raspberry_pi.vl805.version", eq("000137ab")},
				{"raspberry_pi.vl805.pci_address", eq("0000:01:00.0")},
				{"opp_selection", eq(nil)},
				{"board.raspberry_pi.model", contains("4 Model B")},
				{"board.raspberry_pi.memory_bytes", eq(1 * gib)},
				{"board.raspberry_pi.board_revision", eq("1.1")},
				{"board.raspberry_pi.processor", eq("BCM2711")},
				{"soc.guess", contains("BCM2711")},
				{"sensors.soc_temp.name", eq("cpu-thermal")},
				{"sensors.soc_temp.temp_c", eq(47.236)},
				{"os.kernel.machine", eq("aarch64")},
				{"os.kernel.arch", eq("arm64")},
				{"os.kernel.bits", eq(64)},
				{"os.userland.arch", eq("armhf")},
				{"os.userland.bits", eq(32)},
				{"os.userland.float_abi", eq("hard")},
				{"os.userland.elf_machine", eq(40)},
				{"os.mixed_arch", eq(true)},
				{"os.raspberry_pi_os", present()},
				{"memory.total_bytes", eq(929356 * kib)},
				{"memory.swaps", length(1)},
				{"memory.swaps.0.kind", eq("zram")},
				{"memory.swaps.0.zram.algorithm", eq("lz4")},
				{"memory.zram.0.name", eq("zram0")},
				{"memory.zram.0.algorithm", eq("lz4")},
				{"memory.zram.0.swap", eq(true)},
				{"memory.zswap.enabled", eq(true)},
				{"memory.zswap.compressor", eq("lz4")},
				{"memory.warnings", someElem(contains("zswap"))},
				{"storage.devices[name=mmcblk0].kind", eq("SD card")},
				{"storage.devices[name=mmcblk0].mmc.manfid", eq("0x00001b")},
				{"storage.devices[name=sda].kind", eq("USB")},
				{"storage.devices[name=sda].usb.driver", eq("uas")},
				{"storage.devices[name=sda].usb.speed_mbps", eq(5000.0)},
				{"storage.devices[name=sda].size_bytes", eq(int64(976773168) * 512)},
				{"buses.pci[address=0000:01:00.0].vendor_id", eq("0x1106")},
				{"buses.pci[address=0000:01:00.0].driver", eq("xhci_hcd")},
				{"buses.usb[name=2-2].speed_mbps", eq(5000.0)},
				{"network.interfaces[name=eth0].driver", eq("bcmgenet")},
				{"network.interfaces[name=eth0].speed_mbps", eq(1000)},
				{"network.interfaces[name=eth0].mac", prefix("dc:a6:32")},
				{"raspberry_pi.throttled.raw", eq(0)},
				{"raspberry_pi.throttled.under_voltage_occurred", eq(false)},
				{"raspberry_pi.config.arm_freq", eq(1500)},
				{"raspberry_pi.core_voltage_v", eq(0.85)},
				{"cpu.policies.0.available_mhz", ints(600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400, 1500)},
				{"cpu.caches", none()},
				{"os.userland.source", eq("/bin/sh")},
				{"memory.swappiness", eq(60)},
				{"memory.zram.0.disk_size_bytes", eq(475828224)},
				{"memory.zswap.zpool", eq("z3fold")},
				{"memory.zswap.max_pool_pct", eq(20)},
				{"storage.devices[name=sda].model", contains("Portable SSD T5")},
				{"storage.devices[name=sda].usb.product", eq("Portable SSD T5")},
				{"storage.devices[name=sda].partitions.0.mounts.0.mount_point", eq("/srv")},
				{"buses.aspm_policy", eq("default")},
				{"buses.usb[name=2-2].interfaces.0.driver", eq("uas")},
				{"network.interfaces[name=eth0].bus", eq("platform")},
				{"network.interfaces[name=eth0].rx_queues", eq(5)},
				{"network.interfaces[name=wlan0].operstate", eq("down")},
			}),
		secrets: []string{"01:02:03", "01:02:04", "feedf00d", "2badf00d", "1234567FIXTURE"},
	},
	{
		name: "rpi5",
		facts: join(
			coreFacts("Cortex-A76", "r4p1", 0, 1, 2, 3),
			clusterFacts(0, "Cortex-A76", 0, 1500, 2400, 0, 1, 2, 3),
			[]fact{
				{"cpu.arch", eq("arm64")},
				{"cpu.clusters", length(1)},
				{"board.model", eq("Raspberry Pi 5 Model B Rev 1.0")},
				{"board.compatible", someElem(eq("brcm,bcm2712"))},
				{"board.raspberry_pi.code", eq("d04170")},
				{"board.raspberry_pi.model", contains("Raspberry Pi 5")},
				{"board.raspberry_pi.memory_bytes", eq(8 * gib)},
				{"board.raspberry_pi.processor", eq("BCM2712")},
				{"soc.guess", contains("BCM2712")},
				{"sensors.soc_temp.name", eq("cpu-thermal")},
				{"sensors.soc_temp.temp_c", eq(51.65)},
				{"sensors.thermal_zones.0.trip_points", length(5)},
				{"os.kernel.release", eq("6.6.20+rpt-rpi-2712")},
				{"os.userland.arch", eq("arm64")},
				{"os.mixed_arch", eq(false)},
				{"os.distro.codename", eq("bookworm")},
				{"memory.total_bytes", eq(8245632 * kib)},
				{"storage.devices[name=nvme0n1].kind", eq("NVMe")},
				{"storage.devices[name=nvme0n1].model", eq("Samsung SSD 980 500GB")},
				{"storage.devices[name=nvme0n1].pcie.current_gts", eq(5.0)},
				{"storage.devices[name=nvme0n1].pcie.current_width", eq(1)},
				{"storage.devices[name=nvme0n1].pcie.max_gts", eq(8.0)},
				{"storage.devices[name=nvme0n1].pcie.max_width", eq(4)},
				{"storage.devices[name=nvme0n1].pcie.downgraded", eq(true)},
				{"storage.devices[name=nvme0n1].pcie.limited_by_port", eq(true)},
				{"storage.devices[name=mmcblk0].kind", eq("SD card")},
				{"buses.pci[address=0001:01:00.0].driver", eq("rp1")},
				{"network.interfaces[name=eth0].driver", eq("macb")},
				{"network.interfaces[name=eth0].speed_mbps", eq(1000)},
				{"raspberry_pi.arm_clock_mhz", eq(1500.005376)},
				{"raspberry_pi.throttled.raw", eq(0)},
				{"raspberry_pi.config.arm_freq", eq(2400)},
				{"raspberry_pi.version.version", eq("4d574a2e")},
				{"cpu.cpus.0.online", eq(true)},
				{"cpu.caches", length(13)},
				{"cpu.caches[level=3].size_bytes", eq(2 * mib)},
				{"cpu.caches[level=3].cpus", ints(0, 1, 2, 3)},
				{"cpu.caches[level=2].size_bytes", eq(512 * kib)},
				{"cpu.caches[level=1].size_bytes", eq(64 * kib)},
				{"sensors.cooling_devices.0.type", eq("pwm-fan")},
				{"sensors.hwmon[name=rp1_adc].readings[sensor=temp1].value", eq(34.6)},
				{"sensors.hwmon[name=pwmfan].readings[sensor=fan1].value", eq(2654.0)},
				{"memory.swaps.0.device.disk_kind", eq("nvme")},
				{"os.libc.version", eq("2.36")},
				{"buses.aspm_policy", eq("powersave")},
				{"buses.pci[address=0000:01:00.0].link.limited_by_port", eq(true)},
				{"buses.warnings", someElem(contains("0000:01:00.0"))},
				{"raspberry_pi.config.total_mem", eq(8192)},
				{"raspberry_pi.core_voltage_v", eq(0.7204)},
			}),
		secrets: []string{"01:02:03", "01:02:04", "01:02:06", "00c0ffee", "3badbeef", "S64DNF0R000FIX5"},
	},
	{
		name: "rock5b",
		facts: join(
			coreFacts("Cortex-A55", "r2p0", 0, 1, 2, 3),
			coreFacts("Cortex-A76", "r4p0", 4, 5, 6, 7),
			clusterFacts(0, "Cortex-A55", 0, 408, 1800, 0, 1, 2, 3),
			clusterFacts(1, "Cortex-A76", 4, 408, 2400, 4, 5),
			clusterFacts(2, "Cortex-A76", 6, 408, 2400, 6, 7),
			[]fact{
				{"cpu.arch", eq("arm64")},
				{"cpu.clusters", length(3)},
				{"cpu.cpus.4.capacity", eq(1024)},
				{"cpu.cpus.0.capacity", eq(414)},
				{"board.model", eq("Radxa ROCK 5B")},
				{"board.compatible", someElem(eq("rockchip,rk3588"))},
				{"board.raspberry_pi", eq(nil)},
				{"soc.guess", contains("RK3588")},
				{"sensors.soc_temp.kind", eq("thermal_zone")},
				{"sensors.soc_temp.name", eq("soc-thermal")},
				{"sensors.soc_temp.temp_c", eq(38.846)},
				{"sensors.thermal_zones", length(7)},
				{"sensors.thermal_zones.6.type", eq("npu-thermal")},
				{"os.distro.id", eq("ubuntu")},
				{"os.userland.arch", eq("arm64")},
				{"memory.total_bytes", eq(16063108 * kib)},
				{"memory.swaps", length(0)},
				{"storage.devices[name=mmcblk0].kind", eq("eMMC")},
				{"storage.devices[name=mmcblk0].mmc.name", eq("SLD64G")},
				{"storage.devices[name=mmcblk1].kind", eq("SD card")},
				{"storage.devices[name=nvme0n1].kind", eq("NVMe")},
				{"storage.devices[name=nvme0n1].pcie.current_gts", eq(8.0)},
				{"storage.devices[name=nvme0n1].pcie.current_width", eq(4)},
				{"storage.devices[name=nvme0n1].pcie.downgraded", eq(false)},
				{"buses.pci[address=0004:41:00.0].driver", eq("r8125")},
				{"network.interfaces[name=enP4p65s0].driver", eq("r8125")},
				{"network.interfaces[name=enP4p65s0].speed_mbps", eq(2500)},
				{"network.interfaces[name=enP4p65s0].pcie.current_width", eq(1)},
				{"raspberry_pi", eq(nil)},
				{"cpu.heterogeneous", eq(true)},
				{"cpu.policies", length(3)},
				{"cpu.policies.2.cpus", ints(6, 7)},
				{"cpu.policies.1.available_mhz", ints(408, 600, 816, 1008, 1200, 1416, 1608, 1800, 2016, 2208, 2400)},
				{"cpu.policies.0.governor", eq("schedutil")},
				{"cpu.caches", length(25)},
				{"cpu.caches[level=3].size_bytes", eq(3 * mib)},
				{"cpu.caches[level=3].cpus", ints(0, 1, 2, 3, 4, 5, 6, 7)},
				{"cpu.features.crypto_extensions", eq(true)},
				{"sensors.thermal_zones.0.policy", eq("power_allocator")},
				{"sensors.thermal_zones.1.type", eq("bigcore0-thermal")},
				{"sensors.hwmon[name=nvme].readings.0.label", eq("Composite")},
				{"storage.devices[name=mmcblk0].hardware_partitions", length(2)},
				{"storage.devices[name=mmcblk0].mmc.pre_eol", eq("normal")},
				{"storage.devices[name=mmcblk0].partitions[name=mmcblk0p2].mounts.0.mount_point", eq("/")},
				{"storage.devices[name=nvme0n1].model", eq("Samsung SSD 970 EVO Plus 1TB")},
				{"storage.devices[name=nvme0n1].firmware", eq("2B2QEXM7")},
				{"storage.devices[name=nvme0n1].size_bytes", eq(int64(1953525168) * 512)},
				{"storage.devices[name=nvme0n1].serial", eq("REDACTED")},
				{"buses.pci", length(4)},
				{"buses.aspm_policy", eq("powersave")},
				{"network.interfaces[name=enP4p65s0].bus", eq("PCIe")},
				{"network.interfaces[name=enP4p65s0].device", eq("0004:41:00.0")},
				{"devfreq", length(3)},
				{"opp_selection.devices", length(4)},
				{"opp_selection.devices[device=cpu0].pvtm", eq(1528)},
				{"opp_selection.devices[device=cpu0].pvtm_volt_sel", eq(5)},
				{"opp_selection.devices[device=cpu0].leakage", eq(10)},
				{"opp_selection.devices[device=cpu0].cpus", ints(0, 1, 2, 3)},
				{"opp_selection.devices[device=cpu6].pvtm_volt_sel", eq(7)},
				{"opp_selection.devices[device=cpu6].cpus", ints(6, 7)},
				{"opp_selection.devices[device=dmc].leakage_volt_sel", eq(1)},
				{"opp_selection.devices[device=dmc].pvtm", eq(nil)},
				{"opp_selection.devices[device=cpu0].opps", length(8)},
				{"opp_selection.devices[device=cpu0].opps.7.mhz", eq(1800.0)},
				{"opp_selection.devices[device=cpu0].opps.7.mv", eq(950.0)},
				{"opp_selection.devices[device=cpu4].opps", length(14)},
				{"opp_selection.devices[device=cpu4].opps.13.mv", eq(1000.0)},
				{"opp_selection.devices[device=cpu4].opps.13.property", eq("opp-microvolt")},
				{"opp_selection.devices[device=cpu4].opps.13.supported_hw", ints(0xfd, 0x80)},
				{"devfreq[name=dmc].kind", eq("memory")},
				{"devfreq[name=dmc].governor", eq("dmc_ondemand")},
				{"devfreq[name=dmc].cur_mhz", eq(528.0)},
				{"devfreq[name=dmc].max_mhz", eq(2112.0)},
				{"devfreq[name=dmc].available_mhz", ints(528, 1068, 1560, 2112)},
				{"devfreq[name=dmc].time_in_state.0.time_ms", eq(110661386)},
				{"devfreq[name=dmc].transitions", eq(87)},
				{"devfreq[name=fb000000.gpu].kind", eq("gpu")},
				{"devfreq[name=fb000000.gpu].time_in_state", eq(nil)},
				{"devfreq[name=fdab0000.npu].kind", eq("npu")},
				{"devfreq[name=fdab0000.npu].governor", eq("rknpu_ondemand")},
				{"memory.memory_controllers.0.name", eq("dmc")},
			}),
		secrets: []string{"01:02:03", "abcdef0123456789", "4badd00d", "5badcafe", "S4EWNX0R000FIXB"},
	},
	{
		name: "rk3399",
		facts: join(
			coreFacts("Cortex-A53", "r0p4", 0, 1, 2, 3),
			coreFacts("Cortex-A72", "r0p2", 4, 5),
			clusterFacts(0, "Cortex-A53", 0, 408, 1416, 0, 1, 2, 3),
			clusterFacts(1, "Cortex-A72", 4, 408, 1800, 4, 5),
			[]fact{
				{"cpu.clusters", length(2)},
				{"board.model", eq("Radxa ROCK Pi 4C")},
				{"soc.guess", contains("RK3399")},
				{"sensors.soc_temp.name", eq("cpu-thermal")},
				{"sensors.soc_temp.temp_c", eq(41.25)},
				{"os.armbian.board", eq("rockpi-4c")},
				{"os.armbian.version", eq("21.08.6")},
				{"os.distro.codename", eq("buster")},
				{"memory.swaps.0.kind", eq("zram")},
				{"memory.zram.0.algorithm", eq("lzo-rle")},
				{"memory.swaps.0.used_bytes", eq(80896 * kib)},
				{"storage.devices[name=nvme0n1].pcie.current_gts", eq(5.0)},
				{"storage.devices[name=nvme0n1].pcie.max_gts", eq(8.0)},
				{"storage.devices[name=nvme0n1].pcie.downgraded", eq(true)},
				{"storage.devices[name=nvme0n1].pcie.limited_by_port", eq(true)},
				{"storage.devices[name=mmcblk1].kind", eq("SD card")},
				{"network.interfaces[name=eth0].driver", eq("rk_gmac-dwmac")},
				{"cpu.policies.0.available_mhz", ints(408, 600, 816, 1008, 1200, 1416)},
				{"cpu.caches[level=2].cpus", ints(0, 1, 2, 3)},
				{"cpu.caches[level=2].size_bytes", eq(512 * kib)},
				{"cpu.cpus.0.capacity", eq(381)},
				{"sensors.thermal_zones", length(2)},
				{"sensors.thermal_zones.1.type", eq("gpu-thermal")},
				{"os.armbian.branch", eq("current")},
				{"os.armbian.linux_family", eq("rockchip64")},
				{"memory.swappiness", eq(100)},
				{"memory.zram", length(2)},
				{"memory.zram[name=zram0].compression_ratio", approx(3.7387, 0.001)},
				{"memory.zram[name=zram1].mount_point", eq("/var/log")},
				{"memory.zram[name=zram1].swap", eq(false)},
				{"storage.devices[name=nvme0n1].partitions.0.mounts.0.mount_point", eq("/")},
				{"storage.devices[name=nvme0n1].model", eq("WDC WDS500G2B0C-00PXH0")},
				{"network.interfaces[name=eth0].speed_mbps", eq(1000)},
			}),
		secrets: []string{"01:02:03", "6badcafe", "20310000FIX4"},
	},
	{
		name: "odroid-n2plus",
		facts: join(
			coreFacts("Cortex-A53", "r0p4", 0, 1),
			coreFacts("Cortex-A73", "r0p2", 2, 3, 4, 5),
			clusterFacts(0, "Cortex-A53", 0, 1000, 2016, 0, 1),
			clusterFacts(1, "Cortex-A73", 2, 1000, 2400, 2, 3, 4, 5),
			[]fact{
				{"cpu.clusters", length(2)},
				{"board.model", eq("Hardkernel ODROID-N2Plus")},
				{"board.compatible", someElem(eq("amlogic,s922x"))},
				{"soc.guess", contains("S922X")},
				{"sensors.soc_temp.name", eq("cpu-thermal")},
				{"sensors.soc_temp.temp_c", eq(28.4)},
				{"sensors.thermal_zones", length(2)},
				{"os.armbian.board", eq("odroidn2")},
				{"memory.zram.0.algorithm", eq("zstd")},
				{"storage.devices[name=mmcblk1].kind", eq("eMMC")},
				{"network.interfaces[name=eth0].mac", prefix("00:1e:06")},
				{"cpu.cpus.2.capacity", eq(1024)},
				{"cpu.cpus.0.capacity", eq(497)},
				{"cpu.caches[level=2].cpus", ints(0, 1)},
				{"cpu.policies.1.cpus", ints(2, 3, 4, 5)},
				{"cpu.policies.1.available_mhz", length(13)},
				{"sensors.thermal_zones.1.type", eq("ddr-thermal")},
				{"storage.devices[name=mmcblk1].mmc.manfid", eq("0x000015")},
				{"storage.devices[name=mmcblk1].partitions.0.mounts.0.mount_point", eq("/")},
				{"memory.zram[name=zram1].mount_point", eq("/var/log")},
				{"network.interfaces[name=eth0].driver", eq("meson8b-dwmac")},
			}),
		secrets: []string{"01:02:03", "7badd00d"},
	},
	{
		name: "orangepi-zero3",
		facts: join(
			coreFacts("Cortex-A53", "r0p4", 0, 1, 2, 3),
			clusterFacts(0, "Cortex-A53", 0, 480, 1512, 0, 1, 2, 3),
			[]fact{
				{"cpu.clusters", length(1)},
				{"board.model", eq("OrangePi Zero3")},
				{"board.compatible", someElem(eq("allwinner,sun50i-h618"))},
				{"soc.guess", contains("H618")},
				{"sensors.soc_temp.name", eq("cpu-thermal")},
				{"sensors.soc_temp.temp_c", eq(41.9)},
				{"sensors.thermal_zones", length(4)},
				{"os.armbian.board", eq("orangepizero3")},
				{"memory.swaps.0.kind", eq("zram")},
				{"storage.devices[name=sda].kind", eq("USB")},
				{"storage.devices[name=sda].usb.driver", eq("usb-storage")},
				{"storage.devices[name=sda].usb.speed_mbps", eq(480.0)},
				{"storage.devices[name=sda].usb.vendor_id", eq("0781")},
				{"storage.devices[name=mmcblk0].kind", eq("SD card")},
				{"buses.usb[name=3-1].speed_mbps", eq(480.0)},
				{"network.interfaces[name=end0].driver", eq("dwmac-sun8i")},
				{"cpu.policies.0.available_mhz", ints(480, 600, 792, 1008, 1200, 1344, 1416, 1512)},
				{"cpu.caches", none()},
				{"sensors.thermal_zones.3.type", eq("ddr-thermal")},
				{"sensors.thermal_zones.2.trip_points", none()},
				{"memory.transparent_huge_pages.enabled.selected", eq("madvise")},
				{"memory.zram.0.algorithm", eq("zstd")},
				{"storage.devices[name=sda].removable", eq(true)},
				{"storage.devices[name=sda].usb.product", eq("Ultra Fit")},
				{"storage.devices[name=sda].partitions.0.mounts.0.fs_type", eq("vfat")},
				{"buses.usb[name=3-1].interfaces.0.driver", eq("usb-storage")},
				{"buses.usb[name=usb3].root_hub", eq(true)},
				{"network.interfaces[name=end0].speed_mbps", eq(1000)},
			}),
		secrets: []string{"01:02:03", "8badcafe", "FIXTURE0ZERO3"},
	},
	{
		name: "visionfive2",
		facts: join(
			clusterFacts(0, "", 0, 375, 1500, 0, 1, 2, 3),
			[]fact{
				{"cpu.arch", eq("riscv64")},
				{"cpu.cpus", length(4)},
				{"cpu.clusters", length(1)},
				{"cpu.cpus.0.core", contains("U74")},
				{"cpu.cpus.3.core_name", contains("U74")},
				{"cpu.cpus.0.uarch", eq("sifive,u74-mc")},
				{"cpu.cpus.0.mvendorid", eq("0x489")},
				{"cpu.cpus.0.marchid", eq("0x8000000000000007")},
				{"cpu.cpus.2.hart", eq(3)},
				{"board.model", eq("StarFive VisionFive 2 v1.3B")},
				{"soc.guess", contains("JH7110")},
				{"sensors.soc_temp.kind", eq("thermal_zone")},
				{"sensors.soc_temp.name", eq("cpu-thermal")},
				{"sensors.soc_temp.temp_c", eq(45.23)},
				{"sensors.hwmon[name=sfctemp].readings.0.value", eq(45.23)},
				{"os.kernel.machine", eq("riscv64")},
				{"os.userland.arch", eq("riscv64")},
				{"os.distro.version_id", eq("13")},
				{"storage.devices[name=nvme0n1].pcie.current_width", eq(1)},
				{"storage.devices[name=nvme0n1].pcie.max_width", eq(4)},
				{"storage.devices[name=nvme0n1].pcie.downgraded", eq(true)},
				{"network.interfaces[name=end0].speed_mbps", eq(1000)},
				{"network.interfaces[name=end1].speed_mbps", eq(nil)},
				{"network.interfaces[name=end1].carrier", eq(false)},
				{"network.interfaces[name=end1].operstate", eq("down")},
				{"cpu.policies.0.available_mhz", ints(375, 500, 750, 1500)},
				{"cpu.caches[level=2].size_bytes", eq(2 * mib)},
				{"cpu.caches[level=2].cpus", ints(0, 1, 2, 3)},
				{"cpu.features.rvv", eq(false)},
				{"sensors.thermal_zones", length(1)},
				{"sensors.hwmon", length(2)},
				{"os.kernel.release", eq("6.12.38+deb13-riscv64")},
				{"os.libc.version", eq("2.41")},
				{"memory.swaps", length(0)},
				{"storage.devices[name=mmcblk1].partitions", length(4)},
				{"storage.devices[name=mmcblk1].partitions[name=mmcblk1p4].mounts.0.mount_point", eq("/")},
				{"storage.devices[name=nvme0n1].pcie.limited_by_port", eq(true)},
				{"buses.pci[address=0000:01:00.0].driver", eq("xhci_hcd")},
				{"network.interfaces[name=end0].driver", eq("starfive-dwmac")},
			}),
		secrets: []string{"01:02:03", "01:02:05", "9badcafe", "HBSE00000FIXV2"},
	},
	{
		name: "intel-hybrid",
		facts: join(
			[]fact{
				{"cpu.arch", eq("x86_64")},
				{"cpu.cpus", length(16)},
				{"cpu.clusters", length(2)},
				{"cpu.clusters.0.cpus", ints(0, 1, 2, 3, 4, 5, 6, 7)},
				{"cpu.clusters.1.cpus", ints(8, 9, 10, 11, 12, 13, 14, 15)},
				{"cpu.clusters.0.max_mhz", eq(4400.0)},
				{"cpu.clusters.1.max_mhz", eq(3300.0)},
				{"cpu.clusters.0.min_mhz", eq(400.0)},
				{"cpu.cpus.0.max_mhz", eq(4400.0)},
				{"cpu.cpus.15.max_mhz", eq(3300.0)},
				{"cpu.cpus.9.policy", eq(9)},
				{"cpu.cpus.0.model_name", contains("i5-1240P")},
				{"cpu.cpus.1.thread_siblings", ints(0, 1)},
				{"cpu.cpus.0.core_name", re(`(?i)golden cove|p-core|performance`)},
				{"cpu.cpus.8.core_name", re(`(?i)gracemont|e-core|efficien`)},
				{"board.model", contains("NUC12WSHi5")},
				{"board.dmi", present()},
				{"board.compatible", length(0)},
				{"soc.guess", contains("i5-1240P")},
				{"sensors.soc_temp.kind", eq("thermal_zone")},
				{"sensors.soc_temp.name", eq("x86_pkg_temp")},
				{"sensors.soc_temp.temp_c", eq(41.0)},
				{"sensors.hwmon[name=coretemp].readings.0.label", eq("Package id 0")},
				{"os.kernel.machine", eq("x86_64")},
				{"os.userland.arch", eq("amd64")},
				{"os.distro.id", eq("ubuntu")},
				{"os.libc.version", eq("2.39")},
				{"memory.swaps.0.kind", eq("file")},
				{"memory.swaps.0.device.disk_kind", eq("nvme")},
				{"storage.devices[name=nvme0n1].kind", eq("NVMe")},
				{"storage.devices[name=nvme0n1].pcie.current_gts", eq(16.0)},
				{"storage.devices[name=nvme0n1].pcie.downgraded", eq(false)},
				{"buses.pci[address=0000:56:00.0].driver", eq("igc")},
				{"network.interfaces[name=enp86s0].driver", eq("igc")},
				{"network.interfaces[name=enp86s0].speed_mbps", eq(2500)},
				{"raspberry_pi", eq(nil)},
				{"cpu.heterogeneous", eq(true)},
				{"cpu.cpus.0.hybrid_type", eq("P-core")},
				{"cpu.cpus.8.hybrid_type", eq("E-core")},
				{"cpu.cpus.6.thread_siblings", ints(6, 7)},
				{"cpu.cpus.12.thread_siblings", ints(12)},
				{"cpu.cpus.1.core_id", eq(0)},
				{"cpu.cpus.15.core_id", eq(23)},
				{"cpu.clusters.0.policies", ints(0, 1, 2, 3, 4, 5, 6, 7)},
				{"cpu.policies", length(16)},
				{"cpu.policies.3.driver", eq("intel_pstate")},
				{"cpu.policies.3.available_governors", length(2)},
				{"cpu.policies.3.available_mhz", eq(nil)},
				{"cpu.caches", length(31)},
				{"cpu.caches[level=3].size_bytes", eq(12 * mib)},
				{"cpu.features.avx2", eq(true)},
				{"cpu.features.avx512f", eq(false)},
				{"cpu.features.sha_ni", eq(true)},
				{"board.dmi.sys_vendor", eq("Intel(R) Client Systems")},
				{"board.dmi.board_name", eq("NUC12WSBi5")},
				{"sensors.thermal_zones", length(3)},
				{"sensors.hwmon[name=coretemp].readings.0.value", eq(41.0)},
				{"sensors.hwmon[name=nvme].readings.0.value", eq(36.85)},
				{"memory.numa_nodes", eq(1)},
				{"memory.swaps.0.path", eq("/swap.img")},
				{"memory.zswap.enabled", eq(false)},
				{"memory.warnings", none()},
				{"memory.swaps.0.file_system.mount_point", eq("/")},
				{"storage.devices[name=nvme0n1].model", eq("Samsung SSD 980 PRO 1TB")},
				{"storage.devices[name=nvme0n1].pcie.current_width", eq(4)},
				{"network.interfaces[name=enp86s0].rx_queues", eq(4)},
				{"network.interfaces[name=wlp0s20f3].type", eq("wlan")},
				{"network.interfaces[name=wlp0s20f3].driver", eq("iwlwifi")},
			}),
		secrets: []string{"01:02:03", "01:02:04", "G6WS00000FIX", "BTWS00000000FIX", "f1c5", "S5GXNX0T000FIX9"},
	},
	{
		name: "qcs6490",
		facts: join(
			coreFacts("Cortex-A55", "r2p0", 0, 1, 2, 3),
			coreFacts("Cortex-A78", "r1p1", 4, 5, 6, 7),
			clusterFacts(0, "Cortex-A55", 0, 300, 1958.4, 0, 1, 2, 3),
			clusterFacts(1, "Cortex-A78", 4, 691.2, 2400, 4, 5, 6),
			clusterFacts(2, "Cortex-A78", 7, 806.4, 2707.2, 7),
			[]fact{
				{"cpu.clusters", length(3)},
				{"board.model", eq("Thundercomm, Inc. Rubik Pi C6490P")},
				{"soc.guess", contains("QCS6490")}, // /sys/devices/soc0/machine; the compatible names only a sibling
				{"sensors.soc_temp.kind", eq("thermal_zone")},
				{"sensors.soc_temp.name", re(`^cpu(ss)?[0-9]+-thermal$`)},
				{"os.distro.codename", eq("trixie")},
				{"memory.swaps.0.priority", eq(32758)},
				{"storage.devices[name=sda].kind", eq("UFS")},
				{"storage.devices[name=sda].logical_block_bytes", eq(4096)},
				{"storage.devices[name=sda].size_bytes", eq(int64(247717888) * 512)},
				{"network.interfaces[name=enP1p1s0].driver", eq("r8169")},
				{"cpu.policies", length(3)},
				{"cpu.policies.2.driver", eq("qcom-cpufreq-hw")},
				{"cpu.policies.2.available_mhz", length(11)},
				{"cpu.cpus.7.capacity", eq(1024)},
				{"cpu.heterogeneous", eq(true)},
				{"board.compatible", someElem(eq("qcom,sc7280"))},
				{"sensors.thermal_zones", length(15)},
				{"os.distro.version_id", eq("")},
				{"memory.zram.0.algorithm", eq("zstd")},
				{"storage.devices[name=sda].model", contains("KLUDG4UHGC")},
				{"storage.devices[name=sda].partitions", length(2)},
				{"network.interfaces[name=enP1p1s0].bus", eq("PCIe")},
			}),
		secrets: []string{"01:02:03", "3735928559"},
	},
	{
		// A KVM guest like a cloud VM; the facts VM detection can rely on are the
		// hypervisor flag and the DMI strings QEMU fills in.
		name: "cloud-vm-kvm",
		facts: []fact{
			{"cpu.arch", eq("x86_64")},
			{"cpu.cpus", length(2)},
			{"cpu.cpus.0.model_name", eq("AMD EPYC-Milan Processor")},
			{"cpu.cpus.1.vendor", eq("AMD")},
			{"cpu.features.common", someElem(eq("hypervisor"))},
			{"cpu.features.avx2", eq(true)},
			{"cpu.policies", none()},
			{"cpu.cpus.0.max_mhz", eq(nil)},
			{"cpu.caches[level=3].size_bytes", eq(32 * mib)},
			{"board.dmi.sys_vendor", eq("QEMU")},
			{"board.dmi.product_name", eq("Standard PC (Q35 + ICH9, 2009)")},
			{"board.dmi.product_version", eq("pc-q35-7.2")},
			{"board.dmi.bios_vendor", eq("SeaBIOS")},
			{"board.dmi.bios_version", eq("1.16.2-debian-1.16.2-1")},
			{"board.dmi.board_vendor", eq("")},
			{"board.compatible", none()},
			{"sensors.soc_temp", eq(nil)},
			{"sensors.thermal_zones", none()},
			{"os.kernel.release", eq("6.1.0-23-cloud-amd64")},
			{"os.userland.arch", eq("amd64")},
			{"memory.total_bytes", eq(4010044 * kib)},
			{"storage.devices", length(1)},
			{"storage.devices[name=vda].kind", eq("virtio")},
			{"storage.devices[name=vda].size_bytes", eq(int64(83886080) * 512)},
			{"storage.devices[name=vda].partitions[name=vda1].mounts.0.mount_point", eq("/")},
			{"buses.pci[address=0000:04:00.0].vendor_id", eq("0x1af4")},
			{"network.interfaces", length(1)},
			{"network.interfaces[name=enp1s0].driver", eq("virtio_net")},
			{"network.interfaces[name=enp1s0].mac", prefix("52:54:00")},
			{"raspberry_pi", eq(nil)},
		},
		secrets: []string{"01:02:03", "f1c6"},
	},
	{
		// The ROCK 5B of rock5b on Armbian's 6.1 vendor kernel with other disks.
		name: "rock5b-armbian",
		facts: join(
			coreFacts("Cortex-A55", "r2p0", 0, 1, 2, 3),
			coreFacts("Cortex-A76", "r4p0", 4, 5, 6, 7),
			[]fact{
				{"board.model", eq("Radxa ROCK 5B")},
				{"soc.guess", contains("RK3588")},
				{"os.armbian.branch", eq("legacy")},
				{"os.kernel.release", eq("6.1.43-rockchip-rk3588")},
				{"storage.devices[name=mmcblk0].kind", eq("SD card")},
				{"storage.devices[name=mmcblk1].kind", eq("eMMC")},
				{"storage.devices[name=nvme0n1].pcie.downgraded", eq(true)},
				{"storage.devices[name=nvme0n1].pcie.limited_by_port", eq(false)},
				{"storage.devices[name=sda].usb.driver", eq("uas")},
				{"storage.devices[name=dm-0].model", eq("cryptdata")},
				{"network.interfaces[name=enP4p65s0].driver", eq("r8169")},
				{"buses.usb", length(8)},
				{"memory.swaps.0.kind", eq("zram")},
			}),
		secrets: []string{"01:02:03", "9a8b7c6d", "5f2e1a0b", "S4EVNX0R000FIXC", "4C530001230518117315", "A50285BI"},
	},
	{
		name: "cpuinfo-only",
		facts: []fact{
			{"cpu.arch", eq("arm")},
			{"cpu.cpus", length(1)},
			{"cpu.cpus.0.core_name", prefix("ARM1176")},
			{"cpu.cpus.0.part", eq("0xb76")},
			{"cpu.cpus.0.policy", eq(nil)},
			{"cpu.cpus.0.max_mhz", eq(nil)},
			{"cpu.clusters", length(1)},
			{"board.cpuinfo_hardware", eq("BCM2708")},
			{"board.raspberry_pi.code", eq("0002")},
			{"board.raspberry_pi.style", eq("old")},
			{"soc.guess", contains("BCM2835")},
			{"sensors.soc_temp", eq(nil)},
			{"raspberry_pi", eq(nil)},
		},
	},
}

// TestBoards describes each fixture root as `boardbench info --json` does and
// checks the description against the board's known facts.
func TestBoards(t *testing.T) {
	for _, b := range boards {
		t.Run(b.name, func(t *testing.T) {
			root := filepath.Join(boardsDir, b.name)
			if _, err := os.Stat(filepath.Join(root, "proc", "cpuinfo")); err != nil {
				t.Fatalf("fixture root missing: %v", err)
			}
			h, err := host.New(root)
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(inventory.Collect(h, inventory.Options{Redact: true}))
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			var doc map[string]any
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatalf("decode: %v", err)
			}
			for _, f := range b.facts {
				got, ok := get(doc, f.path)
				if !ok {
					t.Errorf("%s: missing, want %s", f.path, f.want)
					continue
				}
				if !f.want.match(got) {
					g, _ := json.Marshal(got)
					t.Errorf("%s = %s, want %s", f.path, truncate(string(g), 200), f.want)
				}
			}
			for _, s := range b.secrets {
				if i := strings.Index(strings.ToLower(string(data)), strings.ToLower(s)); i >= 0 {
					t.Errorf("redacted description leaks %q: …%s…", s, around(string(data), i, len(s)))
				}
			}
			if testing.Verbose() && os.Getenv("BOARDBENCH_DUMP") != "" {
				t.Logf("%s", data)
			}
		})
	}
}

// truncate shortens s to n bytes for error messages.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// around returns the text near s[i:i+n].
func around(s string, i, n int) string {
	lo, hi := i-80, i+n+40
	if lo < 0 {
		lo = 0
	}
	if hi > len(s) {
		hi = len(s)
	}
	return s[lo:hi]
}

// TestBoardsFixturesShape guards the fixture trees themselves: links are
// relative inside /sys as on a real system, /proc/device-tree is the absolute
// link real kernels create, and device-tree strings are NUL-terminated.
func TestBoardsFixturesShape(t *testing.T) {
	for _, b := range boards {
		root := filepath.Join(boardsDir, b.name)
		t.Run(b.name, func(t *testing.T) {
			err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
				if err != nil || fi.Mode()&os.ModeSymlink == 0 {
					return err
				}
				rel, _ := filepath.Rel(root, p)
				target, err := os.Readlink(p)
				if err != nil {
					return err
				}
				if filepath.IsAbs(target) {
					if rel != filepath.Join("proc", "device-tree") {
						t.Errorf("/%s -> %s: absolute link (sysfs links are relative)", rel, target)
					}
					return nil
				}
				if _, err := os.Stat(p); err != nil {
					t.Errorf("/%s -> %s: dangling link", rel, target)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			model := filepath.Join(root, "sys", "firmware", "devicetree", "base", "model")
			if data, err := os.ReadFile(model); err == nil {
				if !strings.HasSuffix(string(data), "\x00") {
					t.Errorf("device-tree model %q is not NUL-terminated", data)
				}
				if target, err := os.Readlink(filepath.Join(root, "proc", "device-tree")); err != nil || target != "/sys/firmware/devicetree/base" {
					t.Errorf("/proc/device-tree -> %q (%v), want the absolute link /sys/firmware/devicetree/base", target, err)
				}
			}
		})
	}
}

// TestPathHelper pins the path syntax the board facts use.
func TestPathHelper(t *testing.T) {
	var doc any
	if err := json.Unmarshal([]byte(`{"a":{"list":[{"name":"x.y","v":1},{"name":"0000:01:00.0","v":[2,3]}]},"n":null}`), &doc); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want string
		ok   bool
	}{
		{"a.list.0.v", "1", true},
		{"a.list[name=0000:01:00.0].v.1", "3", true},
		{"a.list[name=x.y].name", "x.y", true},
		{"a.list[name=z].v", "", false},
		{"a.list.5", "", false},
		{"n", "<nil>", true},
		{"a.missing", "", false},
	}
	for _, tt := range tests {
		got, ok := get(doc, tt.path)
		if ok != tt.ok || (ok && scalarString(got) != tt.want) {
			t.Errorf("get(%q) = %v, %v; want %s, %v", tt.path, got, ok, tt.want, tt.ok)
		}
	}
}
