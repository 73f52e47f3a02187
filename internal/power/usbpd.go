package power

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	"boardbench/internal/host"
)

// usbPDSupply is a power supply negotiated over USB Power Delivery.
type usbPDSupply struct {
	name   string
	volts  float64
	amps   float64
	usbTyp string
}

// findUSBPD looks in /sys/class/power_supply for a USB supply with a PD
// contract: a tcpm source supply, or one whose usb_type selects PD. Values
// are in µV and µA (the power_supply sysfs ABI).
func findUSBPD(h *host.Host) (*usbPDSupply, error) {
	names, err := h.ReadDirNames("/sys/class/power_supply")
	if err != nil || len(names) == 0 {
		return nil, fmt.Errorf("usb-pd: no power supply in /sys/class/power_supply")
	}
	for _, n := range names {
		dir := path.Join("/sys/class/power_supply", n)
		typ, _ := h.ReadString(path.Join(dir, "type"))
		usbType, _ := h.ReadString(path.Join(dir, "usb_type"))
		isPD := strings.HasPrefix(n, "tcpm-source-psy-") || strings.Contains(usbType, "[PD")
		if strings.TrimSpace(typ) != "USB" || !isPD {
			continue
		}
		if online, err := h.ReadInt(path.Join(dir, "online")); err == nil && online == 0 {
			continue
		}
		uv, err := h.ReadInt(path.Join(dir, "voltage_now"))
		if err != nil || uv <= 0 {
			uv, err = h.ReadInt(path.Join(dir, "voltage_max"))
		}
		if err != nil || uv <= 0 {
			continue
		}
		ua, err := h.ReadInt(path.Join(dir, "current_max"))
		if err != nil || ua <= 0 {
			ua, err = h.ReadInt(path.Join(dir, "current_now"))
		}
		if err != nil || ua <= 0 {
			continue
		}
		return &usbPDSupply{name: n, volts: float64(uv) / 1e6, amps: float64(ua) / 1e6, usbTyp: strings.TrimSpace(usbType)}, nil
	}
	return nil, fmt.Errorf("usb-pd: no online USB supply with a Power Delivery contract in /sys/class/power_supply")
}

// usbPDSource reports the contract once: it is a limit, so its readings
// carry no power and samples get none.
type usbPDSource struct{ info Info }

func openUSBPD(h *host.Host) (Source, error) {
	s, err := findUSBPD(h)
	if err != nil {
		return nil, err
	}
	limit := s.volts * s.amps
	if err := checkWatts(KindUSBPD, limit); err != nil {
		return nil, fmt.Errorf("%v (%s reads %g V × %g A)", err, s.name, s.volts, s.amps)
	}
	inf := Info{Kind: KindUSBPD, Spec: KindUSBPD, Measures: MeasuresLimit, LimitW: ptr(limit),
		Description: fmt.Sprintf("USB-PD contract of %s: %.2f V at up to %.2f A (%.1f W)", s.name, s.volts, s.amps, limit),
		Notes:       []string{"a USB-PD contract is the most the supply agreed to give, not what the board draws: no power is measured"}}
	return &usbPDSource{info: inf}, nil
}

func (s *usbPDSource) Info() Info { return s.info }

// Run emits one reading without power (the contract was read) and waits.
func (s *usbPDSource) Run(ctx context.Context, emit func(Reading)) {
	emit(Reading{Time: time.Now()})
	<-ctx.Done()
}
