// Package zstd runs the zstd workload of `run --workloads zstd`: zstd
// compresses boardbench's own generated input (WriteInput: the same bytes
// on every machine, never downloaded) at a high level with one thread per
// CPU, as `zstd -q -19 -T$(nproc) FILE` does in published board reviews;
// the figures are the wall time and the input compressed per second.
package zstd

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"boardbench/internal/proc"
	"boardbench/internal/tools"
)

// DefaultLevel is the compression level of the published runs.
const DefaultLevel = 19

// JobBytes is the size of the work unit zstd gives each thread at level
// 19 (4 times its 8 MiB window): an input shorter than threads x JobBytes
// leaves threads idle.
const JobBytes = 32 << 20

// Options say how zstd runs.
type Options struct {
	// Level is the compression level; 0 means DefaultLevel.
	Level int
	// Threads is the -T value; 0 means one per CPU of CPUs (1 without).
	Threads int
	// CPUs binds zstd to these CPUs; empty leaves it free.
	CPUs []int
	// InputBytes is the size of the generated input.
	InputBytes int64
	// Dir is where the input and the compressed file are written for the
	// run and removed after it; "" means the system's temporary directory.
	Dir string
}

// Measurement is one zstd run: how it was run, its raw output and its
// figures.
type Measurement struct {
	Tool        string   `json:"tool"`
	ToolVersion string   `json:"tool_version"`
	Args        []string `json:"args"`
	CPUs        []int    `json:"cpus,omitempty"`
	Level       int      `json:"level"`
	Threads     int      `json:"threads"`
	InputBytes  int64    `json:"input_bytes"`
	// OutputBytes is the compressed file's size, nil when zstd failed.
	OutputBytes *int64 `json:"output_bytes"`
	proc.Outcome
}

// constError is an error whose value is its text, so that a sentinel
// error is a constant: static data that costs nothing when boardbench
// starts (errors.New would run at init). errors.Is and == match it.
type constError string

func (e constError) Error() string { return string(e) }

// ErrNoOutput is returned when zstd exited without error but left no
// compressed file.
const ErrNoOutput = constError("zstd left no compressed file")

// Seconds is zstd's wall time (nil when it failed).
func (m *Measurement) Seconds() *float64 {
	if m == nil || m.OutputBytes == nil || m.DurationS <= 0 {
		return nil
	}
	v := math.Round(m.DurationS*1000) / 1000
	return &v
}

// MBs is the input compressed per second in MB/s (10^6 bytes); nil when
// zstd failed.
func (m *Measurement) MBs() *float64 {
	if m == nil || m.OutputBytes == nil || m.DurationS <= 0 {
		return nil
	}
	v := math.Round(float64(m.InputBytes)/1e6/m.DurationS*1000) / 1000
	return &v
}

// Ratio is the input's size over the compressed size; nil when zstd
// failed.
func (m *Measurement) Ratio() *float64 {
	if m == nil || m.OutputBytes == nil || *m.OutputBytes <= 0 {
		return nil
	}
	v := math.Round(float64(m.InputBytes)/float64(*m.OutputBytes)*1000) / 1000
	return &v
}

// Args returns zstd's arguments compressing in to out.
func Args(level, threads int, in, out string) []string {
	return []string{"-q", "-" + strconv.Itoa(level), "-T" + strconv.Itoa(threads), "-f", "-o", out, in}
}

// Run writes the input to a new directory under opts.Dir, compresses it
// with zstd and removes the directory. The Measurement is returned
// whenever zstd ran (nil when the input could not be written), with
// whatever output there was.
func Run(ctx context.Context, ex proc.Executor, tool tools.Tool, opts Options) (*Measurement, error) {
	name := tool.Command()
	if name == "" {
		return nil, errors.New("zstd: no zstd command given")
	}
	if opts.InputBytes <= 0 {
		return nil, errors.New("zstd: no input size given")
	}
	level := opts.Level
	if level == 0 {
		level = DefaultLevel
	}
	threads := opts.Threads
	if threads <= 0 {
		threads = max(1, len(opts.CPUs))
	}
	dir, err := os.MkdirTemp(opts.Dir, "boardbench-zstd-")
	if err != nil {
		return nil, fmt.Errorf("zstd: a directory for the input: %w", err)
	}
	defer os.RemoveAll(dir)
	in, out := filepath.Join(dir, "input"), filepath.Join(dir, "input.zst")
	if err := writeInputFile(in, opts.InputBytes); err != nil {
		return nil, fmt.Errorf("zstd: writing the input: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m := &Measurement{Tool: name, ToolVersion: tool.Version, Args: Args(level, threads, in, out),
		CPUs: append([]int(nil), opts.CPUs...), Level: level, Threads: threads, InputBytes: opts.InputBytes}
	res, err := ex.Exec(ctx, proc.Command{Name: name, Args: m.Args, CPUs: opts.CPUs})
	m.Record(res)
	var perr error
	if err == nil {
		st, serr := os.Stat(out)
		switch {
		case serr != nil || !st.Mode().IsRegular() || st.Size() == 0:
			perr = ErrNoOutput
		default:
			n := st.Size()
			m.OutputBytes = &n
		}
	}
	return m, m.Classify(ctx, name, err, perr)
}

// writeInputFile writes n bytes of the generated input to a new file.
func writeInputFile(p string, n int64) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err := WriteInput(f, n); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
