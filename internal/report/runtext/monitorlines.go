package runtext

import (
	"context"
	"errors"

	"boardbench/internal/monitor"
	"boardbench/internal/result"
)

// errRecorded is what recordedFirmware answers: a saved result cannot ask
// the firmware anything.
var errRecorded = errors.New("recorded result: the firmware is not asked")

// recordedFirmware stands for the Raspberry Pi firmware a result was
// sampled from. Sample lines only need to know that the firmware columns
// exist; every question fails.
type recordedFirmware struct{}

func (recordedFirmware) ClockMHz(context.Context) (float64, error)  { return 0, errRecorded }
func (recordedFirmware) Throttled(context.Context) (uint32, error)  { return 0, errRecorded }
func (recordedFirmware) CoreVolts(context.Context) (float64, error) { return 0, errRecorded }

// monitorConfig rebuilds the column layout of sample lines from what a
// result records about its monitor.
func monitorConfig(mi result.MonitorInfo) monitor.Config {
	cfg := monitor.Config{Policies: mi.Policies, TempLabel: mi.TempLabel, Power: mi.Power}
	if mi.Firmware {
		cfg.Firmware = recordedFirmware{}
	}
	return cfg
}
