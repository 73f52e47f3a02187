package rpi

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// throttledBits names the bits of the firmware's get_throttled word.
var throttledBits = []struct {
	bit  uint
	text string
}{
	{0, "under-voltage detected"},
	{1, "arm frequency capped"},
	{2, "currently throttled"},
	{3, "soft temperature limit active"},
	{16, "under-voltage has occurred"},
	{17, "arm frequency capping has occurred"},
	{18, "throttling has occurred"},
	{19, "soft temperature limit has occurred"},
}

// DecodeThrottled turns the get_throttled word into words, current
// conditions first. Set bits without a documented meaning are reported as
// "bit N set (undocumented)". A zero word gives an empty (non-nil) list.
func DecodeThrottled(v uint32) []string {
	out := []string{}
	known := uint32(0)
	for _, b := range throttledBits {
		known |= 1 << b.bit
		if v&(1<<b.bit) != 0 {
			out = append(out, b.text)
		}
	}
	for bit := uint(0); bit < 32; bit++ {
		if v&(1<<bit) != 0 && known&(1<<bit) == 0 {
			out = append(out, fmt.Sprintf("bit %d set (undocumented)", bit))
		}
	}
	return out
}

// valueAfter returns the text after "key=" in the first line of out that
// starts with key=, e.g. valueAfter("throttled=0x0\n", "throttled").
func valueAfter(out, key string) (string, bool) {
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, key+"="); ok {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// vcError returns the firmware's error message when out is an error reply
// ("error=2 error_msg=\"Invalid arguments\""), or "".
func vcError(out string) string {
	s := strings.TrimSpace(out)
	if !strings.HasPrefix(s, "error=") {
		return ""
	}
	if _, msg, ok := strings.Cut(s, "error_msg="); ok {
		return strings.Trim(strings.TrimSpace(msg), `"`)
	}
	return s
}

// malformed builds the error for output that does not have the expected form.
func malformed(what, out string) error {
	if msg := vcError(out); msg != "" {
		return fmt.Errorf("%s: firmware error: %s", what, truncate(msg, 80))
	}
	return fmt.Errorf("%s: unexpected output %q", what, truncate(strings.TrimSpace(out), 60))
}

// ParseThrottled parses the output of `vcgencmd get_throttled`
// ("throttled=0x50005").
func ParseThrottled(out string) (uint32, error) {
	v, ok := valueAfter(out, "throttled")
	if !ok {
		return 0, malformed("get_throttled", out)
	}
	t := v
	base := 10
	if h, ok := strings.CutPrefix(strings.ToLower(v), "0x"); ok {
		t, base = h, 16
	}
	n, err := strconv.ParseUint(t, base, 32)
	if err != nil {
		return 0, malformed("get_throttled", out)
	}
	return uint32(n), nil
}

// ParseClock parses the output of `vcgencmd measure_clock arm`
// ("frequency(48)=1500398464", in Hz) and returns MHz. A zero clock is an
// error: the firmware reports 0 for clocks it cannot measure.
func ParseClock(out string) (float64, error) {
	s := strings.TrimSpace(out)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if !strings.HasPrefix(s, "frequency(") {
		return 0, malformed("measure_clock", out)
	}
	_, v, ok := strings.Cut(s, "=")
	if !ok {
		return 0, malformed("measure_clock", out)
	}
	hz, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0, malformed("measure_clock", out)
	}
	if hz == 0 {
		return 0, errors.New("measure_clock: the firmware reports 0 Hz (clock not measurable)")
	}
	return float64(hz) / 1e6, nil
}

// ParseVolts parses the output of `vcgencmd measure_volts core`
// ("volt=0.8600V") and returns volts.
func ParseVolts(out string) (float64, error) {
	v, ok := valueAfter(out, "volt")
	if !ok {
		return 0, malformed("measure_volts", out)
	}
	f, err := strconv.ParseFloat(strings.TrimSuffix(v, "V"), 64)
	if err != nil || f <= 0 || f > 10 {
		return 0, malformed("measure_volts", out)
	}
	return f, nil
}

// ParseTemp parses the output of `vcgencmd measure_temp` ("temp=45.2'C") and
// returns °C.
func ParseTemp(out string) (float64, error) {
	v, ok := valueAfter(out, "temp")
	if !ok {
		return 0, malformed("measure_temp", out)
	}
	v = strings.TrimSuffix(strings.TrimSuffix(v, "C"), "'")
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < -100 || f > 200 {
		return 0, malformed("measure_temp", out)
	}
	return f, nil
}

// ParseConfig parses the output of `vcgencmd get_config int`: one "key=value"
// per line, values decimal or 0x-prefixed hex. Lines that do not fit are
// skipped and counted in the returned number of skipped lines.
func ParseConfig(out string) (map[string]int64, int) {
	cfg := map[string]int64{}
	skipped := 0
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t\"") || k == "error" {
			skipped++
			continue
		}
		n, err := parseConfigInt(strings.TrimSpace(v))
		if err != nil {
			skipped++
			continue
		}
		cfg[k] = n
	}
	return cfg, skipped
}

