package monitor

import (
	"sort"
	"strconv"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/devfreq"
	"boardbench/internal/inventory/sensors"
	"boardbench/internal/kernelfile"
)

// MaxPowerColumns bounds the power-related sensors ConfigFor samples, so
// that a desktop board with a dozen supply voltages keeps readable lines.
// Power comes before current, current before voltage.
const MaxPowerColumns = 4

// ConfigFor returns what to sample on the machine behind h, described by in:
//
//   - one Policy per cpufreq policy, taken from the clusters: a cluster
//     sharing one policy gives one column labelled with its CPU list
//     ("cpu0-3"); a cluster whose CPUs have a policy each (intel_pstate,
//     CPPC) gives one column, its first CPU's policy, labelled with that
//     CPU ("cpu0"), standing for CPUs of equal core type and limits.
//     Clusters without cpufreq are left out;
//   - the SoC temperature sensor the sensors inventory chose;
//   - up to MaxPowerColumns valid power, current and voltage sensors
//     (hwmon energy counters are left out: they only ever grow), labelled
//     without their chip name when the rest tells them apart ("in1");
//   - the Raspberry Pi firmware when it answered while describing the
//     machine: through its mailbox (/dev/vcio, no process per sample) when
//     that opens and answers, else through vcgencmd when h has it (on a
//     fixture root always vcgencmd's recorded outputs);
//   - the memory controller's clock (devfreq cur_freq) where the
//     description found a memory devfreq device with a readable clock;
//   - the kernel log difference per phase;
//   - the steal-time column on a virtual machine, or where /proc/stat
//     already counts steal time.
//
// Interval is left 0 (2 s); the caller sets it.
func ConfigFor(h *host.Host, in *inventory.Info) Config {
	cfg := Config{ReadKernelLog: true}
	if in == nil {
		return cfg
	}
	cfg.Policies = policiesFor(in.CPU)
	if st := in.Sensors.SoCTemp; st != nil && st.Path != "" {
		cfg.TempPath, cfg.TempLabel = st.Path, st.Name
	}
	cfg.Temps = tempSensors(in.Sensors)
	cfg.Power = powerSensors(sensors.PowerChannels(in.Sensors))
	if firmwareAnswered(in) {
		cfg.Firmware = firmwareFor(h, hostMailbox(h))
	}
	cfg.Steal = showSteal(h, in)
	cfg.MemClockPath, cfg.MemClockLabel = memClock(in.Devfreq)
	return cfg
}

// memClock returns the cur_freq file and name of the first memory
// controller among the devfreq devices whose clock was readable; "" when
// there is none.
func memClock(devs []devfreq.Device) (path, label string) {
	for _, d := range devs {
		if d.Kind == devfreq.KindMemory && d.CurMHz != nil {
			return devfreq.Dir + "/" + d.Name + "/cur_freq", d.Name
		}
	}
	return "", ""
}

// showSteal reports whether sample lines show steal time: on a virtual
// machine, or when the kernel has counted steal time since boot.
func showSteal(h *host.Host, in *inventory.Info) bool {
	if in.VM.IsVM != nil && *in.VM.IsVM {
		return true
	}
	data, err := h.ReadFile("/proc/stat")
	if err != nil {
		return false
	}
	all, _, ok := kernelfile.ParseStat(data)
	return ok && all.Steal > 0
}

