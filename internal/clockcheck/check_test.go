package clockcheck

import (
	"testing"

	"boardbench/internal/inventory/oppsel"
	"boardbench/internal/note"
	"boardbench/internal/result"
)

func TestParseFirmwareClock(t *testing.T) {
	tests := []struct {
		in     string
		want   float64
		wantOK bool
	}{
		{"frequency(48)=1500398464\n", 1500.398464, true},
		{"frequency(0)=2400002048", 2400.002048, true},
		{"frequency(48)=0", 0, false},
		{"error=1 error_msg=\"Command not registered\"", 0, false},
		{"frequency(48)=abc", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseFirmwareClock(tt.in)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("ParseFirmwareClock(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestAddOPPSelection(t *testing.T) {
	i := func(v int) *int { return &v }
	sel7 := int64(7)
	tests := []struct {
		name      string
		sel       *oppsel.Info
		wantDev   []string // per cluster: device name or ""
		wantNotes int
	}{
		{"matched by CPU", &oppsel.Info{Devices: []oppsel.Device{{Driver: "cpu", Device: "cpu0", CPUs: []int{0, 1, 2, 3}},
			{Driver: "cpu", Device: "cpu4", CPUs: []int{4, 5}, PVTMVoltSel: &sel7}}}, []string{"cpu0", "cpu4", ""}, 0},
		{"unreadable log is a note", &oppsel.Info{Notes: note.List{{Item: "kernel log", Reason: "not readable: needs root"}}}, []string{"", "", ""}, 1},
		{"none logged", nil, []string{"", "", ""}, 0},
		{"Rockchip log without the lines", &oppsel.Info{Devices: []oppsel.Device{}, Notes: note.List{{Item: "PVTM and leakage", Reason: "the kernel log holds no such line"}}}, []string{"", "", ""}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := &Report{Clusters: []ClusterClock{
				{ClockMeasurement: result.ClockMeasurement{CPU: i(1)}},
				{ClockMeasurement: result.ClockMeasurement{CPU: i(5)}},
				{ClockMeasurement: result.ClockMeasurement{CPU: nil}},
			}}
			rep.AddOPPSelection(tt.sel)
			for k, want := range tt.wantDev {
				got := ""
				if d := rep.Clusters[k].OPPSelection; d != nil {
					got = d.Device
				}
				if got != want {
					t.Errorf("cluster %d: %q, want %q", k, got, want)
				}
			}
			if len(rep.Notes) != tt.wantNotes {
				t.Errorf("notes %v, want %d", rep.Notes, tt.wantNotes)
			}
		})
	}
}
