package cryptsetup

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"boardbench/internal/proc"
	"boardbench/internal/tools"
)

// Options selects how `cryptsetup benchmark` runs.
type Options struct {
	// CPUs binds the cryptsetup process to these CPUs (usually one); empty
	// leaves it free. The kernel runs synchronous AF_ALG ciphers on the
	// calling thread's CPU, so the binding holds for the cipher work too,
	// unless the kernel hands it to an asynchronous driver (a crypto
	// engine, or a worker thread on another CPU).
	CPUs []int
}

// Measurement is one cryptsetup process: how it was run, its raw output and
// its figures.
type Measurement struct {
	// Tool is the path (or name) of the cryptsetup command run.
	Tool string `json:"tool"`
	// ToolVersion is the version tools established for it.
	ToolVersion string `json:"tool_version"`
	// Cipher is the cipher specification asked for, e.g. "aes-xts-plain64".
	Cipher string `json:"cipher"`
	// KeyBits is the key size asked for.
	KeyBits int `json:"key_bits"`
	// Args are the arguments passed to cryptsetup.
	Args []string `json:"args"`
	// CPUs are the CPUs it was bound to; empty when not bound.
	CPUs []int `json:"cpus,omitempty"`
	// Result holds the parsed figures; nil when nothing could be read.
	Result *Result `json:"result"`
	proc.Outcome
}

// Row returns the measured row: the one of the cipher's algorithm ("aes-xts"
// for "aes-xts-plain64") at KeyBits, else the only row; nil when none.
func (m *Measurement) Row() *Row {
	if m == nil || m.Result == nil {
		return nil
	}
	if row := m.Result.Find(Algorithm(m.Cipher), m.KeyBits); row != nil {
		return row
	}
	if len(m.Result.Rows) == 1 && m.Result.Rows[0].KeyBits == m.KeyBits {
		return &m.Result.Rows[0]
	}
	return nil
}

// Algorithm returns the cipher-mode part cryptsetup prints for a cipher
// specification: "aes-xts" for "aes-xts-plain64", "aes-cbc" for
// "aes-cbc-essiv:sha256".
func Algorithm(cipher string) string {
	parts := strings.SplitN(cipher, "-", 3)
	if len(parts) < 2 {
		return cipher
	}
	return parts[0] + "-" + parts[1]
}

// Args returns the cryptsetup arguments measuring cipher with a key of
// keyBits.
func Args(cipher string, keyBits int) []string {
	return []string{"benchmark", "-c", cipher, "-s", strconv.Itoa(keyBits)}
}

// Run measures one cipher and key size in one cryptsetup process. The
// Measurement is always returned (nil only when no command is given), with
// whatever raw output there was. Errors: the context's error when
// cancelled; one matching proc.ErrKilled when the kernel killed it;
// ErrUnavailable (with cryptsetup's message) when the kernel does not offer
// the cipher or AF_ALG; ErrNoResult when it printed no figure; a
// *proc.ExitError for other failures.
func Run(ctx context.Context, ex proc.Executor, tool tools.Tool, cipher string, keyBits int, opts Options) (*Measurement, error) {
	name := tool.Command()
	if name == "" {
		return nil, errors.New("cryptsetup: no cryptsetup command given")
	}
	m := &Measurement{
		Tool:        name,
		ToolVersion: tool.Version,
		Cipher:      cipher,
		KeyBits:     keyBits,
		Args:        Args(cipher, keyBits),
		CPUs:        append([]int(nil), opts.CPUs...),
	}
	res, err := ex.Exec(ctx, proc.Command{Name: name, Args: m.Args, CPUs: opts.CPUs})
	m.Record(res)
	parsed, perr := Parse(m.RawOutput + "\n" + m.RawStderr)
	if len(parsed.Rows) > 0 || len(parsed.Messages) > 0 {
		m.Result = parsed
	}
	if perr == nil && m.Row() == nil {
		perr = ErrNoResult
	}
	cerr := m.Classify(ctx, name, err, perr)
	// cryptsetup exits non-zero for an unavailable cipher: its own message
	// says more than the exit status.
	if errors.Is(perr, ErrUnavailable) && m.Failure == proc.FailureExit {
		return m, perr
	}
	return m, cerr
}
