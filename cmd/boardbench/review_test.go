package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/testutil/fixture"
	testwait "boardbench/internal/testutil/wait"
)

const (
	reviewPolicy = "/sys/devices/system/cpu/cpufreq/policy0"
	reviewBusy   = reviewPolicy + "/ondemand/io_is_busy"
	reviewASPM   = "/sys/module/pcie_aspm/parameters/policy"
)

// reviewRoot is a writable fixture root with ondemand lacking io_is_busy
// and ASPM at powersave.
func reviewRoot(t *testing.T) string {
	return fixture.Root(t, map[string]string{
		reviewPolicy + "/scaling_governor":              "ondemand\n",
		reviewPolicy + "/scaling_min_freq":              "408000\n",
		reviewPolicy + "/scaling_max_freq":              "1800000\n",
		reviewPolicy + "/cpuinfo_max_freq":              "1800000\n",
		reviewPolicy + "/related_cpus":                  "0 1\n",
		reviewBusy:                                      "0\n",
		reviewPolicy + "/ondemand/up_threshold":         "80\n",
		reviewPolicy + "/ondemand/sampling_down_factor": "1\n",
		reviewPolicy + "/ondemand/sampling_rate":        "10000\n",
		reviewASPM:                                      "default performance [powersave] powersupersave\n",
		"/proc/sys/kernel/osrelease":                    "6.12.30\n",
	})
}

func readRoot(t *testing.T, root, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, p))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// assertRestored checks the fixture holds its previous values and no state
// file is left.
func assertRestored(t *testing.T, root, stateDir string) {
	t.Helper()
	if v := readRoot(t, root, reviewBusy); v != "0" {
		t.Errorf("io_is_busy = %q after restore, want 0", v)
	}
	if v := readRoot(t, root, reviewASPM); !strings.Contains(v, "powersave") || strings.HasPrefix(v, "default") && !strings.Contains(v, "[powersave]") {
		t.Errorf("ASPM policy = %q after restore, want powersave", v)
	}
	if left, _ := filepath.Glob(filepath.Join(stateDir, "tune-*.json")); len(left) != 0 {
		t.Errorf("state files left: %v", left)
	}
}

func reviewEnv(stateDir string) []string {
	return append(os.Environ(), "BOARDBENCH_STATE_DIR="+stateDir)
}

func TestReviewApplyRestore(t *testing.T) {
	root, state := reviewRoot(t), t.TempDir()
	cmd, out, errb := start(t.TempDir(), "review", "--apply", "--root", root)
	cmd.Env = reviewEnv(state)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := wait(t, cmd, out, errb)
	if r.code != 0 {
		t.Fatalf("review --apply: status %d, stderr %q", r.code, r.stderr)
	}
	if v := readRoot(t, root, reviewBusy); v != "1" {
		t.Errorf("io_is_busy = %q after --apply, want 1", v)
	}
	if v := readRoot(t, root, reviewASPM); v != "default" {
		t.Errorf("ASPM policy = %q after --apply, want default", v)
	}
	if left, _ := filepath.Glob(filepath.Join(state, "tune-*.json")); len(left) != 1 {
		t.Fatalf("state files after --apply: %v, want one; stdout %q", left, r.stdout)
	}
	cmd, out, errb = start(t.TempDir(), "review", "--restore", "--root", root)
	cmd.Env = reviewEnv(state)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if r := wait(t, cmd, out, errb); r.code != 0 {
		t.Fatalf("review --restore: status %d, stderr %q", r.code, r.stderr)
	} else if strings.Contains(r.stderr, "left tunables changed") {
		t.Errorf("review --restore warned about the state file it restores: %q", r.stderr)
	}
	assertRestored(t, root, state)
}

// envWithoutStateDir is the environment without $BOARDBENCH_STATE_DIR.
func envWithoutStateDir() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "BOARDBENCH_STATE_DIR=") {
			out = append(out, kv)
		}
	}
	return out
}

