package inventory

import (
	"boardbench/internal/host"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/rpi"
	"boardbench/internal/inventory/sensors"
	"boardbench/internal/inventory/soc"
)

// ForMonitoring collects the parts of the machine description that live
// monitoring needs (the monitor's columns and the Prometheus exporter's
// labels): CPUs, board and SoC, sensors and the Raspberry Pi firmware.
// It is much cheaper than Collect and always redacted.
func ForMonitoring(h *host.Host) *Info {
	in := &Info{Root: h.Root(), Redacted: true}
	in.CPU = cpu.Collect(h)
	in.Board, in.SoC = soc.Collect(h, in.CPU, true)
	in.Sensors = sensors.Collect(h)
	in.RaspberryPi = rpi.Collect(h)
	return in
}
