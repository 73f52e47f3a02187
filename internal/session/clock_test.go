package session

import (
	"context"
	"strings"
	"testing"

	"boardbench/internal/inventory"
	"boardbench/internal/result"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/tune"
)

// TestPinClockRestored pins a fixture machine at 600 MHz for one step of a
// session: the step sees the limits pinned, the result lists the pins, and
// the limits are back at the end.
func TestPinClockRestored(t *testing.T) {
	t.Setenv(tune.StateDirEnv, t.TempDir())
	root := fixture.Root(t)
	fixture.CPUFreq(t, root, fixture.Policy{ID: 0, Attrs: map[string]string{
		"scaling_governor": "schedutil\n", "scaling_min_freq": "408000\n", "scaling_max_freq": "1800000\n",
		"scaling_available_frequencies": "408000 600000 1800000\n",
	}})
	h := fixture.Open(t, root)
	pins, err := tune.CheckClock(h, "--clock", 600, true)
	if err != nil {
		t.Fatal(err)
	}
	var during string
	plan := Plan{Prepare: func(ctx context.Context, s *Session) ([]Step, error) {
		if err := s.PinClock(ctx, pins); err != nil {
			return nil, err
		}
		return []Step{{Name: "step", Run: func(ctx context.Context, p *result.Phase) error {
			during, _ = h.ReadString("/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq")
			return nil
		}}}, nil
	}}
	out, err := Measure(context.Background(), Config{Host: h, Info: inventory.Collect(h, inventory.Options{}), Command: "test", NoKeep: true}, plan)
	if err != nil {
		t.Fatal(err)
	}
	if during != "600000" {
		t.Errorf("scaling_max_freq during the step = %q, want 600000", during)
	}
	if len(out.Result.Tuning.Changed) != 1 || !out.Result.Tuning.Restored {
		t.Errorf("tuning = %+v", out.Result.Tuning)
	}
	if v, _ := h.ReadString("/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq"); v != "1800000" {
		t.Errorf("scaling_max_freq after = %q, want 1800000", v)
	}
	// No cpufreq: refused before measuring, and no pins change nothing.
	empty := fixture.Open(t, t.TempDir())
	if pins, err := tune.CheckClock(empty, "--clock", 600, true); err == nil || !strings.Contains(err.Error(), tune.ErrNoClocks.Error()) || pins != nil {
		t.Errorf("no cpufreq: CheckClock = %v, %v; want the refusal", pins, err)
	}
	out, err = Measure(context.Background(), Config{Host: empty, Info: inventory.Collect(empty, inventory.Options{}), Command: "test", NoKeep: true},
		Plan{Prepare: func(ctx context.Context, s *Session) ([]Step, error) { return nil, s.PinClock(ctx, nil) }})
	if err != nil || len(out.Result.Tuning.Changed) != 0 {
		t.Errorf("no pins: err = %v, tuning = %+v", err, out.Result.Tuning)
	}
}
