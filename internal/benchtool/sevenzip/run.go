package sevenzip

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"boardbench/internal/proc"
	"boardbench/internal/tools"
)

// Options selects how the benchmark runs.
type Options struct {
	// Threads is passed as -mmtN when positive. 0 leaves the choice to
	// 7-Zip, except that with CPUs set it becomes len(CPUs): older 7-Zip
	// versions count all online CPUs, not the ones they may run on.
	Threads int
	// CPUs binds the benchmark to these CPUs (inherited by 7-Zip's threads);
	// empty leaves it free.
	CPUs []int
	// DictLog2 is passed as -mdN (dictionary 2^N bytes) when positive; 0
	// keeps 7-Zip's default (2^22 to 2^25 bytes depending on RAM and
	// version). Small values make short runs (e.g. 18 for a smoke test) but
	// give figures that are not comparable with default runs.
	DictLog2 int
	// Passes is the number of passes ("b N") when positive; 0 keeps the
	// default.
	Passes int
}

// FailureNoMemory is the failure kind of a Measurement whose 7-Zip could
// not allocate its buffers; the other kinds are proc's Failure constants.
const FailureNoMemory = "no_memory"

// Measurement is one benchmark run: how it was run, its raw output and its
// figures.
type Measurement struct {
	// Tool is the path (or name) of the 7-Zip command run.
	Tool string `json:"tool"`
	// ToolVersion is the version tools established for it.
	ToolVersion string `json:"tool_version"`
	// Args are the arguments passed to it.
	Args []string `json:"args"`
	// CPUs are the CPUs it was bound to; empty when not bound.
	CPUs []int `json:"cpus,omitempty"`
	// Threads is the -mmt value passed, 0 for 7-Zip's default.
	Threads int `json:"threads"`
	// Result holds the parsed figures; nil when nothing could be read.
	Result *Result `json:"result"`
	// Outcome is 7-Zip's output, run time, exit status and failure kind
	// (proc's Failure constants or FailureNoMemory).
	proc.Outcome
}

// Args returns the 7-Zip arguments for opts.
func Args(opts Options) []string {
	args := []string{"b"}
	if opts.Passes > 0 {
		args = append(args, strconv.Itoa(opts.Passes))
	}
	if t := threads(opts); t > 0 {
		args = append(args, "-mmt"+strconv.Itoa(t))
	}
	if opts.DictLog2 > 0 {
		args = append(args, "-md"+strconv.Itoa(opts.DictLog2))
	}
	return args
}

// exitNoMemory is 7-Zip's exit status for "not enough memory".
const exitNoMemory = 8

func threads(opts Options) int {
	if opts.Threads > 0 {
		return opts.Threads
	}
	return len(opts.CPUs)
}

// Run runs the benchmark of tool through ex and parses its output. The
// Measurement is always returned, with whatever raw output there was. Errors: the context's error when cancelled; one matching
// proc.ErrKilled when the kernel killed 7-Zip (out of memory); ErrNoMemory
// when 7-Zip could not allocate its buffers; ErrNoResult when it printed no
// result; a *proc.ExitError for other failures.
func Run(ctx context.Context, ex proc.Executor, tool tools.Tool, opts Options) (*Measurement, error) {
	name := tool.Command()
	if name == "" {
		return nil, errors.New("sevenzip: no 7-Zip command given")
	}
	m := &Measurement{
		Tool:        name,
		ToolVersion: tool.Version,
		Args:        Args(opts),
		CPUs:        append([]int(nil), opts.CPUs...),
		Threads:     threads(opts),
	}
	res, err := ex.Exec(ctx, proc.Command{Name: name, Args: m.Args, CPUs: opts.CPUs})
	m.Record(res)
	parsed, perr := Parse(m.RawOutput + "\n" + m.RawStderr)
	m.Result = parsed
	// Out of memory comes before the other failures, after a cancelled run
	// and one the kernel killed.
	var ee *proc.ExitError
	noMemory := errors.Is(perr, ErrNoMemory) || errors.As(err, &ee) && ee.Code == exitNoMemory
	if noMemory && ctx.Err() == nil && !errors.Is(err, proc.ErrKilled) {
		m.Failure = FailureNoMemory
		return m, fmt.Errorf("%s: %w", name, ErrNoMemory)
	}
	return m, m.Classify(ctx, name, err, perr)
}
