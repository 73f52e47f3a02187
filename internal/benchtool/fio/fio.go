// Package fio runs fio with the patterns of boardbench's storage test
// (sequential 16 MiB records, random 4 KiB records, O_DIRECT, one request at
// a time) and parses its JSON output into figures next to boardbench's own.
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
	"time"

	"boardbench/internal/proc"
	"boardbench/internal/result"
)

// Job is one fio job of the comparison.
type Job struct {
	Name      string
	RW        string // fio's rw=
	RecordKiB int
}

// Jobs are the patterns of the storage summary, in the order they run (the
// write first, so that the reads find data).
var Jobs = []Job{
	{"seq_write_16m", "write", 16384},
	{"seq_read_16m", "read", 16384},
	{"rand_read_4k", "randread", 4},
	{"rand_write_4k", "randwrite", 4},
}

// Config is one fio run.
type Config struct {
	// Binary is fio's path or name ("" means "fio").
	Binary string
	// Dir holds the temporary file; FileBytes is its size.
	Dir       string
	FileBytes int64
	// Runtime bounds each job.
	Runtime time.Duration
}

// Args returns fio's command line for cfg with the file name.
func Args(cfg Config, file string) []string {
	bin := cfg.Binary
	if bin == "" {
		bin = "fio"
	}
	secs := max(1, int(cfg.Runtime.Round(time.Second)/time.Second))
	args := []string{bin, "--output-format=json", "--name=global", "--filename=" + file,
		"--size=" + strconv.FormatInt(cfg.FileBytes, 10), "--direct=1", "--ioengine=psync", "--iodepth=1",
		"--runtime=" + strconv.Itoa(secs), "--end_fsync=1", "--randrepeat=0", "--stonewall"}
	for _, j := range Jobs {
		args = append(args, "--name="+j.Name, "--rw="+j.RW, fmt.Sprintf("--bs=%dk", j.RecordKiB), "--stonewall")
	}
	return args
}

// Run runs fio in cfg.Dir and returns its figures and raw JSON; the test
// file is removed on every path.
func Run(ctx context.Context, cfg Config) (result.StorageFioFigures, []byte, error) {
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	file := filepath.Join(cfg.Dir, ".boardbench-fio-"+hex.EncodeToString(rnd[:]))
	defer os.Remove(file)
	exit, out, err := proc.Run(ctx, proc.Spec{Argv: Args(cfg, file), CaptureLimit: 4 << 20})
	if err != nil {
		return result.StorageFioFigures{}, out, err
	}
	if ctx.Err() != nil {
		return result.StorageFioFigures{}, out, context.Cause(ctx)
	}
	if exit.Code != 0 {
		return result.StorageFioFigures{}, out, fmt.Errorf("fio exited with status %d: %s", exit.Code, lastLine(out))
	}
	figs, err := Parse(out)
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
	BW   float64 `json:"bw"` // KiB/s
	IOPS float64 `json:"iops"`
}

// Parse reads fio's JSON output (text before the JSON, such as warnings,
// is skipped).
func Parse(out []byte) (result.StorageFioFigures, error) {
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
		for _, want := range Jobs {
			if want.Name != j.Name {
				continue
			}
			s := j.Read
			if strings.Contains(want.RW, "write") {
				s = j.Write
			}
			figs.Jobs = append(figs.Jobs, result.StorageFioJob{Name: j.Name, RecordKiB: want.RecordKiB, KBs: s.BW, IOPS: s.IOPS})
		}
	}
	if len(figs.Jobs) == 0 {
		return figs, errors.New("fio's JSON holds none of the expected jobs")
	}
	return figs, nil
}
