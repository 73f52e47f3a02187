package nvmepower

import (
	"encoding/binary"
	"testing"

	"boardbench/internal/testutil/fixture"
)

// idCtrl builds an Identify Controller structure with the given states
// (power in 0.01 W; nonop; entry and exit latency in µs).
func idCtrl(apst bool, states ...[4]uint32) []byte {
	b := make([]byte, 4096)
	b[263] = byte(len(states) - 1)
	if apst {
		b[265] = 1
	}
	for i, s := range states {
		d := b[2048+32*i:]
		binary.LittleEndian.PutUint16(d[0:], uint16(s[0]))
		if s[1] != 0 {
			d[3] = 2
		}
		binary.LittleEndian.PutUint32(d[4:], s[2])
		binary.LittleEndian.PutUint32(d[8:], s[3])
	}
	return b
}

func TestParseIDCtrl(t *testing.T) {
	// A table shaped like a consumer drive's: three operational states,
	// two non-operational ones with growing latencies.
	b := idCtrl(true, [4]uint32{750, 0, 0, 0}, [4]uint32{590, 0, 0, 0}, [4]uint32{360, 0, 0, 0}, [4]uint32{7, 1, 210, 1200}, [4]uint32{1, 1, 2000, 8000})
	states, apst, ok := ParseIDCtrl(b)
	if !ok || !apst || len(states) != 5 {
		t.Fatalf("%d states, apst %v, ok %v", len(states), apst, ok)
	}
	if s := states[4]; !s.NonOperational || s.EntryLatencyUs != 2000 || s.ExitLatencyUs != 8000 || s.MaxPowerW != 0.01 || s.TotalLatencyUs() != 10000 {
		t.Errorf("PS4 = %+v", s)
	}
	if states[0].MaxPowerW != 7.5 || states[0].NonOperational {
		t.Errorf("PS0 = %+v", states[0])
	}
	if _, _, ok := ParseIDCtrl(make([]byte, 100)); ok {
		t.Error("a short buffer parsed")
	}
}

func TestReachable(t *testing.T) {
	states, _, _ := ParseIDCtrl(idCtrl(true, [4]uint32{750, 0, 0, 0}, [4]uint32{7, 1, 210, 1200}, [4]uint32{1, 1, 2000, 8000}))
	v := func(x int64) *int64 { return &x }
	for _, tc := range []struct {
		name        string
		param, tol  *int64
		wantDeepest int
	}{
		{"kernel default 100 ms: both", v(100000), nil, 2},
		{"5.5 ms: only PS1", v(5500), nil, 1},
		{"the controller's own tolerance wins", v(100000), v(2000), 1},
		{"0 turns APST off", v(0), nil, -1},
		{"unknown limit: all", nil, nil, 2},
	} {
		i := Info{States: states, DefaultPSMaxLatencyUs: tc.param, LatencyToleranceUs: tc.tol}
		r := i.Reachable()
		got := -1
		if len(r) > 0 {
			got = r[len(r)-1].ID
		}
		if got != tc.wantDeepest {
			t.Errorf("%s: deepest reachable PS%d, want PS%d", tc.name, got, tc.wantDeepest)
		}
	}
}

// TestReadFixture reads a root shaped like real sysfs (no drive: the
// table needs the live machine).
func TestReadFixture(t *testing.T) {
	h := fixture.Open(t, fixture.Root(t, map[string]string{
		ModuleParam: "100000\n",
		"/sys/class/nvme/nvme0/power/pm_qos_latency_tolerance_us": "5500\n",
		"/sys/class/nvme/nvme1/power/pm_qos_latency_tolerance_us": "auto\n",
	}))
	i := Read(h, "nvme0")
	if i.DefaultPSMaxLatencyUs == nil || *i.DefaultPSMaxLatencyUs != 100000 || i.LatencyToleranceUs == nil || *i.LatencyToleranceUs != 5500 || *i.LimitUs() != 5500 {
		t.Errorf("nvme0: %+v", i)
	}
	if i.States != nil || i.Note == "" {
		t.Errorf("a recorded root gave states or no note: %+v", i)
	}
	j := Read(h, "nvme1")
	if j.LatencyToleranceUs != nil || j.ToleranceMode != "auto" || *j.LimitUs() != 100000 {
		t.Errorf("nvme1: %+v", j)
	}
}
