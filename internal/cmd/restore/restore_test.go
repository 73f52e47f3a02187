package restore

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	"boardbench/internal/iostreams"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/testutil/wait"
	"boardbench/internal/tune"
)

// tunerEnv makes the test binary act as a boardbench process that tunes the
// fixture root it names and then waits to be killed.
const tunerEnv = "BOARDBENCH_TEST_TUNER_ROOT"

func TestMain(m *testing.M) {
	if root := os.Getenv(tunerEnv); root != "" {
		os.Exit(tuner(root))
	}
	os.Exit(m.Run())
}

// tuner changes policy0 and the dmc devfreq device of root through a Guard
// (state file in $BOARDBENCH_STATE_DIR), says "changed" and blocks.
func tuner(root string) int {
	h, err := host.New(root)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	g, _, err := tune.NewGuard(context.Background(), h)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	for _, change := range []func() error{
		func() error { return g.SetGovernor(0, "performance") },
		func() error { return g.Pin(0, 600000) },
		func() error { return g.SetDevfreqGovernor("dmc", "performance") },
	} {
		if err := change(); err != nil {
			fmt.Println(err)
			return 1
		}
	}
	fmt.Println("changed")
	select {}
}

// machine writes a fixture with one cpufreq policy and one devfreq device.
func machine(t *testing.T) string {
	t.Helper()
	root := fixture.Root(t, map[string]string{
		"sys/class/devfreq/dmc/governor": "dmc_ondemand\n",
		"sys/class/devfreq/dmc/min_freq": "328000000\n",
		"sys/class/devfreq/dmc/max_freq": "2112000000\n",
	})
	fixture.CPUFreq(t, root, fixture.Policy{ID: 0, CPUs: []int{0, 1}, Attrs: map[string]string{
		"scaling_governor":              "schedutil\n",
		"scaling_min_freq":              "408000\n",
		"scaling_max_freq":              "1800000\n",
		"scaling_available_frequencies": "408000 600000 1800000\n",
	}})
	return root
}

// killedTuner runs the tuner on root, SIGKILLs it after its changes and
// returns the path of the state file it left.
func killedTuner(t *testing.T, root, stateDir string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), tunerEnv+"="+root, tune.StateDirEnv+"="+stateDir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- s
	}()
	select {
	case s := <-line:
		if s != "changed\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("tuner: %q", s)
		}
	case <-time.After(wait.HangGuard):
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("hung: tuner did not report its changes")
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("tuner ended with %v, want SIGKILL", cmd.ProcessState)
	}
	return filepath.Join(stateDir, fmt.Sprintf("tune-%d.json", cmd.Process.Pid))
}

func execute(t *testing.T, args ...string) (stdout, stderr *bytes.Buffer, err error) {
	t.Helper()
	ios, stdout, stderr := iostreams.Test()
	cmd := NewCmd(cmdutil.NewFactory(ios))
	cmd.SetArgs(args)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	return stdout, stderr, cmd.Execute()
}

// TestRestoreAfterSIGKILL: a process that tuned a fixture and was killed
// with SIGKILL leaves a state file with the previous values; restore puts
// them back byte for byte and removes the file; a second restore has
// nothing to do.
func TestRestoreAfterSIGKILL(t *testing.T) {
	root := machine(t)
	stateDir := t.TempDir()
	t.Setenv(tune.StateDirEnv, stateDir)
	before := fixture.Snapshot(t, root)

	path := killedTuner(t, root, stateDir)
	if reflect.DeepEqual(fixture.Snapshot(t, root), before) {
		t.Fatal("the tuner changed nothing")
	}
	sf, err := tune.ReadStateFile(path)
	if err != nil {
		t.Fatalf("no state file after SIGKILL: %v", err)
	}
	for _, v := range sf.Saved.Values() {
		if want := before[v.Path]; v.Content != want {
			t.Errorf("state file: %s = %q, want the previous %q", v.Path, v.Content, want)
		}
	}
	if len(sf.Saved.Values()) != 6 || sf.Root != root {
		t.Errorf("state file saved %v for root %q", sf.Saved.Values(), sf.Root)
	}

	stdout, _, err := execute(t, "--root", root)
	if err != nil {
		t.Fatalf("restore: %v\n%s", err, stdout)
	}
	for _, line := range []string{
		"restored /sys/devices/system/cpu/cpufreq/policy0/scaling_governor: performance → schedutil\n",
		"restored /sys/devices/system/cpu/cpufreq/policy0/scaling_min_freq: 600000 → 408000\n",
		"restored /sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq: 600000 → 1800000\n",
		"restored /sys/class/devfreq/dmc/governor: performance → dmc_ondemand\n",
		"removed state file " + path + "\n",
	} {
		if !strings.Contains(stdout.String(), line) {
			t.Errorf("output lacks %q:\n%s", line, stdout)
		}
	}
	if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
		t.Errorf("after restore:\n%v\nwant\n%v", after, before)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Errorf("state file still there: %v", err)
	}
	stdout, _, err = execute(t, "--root", root)
	if err != nil || stdout.String() != "nothing to restore\n" {
		t.Errorf("second restore: %q, %v", stdout, err)
	}
}

