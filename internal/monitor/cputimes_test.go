package monitor

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"boardbench/internal/host"
)

// TestLastCPUTimes checks that the times are those of the latest reading
// of /proc/stat, and absent before any.
func TestLastCPUTimes(t *testing.T) {
	root := t.TempDir()
	write := func(stat string) {
		if err := os.MkdirAll(filepath.Join(root, "proc"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "proc", "stat"), []byte(stat), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("cpu  300 0 100 1000 0 0 0 0 0 0\ncpu0 200 0 50 500 0 0 0 0 0 0\ncpu1 100 0 50 500 0 0 0 0 0 0\n")
	h, err := host.New(root)
	if err != nil {
		t.Fatal(err)
	}
	m := New(h, Config{})
	if _, ok := m.LastCPUTimes(); ok {
		t.Error("times before any reading")
	}
	m.baseline()
	per, ok := m.LastCPUTimes()
	if !ok || len(per) != 2 || per[0].User != 200 || per[1].Idle != 500 {
		t.Fatalf("after the baseline: %+v %v", per, ok)
	}
	write("cpu  500 0 100 1200 0 0 0 0 0 0\ncpu0 350 0 50 600 0 0 0 0 0 0\ncpu1 150 0 50 600 0 0 0 0 0 0\n")
	m.SampleNow(context.Background())
	if per, _ := m.LastCPUTimes(); per[0].User != 350 || per[1].Idle != 600 {
		t.Errorf("after a sample: %+v", per)
	}
}
