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
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"

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
	// QueueDepth, when set, makes the job a latency job: libaio with
	// this many requests in flight, mirroring the latency cell of the
	// same test and depth (0: psync, one request at a time).
	QueueDepth int
}

// Patterns are the jobs in the order they run. The jobs of one record size
// share a fresh file that the first one writes, as boardbench's write cell
// writes the file its other cells then use: write_4k lays out the file the
// 4 KiB random jobs read and write with 4 KiB records, as iozone's table does.
var Patterns = []Pattern{
	{"seq_write_16m", "write", 16384, storagebench.TestWrite, 0},
	{"seq_read_16m", "read", 16384, storagebench.TestRead, 0},
	{"write_4k", "write", 4, storagebench.TestWrite, 0},
	{"rand_read_4k", "randread", 4, storagebench.TestRandomRead, 0},
	{"rand_write_4k", "randwrite", 4, storagebench.TestRandomWrite, 0},
	{"rand_read_4k_qd1", "randread", 4, storagebench.TestRandomRead, 1},
	{"rand_write_4k_qd1", "randwrite", 4, storagebench.TestRandomWrite, 1},
	{"rand_read_4k_qd32", "randread", 4, storagebench.TestRandomRead, 32},
	{"rand_write_4k_qd32", "randwrite", 4, storagebench.TestRandomWrite, 32},
}

// Job is a Pattern sized after a measured cell.
type Job struct {
	Pattern
	// SizeBytes is the region (the extent boardbench's write cell wrote);
	// IOBytes what the job moves (what the mirrored cell moved).
	SizeBytes, IOBytes int64
	// BoardbenchKBs is the mirrored cell's figure in kB/s.
	BoardbenchKBs float64
	// Latency is the mirrored latency cell of a latency job.
	Latency *result.StorageLatency
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
	latency := func(test string, depth int) *result.StorageLatency {
		for i := range figs.Latency {
			l := &figs.Latency[i]
			if l.Test == test && l.QueueDepth == depth && l.Error == "" && l.Ops > 0 && l.KBs != nil {
				return l
			}
		}
		return nil
	}
	for _, p := range Patterns {
		if p.QueueDepth > 0 {
			// The latency cell's region is the whole read file; the job
			// shares the file of its record size that write_4k lays out.
			l := latency(p.Test, p.QueueDepth)
			if l == nil || cell(p.RecordKiB, storagebench.TestWrite) == nil || figs.FileBytes <= 0 {
				continue
			}
			jobs = append(jobs, Job{Pattern: p, SizeBytes: figs.FileBytes, IOBytes: l.Ops * int64(l.RecordKiB) << 10, BoardbenchKBs: *l.KBs, Latency: l})
			continue
		}
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
// (prefix-16384k, prefix-4k). fio splits --filename at every ':' (a list of
// files), so a ':' in prefix is escaped as fio's documentation says
// (`\:`); Run gives a bare name of its own, relative to the directory it
// runs fio in, so that no path the user chose reaches fio at all.
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
		args = append(args, "--name="+j.Name, "--filename="+EscapeFilename(fileFor(prefix, j.RecordKiB)), "--rw="+j.RW,
			fmt.Sprintf("--bs=%dk", j.RecordKiB), "--size="+strconv.FormatInt(j.SizeBytes, 10),
			"--io_size="+strconv.FormatInt(j.IOBytes, 10), "--stonewall")
		if j.QueueDepth > 0 {
			args = append(args, "--ioengine=libaio", "--iodepth="+strconv.Itoa(j.QueueDepth))
		}
	}
	return args
}

// EscapeFilename escapes a name for fio's --filename, which fio splits at
// every ':': each ':' becomes `\:`.
func EscapeFilename(name string) string { return strings.ReplaceAll(name, ":", `\:`) }

func fileFor(prefix string, rec int) string { return fmt.Sprintf("%s-%dk", prefix, rec) }

// TempPrefix starts the names of fio's temporary files in the tested
// directory (.boardbench-fio-<random>-<record>k); storage sweeps files of
// this name that a killed run left behind.
const TempPrefix = ".boardbench-fio-"

// TempNames match the names of fio's temporary files exactly (Run's
// prefix: TempPrefix, 16 hex digits; then -<record>k), for a sweep of those
// a killed run left. Compiled when asked, not at start-up.
func TempNames() []*regexp.Regexp {
	return []*regexp.Regexp{regexp.MustCompile(`^\.boardbench-fio-[0-9a-f]{16}-[0-9]+k$`)}
}