// leftover writes a state file of a finished process that changed
// policy0's governor of root.
func leftover(t *testing.T, stateDir, root string) string {
	t.Helper()
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Skip(err)
	}
	sf := map[string]any{
		"version": tune.StateFileVersion, "pid": c.Process.Pid, "root": root,
		"command": []string{"boardbench", "run"}, "started": time.Now(),
		"saved": map[string]any{"policies": []map[string]any{{
			"policy": 0, "dir": "/sys/devices/system/cpu/cpufreq/policy0",
			"governor": "schedutil\n", "scaling_min_freq": "408000\n", "scaling_max_freq": "1800000\n",
		}}},
	}
	data, err := json.Marshal(sf)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(stateDir, fmt.Sprintf("tune-%d.json", c.Process.Pid))
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// withCoalesce adds saved interrupt coalescing of eth0 to the state file
// at path.
func withCoalesce(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sf map[string]any
	if err := json.Unmarshal(data, &sf); err != nil {
		t.Fatal(err)
	}
	sf["saved"].(map[string]any)["coalesce"] = []map[string]any{{"interface": "eth0",
		"previous": map[string]any{"rx_usecs": 3, "rx_frames": 0, "tx_usecs": 48, "tx_frames": 1, "adaptive_rx": true}}}
	if data, err = json.Marshal(sf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestRestoreCases(t *testing.T) {
	const gov = "sys/devices/system/cpu/cpufreq/policy0/scaling_governor"
	tests := []struct {
		name string
		// setup changes the fixture and the state dir; it returns the
		// arguments after --root.
		setup    func(t *testing.T, root, stateDir string) []string
		wantCode int
		wantOut  []string
		wantKept bool
		wantGov  string
		notOut   string
	}{
		{
			name: "dry run writes nothing",
			setup: func(t *testing.T, root, stateDir string) []string {
				fixture.Write(t, root, gov, "performance\n")
				leftover(t, stateDir, root)
				return []string{"--dry-run"}
			},
			wantOut:  []string{"would write schedutil to /sys/devices/system/cpu/cpufreq/policy0/scaling_governor (now performance)", "would remove state file"},
			wantKept: true, wantGov: "performance\n",
		},
		{
			name: "dry run lists saved interrupt coalescing",
			setup: func(t *testing.T, root, stateDir string) []string {
				fixture.Write(t, root, gov, "performance\n")
				withCoalesce(t, leftover(t, stateDir, root))
				return []string{"--dry-run"}
			},
			wantOut: []string{"would write schedutil to /sys/devices/system/cpu/cpufreq/policy0/scaling_governor (now performance)",
				"would restore eth0 coalescing: rx-usecs 3, rx-frames 0, tx-usecs 48, tx-frames 1, adaptive-rx on, adaptive-tx off (now (unreadable))",
				"would remove state file"},
			wantKept: true, wantGov: "performance\n",
		},
		{
			name: "coalescing cannot be restored on a fixture root: the state file is kept",
			setup: func(t *testing.T, root, stateDir string) []string {
				fixture.Write(t, root, gov, "performance\n")
				withCoalesce(t, leftover(t, stateDir, root))
				return nil
			},
			wantCode: 1,
			wantOut:  []string{"restored /sys/devices/system/cpu/cpufreq/policy0/scaling_governor", "could not restore eth0 coalescing to rx-usecs 3,", "kept state file"},
			wantKept: true, wantGov: "schedutil\n",
		},
		{
			name: "a path that cannot be written keeps the state file",
			setup: func(t *testing.T, root, stateDir string) []string {
				if err := os.Remove(filepath.Join(root, gov)); err != nil {
					t.Fatal(err)
				}
				leftover(t, stateDir, root)
				return nil
			},
			wantCode: 1,
			wantOut:  []string{"could not restore /sys/devices/system/cpu/cpufreq/policy0/scaling_governor to schedutil: no such file", "kept state file"},
			wantKept: true,
		},
		{
			name: "a state file of another root is left alone",
			setup: func(t *testing.T, root, stateDir string) []string {
				fixture.Write(t, root, gov, "performance\n")
				leftover(t, stateDir, "/elsewhere")
				return nil
			},
			wantOut:  []string{"nothing to restore", "alone: it is for --root /elsewhere"},
			wantKept: true, wantGov: "performance\n",
		},
		{
			name: "an unusable state file is reported and kept",
			setup: func(t *testing.T, root, stateDir string) []string {
				if err := syscall.Mkfifo(filepath.Join(stateDir, "tune-77.json"), 0o600); err != nil {
					t.Fatal(err)
				}
				return nil
			},
			wantCode: 1,
			wantOut:  []string{"kept state file ", "not a regular file"},
			wantKept: true, wantGov: "schedutil\n",
		},
		{
			name: "already as saved: file removed, nothing written",
			setup: func(t *testing.T, root, stateDir string) []string {
				leftover(t, stateDir, root)
				return nil
			},
			wantOut: []string{"removed state file"},
			notOut:  "restored /",
			wantGov: "schedutil\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := machine(t)
			stateDir := t.TempDir()
			t.Setenv(tune.StateDirEnv, stateDir)
			args := append([]string{"--root", root}, tt.setup(t, root, stateDir)...)
			stdout, _, err := execute(t, args...)
			if code := cmdutil.ExitCode(err); code != tt.wantCode {
				t.Errorf("exit %d (%v), want %d", code, err, tt.wantCode)
			}
			for _, want := range tt.wantOut {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, stdout)
				}
			}
			if tt.notOut != "" && strings.Contains(stdout.String(), tt.notOut) {
				t.Errorf("output has %q:\n%s", tt.notOut, stdout)
			}
			left, _ := filepath.Glob(filepath.Join(stateDir, "tune-*.json"))
			if tt.wantKept != (len(left) == 1) {
				t.Errorf("state files afterwards: %v, kept=%v wanted", left, tt.wantKept)
			}
			if tt.wantGov != "" {
				if b, _ := os.ReadFile(filepath.Join(root, gov)); string(b) != tt.wantGov {
					t.Errorf("governor %q, want %q", b, tt.wantGov)
				}
			}
		})
	}
}

