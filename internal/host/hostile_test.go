package host_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/testutil/wait"
)

// secretMarker is the content of a file outside every fixture root; no read
// under a root may ever return it.
const secretMarker = "BOARDBENCH-TEST-SECRET-7f3a"

// outsideSecret writes the secret next to (not inside) a fixture root and
// returns its path and the directory holding it.
func outsideSecret(t *testing.T) (file, dir string) {
	t.Helper()
	dir = t.TempDir()
	file = filepath.Join(dir, "shadow")
	if err := os.WriteFile(file, []byte(secretMarker+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A commands directory and a sysfs-like tree outside the root, full of
	// the secret, for directory links to point at.
	for _, p := range []string{"gcc_--version", "dmesg", "thermal_zone0/temp", "cpuinfo"} {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(secretMarker+"\n"), 0o600)
	}
	return file, dir
}

// within runs f and fails the test if it does not return (a read blocked
// on a FIFO never returns); the guard is minutes long, no speed limit.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	wait.Return(t, what, f)
}

func TestRecordedCommandsStayInsideRoot(t *testing.T) {
	secret, secretDir := outsideSecret(t)
	rel := func(root string) string {
		r, _ := filepath.Rel(filepath.Join(root, ".boardbench/commands"), secret)
		return r
	}
	cases := []struct {
		name  string
		build func(root string)
	}{
		{"absolute link to a file outside", func(root string) {
			os.Symlink(secret, filepath.Join(root, ".boardbench/commands/gcc_--version"))
		}},
		{"relative link climbing out", func(root string) {
			os.Symlink(rel(root), filepath.Join(root, ".boardbench/commands/gcc_--version"))
		}},
		{"commands directory is a link outside", func(root string) {
			os.Remove(filepath.Join(root, ".boardbench/commands"))
			os.Symlink(secretDir, filepath.Join(root, ".boardbench/commands"))
		}},
		{".boardbench is a link outside", func(root string) {
			os.RemoveAll(filepath.Join(root, ".boardbench"))
			os.MkdirAll(filepath.Join(secretDir, "commands"), 0o755)
			os.WriteFile(filepath.Join(secretDir, "commands/gcc_--version"), []byte(secretMarker), 0o600)
			os.Symlink(secretDir, filepath.Join(root, ".boardbench"))
		}},
		{"fifo", func(root string) {
			syscall.Mkfifo(filepath.Join(root, ".boardbench/commands/gcc_--version"), 0o644)
		}},
		{"huge sparse file", func(root string) {
			f, _ := os.Create(filepath.Join(root, ".boardbench/commands/gcc_--version"))
			f.Truncate(10 << 30)
			f.Close()
		}},
		{"link loop", func(root string) {
			os.Symlink("gcc_--version", filepath.Join(root, ".boardbench/commands/gcc_--version"))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			os.MkdirAll(filepath.Join(root, ".boardbench/commands"), 0o755)
			c.build(root)
			rec := host.NewRecorder()
			h := fixture.Open(t, root, host.WithRecorder(rec))
			var out []byte
			var err error
			within(t, "Run", func() { out, err = h.Run(context.Background(), "gcc", "--version") })
			if err == nil || strings.Contains(string(out), secretMarker) {
				t.Errorf("Run = %q, %v; want an error and no secret", out, err)
			}
			if err != nil && strings.Contains(err.Error(), secretMarker) {
				t.Errorf("error leaks the secret: %v", err)
			}
			within(t, "HasCommand", func() { h.HasCommand("gcc") })
			if c.name == "commands directory is a link outside" && h.HasCommand("dmesg") {
				t.Error("HasCommand listed a directory outside the root")
			}
			for k, v := range rec.Snapshot().Commands {
				if strings.Contains(string(v), secretMarker) {
					t.Errorf("recorder holds the secret under %s", k)
				}
			}
		})
	}
}