func parseConfigInt(v string) (int64, error) {
	neg := strings.HasPrefix(v, "-")
	t := strings.TrimPrefix(v, "-")
	if h, ok := strings.CutPrefix(strings.ToLower(t), "0x"); ok {
		n, err := strconv.ParseUint(h, 16, 64)
		if err != nil {
			return 0, err
		}
		if neg {
			return -int64(n), nil
		}
		return int64(n), nil
	}
	return strconv.ParseInt(v, 10, 64)
}

// FirmwareVersion is what `vcgencmd version` says about the firmware.
type FirmwareVersion struct {
	// Date is the build date as printed, e.g. "Mar 17 2023 10:53:00" or
	// "2024/03/14 15:23:42".
	Date string `json:"date"`
	// Version is the source revision, e.g. "82f3750a…" or "4d574a2e".
	Version string `json:"version"`
	// Flavour lists the words in parentheses after the version, e.g.
	// ["clean", "release", "start"].
	Flavour []string `json:"flavour"`
}

// ParseVersion parses the output of `vcgencmd version`:
//
//	Mar 17 2023 10:53:00
//	Copyright (c) 2012 Broadcom
//	version 82f3750a65fadae9a38077e3c2e217ad158c8d54 (clean) (release) (start)
func ParseVersion(out string) (FirmwareVersion, error) {
	v := FirmwareVersion{Flavour: []string{}}
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "", strings.HasPrefix(line, "Copyright"):
		case strings.HasPrefix(line, "version "):
			f := strings.Fields(line)
			if len(f) >= 2 {
				v.Version = f[1]
			}
			for _, w := range f[min(2, len(f)):] {
				if strings.HasPrefix(w, "(") && strings.HasSuffix(w, ")") && len(w) > 2 {
					v.Flavour = append(v.Flavour, w[1:len(w)-1])
				}
			}
		case v.Date == "" && v.Version == "" && looksLikeDate(line):
			v.Date = line
		}
	}
	if v.Version == "" && v.Date == "" {
		return v, malformed("version", out)
	}
	return v, nil
}

// looksLikeDate accepts the firmware's two date styles: "Mar 17 2023 10:53:00"
// and "2024/03/14 15:23:42".
func looksLikeDate(s string) bool {
	if len(s) < 10 || !strings.Contains(s, ":") {
		return false
	}
	digits := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			digits++
		}
	}
	return digits >= 8
}

// Setting is one firmware configuration value worth pointing out.
type Setting struct {
	Key   string `json:"key"`
	Value int64  `json:"value"`
	// Meaning explains the key and its unit.
	Meaning string `json:"meaning"`
}

// settingMeaning says what a get_config key that changes clocks, voltages
// or thermal limits means, with its unit; "" for the other keys.
func settingMeaning(key string) string {
	switch key {
	case "arm_freq":
		return "maximum ARM clock, MHz"
	case "arm_freq_min":
		return "minimum ARM clock, MHz"
	case "arm_boost":
		return "higher maximum ARM clock on boards that support it (1 = on)"
	case "force_turbo":
		return "always run at the maximum clocks, ignoring load (1 = on; with over_voltage voids the warranty)"
	case "initial_turbo":
		return "seconds at maximum clocks after boot"
	case "over_voltage":
		return "core voltage offset in 25 mV steps"
	case "over_voltage_min":
		return "core voltage offset at minimum clocks in 25 mV steps"
	case "over_voltage_delta":
		return "core voltage offset in µV"
	case "temp_limit":
		return "temperature at which clocks are reduced, °C"
	case "temp_soft_limit":
		return "soft temperature limit (earlier, gentler throttling), °C"
	case "core_freq":
		return "GPU core clock, MHz"
	case "core_freq_min":
		return "minimum GPU core clock, MHz"
	case "gpu_freq":
		return "GPU clocks, MHz"
	case "v3d_freq":
		return "3D block clock, MHz"
	case "sdram_freq":
		return "SDRAM clock, MHz"
	case "sdram_schmoo":
		return "SDRAM timing tuning value"
	case "over_voltage_sdram":
		return "SDRAM voltage offset in 25 mV steps"
	case "total_mem":
		return "memory the firmware sees, MB"
	case "gpu_mem":
		return "memory reserved for the GPU, MB"
	case "arm_64bit":
		return "start the kernel in 64-bit mode (1 = on)"
	case "never_over_voltage":
		return "over-voltage permanently disabled (OTP bit, 1 = on)"
	case "disable_auto_turbo":
		return "no automatic turbo mode (1 = on)"
	}
	return ""
}

// Highlights returns the settings of cfg that change clocks, voltages or
// thermal limits, sorted by key.
func Highlights(cfg map[string]int64) []Setting {
	out := []Setting{}
	for k, v := range cfg {
		if m := settingMeaning(k); m != "" {
			out = append(out, Setting{Key: k, Value: v, Meaning: m})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}
