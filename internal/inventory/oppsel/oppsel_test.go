package oppsel

import (
	"strings"
	"testing"

	"boardbench/internal/testutil/fixture"
)

func TestCollect(t *testing.T) {
	rk := map[string]string{"proc/device-tree/compatible": "radxa,rock-5b\x00rockchip,rk3588\x00"}
	tests := []struct {
		name    string
		files   map[string]string
		dmesg   *string
		wantNil bool
		devices int // -1: Devices must be nil
		noteHas string
		cpu4Sel *int64
	}{
		{name: "Rockchip, the seed's lines", files: rk,
			dmesg: ptr("[    3.124529] cpu cpu4: pvtm=1785\n[    3.128495] cpu cpu4: pvtm-volt-sel=7\n"), devices: 1, cpu4Sel: i64(7)},
		{name: "Rockchip, log without the lines", files: rk, dmesg: ptr("[ 0.0] Booting Linux\n"), devices: 0, noteHas: "holds no such line"},
		{name: "Rockchip, log unreadable under dmesg_restrict", files: merge(rk, map[string]string{"proc/sys/kernel/dmesg_restrict": "1\n"}),
			devices: -1, noteHas: "needs root (kernel.dmesg_restrict is 1)"},
		{name: "Rockchip, log unreadable", files: rk, devices: -1, noteHas: "not readable"},
		{name: "not Rockchip, no lines", files: map[string]string{"proc/device-tree/compatible": "raspberrypi,4-model-b\x00brcm,bcm2711\x00"},
			dmesg: ptr("[ 0.0] Booting Linux\n"), wantNil: true},
		{name: "not Rockchip, unreadable", files: map[string]string{}, wantNil: true},
		{name: "not Rockchip, but the lines are there", files: map[string]string{}, dmesg: ptr("cpu cpu4: pvtm=1700\n"), devices: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := fixture.Root(t, tt.files)
			if tt.dmesg != nil {
				fixture.Commands(t, root, map[string]string{"dmesg": *tt.dmesg})
			}
			in := Collect(fixture.Open(t, root))
			if tt.wantNil {
				if in != nil {
					t.Fatalf("got %+v, want nil", in)
				}
				return
			}
			if in == nil {
				t.Fatal("got nil")
			}
			if tt.devices < 0 && in.Devices != nil || tt.devices >= 0 && len(in.Devices) != tt.devices {
				t.Errorf("devices %+v, want %d", in.Devices, tt.devices)
			}
			notes := ""
			for _, n := range in.Notes {
				notes += n.Item + ": " + n.Reason + "\n"
			}
			if tt.noteHas != "" && !strings.Contains(notes, tt.noteHas) {
				t.Errorf("notes %q lack %q", notes, tt.noteHas)
			}
			if tt.cpu4Sel != nil {
				d := in.ForCPU(4)
				if d == nil || d.PVTMVoltSel == nil || *d.PVTMVoltSel != *tt.cpu4Sel {
					t.Errorf("ForCPU(4) = %+v", d)
				}
				if got := d.Text(); got != "pvtm 1785 → volt-sel 7" {
					t.Errorf("Text() = %q", got)
				}
			}
		})
	}
}

func TestForCPUByCluster(t *testing.T) {
	in := &Info{Devices: []Device{{Driver: "rockchip-dmc", Device: "dmc"}, {Driver: "cpu", Device: "cpu4", CPUs: []int{4, 5}, Leakage: i64(9)}}}
	if d := in.ForCPU(5); d == nil || d.Device != "cpu4" {
		t.Errorf("ForCPU(5) = %+v, want cpu4's", d)
	}
	if d := in.ForCPU(0); d != nil {
		t.Errorf("ForCPU(0) = %+v, want nil", d)
	}
	if got := in.Devices[1].Text(); got != "leakage 9" {
		t.Errorf("Text() = %q", got)
	}
	var none *Info
	if none.ForCPU(0) != nil {
		t.Error("nil Info gave a device")
	}
}

func ptr(s string) *string { return &s }
func i64(v int64) *int64   { return &v }
func merge(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
