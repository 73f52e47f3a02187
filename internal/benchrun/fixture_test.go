package benchrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/memmeasure"
	probeclock "boardbench/internal/probe/clock"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/stats"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/tools"
)

// bigLittle writes the fixture root of a big.LITTLE board: cpu0-3
// Cortex-A55 (policy0, up to 1800 MHz) and cpu4-5 Cortex-A76 (policy4, up
// to 2400 MHz), governors schedutil, a memory devfreq device "dmc" with the
// simple_ondemand governor, and writable tunables.
func bigLittle(t *testing.T) string {
	t.Helper()
	var cpuinfo strings.Builder
	for c := 0; c < 6; c++ {
		part := "0xd05"
		if c >= 4 {
			part = "0xd0b"
		}
		fmt.Fprintf(&cpuinfo, "processor\t: %d\nBogoMIPS\t: 48.00\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x2\nCPU part\t: %s\nCPU revision\t: 0\n\n", c, part)
	}
	const cpuDir = "sys/devices/system/cpu/"
	files := map[string]string{
		"proc/cpuinfo":                              cpuinfo.String(),
		"proc/loadavg":                              "0.02 0.05 0.01 1/100 1234\n",
		"proc/meminfo":                              "MemTotal:        4000000 kB\nMemAvailable:    3000000 kB\nSwapTotal:             0 kB\nSwapFree:              0 kB\n",
		cpuDir + "possible":                         "0-5\n",
		cpuDir + "present":                          "0-5\n",
		cpuDir + "online":                           "0-5\n",
		"sys/class/devfreq/dmc/governor":            "simple_ondemand\n",
		"sys/class/devfreq/dmc/available_governors": "userspace powersave performance simple_ondemand\n",
		"sys/class/devfreq/dmc/min_freq":            "528000000\n",
		"sys/class/devfreq/dmc/max_freq":            "2112000000\n",
	}
	for c := 0; c < 6; c++ {
		files[fmt.Sprintf("%scpu%d/topology/physical_package_id", cpuDir, c)] = fmt.Sprintf("%d\n", c/4)
	}
	root := fixture.Root(t, files)
	var policies []fixture.Policy
	for _, pol := range []struct {
		id   int
		cpus []int
		max  string
	}{{0, []int{0, 1, 2, 3}, "1800000"}, {4, []int{4, 5}, "2400000"}} {
		list := strings.Trim(fmt.Sprint(pol.cpus), "[]")
		policies = append(policies, fixture.Policy{ID: pol.id, CPUs: pol.cpus, Attrs: map[string]string{
			"scaling_governor":              "schedutil\n",
			"scaling_available_governors":   "conservative ondemand userspace powersave performance schedutil\n",
			"scaling_min_freq":              "408000\n",
			"scaling_max_freq":              pol.max + "\n",
			"scaling_cur_freq":              pol.max + "\n",
			"cpuinfo_min_freq":              "408000\n",
			"cpuinfo_max_freq":              pol.max + "\n",
			"related_cpus":                  list + "\n",
			"affected_cpus":                 list + "\n",
			"scaling_driver":                "cpufreq-dt\n",
			"scaling_available_frequencies": "408000 1008000 " + pol.max + "\n",
		}})
	}
	fixture.CPUFreq(t, root, policies...)
	return root
}

// sevenZipOutput is a 7-Zip 26.02 benchmark output with the given total
// rating, for the threads of its -mmtN argument (usage 100 % for one
// thread, 95 % of threads × 100 % for more).
func sevenZipOutput(tot int, args ...string) string {
	usage := 100
	for _, a := range args {
		if n, err := strconv.Atoi(strings.TrimPrefix(a, "-mmt")); err == nil && strings.HasPrefix(a, "-mmt") && n > 1 {
			usage = 95 * n
		}
	}
	return strings.Replace(sevenZipText(tot), "Tot:             100", fmt.Sprintf("Tot:             %d", usage), 1)
}

func sevenZipText(tot int) string {
	return fmt.Sprintf(strings.ReplaceAll(`
7-Zip (z) 26.02 (arm64) : Copyright (c) 1999-2026 Igor Pavlov : 2026-06-25
 64-bit locale=C.UTF-8 Threads:6 OPEN_MAX:20000

RAM size:    3906 MB,  # CPU hardware threads:   6
RAM usage:    882 MB,  # Benchmark threads:      6

                       Compressing  |                  Decompressing
Dict     Speed Usage    R/U Rating  |      Speed Usage    R/U Rating
         KiB/s     %   MIPS   MIPS  |      KiB/s     %   MIPS   MIPS

22:       6299   100   5597   5612  |      34815   100   2822   2815
----------------------------------  | ------------------------------
Avr:      6299   100   %d   %d  |      34815   100   %d   %d
Tot:             100   %d   %d
`, "%   M", "%%   M"), tot+100, tot+100, tot-100, tot-100, tot, tot)
}

// opensslOutput is an OpenSSL 3 speed table for cipher, KB/s = base × size
// factor.
func opensslOutput(cipher string, base float64) string {
	return fmt.Sprintf(`version: 3.0.19
The 'numbers' are in 1000s of bytes per second processed.
type             16 bytes     64 bytes    256 bytes   1024 bytes   8192 bytes  16384 bytes
%s     %.2fk   %.2fk   %.2fk  %.2fk  %.2fk   %.2fk
`, strings.ToUpper(cipher), base*0.5, base*0.9, base, base, base, base)
}

