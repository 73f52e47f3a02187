package monitor

import (
	"bytes"
	"strings"
	"testing"

	"boardbench/internal/inventory"
	"boardbench/internal/monitor"
	"boardbench/internal/power"
	"boardbench/internal/result"
)

// TestHeaderPower: the header's power line names the configured source
// when there is one (never "none" next to it), and says there is none
// otherwise.
func TestHeaderPower(t *testing.T) {
	src := &result.Power{Source: "cmd:echo 3.5", Kind: power.KindCmd, Measures: power.MeasuresWall, Description: "the program `echo 3.5`"}
	for _, tc := range []struct {
		name    string
		source  *result.Power
		want    string
		notWant string
	}{
		{"configured source", src, "the program `echo 3.5` (measures at the wall", "none"},
		{"nothing", nil, "none: no --power source and no power sensor exposed", "program"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			writeHeader(&b, false, Config{IntervalS: 1, PowerSource: tc.source}, &inventory.Info{})
			var line string
			for _, l := range strings.Split(b.String(), "\n") {
				if strings.Contains(strings.ToLower(l), "power") {
					line += l + "\n"
				}
			}
			if !strings.Contains(line, tc.want) || strings.Contains(line, tc.notWant) {
				t.Errorf("power lines %q, want %q without %q", line, tc.want, tc.notWant)
			}
		})
	}
}

// TestHeaderFirmwareSource: the header says how the firmware is asked.
func TestHeaderFirmwareSource(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fw     bool
		source string
		want   string
	}{
		{"mailbox", true, monitor.SourceMailbox, "from the firmware mailbox (/dev/vcio)"},
		{"vcgencmd", true, monitor.SourceVcgencmd, "from vcgencmd on every sample"},
		{"none", false, "", "no (not a Raspberry Pi"},
	} {
		var b bytes.Buffer
		c := Config{IntervalS: 1, FirmwareSource: tc.source}
		c.Firmware = tc.fw
		writeHeader(&b, false, c, &inventory.Info{})
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("%s: header lacks %q:\n%s", tc.name, tc.want, b.String())
		}
	}
}
