package tune

import (
	"boardbench/internal/interrupt"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/testutil/wait"
)

// machine writes a machine with two cpufreq policies (policy0 under
// schedutil, policy4 under userspace) and one devfreq device, and returns
// its root and a Host on it.
func machine(t *testing.T) (string, *host.Host) {
	t.Helper()
	root := fixture.Root(t, map[string]string{
		"sys/class/devfreq/dmc/governor": "dmc_ondemand\n",
		"sys/class/devfreq/dmc/min_freq": "328000000\n",
		"sys/class/devfreq/dmc/max_freq": "2112000000\n",
	})
	fixture.CPUFreq(t, root,
		fixture.Policy{ID: 0, Attrs: map[string]string{
			"scaling_governor":              "schedutil\n",
			"scaling_min_freq":              "408000\n",
			"scaling_max_freq":              "1800000\n",
			"scaling_setspeed":              "<unsupported>\n",
			"scaling_cur_freq":              "1800000\n",
			"scaling_available_frequencies": "408000 600000 816000 1008000 1200000 1416000 1608000 1800000 \n",
		}},
		fixture.Policy{ID: 4, Attrs: map[string]string{
			"scaling_governor":              "userspace\n",
			"scaling_min_freq":              "408000\n",
			"scaling_max_freq":              "2208000\n",
			"scaling_setspeed":              "1200000\n",
			"scaling_available_frequencies": "408000 1200000 2016000\n",
			"scaling_boost_frequencies":     "2208000 2400000\n",
		}},
	)
	return root, fixture.Open(t, root)
}

func read(t *testing.T, root, machinePath string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, machinePath))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

func TestSnapshot(t *testing.T) {
	_, h := machine(t)
	st, err := Snapshot(h)
	if err != nil {
		t.Fatal(err)
	}
	want := State{
		Policies: []PolicyState{
			{Policy: 0, Dir: "/sys/devices/system/cpu/cpufreq/policy0", Governor: "schedutil\n", MinFreq: "408000\n", MaxFreq: "1800000\n"},
			{Policy: 4, Dir: "/sys/devices/system/cpu/cpufreq/policy4", Governor: "userspace\n", MinFreq: "408000\n", MaxFreq: "2208000\n", Setspeed: "1200000\n"},
		},
		Devfreq: []DevfreqState{
			{Name: "dmc", Dir: "/sys/class/devfreq/dmc", Governor: "dmc_ondemand\n", MinFreq: "328000000\n", MaxFreq: "2112000000\n"},
		},
	}
	if !reflect.DeepEqual(st, want) {
		t.Errorf("Snapshot =\n%+v\nwant\n%+v", st, want)
	}
}

func TestSnapshotNothingToSave(t *testing.T) {
	h := fixture.Open(t, t.TempDir())
	if _, err := Snapshot(h); err == nil {
		t.Error("Snapshot of an empty machine succeeded")
	}
}

