package fio

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// TestEscapeFilename: fio splits --filename at ':'; a ':' is escaped.
func TestEscapeFilename(t *testing.T) {
	jobs, _ := Plan(cells())
	a := strings.Join(Args(Config{Jobs: jobs}, "d/2024-01-01T10:00"), " ")
	if !strings.Contains(a, `--filename=d/2024-01-01T10\:00-16384k `) {
		t.Errorf("args %q lack the escaped name", a)
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
		if (j.QueueDepth > 0) != (j.ClatP50Us != nil && j.BoardbenchP50Us != nil) || j.QueueDepth != jobs[i].QueueDepth {
			t.Errorf("%s: queue depth %d, fio p50 %v, boardbench p50 %v", j.Name, j.QueueDepth, j.ClatP50Us, j.BoardbenchP50Us)
		}
		if j.Bytes != jobs[i].IOBytes {
			t.Errorf("%s moved %d bytes, boardbench's cell %d", j.Name, j.Bytes, jobs[i].IOBytes)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}

// smallJobs are two 4 KiB jobs over a 1 MiB file: enough for fio to write
// and read a file of its own.
func smallJobs() []Job {
	return []Job{
		{Pattern: Patterns[2], SizeBytes: 1 << 20, IOBytes: 1 << 20, BoardbenchKBs: 1},
		{Pattern: Patterns[3], SizeBytes: 1 << 20, IOBytes: 1 << 20, BoardbenchKBs: 1},
	}
}

// TestRunColonInPath: fio reads ':' in --filename as a list separator, so
// a directory named like a time stamp made it write a sibling of the
// directory (DIR/2024-01-01T10 for DIR/2024-01-01T10:00). fio must write
// only its own files, inside the directory, and remove them.
func TestRunColonInPath(t *testing.T) {
	if _, err := exec.LookPath("fio"); err != nil {
		need.Missing(t, "fio is not installed (apt install fio)")
	}
	for _, name := range []string{"2024-01-01T10:00", "t:x", `back\slash:`, "-leading dash", "sp ace"} {
		parent := t.TempDir()
		dir := filepath.Join(parent, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		siblings := map[string]string{
			filepath.Join(parent, "2024-01-01T10"): "keep 1",
			filepath.Join(parent, "t"):             "keep 2",
			filepath.Join(dir, "own"):              "keep 3",
		}
		for p, c := range siblings {
			if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		figs, raw, err := Run(context.Background(), Config{Dir: dir, Jobs: smallJobs()})
		if err != nil || len(figs.Jobs) != 2 {
			t.Errorf("%q: %v, %d jobs\n%s", name, err, len(figs.Jobs), raw)
		}
		for p, c := range siblings {
			if b, err := os.ReadFile(p); err != nil || string(b) != c {
				t.Errorf("%q: %s holds %d bytes, %v; want %q untouched", name, p, len(b), err, c)
			}
		}
		for _, d := range []string{parent, dir} {
			ents, _ := os.ReadDir(d)
			for _, e := range ents {
				if p := filepath.Join(d, e.Name()); p != dir && siblings[p] == "" {
					t.Errorf("%q: left behind %s", name, p)
				}
			}
		}
	}
}

// fakeFio writes a shell script standing in for fio: body runs first, then
// it prints a minimal JSON report and exits with code.
func fakeFio(t *testing.T, body string, code int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fio")
	script := "#!/bin/sh\n" + body + "\n" +
		`echo '{"fio version": "fio-3.0", "jobs": [{"jobname": "write_4k", "write": {"io_bytes": 1048576, "bw": 100, "iops": 25}}, {"jobname": "rand_read_4k", "read": {"io_bytes": 1048576, "bw": 100, "iops": 25}}]}'` +
		fmt.Sprintf("\nexit %d\n", code)
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRunChecksTheDirectory: a non-zero exit is an error even with JSON
// on stdout, and a file fio created or changed in the directory besides
// its own is named in the error.
func TestRunChecksTheDirectory(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		code       int
		want       string
	}{
		{"exit 5", "", 5, "fio exited with status 5"},
		{"created", "echo x > stray", 0, "stray"},
		{"changed", "echo more >> own", 0, "own"},
		{"clean", "", 0, ""},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "own"), []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := Run(context.Background(), Config{Binary: fakeFio(t, tc.body, tc.code), Dir: dir, Jobs: smallJobs()})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one naming %q", tc.name, err, tc.want)
		}
	}
}

// TestLatencyJobs: a latency cell gives a libaio job at its depth over the
// read file, and fio's clat percentiles are read in microseconds.
func TestLatencyJobs(t *testing.T) {
	figs := cells()
	kbs, p50 := 4000.0, 250.0
	figs.FileBytes = 8 << 20
	figs.Latency = []result.StorageLatency{
		{Test: storagebench.TestRandomRead, RecordKiB: 4, QueueDepth: 32, Ops: 1000, KBs: &kbs, P50Us: &p50},
		{Test: storagebench.TestRandomWrite, RecordKiB: 4, QueueDepth: 1, Error: "interrupted"},
	}
	jobs, err := Plan(figs)
	if err != nil {
		t.Fatal(err)
	}
	last := jobs[len(jobs)-1]
	if last.Name != "rand_read_4k_qd32" || last.SizeBytes != 8<<20 || last.IOBytes != 1000*4096 || last.Latency == nil {
		t.Fatalf("jobs %+v", jobs)
	}
	a := strings.Join(Args(Config{Jobs: jobs}, "f"), " ")
	if !strings.Contains(a, "--name=rand_read_4k_qd32 --filename=f-4k --rw=randread --bs=4k --size=8388608 --io_size=4096000 --stonewall --ioengine=libaio --iodepth=32") {
		t.Errorf("args %q", a)
	}
	out := `{"fio version": "fio-3.33", "jobs": [{"jobname": "rand_read_4k_qd32", "read": {"io_bytes": 4096000, "bw": 3900, "iops": 975,
	  "clat_ns": {"max": 9000000, "percentile": {"50.000000": 240000, "99.000000": 1200000, "99.900000": 5000000}}}, "write": {}}]}`
	f, err := Parse([]byte(out), jobs)
	if err != nil {
		t.Fatal(err)
	}
	j := f.Jobs[0]
	if j.QueueDepth != 32 || j.ClatP50Us == nil || *j.ClatP50Us != 240 || *j.ClatP99Us != 1200 || *j.ClatP999Us != 5000 || j.BoardbenchP50Us == nil || *j.BoardbenchP50Us != 250 {
		t.Errorf("parsed %+v", j)
	}
}
