package monitor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardbench/internal/inventory"
	"boardbench/internal/testutil/fixture"
)

// statLine returns /proc/stat with an aggregate line and cpu0 and cpu1
// lines sharing its times (in ticks).
func statLine(user, sys, idle, steal uint64) string {
	line := func(name string, div uint64) string {
		return fmt.Sprintf("%s %d 0 %d %d 0 0 0 %d 0 0\n", name, user/div, sys/div, idle/div, steal/div)
	}
	return line("cpu ", 1) + line("cpu0", 2) + line("cpu1", 2)
}

// pidStat returns a /proc/PID/stat line with the given CPU times.
func pidStat(pid int, utime, stime, cutime, cstime uint64) string {
	return fmt.Sprintf("%d (7zz) R 1 %d 1 0 -1 4194304 0 0 0 0 %d %d %d %d 20 0 3 0 100 0 0\n", pid, pid, utime, stime, cutime, cstime)
}

// TestWindowStartsAtBegin checks that a window's percentages cover the
// window only: a busy machine before Begin (the tail of a heavy phase) is
// not in the new window's samples, and the first sample carries no
// percentages at all.
func TestWindowStartsAtBegin(t *testing.T) {
	root := t.TempDir()
	fixture.Write(t, root, "/proc/stat", statLine(0, 0, 0, 0))
	h := fixture.Open(t, root)
	m := New(h, Config{})
	ctx := context.Background()
	m.baseline() // what Run does when it starts
	// A heavy phase ran: both CPUs busy for 10 s, then nothing was sampled.
	fixture.Write(t, root, "/proc/stat", statLine(2000, 0, 0, 0))
	w := m.Begin(ctx, "clock-after-load")
	// The window itself: 1 s, one CPU busy.
	fixture.Write(t, root, "/proc/stat", statLine(2100, 0, 100, 0))
	ev := w.End(ctx)
	if len(ev.Samples) != 2 {
		t.Fatalf("samples = %d, want 2", len(ev.Samples))
	}
	if first := ev.Samples[0]; first.CPUPct != nil || first.SysPct != nil {
		t.Errorf("first sample has percentages (%v), which would cover time before the window", *first.CPUPct)
	}
	if last := ev.Samples[1]; last.CPUPct == nil || *last.CPUPct != 50 {
		t.Errorf("last sample CPU = %v, want 50 (the window only)", last.CPUPct)
	}
}

// TestStealAndWork checks steal time and the CPU time of watched
// processes: a benchmark started under the monitor, one that exits between
// samples (its final time comes from Exited), and boardbench itself.
func TestStealAndWork(t *testing.T) {
	root := t.TempDir()
	fixture.Write(t, root, "/proc/stat", statLine(1000, 0, 1000, 0))
	fixture.Write(t, root, "/proc/900/stat", pidStat(900, 500, 20, 0, 0))
	h := fixture.Open(t, root)
	m := New(h, Config{Steal: true})
	ctx := context.Background()
	m.WatchSelf(900) // boardbench: 520 ticks before, not counted
	w := m.Begin(ctx, "7zip-single")
	m.Started(4242)
	// 2 s on 2 CPUs (400 ticks): 7zz used 90 ticks, boardbench 2, 110
	// ticks went elsewhere and the hypervisor stole 20.
	fixture.Write(t, root, "/proc/4242/stat", pidStat(4242, 85, 5, 0, 0))
	fixture.Write(t, root, "/proc/900/stat", pidStat(900, 501, 21, 0, 0))
	fixture.Write(t, root, "/proc/stat", statLine(1200, 0, 1180, 20))
	s1 := m.SampleNow(ctx)
	if s1.WorkPct == nil || *s1.WorkPct != 23 {
		t.Errorf("work = %v, want 23%% (92 of 400 ticks)", s1.WorkPct)
	}
	if s1.StealPct == nil || *s1.StealPct != 5 {
		t.Errorf("steal = %v, want 5%%", s1.StealPct)
	}
	// 7zz exits after 150 ticks in all and disappears from /proc before
	// the next sample: the 60 ticks since the last reading still count.
	if err := os.Remove(filepath.Join(root, "proc/4242/stat")); err != nil {
		t.Fatal(err)
	}
	m.Exited(4242, 1500*time.Millisecond)
	fixture.Write(t, root, "/proc/stat", statLine(1300, 0, 1480, 20))
	ev := w.End(ctx)
	last := ev.Samples[len(ev.Samples)-1]
	if last.WorkPct == nil || *last.WorkPct != 15 {
		t.Errorf("work after exit = %v, want 15%% (60 of 400 ticks)", last.WorkPct)
	}
	if last.StealPct == nil || *last.StealPct != 0 {
		t.Errorf("steal = %v, want 0", last.StealPct)
	}
	line := Line(Columns{Steal: true}, s1)
	if !strings.Contains(Header(Columns{Steal: true}), "%steal") || !strings.Contains(line, "    5%") {
		t.Errorf("steal column missing:\n%s\n%s", Header(Columns{Steal: true}), line)
	}
	if strings.Contains(Header(Columns{}), "steal") {
		t.Error("steal column shown without Columns.Steal")
	}
}

// TestNoWorkWithoutWatch checks that WorkPct stays nil when nothing is
// watched: rules then fall back to the machine's total.
func TestNoWorkWithoutWatch(t *testing.T) {
	root := t.TempDir()
	fixture.Write(t, root, "/proc/stat", statLine(0, 0, 0, 0))
	m := New(fixture.Open(t, root), Config{})
	w := m.Begin(context.Background(), "x")
	fixture.Write(t, root, "/proc/stat", statLine(100, 0, 100, 0))
	ev := w.End(context.Background())
	if s := ev.Samples[1]; s.WorkPct != nil || s.CPUPct == nil {
		t.Errorf("sample = %+v", s)
	}
}

// TestStealColumnOnVMFixture: the KVM cloud guest (hypervisor flag, DMI,
// steal time in /proc/stat) gets the steal column; a board does not.
func TestStealColumnOnVMFixture(t *testing.T) {
	for _, c := range []struct {
		board string
		steal bool
	}{{"cloud-vm-kvm", true}, {"rock5b", false}} {
		h := fixture.Board(t, c.board)
		cfg := ConfigFor(h, inventory.Collect(h, inventory.Options{}))
		if cfg.Steal != c.steal || strings.Contains(Header(cfg.Columns()), "%steal") != c.steal {
			t.Errorf("%s: steal column = %v, want %v (header %q)", c.board, cfg.Steal, c.steal, Header(cfg.Columns()))
		}
	}
}