func TestRestoreJSON(t *testing.T) {
	root := machine(t)
	stateDir := t.TempDir()
	t.Setenv(tune.StateDirEnv, stateDir)
	fixture.Write(t, root, "sys/devices/system/cpu/cpufreq/policy0/scaling_governor", "performance\n")
	path := leftover(t, stateDir, root)
	stdout, _, err := execute(t, "--root", root, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if len(rep.Files) != 1 || rep.Files[0].Path != path || !rep.Files[0].Removed || rep.Root != root || rep.StateDir != stateDir {
		t.Fatalf("report = %+v", rep)
	}
	var restored []string
	for _, o := range rep.Files[0].Outcomes {
		if o.Outcome == tune.OutcomeRestored {
			restored = append(restored, o.Path+"="+o.Previous+"<-"+o.Found)
		}
	}
	if want := []string{"/sys/devices/system/cpu/cpufreq/policy0/scaling_governor=schedutil<-performance"}; !reflect.DeepEqual(restored, want) {
		t.Errorf("restored = %v, want %v", restored, want)
	}
	for _, key := range []string{`"outcome": "unchanged"`, `"removed": true`, `"dry_run": false`} {
		if !strings.Contains(stdout.String(), key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

func TestRestoreBadInput(t *testing.T) {
	t.Setenv(tune.StateDirEnv, t.TempDir())
	tests := []struct {
		args []string
		code int
	}{
		{[]string{"--root", "/nonexistent/x"}, 2},
	}
	for _, tt := range tests {
		_, _, err := execute(t, tt.args...)
		if err == nil || cmdutil.ExitCode(err) != tt.code {
			t.Errorf("restore %v: %v (exit %d), want exit %d", tt.args, err, cmdutil.ExitCode(err), tt.code)
		}
	}
	stdout, _, err := execute(t)
	if err != nil || stdout.String() != "nothing to restore\n" {
		t.Errorf("restore with an empty state dir: %q, %v", stdout, err)
	}
}

// TestRestoreTwoKilledRuns: two runs tuned the same root one after the
// other and were both killed. The newer one recorded as "previous" the
// values the older one had set; restore applies the newest state file
// first, so the oldest one's values (the machine's own) win, whatever the
// order of the files' names.
func TestRestoreTwoKilledRuns(t *testing.T) {
	root := machine(t)
	stateDir := t.TempDir()
	t.Setenv(tune.StateDirEnv, stateDir)
	before := fixture.Snapshot(t, root)

	older := killedTuner(t, root, stateDir)
	tuned := fixture.Snapshot(t, root)
	newer := killedTuner(t, root, stateDir)
	sf, err := tune.ReadStateFile(newer)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range sf.Saved.Values() {
		if v.Content != tuned[v.Path] {
			t.Fatalf("the second run recorded %s = %q, want the first run's %q", v.Path, v.Content, tuned[v.Path])
		}
	}
	// Name the files so that the older one sorts first: the order must come
	// from the files' contents, not from their names (process ids wrap).
	for from, to := range map[string]string{older: "tune-1.json", newer: "tune-2.json"} {
		if err := os.Rename(from, filepath.Join(stateDir, to)); err != nil {
			t.Fatal(err)
		}
	}
	stdout, _, err := execute(t, "--root", root)
	if err != nil {
		t.Fatalf("restore: %v\n%s", err, stdout)
	}
	if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
		t.Errorf("after restoring two state files:\n%v\nwant the values before both runs\n%v\n%s", after, before, stdout)
	}
	if i, j := strings.Index(stdout.String(), "tune-2.json"), strings.Index(stdout.String(), "tune-1.json"); i < 0 || j < 0 || i > j {
		t.Errorf("want the newer state file (tune-2.json) restored first:\n%s", stdout)
	}
}
