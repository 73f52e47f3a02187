package llamabench

import (
	"context"
	"errors"
	"strconv"

	"boardbench/internal/proc"
	"boardbench/internal/tools"
)

// Default test shape of the published runs: `llama-bench -p 512 -n 128`.
const (
	DefaultPrompt = 512
	DefaultGen    = 128
)

// Options say how llama-bench runs.
type Options struct {
	// Model is the model file (GGUF), passed as -m.
	Model string
	// Prompt and Gen are -p and -n; 0 means DefaultPrompt and DefaultGen.
	Prompt, Gen int
	// Repetitions is -r; 0 keeps llama-bench's default (5).
	Repetitions int
	// Threads is -t; 0 keeps llama-bench's default (the physical cores).
	Threads int
	// CPUs binds llama-bench to these CPUs; empty leaves it free.
	CPUs []int
}

// Measurement is one llama-bench run: how it was run, its raw output and
// what it measured.
type Measurement struct {
	Tool   string   `json:"tool"`
	Args   []string `json:"args"`
	CPUs   []int    `json:"cpus,omitempty"`
	Result *Result  `json:"result"`
	proc.Outcome
}

// Args returns llama-bench's arguments for the options.
func Args(opts Options) []string {
	p, n := opts.Prompt, opts.Gen
	if p <= 0 {
		p = DefaultPrompt
	}
	if n <= 0 {
		n = DefaultGen
	}
	args := []string{"-m", opts.Model, "-p", strconv.Itoa(p), "-n", strconv.Itoa(n)}
	if opts.Repetitions > 0 {
		args = append(args, "-r", strconv.Itoa(opts.Repetitions))
	}
	if opts.Threads > 0 {
		args = append(args, "-t", strconv.Itoa(opts.Threads))
	}
	return append(args, "-o", "json")
}

// Run runs llama-bench once and parses its standard output. The
// Measurement is always returned (nil only without a command or a model),
// with whatever output there was.
func Run(ctx context.Context, ex proc.Executor, tool tools.Tool, opts Options) (*Measurement, error) {
	name := tool.Command()
	if name == "" {
		return nil, errors.New("llama-bench: no llama-bench command given")
	}
	if opts.Model == "" {
		return nil, errors.New("llama-bench: no model file given")
	}
	m := &Measurement{Tool: name, Args: Args(opts), CPUs: append([]int(nil), opts.CPUs...)}
	res, err := ex.Exec(ctx, proc.Command{Name: name, Args: m.Args, CPUs: opts.CPUs})
	m.Record(res)
	parsed, perr := Parse(res.Stdout)
	if parsed != nil && len(parsed.Tests) > 0 {
		m.Result = parsed
	}
	return m, m.Classify(ctx, name, err, perr)
}
