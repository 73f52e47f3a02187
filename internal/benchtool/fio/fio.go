// Package fio runs fio with exactly the patterns boardbench's storage test
// measured (same record size, same region, same number of bytes, O_DIRECT,
// psync, one request at a time, a fresh file written with the same records
// before it is read) and parses its JSON output into figures next to
// boardbench's own.
package fio

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/storagebench"
)

// Pattern is one fio job of the comparison and the boardbench cell it
// mirrors.
type Pattern struct {
	Name      string
	RW        string // fio's rw=
	RecordKiB int
	// Test is the storagebench test of the mirrored cell.
	Test string
}

// Patterns are the jobs in the order they run. The jobs of one record size
// share a fresh file that the first one writes, as boardbench's write cell
// writes the file its other cells then use: write_4k lays out the file the
// 4 KiB random jobs read and write with 4 KiB records, as iozone's table does.
var Patterns = []Pattern{
	{"seq_write_16m", "write", 16384, storagebench.TestWrite},
	{"seq_read_16m", "read", 16384, storagebench.TestRead},
	{"write_4k", "write", 4, storagebench.TestWrite},
	{"rand_read_4k", "randread", 4, storagebench.TestRandomRead},
	{"rand_write_4k", "randwrite", 4, storagebench.TestRandomWrite},
}

// Job is a Pattern sized after a measured cell.
type Job struct {
	Pattern
	// SizeBytes is the region (the extent boardbench's write cell wrote);
	// IOBytes what the job moves (what the mirrored cell moved).
	SizeBytes, IOBytes int64
	// BoardbenchKBs is the mirrored cell's figure in kB/s.
	BoardbenchKBs float64
}

// Plan returns the fio jobs that mirror figs' cells. A pattern whose cells
// were not measured is left out; an error when none is left.
func Plan(figs result.StorageFigures) ([]Job, error) {
	cell := func(rec int, test string) *result.StorageCell {
		for i := range figs.Cells {
			c := &figs.Cells[i]
			if c.RecordKiB == rec && c.Test == test && c.Error == "" && c.Bytes > 0 && c.Seconds > 0 {
				return c
			}
		}
		return nil
	}
	var jobs []Job
	for _, p := range Patterns {
		w, c := cell(p.RecordKiB, storagebench.TestWrite), cell(p.RecordKiB, p.Test)
		if w == nil || c == nil {
			continue
		}
		// The region the cell addressed: the whole read file for the read
		// and random cells (older results: what write wrote).
		size := w.Bytes
		if c.Test != storagebench.TestWrite && c.RegionBytes > 0 {
			size = c.RegionBytes
		}
		jobs = append(jobs, Job{Pattern: p, SizeBytes: size, IOBytes: c.Bytes, BoardbenchKBs: float64(c.Bytes) / 1024 / c.Seconds})
	}
	if len(jobs) == 0 {
		return nil, errors.New("the storage test measured none of the cells fio would repeat")
	}
	return jobs, nil
}

// Config is one fio run.
type Config struct {
	// Binary is fio's path or name ("" means "fio").
	Binary string
	// Dir holds the temporary files.
	Dir string
	// Jobs are the jobs to run (from Plan).
	Jobs []Job
}

// Args returns fio's command line; prefix names the test files
// (prefix-16384k, prefix-4k).
func Args(cfg Config, prefix string) []string {
	bin := cfg.Binary
	if bin == "" {
		bin = "fio"
	}
	// fallocate=none: the write job extends a sparse file as boardbench's
	// write cell extends its new file; norandommap: offsets drawn
	// uniformly with repeats, as boardbench draws them; end_fsync: the
	// write jobs end with a flush, as boardbench's write cells do.
	args := []string{bin, "--output-format=json", "--direct=1", "--ioengine=psync", "--iodepth=1",
		"--fallocate=none", "--norandommap", "--randrepeat=0", "--end_fsync=1"}
	for _, j := range cfg.Jobs {
		args = append(args, "--name="+j.Name, "--filename="+fileFor(prefix, j.RecordKiB), "--rw="+j.RW,
			fmt.Sprintf("--bs=%dk", j.RecordKiB), "--size="+strconv.FormatInt(j.SizeBytes, 10),
			"--io_size="+strconv.FormatInt(j.IOBytes, 10), "--stonewall")
	}
	return args
}

func fileFor(prefix string, rec int) string { return fmt.Sprintf("%s-%dk", prefix, rec) }

// Run runs fio in cfg.Dir and returns its figures and raw JSON; the test
// files are removed on every path.
func Run(ctx context.Context, cfg Config) (result.StorageFioFigures, []byte, error) {
	if len(cfg.Jobs) == 0 {
		return result.StorageFioFigures{}, nil, errors.New("no fio jobs")
	}
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	prefix := filepath.Join(cfg.Dir, ".boardbench-fio-"+hex.EncodeToString(rnd[:]))
	for _, j := range cfg.Jobs {
		defer os.Remove(fileFor(prefix, j.RecordKiB))
	}
	exit, out, err := proc.Run(ctx, proc.Spec{Argv: Args(cfg, prefix), CaptureLimit: 4 << 20})
	if err != nil {
		return result.StorageFioFigures{}, out, err
	}
	if ctx.Err() != nil {
		return result.StorageFioFigures{}, out, context.Cause(ctx)
	}
	if exit.Code != 0 {
		return result.StorageFioFigures{}, out, fmt.Errorf("fio exited with status %d: %s", exit.Code, lastLine(out))
	}
	figs, err := Parse(out, cfg.Jobs)
	return figs, out, err
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

type report struct {
	Version string `json:"fio version"`
	Jobs    []struct {
		Name  string `json:"jobname"`
		Read  side   `json:"read"`
		Write side   `json:"write"`
	} `json:"jobs"`
}

type side struct {
	Bytes int64   `json:"io_bytes"`
	BW    float64 `json:"bw"` // KiB/s
	IOPS  float64 `json:"iops"`
}

// Parse reads fio's JSON output (text before the JSON, such as warnings,
// is skipped) and keeps the jobs of the plan, with boardbench's figure of
// each next to fio's.
func Parse(out []byte, jobs []Job) (result.StorageFioFigures, error) {
	i := bytes.IndexByte(out, '{')
	if i < 0 {
		return result.StorageFioFigures{}, errors.New("fio wrote no JSON")
	}
	var r report
	if err := json.Unmarshal(out[i:], &r); err != nil {
		return result.StorageFioFigures{}, fmt.Errorf("fio's JSON: %w", err)
	}
	figs := result.StorageFioFigures{Version: strings.TrimPrefix(r.Version, "fio-"), Jobs: []result.StorageFioJob{}}
	for _, j := range r.Jobs {
		for _, want := range jobs {
			if want.Name != j.Name {
				continue
			}
			s := j.Read
			if strings.Contains(want.RW, "write") {
				s = j.Write
			}
			bb := want.BoardbenchKBs
			figs.Jobs = append(figs.Jobs, result.StorageFioJob{Name: j.Name, RecordKiB: want.RecordKiB, Test: want.Test,
				SizeBytes: want.SizeBytes, Bytes: s.Bytes, KBs: s.BW, IOPS: s.IOPS, BoardbenchKBs: &bb})
		}
	}
	if len(figs.Jobs) == 0 {
		return figs, errors.New("fio's JSON holds none of the expected jobs")
	}
	return figs, nil
}