// Run runs fio in cfg.Dir and returns its figures and raw JSON; the test
// files are removed on every path. fio runs with cfg.Dir as its working
// directory and gets only bare names boardbench chose (no path it could
// split or resolve elsewhere). After fio, the directory is compared with
// its state before: a file fio created, removed or changed besides its own
// is an error naming it. A non-zero exit status is an error too.
func Run(ctx context.Context, cfg Config) (result.StorageFioFigures, []byte, error) {
	if len(cfg.Jobs) == 0 {
		return result.StorageFioFigures{}, nil, errors.New("no fio jobs")
	}
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	prefix := TempPrefix + hex.EncodeToString(rnd[:])
	own := map[string]bool{}
	for _, j := range cfg.Jobs {
		name := fileFor(prefix, j.RecordKiB)
		own[name] = true
		defer os.Remove(filepath.Join(cfg.Dir, name))
	}
	before, err := listDir(cfg.Dir)
	if err != nil {
		return result.StorageFioFigures{}, nil, err
	}
	exit, out, err := proc.Run(ctx, proc.Spec{Argv: Args(cfg, prefix), Dir: cfg.Dir, CaptureLimit: 4 << 20})
	if err != nil {
		return result.StorageFioFigures{}, out, err
	}
	if ctx.Err() != nil {
		return result.StorageFioFigures{}, out, context.Cause(ctx)
	}
	if err := checkDir(cfg.Dir, before, own); err != nil {
		return result.StorageFioFigures{}, out, err
	}
	if exit.Code != 0 || exit.Signal != "" {
		return result.StorageFioFigures{}, out, fmt.Errorf("fio exited with %s: %s", exitText(exit), lastLine(out))
	}
	figs, err := Parse(out, cfg.Jobs)
	return figs, out, err
}

// exitText says how fio ended: "status N" or "signal S".
func exitText(e proc.Exit) string {
	if e.Signal != "" {
		return "signal " + e.Signal
	}
	return fmt.Sprintf("status %d", e.Code)
}

// entry is what the check compares of one directory entry.
type entry struct {
	mode  fs.FileMode
	size  int64
	mtime int64
	ino   uint64
}

// listDir reads the entries of dir (without following links).
func listDir(dir string) (map[string]entry, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("listing %s before fio: %w", dir, err)
	}
	out := make(map[string]entry, len(ents))
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil {
			continue
		}
		en := entry{mode: fi.Mode(), size: fi.Size(), mtime: fi.ModTime().UnixNano()}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			en.ino = st.Ino
		}
		out[e.Name()] = en
	}
	return out, nil
}

// checkDir compares dir with its listing before fio: anything created,
// removed or changed that is not one of fio's own files is named in the
// error (up to five names).
func checkDir(dir string, before map[string]entry, own map[string]bool) error {
	after, err := listDir(dir)
	if err != nil {
		return err
	}
	var changed []string
	for name, a := range after {
		if own[name] {
			continue
		}
		if b, ok := before[name]; !ok {
			changed = append(changed, name+" (created)")
		} else if a != b {
			changed = append(changed, name+" (changed)")
		}
	}
	for name := range before {
		if _, ok := after[name]; !ok && !own[name] {
			changed = append(changed, name+" (removed)")
		}
	}
	if len(changed) == 0 {
		return nil
	}
	slices.Sort(changed)
	more := ""
	if len(changed) > 5 {
		more = fmt.Sprintf(" and %d more", len(changed)-5)
		changed = changed[:5]
	}
	return fmt.Errorf("while fio ran, files besides its own changed in %s: %s%s (by fio or by another process); the fio figures are not kept",
		dir, strings.Join(changed, ", "), more)
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
	Clat  struct {
		Percentile map[string]float64 `json:"percentile"`
		Max        float64            `json:"max"`
	} `json:"clat_ns"`
}

// clatUs is fio's completion latency percentile p (as fio names it,
// "99.900000") in microseconds; nil when fio did not report it.
func (s side) clatUs(p string) *float64 {
	v, ok := s.Clat.Percentile[p]
	if !ok {
		return nil
	}
	us := v / 1000
	return &us
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
			fj := result.StorageFioJob{Name: j.Name, RecordKiB: want.RecordKiB, Test: want.Test,
				SizeBytes: want.SizeBytes, Bytes: s.Bytes, KBs: s.BW, IOPS: s.IOPS, BoardbenchKBs: &bb}
			if want.QueueDepth > 0 {
				fj.QueueDepth = want.QueueDepth
				fj.ClatP50Us, fj.ClatP99Us, fj.ClatP999Us = s.clatUs("50.000000"), s.clatUs("99.000000"), s.clatUs("99.900000")
				if l := want.Latency; l != nil {
					fj.BoardbenchP50Us, fj.BoardbenchP99Us, fj.BoardbenchP999Us = l.P50Us, l.P99Us, l.P999Us
				}
			}
			figs.Jobs = append(figs.Jobs, fj)
		}
	}
	if len(figs.Jobs) == 0 {
		return figs, errors.New("fio's JSON holds none of the expected jobs")
	}
	return figs, nil
}
