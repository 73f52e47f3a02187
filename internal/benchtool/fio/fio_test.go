package fio

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"boardbench/internal/testutil/need"
)

func TestParse(t *testing.T) {
	out := `note: both iodepth >= 1 and synchronous I/O engine are selected
{"fio version": "fio-3.33", "jobs": [
 {"jobname": "seq_write_16m", "read": {"bw": 0, "iops": 0}, "write": {"bw": 512000, "iops": 31.25}},
 {"jobname": "seq_read_16m", "read": {"bw": 1024000, "iops": 62.5}, "write": {"bw": 0, "iops": 0}},
 {"jobname": "rand_read_4k", "read": {"bw": 40000, "iops": 10000}, "write": {"bw": 0, "iops": 0}},
 {"jobname": "other", "read": {"bw": 1, "iops": 1}, "write": {"bw": 0, "iops": 0}}]}`
	f, err := Parse([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if f.Version != "3.33" || len(f.Jobs) != 3 || f.Jobs[0].KBs != 512000 || f.Jobs[1].KBs != 1024000 || f.Jobs[2].IOPS != 10000 || f.Jobs[2].RecordKiB != 4 {
		t.Errorf("Parse = %+v", f)
	}
	for _, bad := range []string{"", "fio: error", `{"jobs": []}`, `{"jobs": [}`} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestArgs(t *testing.T) {
	a := strings.Join(Args(Config{FileBytes: 1 << 20, Runtime: 1500 * time.Millisecond}, "/x/f"), " ")
	for _, want := range []string{"fio ", "--direct=1", "--filename=/x/f", "--size=1048576", "--runtime=2", "--name=rand_write_4k --rw=randwrite --bs=4k"} {
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
	f, raw, err := Run(context.Background(), Config{Dir: dir, FileBytes: 32 << 20, Runtime: time.Second})
	if err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}
	if len(f.Jobs) != len(Jobs) {
		t.Fatalf("jobs %+v", f.Jobs)
	}
	for _, j := range f.Jobs {
		if j.KBs <= 0 || j.IOPS <= 0 {
			t.Errorf("job %+v not measured", j)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}
