package tune

import (
	"context"
	"errors"
	"os/exec"
	"reflect"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/testutil/fixture"
)

func TestPlanClock(t *testing.T) {
	_, h := machine(t)
	tests := []struct {
		mhz  int
		want []ClockPin
	}{
		// Exactly offered by policy0; policy4 takes the highest below.
		{600, []ClockPin{{0, 600000}, {4, 408000}}},
		{1300, []ClockPin{{0, 1200000}, {4, 1200000}}},
		// Above everything: the highest (boost included).
		{9000, []ClockPin{{0, 1800000}, {4, 2400000}}},
		// Below everything: the lowest.
		{100, []ClockPin{{0, 408000}, {4, 408000}}},
	}
	for _, tt := range tests {
		got, err := PlanClock(h, tt.mhz)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("PlanClock(%d) = %v, %v; want %v", tt.mhz, got, err, tt.want)
		}
	}
	if _, err := PlanClock(fixture.Open(t, t.TempDir()), 600); !errors.Is(err, ErrNoClocks) {
		t.Errorf("no cpufreq: err = %v, want ErrNoClocks", err)
	}
}

// TestCheckClock checks the refusals and that the pins CheckClock hands
// on are PlanClock's.
func TestCheckClock(t *testing.T) {
	_, h := machine(t)
	empty := fixture.Open(t, t.TempDir())
	tests := []struct {
		name    string
		h       *host.Host
		mhz     int
		root    bool
		want    []ClockPin
		wantErr string
	}{
		{"no clock asked", h, 0, false, nil, ""},
		{"planned", h, 1300, true, []ClockPin{{0, 1200000}, {4, 1200000}}, ""},
		{"not root", h, 1300, false, nil, "--clock pins the cpufreq clocks, which needs root: run it with sudo"},
		{"no cpufreq", empty, 600, true, nil, "--clock 600: no cpufreq here (" + ErrNoClocks.Error() + "), so the clocks cannot be pinned; run without --clock to measure at the clock the board runs"},
		{"invalid", h, -5, true, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CheckClock(tt.h, "--clock", tt.mhz, tt.root)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != tt.wantErr || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("CheckClock(%d, root %v) = %v, %q; want %v, %q", tt.mhz, tt.root, got, gotErr, tt.want, tt.wantErr)
			}
		})
	}
}

// TestPinClocksRestored pins the fixture Zero 2 W at 600 MHz through a
// Guard and checks the limits are written, then restored byte for byte,
// on Close and on the parent's cancellation (a signal).
func TestPinClocksRestored(t *testing.T) {
	for _, viaSignal := range []bool{false, true} {
		root := t.TempDir()
		if out, err := exec.Command("cp", "-a", fixture.BoardPath(t, "rpi-zero2w")+"/.", root).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v\n%s", err, out)
		}
		h := fixture.Open(t, root)
		before := fixture.Snapshot(t, root)
		pins, err := PlanClock(h, 600)
		if err != nil || len(pins) != 1 || pins[0].KHz != 600000 {
			t.Fatalf("PlanClock = %v, %v", pins, err)
		}
		parent, cancel := context.WithCancel(context.Background())
		g, gctx, err := NewGuard(parent, h, WithStateDir(t.TempDir()))
		if err != nil {
			t.Fatal(err)
		}
		if err := g.PinClocks(pins); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"scaling_min_freq", "scaling_max_freq"} {
			if v := read(t, root, "sys/devices/system/cpu/cpufreq/policy0/"+f); v != "600000" {
				t.Errorf("%s = %q while pinned", f, v)
			}
		}
		if viaSignal {
			cancel()
			<-gctx.Done()
		} else if err := g.Close(); err != nil {
			t.Fatal(err)
		}
		cancel()
		if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
			t.Errorf("signal %v: not restored:\n%v\nwant\n%v", viaSignal, after, before)
		}
	}
}