func TestSnapshotChangeRestoreIsByteIdentical(t *testing.T) {
	root, h := machine(t)
	before := fixture.Snapshot(t, root)
	st, err := Snapshot(h)
	if err != nil {
		t.Fatal(err)
	}
	steps := []func() error{
		func() error { return SetGovernor(h, 0, "performance") },
		func() error { return Pin(h, 0, 600000) },
		func() error { return SetGovernor(h, 4, "powersave") },
		func() error { return Pin(h, 4, 2400000) },
		func() error { return SetDevfreqGovernor(h, "dmc", "performance") },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("change %d: %v", i, err)
		}
	}
	if reflect.DeepEqual(fixture.Snapshot(t, root), before) {
		t.Fatal("changes left the fixture untouched")
	}
	if err := Restore(h, st); err != nil {
		t.Fatalf("Restore: %v", err)
	}
	if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
		t.Errorf("after Restore:\n%v\nwant\n%v", after, before)
	}
	// A second Restore writes nothing: with every tunable read-only it
	// still succeeds.
	for p := range before {
		if err := os.Chmod(filepath.Join(root, p), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	if err := Restore(h, st); err != nil {
		t.Errorf("second Restore: %v", err)
	}
}

func TestRestoreReportsErrorsAndContinues(t *testing.T) {
	root, h := machine(t)
	st, err := Snapshot(h)
	if err != nil {
		t.Fatal(err)
	}
	if err := SetGovernor(h, 0, "performance"); err != nil {
		t.Fatal(err)
	}
	if err := SetDevfreqGovernor(h, "dmc", "performance"); err != nil {
		t.Fatal(err)
	}
	// policy0's governor cannot be written back (as without root).
	gov := filepath.Join(root, "sys/devices/system/cpu/cpufreq/policy0/scaling_governor")
	if err := os.Remove(gov); err != nil {
		t.Fatal(err)
	}
	if err := Restore(h, st); err == nil {
		t.Error("Restore succeeded although a governor could not be written")
	}
	if got := read(t, root, "/sys/class/devfreq/dmc/governor"); got != "dmc_ondemand" {
		t.Errorf("devfreq governor = %q: Restore stopped at the first error", got)
	}
}

func TestPin(t *testing.T) {
	root, h := machine(t)
	tests := []struct {
		policy           int
		khz              int64
		wantMin, wantMax string
		wantSetspeed     string
	}{
		{0, 600000, "600000", "600000", "<unsupported>"},
		{0, 1800000, "1800000", "1800000", "<unsupported>"},
		{0, 408000, "408000", "408000", "<unsupported>"},
		{4, 2016000, "2016000", "2016000", "2016000"},
	}
	for _, tt := range tests {
		if err := Pin(h, tt.policy, tt.khz); err != nil {
			t.Fatalf("Pin(%d, %d): %v", tt.policy, tt.khz, err)
		}
		dir := "/sys/devices/system/cpu/cpufreq/policy" + string(rune('0'+tt.policy))
		got := [3]string{read(t, root, dir+"/scaling_min_freq"), read(t, root, dir+"/scaling_max_freq"), read(t, root, dir+"/scaling_setspeed")}
		want := [3]string{tt.wantMin, tt.wantMax, tt.wantSetspeed}
		if got != want {
			t.Errorf("Pin(%d, %d): min/max/setspeed = %v, want %v", tt.policy, tt.khz, got, want)
		}
	}
	if err := Pin(h, 7, 1000000); err == nil {
		t.Error("Pin on a missing policy succeeded")
	}
	if err := Pin(h, 0, 0); err == nil {
		t.Error("Pin to 0 kHz succeeded")
	}
}

func TestPlanLimits(t *testing.T) {
	min := func(v string) limitWrite { return limitWrite{value: v} }
	max := func(v string) limitWrite { return limitWrite{max: true, value: v} }
	tests := []struct {
		name           string
		curMin, curMax string
		minOK, maxOK   bool
		newMin, newMax string
		want           []limitWrite
	}{
		{"raise above current max: max first", "408000\n", "1000000\n", true, true, "1800000", "1800000", []limitWrite{max("1800000"), min("1800000")}},
		{"lower below current min: min first", "1000000\n", "1800000\n", true, true, "408000", "408000", []limitWrite{min("408000"), max("408000")}},
		{"inside the range: min first", "408000\n", "1800000\n", true, true, "1000000", "1000000", []limitWrite{min("1000000"), max("1000000")}},
		{"restore wide range from a low pin", "408000", "408000", true, true, "408000\n", "1800000\n", []limitWrite{min("408000\n"), max("1800000\n")}},
		{"restore wide range from a high pin", "1800000", "1800000", true, true, "408000\n", "1800000\n", []limitWrite{min("408000\n"), max("1800000\n")}},
		{"only max differs", "408000\n", "1800000", true, true, "408000\n", "1800000\n", []limitWrite{max("1800000\n")}},
		{"nothing differs", "408000\n", "1800000\n", true, true, "408000\n", "1800000\n", nil},
		{"empty values are left alone", "1\n", "2\n", true, true, "", "", nil},
		{"current max unreadable: min, max, min", "", "", false, false, "600000", "600000", []limitWrite{{value: "600000", mayFail: true}, max("600000"), min("600000")}},
	}
	for _, tt := range tests {
		got := planLimits(tt.curMin, tt.minOK, tt.curMax, tt.maxOK, tt.newMin, tt.newMax)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: plan = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestAvailableKHz(t *testing.T) {
	root, h := machine(t)
	got, err := AvailableKHz(h, 4)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{2400000, 2208000, 2016000, 1200000, 408000}; !reflect.DeepEqual(got, want) {
		t.Errorf("AvailableKHz(4) = %v, want %v", got, want)
	}
	junk := filepath.Join(root, "sys/devices/system/cpu/cpufreq/policy0/scaling_available_frequencies")
	if err := os.WriteFile(junk, []byte("abc 600000 -5 600000 \x00\x01 408000"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err = AvailableKHz(h, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{600000, 408000}; !reflect.DeepEqual(got, want) {
		t.Errorf("AvailableKHz(0) with junk = %v, want %v", got, want)
	}
	os.Remove(junk)
	if _, err := AvailableKHz(h, 0); err == nil {
		t.Error("AvailableKHz without the file succeeded")
	}
}

func TestPoliciesFromCPUDirectories(t *testing.T) {
	// An old kernel: no policyN directories; cpu1 links to cpu0's.
	root := fixture.Root(t, map[string]string{
		"/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor": "ondemand\n",
		"/sys/devices/system/cpu/cpu1/cpufreq":                  "->../cpu0/cpufreq",
	})
	h := fixture.Open(t, root)
	if got, want := Policies(h), map[int]string{0: "/sys/devices/system/cpu/cpu0/cpufreq"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Policies = %v, want %v", got, want)
	}
	if err := SetGovernor(h, 0, "performance"); err != nil {
		t.Fatal(err)
	}
	if got := read(t, root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"); got != "performance" {
		t.Errorf("governor = %q", got)
	}
}

func TestSetDevfreqGovernorRejectsPaths(t *testing.T) {
	_, h := machine(t)
	for _, name := range []string{"", "../../devices/system/cpu/cpufreq/policy0", "a/b"} {
		if err := SetDevfreqGovernor(h, name, "performance"); err == nil {
			t.Errorf("SetDevfreqGovernor(%q) succeeded", name)
		}
	}
}

// fakeWalk pins policy 0 and 4 to one clock after another until ctx is done,
// as an OPP walk does, and returns why it stopped.
func fakeWalk(ctx context.Context, g *Guard, started chan<- struct{}) error {
	clocks := []int64{1800000, 1608000, 1416000, 1200000, 1008000, 816000, 600000, 408000}
	for i := 0; ; i++ {
		khz := clocks[i%len(clocks)]
		if err := g.Pin(0, khz); err != nil {
			return err
		}
		if err := g.Pin(4, khz); err != nil {
			return err
		}
		if i == 0 {
			close(started)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Millisecond):
		}
	}
}

func TestGuardRestoresOnSIGINT(t *testing.T) {
	root, h := machine(t)
	before := fixture.Snapshot(t, root)
	parent, stop := interrupt.NotifyContext(context.Background())
	defer stop()
	g, ctx, err := NewGuard(parent, h)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	started := make(chan struct{})
	walked := make(chan error, 1)
	go func() { walked <- fakeWalk(ctx, g, started) }()
	<-started
	if reflect.DeepEqual(fixture.Snapshot(t, root), before) {
		t.Fatal("the walk changed nothing")
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-walked:
		if !errors.Is(err, context.Canceled) && !errors.Is(err, ErrRestored) {
			t.Errorf("walk stopped with %v, want cancellation", err)
		}
	case <-time.After(wait.HangGuard):
		t.Fatal("hung: the walk did not stop after SIGINT")
	}
	// Restored by the signal, before Close.
	if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
		t.Errorf("after SIGINT:\n%v\nwant\n%v", after, before)
	}
	if interrupt.Name(ctx) != "SIGINT" {
		t.Errorf("the Guard's context names %q, want SIGINT", interrupt.Name(ctx))
	}
	if err := g.Pin(0, 600000); !errors.Is(err, ErrRestored) {
		t.Errorf("Pin after restore = %v, want ErrRestored", err)
	}
	if err := g.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestGuardRestoresOnParentCancel(t *testing.T) {
	root, h := machine(t)
	before := fixture.Snapshot(t, root)
	parent, cancel := context.WithCancel(context.Background())
	g, ctx, err := NewGuard(parent, h)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	started := make(chan struct{})
	walked := make(chan error, 1)
	go func() { walked <- fakeWalk(ctx, g, started) }()
	<-started
	cancel()
	<-walked
	<-ctx.Done()
	if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
		t.Errorf("after cancel:\n%v\nwant\n%v", after, before)
	}
	if name := interrupt.Name(ctx); name != "a signal" {
		t.Errorf("the Guard's context names %q after a plain cancellation, want \"a signal\"", name)
	}
}

func TestGuardCloseRestores(t *testing.T) {
	root, h := machine(t)
	before := fixture.Snapshot(t, root)
	g, ctx, err := NewGuard(context.Background(), h)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.SetGovernor(0, "performance"); err != nil {
		t.Fatal(err)
	}
	if err := g.Pin(4, 408000); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if ctx.Err() == nil {
		t.Error("context still live after Close")
	}
	if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
		t.Errorf("after Close:\n%v\nwant\n%v", after, before)
	}
	if err := g.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := g.SetGovernor(0, "performance"); !errors.Is(err, ErrRestored) {
		t.Errorf("SetGovernor after Close = %v, want ErrRestored", err)
	}
}

func TestPolicyOfCPU(t *testing.T) {
	root, h := machine(t)
	fixture.Add(t, root, map[string]string{
		"sys/devices/system/cpu/cpufreq/policy0/related_cpus": "0 1 2 3\n",
		"sys/devices/system/cpu/cpufreq/policy4/related_cpus": "4 5\n",
		// cpu6 is known only through its link (no related_cpus lists it).
		"sys/devices/system/cpu/cpu6/cpufreq": "->../cpufreq/policy4",
	})
	tests := []struct {
		cpu    int
		want   int
		wantOK bool
	}{{0, 0, true}, {3, 0, true}, {5, 4, true}, {6, 4, true}, {9, 0, false}}
	for _, tt := range tests {
		got, ok := PolicyOfCPU(h, tt.cpu)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("PolicyOfCPU(%d) = %d, %v; want %d, %v", tt.cpu, got, ok, tt.want, tt.wantOK)
		}
	}
}
