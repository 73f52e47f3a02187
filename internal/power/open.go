package power

import (
	"context"
	"fmt"

	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/sensors"
)

// Open returns the source spec names on the machine behind h, described by
// in (nil collects the sensors afresh). An automatic spec gives a
// board-level hwmon sensor when there is one (Info.Reason says why), else
// nil; "none" gives nil. An error means the source named cannot be used
// here (no such sensor, no PMIC, no USB-PD contract); a networked meter
// or a program is not contacted yet: see Meter.WaitFirst.
func Open(ctx context.Context, h *host.Host, in *inventory.Info, spec Spec) (Source, error) {
	switch spec.Kind {
	case SpecNone:
		return nil, nil
	case "":
		src, _ := autoHwmon(h, hwmonChips(h, in))
		return src, nil
	case KindHwmon:
		return openHwmon(h, hwmonChips(h, in), spec.Arg)
	case KindRPiPMIC:
		return openPMIC(ctx, h)
	case KindUSBPD:
		return openUSBPD(h)
	case KindShelly:
		return openShelly(spec)
	case KindNetio:
		return openNetio(spec)
	case KindCmd:
		return openCmd(spec)
	}
	return nil, fmt.Errorf("unknown power source %q", spec.Kind)
}

// hwmonChips returns the hwmon chips of in, or collects them.
func hwmonChips(h *host.Host, in *inventory.Info) []sensors.Hwmon {
	if in != nil {
		return in.Sensors.Hwmon
	}
	return sensors.Collect(h).Hwmon
}
