package openssl

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"boardbench/internal/proc"
	"boardbench/internal/tools"
)

// defaultCiphers are the ciphers measured when Options.Ciphers is empty.
var defaultCiphers = []string{"aes-128-cbc", "aes-192-cbc", "aes-256-cbc"}

// DefaultCiphers returns the ciphers measured by default.
func DefaultCiphers() []string { return append([]string(nil), defaultCiphers...) }

// Options selects how `openssl speed` runs.
type Options struct {
	// Ciphers are measured one after another by RunAll; empty means
	// DefaultCiphers().
	Ciphers []string
	// CPUs binds each openssl process to these CPUs (usually one); empty
	// leaves it free.
	CPUs []int
	// Seconds is passed as -seconds N when positive (OpenSSL 1.1.1 and
	// later; shorter runs for smoke tests). 0 keeps openssl's default of
	// 3 s per block size, which published results use.
	Seconds int
	// Env holds extra KEY=VALUE entries for openssl's environment, such
	// as OPENSSL_armcap=0 (the CPU capabilities openssl may use).
	Env []string
}

// Measurement is one openssl process: how it was run, its raw output and its
// figures.
type Measurement struct {
	// Tool is the path (or name) of the openssl command run.
	Tool string `json:"tool"`
	// ToolVersion is the version tools established for it.
	ToolVersion string `json:"tool_version"`
	// Cipher is the cipher measured.
	Cipher string `json:"cipher"`
	// Args are the arguments passed to openssl.
	Args []string `json:"args"`
	// CPUs are the CPUs it was bound to; empty when not bound.
	CPUs []int `json:"cpus,omitempty"`
	// Env are the environment entries added (Options.Env).
	Env []string `json:"env,omitempty"`
	// Result holds the parsed figures; nil when nothing could be read.
	Result *Result `json:"result"`
	// Outcome is openssl's output (the standard error has the "Doing ..."
	// lines), run time, exit status and proc.Failure kind.
	proc.Outcome
}

// KBPerSec returns the measured cipher's throughput at blockBytes in KB/s
// (1000 bytes/s), nil when not measured.
func (m *Measurement) KBPerSec(blockBytes int) *float64 {
	if m == nil || m.Result == nil {
		return nil
	}
	return m.Result.KBPerSec(m.Cipher, blockBytes)
}

// Args returns the openssl arguments measuring cipher.
func Args(cipher string, opts Options) []string {
	args := []string{"speed", "-elapsed"}
	if opts.Seconds > 0 {
		args = append(args, "-seconds", strconv.Itoa(opts.Seconds))
	}
	return append(args, "-evp", cipher)
}

// Run measures one cipher in one openssl process. The Measurement is always
// returned, with whatever raw output there was. Errors: the context's error
// when cancelled; one matching proc.ErrKilled when the kernel killed
// openssl; ErrNoResult when it printed no result; a *proc.ExitError for other
// failures (such as an option this version does not know).
func Run(ctx context.Context, ex proc.Executor, tool tools.Tool, cipher string, opts Options) (*Measurement, error) {
	name := tool.Command()
	if name == "" {
		return nil, errors.New("openssl: no openssl command given")
	}
	m := &Measurement{
		Tool:        name,
		ToolVersion: tool.Version,
		Cipher:      cipher,
		Args:        Args(cipher, opts),
		CPUs:        append([]int(nil), opts.CPUs...),
		Env:         append([]string(nil), opts.Env...),
	}
	res, err := ex.Exec(ctx, proc.Command{Name: name, Args: m.Args, CPUs: opts.CPUs, Env: opts.Env})
	m.Record(res)
	parsed, perr := Parse(m.RawOutput + "\n" + m.RawStderr)
	if perr == nil || len(parsed.Passes) > 0 || parsed.Version != "" {
		m.Result = parsed
	}
	if perr == nil && m.KBPerSec(16) == nil {
		perr = fmt.Errorf("%w for %s", ErrNoResult, cipher)
	}
	return m, m.Classify(ctx, name, err, perr)
}

// RunAll measures opts.Ciphers (default: AES-128/192/256-CBC) one after
// another. It stops at the first failure and returns the measurements made
// so far, the failed one included.
func RunAll(ctx context.Context, ex proc.Executor, tool tools.Tool, opts Options) ([]*Measurement, error) {
	ciphers := opts.Ciphers
	if len(ciphers) == 0 {
		ciphers = defaultCiphers
	}
	var out []*Measurement
	for _, c := range ciphers {
		m, err := Run(ctx, ex, tool, c, opts)
		if m != nil {
			out = append(out, m)
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// RunParallel measures cipher with one openssl process per CPU in cpus, all
// at once, each bound to its CPU: the "all cores" figure. opts.CPUs is
// ignored. The measurements come back in the order of cpus; the error is
// the first failure (all processes are waited for).
func RunParallel(ctx context.Context, ex proc.Executor, tool tools.Tool, cipher string, cpus []int, opts Options) ([]*Measurement, error) {
	if len(cpus) == 0 {
		return nil, errors.New("openssl: no CPUs given for a parallel run")
	}
	out := make([]*Measurement, len(cpus))
	errs := make([]error, len(cpus))
	var wg sync.WaitGroup
	for i, cpu := range cpus {
		wg.Add(1)
		go func(i, cpu int) {
			defer wg.Done()
			o := opts
			o.CPUs = []int{cpu}
			out[i], errs[i] = Run(ctx, ex, tool, cipher, o)
		}(i, cpu)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// SumKBPerSec adds the throughput at blockBytes over measurements (a
// parallel run); nil when any of them lacks the value, so that a partial
// sum is never reported as a total.
func SumKBPerSec(ms []*Measurement, blockBytes int) *float64 {
	if len(ms) == 0 {
		return nil
	}
	var sum float64
	for _, m := range ms {
		v := m.KBPerSec(blockBytes)
		if v == nil {
			return nil
		}
		sum += *v
	}
	return &sum
}