// TestReviewApplyRootKeepsStateInRoot: without $BOARDBENCH_STATE_DIR,
// review --root DIR --apply keeps its state file in DIR/run/boardbench
// (never the live /run/boardbench); a later command on that root warns
// about it, `boardbench restore --root DIR --dry-run` finds it, and
// review --restore restores it without the warning.
func TestReviewApplyRootKeepsStateInRoot(t *testing.T) {
	root := reviewRoot(t)
	stateDir := filepath.Join(root, "run", "boardbench")
	run := func(args ...string) result {
		t.Helper()
		cmd, out, errb := start(t.TempDir(), args...)
		cmd.Env = envWithoutStateDir()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return wait(t, cmd, out, errb)
	}
	r := run("review", "--apply", "--root", root)
	if r.code != 0 {
		t.Fatalf("review --apply: status %d, stderr %q", r.code, r.stderr)
	}
	left, _ := filepath.Glob(filepath.Join(stateDir, "tune-*.json"))
	if len(left) != 1 {
		t.Fatalf("state files in %s after --apply: %v, want one; stdout %q", stateDir, left, r.stdout)
	}
	if !strings.Contains(r.stdout, left[0]) {
		t.Errorf("--apply does not name its state file %s: %q", left[0], r.stdout)
	}
	if r := run("review", "--root", root); !strings.Contains(r.stderr, "left tunables changed") ||
		!strings.Contains(r.stderr, "boardbench restore --root "+root) {
		t.Errorf("review on the tuned root: stderr %q, want the leftover warning", r.stderr)
	}
	if r := run("restore", "--dry-run", "--root", root); r.code != 0 || !strings.Contains(r.stdout, "would write") {
		t.Errorf("restore --dry-run --root: status %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r = run("review", "--restore", "--root", root)
	if r.code != 0 {
		t.Fatalf("review --restore: status %d, stderr %q", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, "left tunables changed") {
		t.Errorf("review --restore warned about the state file it restores: %q", r.stderr)
	}
	assertRestored(t, root, stateDir)
}

// applyWithCommand starts review --apply -- sleep 30 and waits until the
// changes are made.
func applyWithCommand(t *testing.T, root, state string) (func(syscall.Signal) result, func() result) {
	t.Helper()
	cmd, out, errb := start(t.TempDir(), "review", "--apply", "--root", root, "--", "sleep", "30")
	cmd.Env = reviewEnv(state)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(testwait.HangGuard)
	for readRoot(t, root, reviewBusy) != "1" {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("changes not applied; stderr %q", errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	signal := func(s syscall.Signal) result {
		if err := cmd.Process.Signal(s); err != nil {
			t.Fatal(err)
		}
		return wait(t, cmd, out, errb)
	}
	return signal, func() result { return wait(t, cmd, out, errb) }
}

func TestReviewApplyCommandSIGTERM(t *testing.T) {
	root, state := reviewRoot(t), t.TempDir()
	signal, _ := applyWithCommand(t, root, state)
	r := signal(syscall.SIGTERM)
	if r.code != 130 {
		t.Errorf("status %d after SIGTERM, want 130; stderr %q", r.code, r.stderr)
	}
	assertRestored(t, root, state)
}

func TestReviewApplyCommandSIGKILLThenRestore(t *testing.T) {
	root, state := reviewRoot(t), t.TempDir()
	signal, _ := applyWithCommand(t, root, state)
	signal(syscall.SIGKILL)
	if v := readRoot(t, root, reviewBusy); v != "1" {
		t.Fatalf("io_is_busy = %q right after SIGKILL, want still 1", v)
	}
	cmd, out, errb := start(t.TempDir(), "restore", "--root", root)
	cmd.Env = reviewEnv(state)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if r := wait(t, cmd, out, errb); r.code != 0 {
		t.Fatalf("restore: status %d, stderr %q", r.code, r.stderr)
	}
	assertRestored(t, root, state)
}

func TestReviewJSONOnRoot(t *testing.T) {
	root := reviewRoot(t)
	r := runBinary(t, t.TempDir(), "review", "--json", "--root", root)
	if r.code != 0 || !strings.Contains(r.stdout, `"pcie_aspm_powersave"`) || !strings.Contains(r.stdout, `"ondemand_io_is_busy"`) {
		t.Errorf("review --json: status %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r = runBinary(t, t.TempDir(), "review", "--restore", "--apply")
	if r.code != 2 {
		t.Errorf("--restore --apply: status %d, want 2", r.code)
	}
}
