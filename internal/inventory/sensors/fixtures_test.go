package sensors

import (
	"fmt"
	"strings"

	"boardbench/internal/testutil/fixture"
)

// Fixture maps (machine path → content) are written by fixture.Host: a
// content starting with "->" makes a symbolic link; a path ending in "/"
// makes a directory (used to make a sensor file unreadable: reading a
// directory fails).

// trip is a trip point of a zone fixture.
type trip struct{ typ, temp, hyst string }

// zone builds thermal_zoneN with type, temp ("" for none, "DIR" for an
// unreadable temp file), mode, policy and trip points.
func zone(n int, typ, temp string, trips ...trip) map[string]string {
	dir := fmt.Sprintf("/sys/class/thermal/thermal_zone%d/", n)
	m := map[string]string{
		dir + "type":   typ + "\n",
		dir + "mode":   "enabled\n",
		dir + "policy": "step_wise\n",
	}
	switch temp {
	case "":
	case "DIR":
		m[dir+"temp/"] = ""
	default:
		m[dir+"temp"] = temp + "\n"
	}
	for i, tp := range trips {
		p := fmt.Sprintf("%strip_point_%d_", dir, i)
		m[p+"type"] = tp.typ + "\n"
		m[p+"temp"] = tp.temp + "\n"
		if tp.hyst != "" {
			m[p+"hyst"] = tp.hyst + "\n"
		}
	}
	return m
}

// cooling builds cooling_deviceN.
func cooling(n int, typ string, cur, max int) map[string]string {
	dir := fmt.Sprintf("/sys/class/thermal/cooling_device%d/", n)
	return map[string]string{
		dir + "type":      typ + "\n",
		dir + "cur_state": fmt.Sprintf("%d\n", cur),
		dir + "max_state": fmt.Sprintf("%d\n", max),
	}
}

// hwmon builds hwmonN with a name and attribute files ("DIR" content makes
// an unreadable attribute). The chip's device is a directory elsewhere in
// /sys/devices, linked as hwmonN/device.
func hwmon(n int, name, device string, attrs map[string]string) map[string]string {
	dir := fmt.Sprintf("/sys/class/hwmon/hwmon%d/", n)
	m := map[string]string{}
	if name != "" {
		m[dir+"name"] = name + "\n"
	}
	if device != "" {
		m[device+"/uevent"] = ""
		m[dir+"device"] = "->" + device
	}
	for a, v := range attrs {
		if v == "DIR" {
			m[dir+a+"/"] = ""
			continue
		}
		m[dir+a] = v + "\n"
	}
	return m
}

// thermalMirror is the hwmon device the kernel creates for a thermal zone:
// its name is the zone type with "-" turned into "_".
func thermalMirror(n, zoneN int, typ, temp string) map[string]string {
	return hwmon(n, strings.ReplaceAll(typ, "-", "_"),
		fmt.Sprintf("/sys/devices/virtual/thermal/thermal_zone%d", zoneN),
		map[string]string{"temp1_input": temp})
}

// Raspberry Pi 4 (Raspberry Pi OS, 6.6 kernel): one thermal zone, its hwmon
// mirror and the firmware's under-voltage alarm. The class entries are links
// into /sys/devices as on the real board.
var fixturePi4 = map[string]string{
	"/sys/devices/virtual/thermal/thermal_zone0/type":                                       "cpu-thermal\n",
	"/sys/devices/virtual/thermal/thermal_zone0/temp":                                       "45277\n",
	"/sys/devices/virtual/thermal/thermal_zone0/mode":                                       "enabled\n",
	"/sys/devices/virtual/thermal/thermal_zone0/policy":                                     "step_wise\n",
	"/sys/devices/virtual/thermal/thermal_zone0/trip_point_0_type":                          "critical\n",
	"/sys/devices/virtual/thermal/thermal_zone0/trip_point_0_temp":                          "110000\n",
	"/sys/devices/virtual/thermal/thermal_zone0/trip_point_0_hyst":                          "0\n",
	"/sys/devices/virtual/thermal/thermal_zone0/hwmon0/name":                                "cpu_thermal\n",
	"/sys/devices/virtual/thermal/thermal_zone0/hwmon0/temp1_input":                         "45277\n",
	"/sys/devices/virtual/thermal/thermal_zone0/hwmon0/device":                              "->../../thermal_zone0",
	"/sys/devices/platform/soc/soc:firmware/raspberrypi-hwmon/uevent":                       "",
	"/sys/devices/platform/soc/soc:firmware/raspberrypi-hwmon/hwmon/hwmon1/name":            "rpi_volt\n",
	"/sys/devices/platform/soc/soc:firmware/raspberrypi-hwmon/hwmon/hwmon1/in0_lcrit_alarm": "0\n",
	"/sys/devices/platform/soc/soc:firmware/raspberrypi-hwmon/hwmon/hwmon1/device":          "->../../../raspberrypi-hwmon",
	"/sys/class/thermal/thermal_zone0":                                                      "->../../devices/virtual/thermal/thermal_zone0",
	"/sys/class/hwmon/hwmon0":                                                               "->../../devices/virtual/thermal/thermal_zone0/hwmon0",
	"/sys/class/hwmon/hwmon1":                                                               "->../../devices/platform/soc/soc:firmware/raspberrypi-hwmon/hwmon/hwmon1",
}

