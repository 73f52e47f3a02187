package oppsel

import (
	"fmt"
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
		{name: "not Rockchip: the log is not read", files: map[string]string{}, dmesg: ptr("cpu cpu4: pvtm=1700\n"), wantNil: true},
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

func be(cells ...uint32) string {
	b := make([]byte, 0, 4*len(cells))
	for _, c := range cells {
		b = append(b, byte(c>>24), byte(c>>16), byte(c>>8), byte(c))
	}
	return string(b)
}

// dtRoot is a Rockchip root whose cpu4 has a device-tree OPP table with
// per-level voltages (as the BSP trees have them) for two clocks, and a
// dmesg with the given selection lines.
func dtRoot(t *testing.T, log string, extra map[string]string) string {
	dt := "sys/firmware/devicetree/base"
	files := map[string]string{
		"proc/device-tree/compatible":                              "rockchip,rk3588\x00",
		"sys/devices/system/cpu/cpu4/cpufreq/related_cpus":         "4 5\n",
		"sys/devices/system/cpu/cpu4/of_node/operating-points-v2":  be(0x21),
		dt + "/cluster1-opp-table/phandle":                         be(0x21),
		dt + "/cluster1-opp-table/opp-2400000000/opp-hz":           be(0, 2400000000),
		dt + "/cluster1-opp-table/opp-2400000000/opp-microvolt":    be(1000000, 1000000, 1050000),
		dt + "/cluster1-opp-table/opp-2400000000/opp-microvolt-L7": be(950000, 950000, 1050000),
		dt + "/cluster1-opp-table/opp-2400000000/opp-supported-hw": be(0xfd, 0x80),
		dt + "/cluster1-opp-table/opp-408000000/opp-hz":            be(408000000),
		dt + "/cluster1-opp-table/opp-408000000/opp-microvolt":     be(675000),
		dt + "/cluster1-opp-table/opp-bad/opp-hz":                  "\x01\x02",
		dt + "/other-node/phandle":                                 be(0x21),
	}
	for k, v := range extra {
		files[k] = v
	}
	root := fixture.Root(t, files)
	fixture.Commands(t, root, map[string]string{"dmesg": log})
	return root
}

func TestOPPVoltages(t *testing.T) {
	tests := []struct {
		name    string
		log     string
		extra   map[string]string
		want    string // "mhz:mv:property" joined by spaces
		noteHas string
		at2400  string
	}{
		{"volt-sel 7 picks L7 where the entry has it", "cpu cpu4: pvtm=1785\ncpu cpu4: pvtm-volt-sel=7\n", nil,
			"408:675:opp-microvolt 2400:950:opp-microvolt-L7", "", "950"},
		{"volt-sel 3 without an L3: the default voltage", "cpu cpu4: pvtm-volt-sel=3\n", nil,
			"408:675:opp-microvolt 2400:1000:opp-microvolt", "", "1000"},
		{"leakage selection when PVTM has none", "cpu cpu4: leakage=9\ncpu cpu4: leakage-volt-sel=7\n", nil,
			"408:675:opp-microvolt 2400:950:opp-microvolt-L7", "", "950"},
		{"no phandle match", "cpu cpu4: pvtm-volt-sel=7\n",
			map[string]string{"sys/devices/system/cpu/cpu4/of_node/operating-points-v2": be(0x99)}, "", "no device-tree node with phandle 0x99", ""},
		{"malformed phandle", "cpu cpu4: pvtm-volt-sel=7\n",
			map[string]string{"sys/devices/system/cpu/cpu4/of_node/operating-points-v2": "xx"}, "", "not a phandle", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Collect(fixture.Open(t, dtRoot(t, tt.log, tt.extra)))
			d := in.ForCPU(5)
			if d == nil {
				t.Fatalf("no device for cpu5: %+v", in)
			}
			var got []string
			for _, o := range d.OPPs {
				got = append(got, fmt.Sprintf("%g:%s:%s", o.MHz, fmtMV(o.MV), o.Property))
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("opps %q, want %q", strings.Join(got, " "), tt.want)
			}
			if tt.noteHas != "" && !strings.Contains(d.OPPsNote, tt.noteHas) {
				t.Errorf("note %q lacks %q", d.OPPsNote, tt.noteHas)
			}
			if got := fmtMV(d.VoltageAt(2400)); got != orDash(tt.at2400) {
				t.Errorf("VoltageAt(2400) = %s, want %s", got, tt.at2400)
			}
		})
	}
}

func TestVoltageAtAmbiguous(t *testing.T) {
	v := func(x float64) *float64 { return &x }
	d := &Device{OPPs: []OPPVoltage{{MHz: 408, MV: v(675)}, {MHz: 408, MV: v(750)}, {MHz: 600, MV: v(675)}}}
	if d.VoltageAt(408) != nil || d.VoltageAt(1000) != nil || fmtMV(d.VoltageAt(600.2)) != "675" {
		t.Error("VoltageAt must answer only for one entry per clock")
	}
	var none *Device
	if none.VoltageAt(408) != nil {
		t.Error("nil device answered")
	}
}

func fmtMV(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%g", *v)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