// cryptsetupOutput is cryptsetup 2.x's table for `benchmark -c CIPHER -s
// BITS`: encryption at 60 MiB/s with 256-bit keys and 50 with 512-bit keys,
// ten times that on cpu4 and up; decryption 1 MiB/s faster.
func cryptsetupOutput(c proc.Command) string {
	bits := c.Args[len(c.Args)-1]
	enc := 60.0
	if bits == "512" {
		enc = 50
	}
	if len(c.CPUs) == 1 && c.CPUs[0] >= 4 {
		enc *= 10
	}
	return fmt.Sprintf("# Tests are approximate using memory only (no storage IO).\n# Algorithm |       Key |      Encryption |      Decryption\n    aes-xts        %sb  %10.1f MiB/s  %10.1f MiB/s\n", bits, enc, enc+1)
}

// fakeExec answers 7-Zip, openssl and cryptsetup commands with canned outputs. hook,
// when set, runs first for every call (n counts from 1) and may answer it.
type fakeExec struct {
	mu    sync.Mutex
	calls []proc.Command
	// sevenZip returns the total rating of the n-th 7-Zip call.
	sevenZip func(n int) int
	hook     func(ctx context.Context, n int, c proc.Command) (proc.Result, error, bool)
	nZip     int
}

func (f *fakeExec) Exec(ctx context.Context, c proc.Command) (proc.Result, error) {
	f.mu.Lock()
	f.calls = append(f.calls, c)
	n := len(f.calls)
	isZip := strings.Contains(c.Name, "7z")
	if isZip {
		f.nZip++
	}
	nz := f.nZip
	f.mu.Unlock()
	if f.hook != nil {
		if res, err, ok := f.hook(ctx, n, c); ok {
			return res, err
		}
	}
	if err := ctx.Err(); err != nil {
		return proc.Result{Exit: proc.Exit{Code: 143, Signal: "SIGTERM", Canceled: true}}, err
	}
	if strings.Contains(c.Name, "cryptsetup") {
		return proc.Result{Stdout: []byte(cryptsetupOutput(c))}, nil
	}
	if isZip {
		tot := 4000
		if f.sevenZip != nil {
			tot = f.sevenZip(nz)
		}
		return proc.Result{Stdout: []byte(sevenZipOutput(tot, c.Args...))}, nil
	}
	cipher := c.Args[len(c.Args)-1]
	base := 100000.0
	if len(c.CPUs) == 1 && c.CPUs[0] >= 4 {
		base = 250000
	}
	return proc.Result{Stdout: []byte(opensslOutput(cipher, base))}, nil
}

func (f *fakeExec) count(name string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		if strings.Contains(c.Name, name) {
			n++
		}
	}
	return n
}

// fakeClock measures every CPU at its policy's scaling_max_freq (read from
// the fixture), 1% low.
func fakeClock(root string) func(ctx context.Context, cpu int, opt probeclock.Options) (probeclock.Result, error) {
	return func(ctx context.Context, cpu int, opt probeclock.Options) (probeclock.Result, error) {
		if err := ctx.Err(); err != nil {
			return probeclock.Result{}, err
		}
		pol := 0
		if cpu >= 4 {
			pol = 4
		}
		raw, err := os.ReadFile(filepath.Join(root, fmt.Sprintf("sys/devices/system/cpu/cpufreq/policy%d/scaling_max_freq", pol)))
		if err != nil {
			return probeclock.Result{}, err
		}
		var khz float64
		fmt.Sscanf(strings.TrimSpace(string(raw)), "%g", &khz)
		mhz := khz / 1000 * 0.99
		return probeclock.Result{CPU: cpu, MHz: mhz, Summary: stats.Summarize([]float64{mhz}), Method: "asm-test", Certain: true}, nil
	}
}

// fakeMemory returns fixed figures, faster on the big cores.
func fakeMemory(ctx context.Context, h *host.Host, cpu int, core string, plan memmeasure.Plan) (result.MemFigures, error) {
	if err := ctx.Err(); err != nil {
		return result.MemFigures{}, err
	}
	v := 3000.0
	if cpu >= 4 {
		v = 6000
	}
	cp, set := v, 2*v
	return result.MemFigures{CPU: cpu, Core: core, MemBandwidth: result.MemBandwidth{MemcpyMBs: &cp, MemsetMBs: &set},
		Latency: []result.LatencyRow{{SizeBytes: 1024, NS: f64(1.5)}}}, nil
}

// fakeTools returns a 7-Zip and an openssl that exist only for fakeExec.
func fakeTools(ctx context.Context, h *host.Host, allow bool) ToolSet {
	return ToolSet{
		SevenZip: &tools.Tool{Name: "7zz", Path: "/usr/bin/7zz", Version: "26.02", Flavor: tools.FlavorSevenZip,
			ComparableReason: "7-Zip 26.02 is not 16.02"},
		OpenSSL: &tools.Tool{Name: "openssl", Path: "/usr/bin/openssl", Version: "3.0.19", Flavor: tools.FlavorOpenSSL, Comparable: true},
	}
}

// fixtureConfig returns a Config running fake benchmarks on root as root.
func fixtureConfig(t *testing.T, root string, ex *fakeExec) Config {
	t.Helper()
	h := fixture.Open(t, root)
	yes := true
	return Config{
		Host: h, IsRoot: &yes, Allowed: []int{0, 1, 2, 3, 4, 5},
		Pin:  func(int) error { return nil },
		Exec: ex, Clock: fakeClock(root), Memory: fakeMemory, FindTools: fakeTools,
	}
}

// errKilled is what the process runner returns for a SIGKILL it did not send.
var errKilled = &proc.ExitError{Command: "7zz b", Exit: proc.SignalExit(syscall.SIGKILL)}