// Raspberry Pi 5 with the active cooler: fan trip points, the pwm-fan
// cooling device, the RP1 ADC and the under-voltage alarm.
var fixturePi5 = fixture.Merge(
	zone(0, "cpu-thermal", "52350",
		trip{"critical", "110000", "0"}, trip{"active", "50000", "5000"}, trip{"active", "60000", "5000"},
		trip{"active", "67500", "5000"}, trip{"active", "75000", "5000"}),
	cooling(0, "pwm-fan", 1, 4),
	thermalMirror(0, 0, "cpu-thermal", "52350"),
	hwmon(1, "rp1_adc", "/sys/devices/platform/axi/1000120000.pcie/1f000c8000.adc", map[string]string{
		"in1_input": "1458", "in2_input": "1464", "in3_input": "1461", "in4_input": "1459", "temp1_input": "48563",
	}),
	hwmon(2, "pwmfan", "/sys/devices/platform/cooling_fan", map[string]string{"fan1_input": "2912", "pwm1": "75"}),
	hwmon(3, "rpi_volt", "/sys/devices/platform/soc/soc:firmware/raspberrypi-hwmon", map[string]string{"in0_lcrit_alarm": "0"}),
)

// RK3588 (Radxa ROCK 5B, vendor 6.1 kernel): seven zones, their hwmon
// mirrors and the USB-PD controller's voltage and current.
var fixtureRK3588 = func() map[string]string {
	crit := trip{"critical", "115000", "0"}
	m := fixture.Merge(
		zone(0, "soc-thermal", "38846", trip{"passive", "75000", "2000"}, trip{"passive", "85000", "2000"}, crit),
		zone(1, "bigcore0-thermal", "39770", crit),
		zone(2, "bigcore1-thermal", "39770", crit),
		zone(3, "littlecore-thermal", "39770", crit),
		zone(4, "center-thermal", "38846", crit),
		zone(5, "gpu-thermal", "38846", crit),
		zone(6, "npu-thermal", "38846", crit),
		cooling(0, "cpufreq-cpu0", 0, 7), cooling(1, "cpufreq-cpu4", 0, 8), cooling(2, "pwm-fan", 0, 5),
	)
	types := []string{"soc-thermal", "bigcore0-thermal", "bigcore1-thermal", "littlecore-thermal", "center-thermal", "gpu-thermal", "npu-thermal"}
	for i, typ := range types {
		m = fixture.Merge(m, thermalMirror(i, i, typ, "38846"))
	}
	return fixture.Merge(m, hwmon(7, "tcpm_source_psy_4_0022", "/sys/devices/platform/feab0000.i2c/i2c-4/4-0022/tcpm-source-psy-4-0022", map[string]string{
		"in0_input": "5000", "in0_min": "5000", "in0_max": "5000", "curr1_input": "3000", "curr1_max": "3000",
	}))
}()

// Amlogic S905 on a legacy kernel: no thermal zones, one SCPI hwmon chip.
var fixtureAmlogicSCPI = fixture.Merge(
	map[string]string{"/sys/class/thermal/": ""},
	hwmon(0, "scpi_sensors", "/sys/devices/platform/scpi/scpi:sensors", map[string]string{
		"temp1_input": "51000", "temp1_label": "aml_thermal",
	}),
)