// policiesFor returns one Policy per distinct cpufreq policy of the
// clusters, ordered by policy number.
func policiesFor(c cpu.Info) []Policy {
	var out []Policy
	index := map[int]int{} // policy id → position in out
	for _, cl := range c.Clusters {
		var p Policy
		switch {
		case cl.Policy != nil:
			p = Policy{ID: *cl.Policy, CPUs: append([]int(nil), cl.CPUs...)}
		case len(cl.Policies) > 0:
			id := cl.Policies[0]
			p = Policy{ID: id, CPUs: policyCPUs(c, id)}
		default:
			continue
		}
		if i, ok := index[p.ID]; ok {
			// Two clusters (core types) in one policy: one clock for both.
			out[i].CPUs = mergeCPUs(out[i].CPUs, p.CPUs)
			out[i].Label = cpuLabel(out[i].CPUs, out[i].ID)
			continue
		}
		p.Label = cpuLabel(p.CPUs, p.ID)
		index[p.ID] = len(out)
		out = append(out, p)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// policyCPUs returns the CPUs of policy id, from the policy list or, when it
// is missing there, the CPUs naming that policy.
func policyCPUs(c cpu.Info, id int) []int {
	for _, p := range c.Policies {
		if p.ID == id && len(p.CPUs) > 0 {
			return append([]int(nil), p.CPUs...)
		}
	}
	var cpus []int
	for _, x := range c.CPUs {
		if x.Policy != nil && *x.Policy == id {
			cpus = append(cpus, x.ID)
		}
	}
	if len(cpus) == 0 {
		cpus = []int{id} // the policy number is its first CPU's number
	}
	return cpus
}

func mergeCPUs(a, b []int) []int {
	seen := map[int]bool{}
	var out []int
	for _, x := range append(append([]int(nil), a...), b...) {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Ints(out)
	return out
}

// cpuLabel names a column by its CPUs ("cpu0-3"), or by the policy when the
// CPUs are unknown ("policy0").
func cpuLabel(cpus []int, policy int) string {
	if len(cpus) == 0 {
		return "policy" + strconv.Itoa(policy)
	}
	return "cpu" + cpu.FormatCPUList(cpus)
}

// powerRank orders quantities for the limited power columns: power, then
// current, then voltage; ok is false for any other quantity.
func powerRank(quantity string) (rank int, ok bool) {
	switch quantity {
	case sensors.QuantityPower:
		return 0, true
	case sensors.QuantityCurrent:
		return 1, true
	case sensors.QuantityVoltage:
		return 2, true
	}
	return 0, false
}

// powerSensors turns the inventory's power channels into sampled sensors:
// energy counters dropped, power first, at most MaxPowerColumns, keeping
// hwmon order within a quantity.
func powerSensors(chs []sensors.Channel) []Sensor {
	var out []Sensor
	for _, ch := range chs {
		if _, ok := powerRank(ch.Quantity); !ok || ch.Path == "" {
			continue
		}
		out = append(out, Sensor{Label: ch.Name, Path: ch.Path, Quantity: ch.Quantity, Unit: sensors.Unit(ch.Quantity)})
	}
	sort.SliceStable(out, func(i, j int) bool {
		ri, _ := powerRank(out[i].Quantity)
		rj, _ := powerRank(out[j].Quantity)
		return ri < rj
	})
	if len(out) > MaxPowerColumns {
		out = out[:MaxPowerColumns]
	}
	shortenLabels(out)
	return out
}

// shortenLabels drops the chip name ("rp1_adc in1" → "in1") from the labels
// when what remains still tells the sensors apart: sample lines have narrow
// columns, and the chip is usually the same for all.
func shortenLabels(ss []Sensor) {
	short := make([]string, len(ss))
	seen := map[string]bool{}
	for i, s := range ss {
		_, rest, ok := strings.Cut(s.Label, " ")
		rest = strings.TrimSpace(rest)
		if !ok || rest == "" || seen[rest] {
			return
		}
		seen[rest] = true
		short[i] = rest
	}
	for i := range ss {
		ss[i].Label = short[i]
	}
}

// firmwareAnswered reports whether the Raspberry Pi firmware is worth asking
// on every sample: vcgencmd was found and answered at least one of the
// questions the monitor asks. Without an inventory of it, it is tried.
func firmwareAnswered(in *inventory.Info) bool {
	fw := in.RaspberryPi
	if fw == nil {
		return true // firmwareFor still checks that the firmware answers
	}
	return fw.ArmClockMHz != nil || fw.Throttled != nil || fw.CoreVoltageV != nil
}

// MaxTemps bounds the temperature sensors a monitor samples, so that a
// machine with dozens of zones keeps the per-sample cost small.
const MaxTemps = 16

// tempSensors lists the temperatures to sample: every thermal zone whose
// reading was valid (labelled with its type: "cpu-thermal", "pmic-thermal"),
// then every hwmon temperature whose reading was valid (labelled with the
// chip's name and the sensor's label or stem: "ds3231 temp1", "bme280
// temp1"), leaving out a hwmon chip that only mirrors a thermal zone (the
// kernel names it after the zone's type, "-" written "_"). At most
// MaxTemps.
func tempSensors(in sensors.Info) []Sensor {
	var out []Sensor
	zones := map[string]bool{}
	for _, z := range in.ThermalZones {
		if z.TempC == nil || z.Path == "" {
			continue
		}
		label := z.Type
		if label == "" {
			label = z.Name
		}
		zones[strings.ReplaceAll(z.Type, "-", "_")] = true
		out = append(out, Sensor{Label: label, Path: z.Path, Quantity: "temperature", Unit: "°C"})
	}
	for _, hw := range in.Hwmon {
		if zones[strings.ReplaceAll(hw.Name, "-", "_")] {
			continue
		}
		for _, r := range hw.Readings {
			if r.Quantity != "temperature" || r.Value == nil || r.Path == "" {
				continue
			}
			name := r.Label
			if name == "" {
				name = r.Sensor
			}
			chip := hw.Name
			if chip == "" {
				chip = hw.Hwmon
			}
			out = append(out, Sensor{Label: chip + " " + name, Path: r.Path, Quantity: "temperature", Unit: "°C"})
		}
	}
	if len(out) > MaxTemps {
		out = out[:MaxTemps]
	}
	return out
}
