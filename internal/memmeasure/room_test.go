package memmeasure

import (
	"testing"

	"boardbench/internal/inventory"
	"boardbench/internal/testutil/fixture"
)

// TestWithinRoom checks the budget against fixture roots: a quarter of
// MemAvailable less boardbench's own mapped program, lowered to a quarter
// of the room under the tightest cgroup v2 memory limit (its own or an
// ancestor's), never raised; what is missing or malformed does not limit.
func TestWithinRoom(t *testing.T) {
	const M = 1 << 20
	mountinfo := "30 1 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n"
	meminfo := "MemTotal: 1024000 kB\nMemAvailable: 409600 kB\n" // 400 MiB
	status := "Name:\tboardbench\nVmRSS:\t   12000 kB\nRssAnon:\t    2760 kB\nRssFile:\t   10240 kB\n"
	cases := []struct {
		name  string
		files map[string]string
		want  int64
	}{
		{"no status, no cgroup", map[string]string{}, 100 * M},
		{"own program subtracted", map[string]string{"/proc/self/status": status}, (400*M - 10*M) / 4},
		{"cgroup v1 only", map[string]string{"/proc/self/cgroup": "4:memory:/x\n"}, 100 * M},
		{"cgroup without a limit", map[string]string{
			"/proc/self/cgroup": "0::/user.slice/s.scope\n", "/proc/self/mountinfo": mountinfo,
			"/sys/fs/cgroup/user.slice/s.scope/memory.max": "max\n", "/sys/fs/cgroup/user.slice/s.scope/memory.current": "1000\n",
		}, 100 * M},
		{"own cgroup limit lower", map[string]string{
			"/proc/self/cgroup": "0::/user.slice/s.scope\n", "/proc/self/mountinfo": mountinfo,
			"/sys/fs/cgroup/user.slice/s.scope/memory.max":     "134217728\n", // 128 MiB
			"/sys/fs/cgroup/user.slice/s.scope/memory.current": "33554432\n",  // 32 MiB
		}, 24 * M},
		{"ancestor's limit is the tightest", map[string]string{
			"/proc/self/cgroup": "0::/user.slice/s.scope\n", "/proc/self/mountinfo": mountinfo,
			"/sys/fs/cgroup/user.slice/s.scope/memory.max":     "max\n",
			"/sys/fs/cgroup/user.slice/s.scope/memory.current": "1000\n",
			"/sys/fs/cgroup/user.slice/memory.max":             "104857600\n", // 100 MiB
			"/sys/fs/cgroup/user.slice/memory.current":         "62914560\n",  // 60 MiB
		}, 10 * M},
		{"limit above MemAvailable does not raise", map[string]string{
			"/proc/self/cgroup": "0::/a\n", "/proc/self/mountinfo": mountinfo,
			"/sys/fs/cgroup/a/memory.max": "8589934592\n", "/sys/fs/cgroup/a/memory.current": "0\n",
		}, 100 * M},
		{"over the limit already", map[string]string{
			"/proc/self/cgroup": "0::/a\n", "/proc/self/mountinfo": mountinfo,
			"/sys/fs/cgroup/a/memory.max": "1048576\n", "/sys/fs/cgroup/a/memory.current": "2097152\n",
		}, 1},
		{"malformed limit ignored", map[string]string{
			"/proc/self/cgroup": "0::/a\n", "/proc/self/mountinfo": mountinfo,
			"/sys/fs/cgroup/a/memory.max": "lots\n", "/sys/fs/cgroup/a/memory.current": "0\n",
		}, 100 * M},
		{"no current, no limit", map[string]string{
			"/proc/self/cgroup": "0::/a\n", "/proc/self/mountinfo": mountinfo,
			"/sys/fs/cgroup/a/memory.max": "1048576\n",
		}, 100 * M},
		{"cgroup2 mounted elsewhere, subtree", map[string]string{
			"/proc/self/cgroup":                     "0::/lxc/c1/app\n",
			"/proc/self/mountinfo":                  "30 1 0:26 /lxc/c1 /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n",
			"/sys/fs/cgroup/unified/app/memory.max": "41943040\n", "/sys/fs/cgroup/unified/app/memory.current": "0\n",
		}, 10 * M},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"/proc/meminfo": meminfo}
			for k, v := range tc.files {
				files[k] = v
			}
			h := fixture.Host(t, files)
			info := inventory.Collect(h, inventory.Options{Redact: true})
			for _, p := range []Plan{RunPlan(true), CommandPlan(true)} {
				plan := p.ForMachine(info)
				if plan.BudgetBytes != 100*M {
					t.Fatalf("ForMachine: budget %d, want a quarter of MemAvailable", plan.BudgetBytes)
				}
				if got := plan.Within(ReadRoom(h)).BudgetBytes; got != tc.want {
					t.Errorf("budget %d bytes (%.2f MiB), want %d (%.2f MiB)", got, float64(got)/M, tc.want, float64(tc.want)/M)
				}
			}
		})
	}
}

// TestWithinUnknownAvailable: without MemAvailable the budget stays
// UnknownBudget's, but a tighter cgroup limit still lowers it.
func TestWithinUnknownAvailable(t *testing.T) {
	if got := (Plan{}).Within(Room{OwnFileBytes: 10 << 20}).BudgetBytes; got != 0 {
		t.Errorf("unknown MemAvailable, no cgroup: budget %d, want 0 (UnknownBudget)", got)
	}
	if got := (Plan{}).Within(Room{CgroupBytes: 64 << 20, CgroupLimited: true}).BudgetBytes; got != 16<<20 {
		t.Errorf("unknown MemAvailable, 64 MiB cgroup room: budget %d, want 16 MiB", got)
	}
	if got := (Plan{}).Within(Room{CgroupBytes: 1 << 30, CgroupLimited: true}).BudgetBytes; got != 0 {
		t.Errorf("unknown MemAvailable, 1 GiB cgroup room: budget %d, want 0 (UnknownBudget, 96 MiB)", got)
	}
}

// TestWithinFreeReserve: on a machine with little memory the budget never
// takes MemAvailable (less boardbench's own program) below FreeReserveBytes;
// above about 21 MB the quarter rule alone decides.
func TestWithinFreeReserve(t *testing.T) {
	const M = 1 << 20
	cases := []struct {
		name               string
		available, ownFile int64
		want               int64
	}{
		{"large machine: a quarter", 400 * M, 10 * M, 390 * M / 4},
		{"64 MB board, 40 MiB available: a quarter", 40 * M, 6 * M, 34 * M / 4},
		{"just above the reserve", 20 * M, 0, 20*M - FreeReserveBytes},
		{"VM with 18 MiB available and 6 MiB of program: smallest buffers", 18 * M, 6 * M, 1},
		{"own program larger than MemAvailable", 4 * M, 6 * M, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Plan{BudgetBytes: tc.available / 4}.Within(Room{OwnFileBytes: tc.ownFile}).BudgetBytes
			if got != tc.want {
				t.Errorf("budget %d bytes (%.2f MiB), want %d (%.2f MiB)", got, float64(got)/M, tc.want, float64(tc.want)/M)
			}
			if tc.want > 1 && tc.available-tc.ownFile-got < FreeReserveBytes {
				t.Errorf("budget %d leaves %d bytes, less than the reserve", got, tc.available-tc.ownFile-got)
			}
		})
	}
}