func TestSpecialFilesNeverBlockNorGrow(t *testing.T) {
	root := t.TempDir()
	fixture.Add(t, root, map[string]string{
		"/proc/meminfo":                         "MemTotal: 1 kB\n",
		"/sys/class/thermal/thermal_zone0/type": "cpu\n",
		"/sys/class/net/":                       "",
	})
	syscall.Mkfifo(filepath.Join(root, "proc/cpuinfo"), 0o644)
	syscall.Mkfifo(filepath.Join(root, "sys/class/thermal/thermal_zone0/temp"), 0o644)
	syscall.Mkfifo(filepath.Join(root, "sys/class/hwmon"), 0o644) // a FIFO where a directory should be
	os.Symlink("/proc/cpuinfo", filepath.Join(root, "proc/version"))
	f, _ := os.Create(filepath.Join(root, "proc/stat"))
	f.Truncate(10 << 30)
	f.Close()
	haveDevice := syscall.Mknod(filepath.Join(root, "proc/swaps"), syscall.S_IFCHR|0o644, int(1<<8|5)) == nil // /dev/zero's numbers
	h := fixture.Open(t, root)
	reads := []string{"/proc/cpuinfo", "/sys/class/thermal/thermal_zone0/temp", "/proc/version", "/proc/stat"}
	if haveDevice {
		reads = append(reads, "/proc/swaps")
	}
	for _, p := range reads {
		var err error
		within(t, "ReadFile("+p+")", func() { _, err = h.ReadFile(p) })
		if err == nil {
			t.Errorf("ReadFile(%s): want an error", p)
		}
		within(t, "ReadHead("+p+")", func() { _, err = h.ReadHead(p, 64) })
	}
	within(t, "ReadDir(FIFO)", func() {
		if _, err := h.ReadDir("/sys/class/hwmon"); err == nil {
			t.Error("ReadDir(FIFO): want an error")
		}
	})
	within(t, "Glob", func() { h.Glob("/sys/class/hwmon/*/temp1_input") })
	within(t, "WriteFile(FIFO)", func() {
		gov := "/sys/devices/system/cpu/cpufreq/policy0/scaling_governor"
		os.MkdirAll(filepath.Join(root, filepath.Dir(gov)), 0o755)
		syscall.Mkfifo(filepath.Join(root, gov), 0o644)
		if err := h.WriteString(gov, "performance"); err == nil {
			t.Error("WriteFile(FIFO): want an error")
		}
	})
	if data, err := h.ReadFile("/proc/meminfo"); err != nil || string(data) != "MemTotal: 1 kB\n" {
		t.Errorf("ordinary file: %q, %v", data, err)
	}
}

func TestReadFileRefusesOversizedFiles(t *testing.T) {
	root := fixture.Root(t, map[string]string{"/proc/cpuinfo": strings.Repeat("x", host.MaxReadBytes+1)})
	h := fixture.Open(t, root)
	if _, err := h.ReadFile("/proc/cpuinfo"); err == nil || !strings.Contains(err.Error(), "larger than 4 MiB") {
		t.Errorf("ReadFile of 4 MiB + 1: err = %v", err)
	}
	if b, err := h.ReadHead("/proc/cpuinfo", 10); err != nil || len(b) != 10 {
		t.Errorf("ReadHead = %d bytes, %v", len(b), err)
	}
}

func TestLiveRunOutputIsBounded(t *testing.T) {
	h, err := host.New("/")
	if err != nil {
		t.Fatal(err)
	}
	if !h.HasCommand("head") {
		t.Skip("no head(1)")
	}
	out, err := h.Run(context.Background(), "head", "-c", "17000000", "/dev/zero")
	if err == nil || len(out) > host.MaxCommandBytes {
		t.Errorf("Run of a 17 MB output: %d bytes, err %v", len(out), err)
	}
	if err != nil && !strings.Contains(err.Error(), "larger than 16 MiB") {
		t.Errorf("err = %v, want it to name the 16 MiB limit", err)
	}
}
