package power

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/inventory/sensors"
)

// boardMonitorChips are hwmon driver names of current and power monitors
// that sit on a board's supply (the INA2xx family and similar): the sensors
// chosen automatically.
var boardMonitorChips = []string{
	"ina209", "ina219", "ina220", "ina226", "ina230", "ina231", "ina233", "ina238",
	"ina260", "ina3221", "ltc2945", "ltc4151", "ltc4215", "ltc4222", "ltc4260",
	"ltc4261", "adm1275", "adm1276", "adm1278", "adm1293", "lm25066", "max9611",
	"pac1921", "pac1934",
}

// HwmonInterval is how often an hwmon sensor is read (two file reads).
const HwmonInterval = 500 * time.Millisecond

// hwmonChannel is one power figure of an hwmon chip: a power file, or a
// current and voltage pair of the same index.
type hwmonChannel struct {
	chip, dir, label string
	stem             string // "power1", or "curr1" for a pair
	powerPath        string
	currPath         string
	voltPath         string
	energyPath       string
}

func (c hwmonChannel) name() string {
	n := c.chip + " " + c.stem
	if c.label != "" {
		n += " (" + c.label + ")"
	}
	return n
}

// hwmonChannels lists the power figures of a chip: power files first, then
// current × voltage pairs of the same index (inN with currN, N ≥ 1, as the
// INA2xx and INA3221 drivers number them) where there is no power file.
func hwmonChannels(c sensors.Hwmon) []hwmonChannel {
	byStem := map[string]sensors.Reading{}
	for _, r := range c.Readings {
		if r.Path != "" {
			byStem[r.Sensor] = r
		}
	}
	var power, pairs []hwmonChannel
	for _, r := range c.Readings {
		if r.Path == "" {
			continue
		}
		idx := strings.TrimLeft(r.Sensor, "abcdefghijklmnopqrstuvwxyz")
		base := hwmonChannel{chip: c.Name, dir: c.Hwmon, label: r.Label, stem: r.Sensor}
		if e, ok := byStem["energy"+idx]; ok {
			base.energyPath = e.Path
		}
		switch r.Quantity {
		case sensors.QuantityPower:
			base.powerPath = r.Path
			power = append(power, base)
		case sensors.QuantityCurrent:
			if _, ok := byStem["power"+idx]; ok {
				continue
			}
			if n, err := strconv.Atoi(idx); err != nil || n < 1 {
				continue
			}
			v, ok := byStem["in"+idx]
			if !ok {
				continue
			}
			base.currPath, base.voltPath = r.Path, v.Path
			pairs = append(pairs, base)
		}
	}
	return append(power, pairs...)
}

func isBoardMonitor(chip string) bool {
	for _, n := range boardMonitorChips {
		if chip == n {
			return true
		}
	}
	return false
}

// autoHwmon returns a source for the first board-level power monitor, nil
// when there is none.
func autoHwmon(h *host.Host, chips []sensors.Hwmon) (Source, bool) {
	for _, c := range chips {
		if !isBoardMonitor(c.Name) {
			continue
		}
		chs := hwmonChannels(c)
		if len(chs) == 0 {
			continue
		}
		src := newHwmon(h, chs[0])
		src.info.Spec = KindHwmon + ":" + c.Name
		src.info.Reason = fmt.Sprintf("%s (%s) is a board-level power monitor: reading %s", c.Name, c.Hwmon, chs[0].name())
		return Polled(src.info, src, HwmonInterval), true
	}
	return nil, false
}

// openHwmon returns the hwmon source name selects: a chip name ("ina226"),
// an hwmon directory ("hwmon3") or a channel label ("VDD_IN"); "" takes
// the first board-level monitor, else the first chip with a power figure.
func openHwmon(h *host.Host, chips []sensors.Hwmon, name string) (Source, error) {
	if name == "" {
		if src, ok := autoHwmon(h, chips); ok {
			inf := src.Info()
			inf.Reason = ""
			return Polled(inf, src.(*polled).p, HwmonInterval), nil
		}
	}
	var seen []string
	for _, c := range chips {
		chs := hwmonChannels(c)
		if len(chs) == 0 {
			continue
		}
		seen = append(seen, c.Name+" ("+c.Hwmon+")")
		for _, ch := range chs {
			if name == "" || name == c.Name || name == c.Hwmon || (ch.label != "" && strings.EqualFold(name, ch.label)) {
				src := newHwmon(h, ch)
				src.info.Spec = KindHwmon
				if name != "" {
					src.info.Spec += ":" + name
				}
				return Polled(src.info, src, HwmonInterval), nil
			}
		}
	}
	if len(seen) == 0 {
		return nil, fmt.Errorf("hwmon: no power, or current and voltage, sensor on this machine")
	}
	return nil, fmt.Errorf("hwmon: no sensor named %q; chips with power figures: %s", name, strings.Join(seen, ", "))
}

// hwmonSource reads one hwmonChannel.
type hwmonSource struct {
	h    *host.Host
	ch   hwmonChannel
	info Info
}

func newHwmon(h *host.Host, ch hwmonChannel) *hwmonSource {
	inf := Info{Kind: KindHwmon, Measures: MeasuresComponent, Interval: HwmonInterval,
		Description: "hwmon " + ch.dir + " " + ch.name()}
	if ch.currPath != "" {
		inf.Description += " × in" + strings.TrimPrefix(ch.stem, "curr")
	}
	if isBoardMonitor(ch.chip) {
		inf.Measures = MeasuresBoard
		inf.Notes = append(inf.Notes, "an on-board monitor measures where it is wired, usually the board's input: the power supply's losses are not included")
	}
	if ch.energyPath != "" {
		inf.EnergyCounter = true
		inf.EnergyResolutionWh = 1e-6 / 3600 // µJ
	}
	return &hwmonSource{h: h, ch: ch, info: inf}
}

// Read reads the channel: power in µW, or current in mA times voltage in
// mV, and the energy counter in µJ (the hwmon sysfs ABI's units). The
// reading's time is left to Polled, which stamps it on the meter's clock.
func (s *hwmonSource) Read(ctx context.Context) (Reading, error) {
	var r Reading
	if s.ch.powerPath != "" {
		w, err := sensors.ReadValue(s.h, sensors.QuantityPower, s.ch.powerPath)
		if err != nil {
			return r, err
		}
		r.W = &w
	} else {
		a, err := sensors.ReadValue(s.h, sensors.QuantityCurrent, s.ch.currPath)
		if err != nil {
			return r, err
		}
		v, err := sensors.ReadValue(s.h, sensors.QuantityVoltage, s.ch.voltPath)
		if err != nil {
			return r, err
		}
		r.W = ptr(a * v)
	}
	if s.ch.energyPath != "" {
		// The counter is optional: a failed or implausible one leaves the
		// power reading standing.
		if j, err := sensors.ReadValue(s.h, sensors.QuantityEnergy, s.ch.energyPath); err == nil && checkEnergy(KindHwmon, j/3600) == nil {
			r.EnergyWh = ptr(j / 3600)
		}
	}
	return checked(KindHwmon, r)
}
