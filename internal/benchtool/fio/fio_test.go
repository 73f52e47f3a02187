package fio

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"boardbench/internal/result"
	"boardbench/internal/storagebench"
	"boardbench/internal/testutil/need"
)

// cells is a measured table's cells for the 16 MiB and 4 KiB rows.
func cells() result.StorageFigures {
	c := func(rec int, test string, bytes int64, secs float64) result.StorageCell {
		return result.StorageCell{RecordKiB: rec, Test: test, Bytes: bytes, Ops: bytes / int64(rec<<10), Seconds: secs}
	}
	return result.StorageFigures{Cells: []result.StorageCell{
		c(16384, storagebench.TestWrite, 64<<20, 0.5), c(16384, storagebench.TestRead, 48<<20, 0.25),
		c(4, storagebench.TestWrite, 8<<20, 1), c(4, storagebench.TestRandomRead, 4<<20, 1),
		{RecordKiB: 4, Test: storagebench.TestRandomWrite, Error: "input/output error"},
	}}
}

func TestPlan(t *testing.T) {
	jobs, err := Plan(cells())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, j := range jobs {
		got = append(got, j.Name)
	}
	// rand_write_4k's cell failed: no job repeats it.
	if strings.Join(got, " ") != "seq_write_16m seq_read_16m write_4k rand_read_4k" {
		t.Fatalf("jobs %v", got)
	}
	if j := jobs[1]; j.SizeBytes != 64<<20 || j.IOBytes != 48<<20 || j.BoardbenchKBs != 48*1024/0.25 {
		t.Errorf("seq_read_16m = %+v: want the write's extent, the read's bytes and figure", j)
	}
	if j := jobs[3]; j.SizeBytes != 8<<20 || j.IOBytes != 4<<20 || j.RW != "randread" {
		t.Errorf("rand_read_4k = %+v", j)
	}
	if _, err := Plan(result.StorageFigures{}); err == nil {
		t.Error("Plan of nothing measured gave jobs")
	}
}

func TestParse(t *testing.T) {
	jobs, _ := Plan(cells())
	out := `note: both iodepth >= 1 and synchronous I/O engine are selected
{"fio version": "fio-3.33", "jobs": [
 {"jobname": "seq_write_16m", "read": {"bw": 0, "iops": 0}, "write": {"io_bytes": 67108864, "bw": 512000, "iops": 31.25}},
 {"jobname": "seq_read_16m", "read": {"io_bytes": 50331648, "bw": 1024000, "iops": 62.5}, "write": {"bw": 0, "iops": 0}},
 {"jobname": "rand_read_4k", "read": {"bw": 40000, "iops": 10000}, "write": {"bw": 0, "iops": 0}},
 {"jobname": "other", "read": {"bw": 1, "iops": 1}, "write": {"bw": 0, "iops": 0}}]}`
	f, err := Parse([]byte(out), jobs)
	if err != nil {
		t.Fatal(err)
	}
	if f.Version != "3.33" || len(f.Jobs) != 3 || f.Jobs[0].KBs != 512000 || f.Jobs[1].KBs != 1024000 || f.Jobs[2].IOPS != 10000 || f.Jobs[2].RecordKiB != 4 {
		t.Errorf("Parse = %+v", f)
	}
	if j := f.Jobs[1]; j.Bytes != 48<<20 || j.Test != storagebench.TestRead || j.BoardbenchKBs == nil || *j.BoardbenchKBs != 48*1024/0.25 {
		t.Errorf("seq_read_16m = %+v", j)
	}
	for _, bad := range []string{"", "fio: error", `{"jobs": []}`, `{"jobs": [}`} {
		if _, err := Parse([]byte(bad), jobs); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestArgs(t *testing.T) {
	jobs, _ := Plan(cells())
	a := strings.Join(Args(Config{Jobs: jobs}, "/x/f"), " ")
	for _, want := range []string{"fio ", "--direct=1", "--ioengine=psync", "--fallocate=none", "--norandommap", "--end_fsync=1",
		"--name=seq_read_16m --filename=/x/f-16384k --rw=read --bs=16384k --size=67108864 --io_size=50331648 --stonewall",
		"--name=rand_read_4k --filename=/x/f-4k --rw=randread --bs=4k --size=8388608 --io_size=4194304"} {
		if !strings.Contains(a, want) {
			t.Errorf("args %q lack %q", a, want)
		}
	}
}

func TestRunRealFio(t *testing.T) {
	if _, err := exec.LookPath("fio"); err != nil {
		need.Missing(t, "fio is not installed (apt install fio)")
	}
	dir := t.TempDir()
	figs, err := storagebench.Run(context.Background(), storagebench.Config{Dir: dir, FileBytes: storagebench.MinFileBytes,
		RecordsKiB: []int{4, 16384}, CellLimit: 50_000_000})
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := Plan(figs)
	if err != nil {
		t.Fatal(err)
	}
	f, raw, err := Run(context.Background(), Config{Dir: dir, Jobs: jobs})
	if err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}
	if len(f.Jobs) != len(Patterns) {
		t.Fatalf("jobs %+v", f.Jobs)
	}
	for i, j := range f.Jobs {
		if j.KBs <= 0 || j.IOPS <= 0 {
			t.Errorf("job %+v not measured", j)
		}
		if j.Bytes != jobs[i].IOBytes {
			t.Errorf("%s moved %d bytes, boardbench's cell %d", j.Name, j.Bytes, jobs[i].IOBytes)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}