// Amlogic on an old kernel: the hwmon attributes sit in hwmon0/device and
// the temperature comes in whole degrees.
var fixtureAmlogicOld = map[string]string{
	"/sys/devices/platform/aml_sensors/name":        "cpu\n",
	"/sys/devices/platform/aml_sensors/temp1_input": "56\n",
	"/sys/devices/platform/aml_sensors/temp1_crit":  "110000\n",
	"/sys/class/hwmon/hwmon0/device":                "->/sys/devices/platform/aml_sensors",
	"/sys/class/hwmon/hwmon0/uevent":                "",
}

// x86 mini PC (Intel N100): ACPI zone, an INT3400 zone whose temp cannot be
// read, and the package zone; coretemp, NVMe and Wi-Fi hwmon chips; no power
// sensors (no RAPL in hwmon).
var fixtureX86 = fixture.Merge(
	zone(0, "acpitz", "27800", trip{"critical", "119000", ""}),
	zone(1, "INT3400 Thermal", "DIR"),
	zone(2, "x86_pkg_temp", "48000", trip{"passive", "0", ""}, trip{"passive", "0", ""}),
	cooling(0, "Processor", 0, 3), cooling(1, "intel_powerclamp", 0, 100),
	fixtureX86Hwmon,
)

var fixtureX86Hwmon = fixture.Merge(
	hwmon(0, "acpitz", "/sys/devices/LNXSYSTM:00/LNXSYBUS:01/LNXTHERM:00", map[string]string{"temp1_input": "27800", "temp1_crit": "119000"}),
	hwmon(1, "nvme", "/sys/devices/pci0000:00/0000:00:1d.0/0000:01:00.0/nvme/nvme0", map[string]string{
		"temp1_input": "35850", "temp1_label": "Composite", "temp1_max": "84850", "temp1_crit": "84850", "temp1_alarm": "0",
		"temp2_input": "35850", "temp2_label": "Sensor 1",
	}),
	hwmon(2, "coretemp", "/sys/devices/platform/coretemp.0", map[string]string{
		"temp1_input": "48000", "temp1_label": "Package id 0", "temp1_max": "105000", "temp1_crit": "105000", "temp1_crit_alarm": "0",
		"temp2_input": "45000", "temp2_label": "Core 0", "temp2_max": "105000", "temp2_crit": "105000",
		"temp3_input": "47000", "temp3_label": "Core 1",
	}),
	hwmon(3, "iwlwifi_1", "", map[string]string{"temp1_input": "DIR"}),
)

// x86 without the package thermal zone: only the ACPI zone.
var fixtureX86NoPkgZone = fixture.Merge(
	zone(0, "acpitz", "27800", trip{"critical", "119000", ""}),
	fixtureX86Hwmon,
)

// A board whose CPU zone reports 400 °C (a broken calibration), with a
// -273.15 °C sentinel on another zone and 0xFFFF on a hwmon sensor.
var fixtureBroken = fixture.Merge(
	zone(0, "cpu-thermal", "400000"),
	zone(1, "gpu-thermal", "47500"),
	zone(2, "ddr-thermal", "-273150"),
	thermalMirror(0, 0, "cpu-thermal", "400000"),
	thermalMirror(1, 1, "gpu-thermal", "47500"),
	hwmon(2, "soc_thermal", "/sys/devices/platform/soc/1c25000.ths", map[string]string{"temp1_input": "65535"}),
)

// INA226/INA219-style power monitors and a GPU reporting average power.
var fixturePowerMonitors = fixture.Merge(
	zone(0, "cpu_thermal", "41000"),
	hwmon(0, "ina226", "/sys/devices/platform/soc/fe804000.i2c/i2c-1/1-0040", map[string]string{
		"in0_input": "2", "in1_input": "5088", "curr1_input": "812", "power1_input": "4131250",
		"shunt_resistor": "10000", "update_interval": "2",
	}),
	hwmon(1, "ina219", "/sys/devices/platform/soc/fe804000.i2c/i2c-1/1-0041", map[string]string{
		"in0_input": "0", "in1_input": "12016", "in1_label": "VIN", "curr1_input": "garbage", "power1_input": "4294967295",
	}),
	hwmon(2, "amdgpu", "/sys/devices/pci0000:00/0000:00:08.1/0000:c4:00.0", map[string]string{
		"power1_average": "15000000", "in0_input": "1130", "in0_label": "vddgfx", "energy1_input": "123456789",
	}),
)
