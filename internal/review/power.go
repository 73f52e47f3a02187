package review

import (
	"fmt"
	"strconv"
	"strings"

	"boardbench/internal/inventory/osinfo"
	"boardbench/internal/kernelfile"
)

// RPiConfigPaths are where the Raspberry Pi firmware's config.txt lives
// (Bookworm and later first).
var RPiConfigPaths = []string{"/boot/firmware/config.txt", "/boot/config.txt"}

// ParseRPiConfig reads config.txt's key=value lines (conditional sections
// included; the last value of a key wins), skipping comments.
func ParseRPiConfig(s string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == '[' {
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return out
}

func rpiConfig(e *Env) []Finding {
	var cp, raw string
	for _, p := range RPiConfigPaths {
		if v, ok := e.Read(AreaPower, p); ok {
			cp, raw = p, v
			break
		}
	}
	if cp == "" {
		return nil
	}
	cfg := ParseRPiConfig(raw)
	num := func(k string) (int64, bool) {
		v, ok := cfg[k]
		if !ok {
			return 0, false
		}
		n, err := strconv.ParseInt(v, 0, 64)
		return n, err == nil
	}
	line := func(k string) string { return fmt.Sprintf("%s: %s=%s", cp, k, cfg[k]) }
	persist := "edit " + cp + " and reboot"
	var out []Finding
	if v, ok := num("over_voltage"); ok && v > 0 {
		out = append(out, warn(
			fmt.Sprintf("over_voltage=%d raises the core voltage, and since the Bullseye firmware also at idle", v),
			"remove over_voltage= unless an overclock needs it; measure idle power before and after",
			persist, "a lower stable overclock", line("over_voltage")))
	}
	if v, ok := num("force_turbo"); ok && v == 1 {
		out = append(out, warn(
			"force_turbo=1 holds the top clock and voltage at all times, idle included",
			"remove force_turbo=1 and let the firmware scale the clock", persist,
			"none for benchmarks: the clock still reaches the top under load", line("force_turbo")))
	}
	if v, ok := num("arm_boost"); ok && v == 0 {
		out = append(out, info(
			"arm_boost=0 keeps a Raspberry Pi 4 at 1.5 GHz instead of 1.8 GHz",
			"set arm_boost=1", persist, "more heat and power under load", line("arm_boost")))
	}
	if v, ok := num("temp_soft_limit"); ok {
		out = append(out, info(
			fmt.Sprintf("temp_soft_limit=%d moves the firmware's soft throttling point (default 60 °C on the Pi 3B+)", v),
			"keep it at or below 70 and cool the board instead", persist, "none", line("temp_soft_limit")))
	}
	if v, ok := num("gpu_mem"); ok && v > 64 {
		if mi, ok := e.Read(AreaMemory, "/proc/meminfo"); ok {
			if total, ok := kernelfile.ParseMeminfo([]byte(mi))["MemTotal"]; ok && total <= 1<<30 {
				out = append(out, warn(
					fmt.Sprintf("gpu_mem=%d takes that many MiB from a board with %d MiB of RAM", v, total>>20),
					"set gpu_mem=64 (or lower without camera or video decoding)", persist,
					"less memory for the camera and video decoder", line("gpu_mem"),
					fmt.Sprintf("/proc/meminfo: MemTotal %d MiB", total>>20)))
			}
		}
	}
	if v, ok := num("arm_64bit"); ok && v == 1 {
		u := osinfo.Collect(e.H).Userland
		if u.Bits != nil && *u.Bits == 32 {
			e.Note(AreaPower, "userland", fmt.Sprintf("%s (%d-bit, from %s)", u.Arch, *u.Bits, u.Source))
			out = append(out, info(
				"arm_64bit=1 boots a 64-bit kernel under a 32-bit userland: programs run as 32-bit code",
				"benchmark results are those of 32-bit code; a 64-bit userland needs a 64-bit OS image", "",
				"a 64-bit userland needs more memory (a problem on 512 MiB boards)",
				line("arm_64bit"), fmt.Sprintf("userland: %s (%d-bit, from %s)", u.Arch, *u.Bits, u.Source)))
		}
	}
	return out
}

// microUnit parses a sysfs value in µV or µA into V or A.
func microUnit(s string) (float64, bool) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return float64(v) / 1e6, err == nil
}

func usbPDContract(e *Env) []Finding {
	names, _ := e.H.ReadDirNames("/sys/class/power_supply")
	var out []Finding
	for _, n := range names {
		dir := "/sys/class/power_supply/" + n
		usbType, _ := e.Read(AreaPower, dir+"/usb_type")
		if !strings.Contains(n, "tcpm") && !strings.Contains(usbType, "PD") {
			continue
		}
		online, _ := e.Read(AreaPower, dir+"/online")
		vs, okV := e.Read(AreaPower, dir+"/voltage_now")
		is, okI := e.Read(AreaPower, dir+"/current_max")
		if online != "1" || !okV {
			continue
		}
		volts, ok := microUnit(vs)
		if !ok || volts > 5.5 {
			continue
		}
		evidence := []string{ev(dir+"/online", online), ev(dir+"/voltage_now", vs)}
		contract := fmt.Sprintf("%.1f V", volts)
		if okI {
			if amps, ok := microUnit(is); ok {
				contract += fmt.Sprintf(" × %.2f A = %.1f W", amps, volts*amps)
			}
			evidence = append(evidence, ev(dir+"/current_max", is))
		}
		if usbType != "" {
			evidence = append(evidence, ev(dir+"/usb_type", usbType))
		}
		out = append(out, warn(
			fmt.Sprintf("the USB-PD port %s negotiated only %s: the charger offers no higher voltage (or is not USB-PD)", n, contract),
			"use a USB-PD charger that offers 9 V or 12 V at 2 A or more; USB storage and PCIe devices may brown out at 5 V",
			"", "none", evidence...))
	}
	return out
}

func powercapLimit(e *Env) []Finding {
	names, _ := e.H.ReadDirNames("/sys/class/powercap")
	var out []Finding
	for _, n := range names {
		if strings.Count(n, ":") != 1 {
			continue // packages only, not their subzones
		}
		dir := "/sys/class/powercap/" + n
		en, _ := e.Read(AreaPower, dir+"/enabled")
		name, _ := e.Read(AreaPower, dir+"/name")
		lp, mp := dir+"/constraint_0_power_limit_uw", dir+"/constraint_0_max_power_uw"
		ls, ok1 := e.Read(AreaPower, lp)
		ms, ok2 := e.Read(AreaPower, mp)
		lim, err1 := strconv.ParseInt(ls, 10, 64)
		mx, err2 := strconv.ParseInt(ms, 10, 64)
		if en != "1" || !ok1 || !ok2 || err1 != nil || err2 != nil || mx <= 0 || lim*100 >= mx*95 {
			continue
		}
		out = append(out, warn(
			fmt.Sprintf("%s (%s) long-term power limit is %.1f W, below the %.1f W the CPU is rated for: multi-threaded results are capped by it", n, name, float64(lim)/1e6, float64(mx)/1e6),
			fmt.Sprintf("echo %d > %s (boardbench does not change power limits), or raise PL1 in the firmware setup", mx, lp),
			"the firmware (BIOS/UEFI) setup, or a systemd unit writing the limit at boot",
			"more heat and power under sustained load", ev(lp, ls), ev(mp, ms), ev(dir+"/enabled", en)))
	}
	return out
}
