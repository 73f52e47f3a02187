// Package benchrun runs the standard benchmark of `boardbench run`: it
// describes the machine, waits until it is quiet, finds (or installs) 7-Zip
// and openssl, switches cpufreq governors to performance (restoring them on
// every exit path), and runs the phases — clock check, memory, openssl,
// 7-Zip single- and multi-threaded, clock re-check, and with --extensive
// per-core-type AEAD ciphers and kernel aes-xts, per-cluster, all-core and
// sustained runs — under the monitor. After each
// phase the JSON result is written atomically; at the end (or on Ctrl-C)
// the run is validated and the result marked complete or interrupted.
//
// Each step lives in its own file: prepare.go (idle gate, tools, tuning),
// plan.go (targets and phases with their time estimates), phase.go (running
// one phase under the monitor), clock.go, memory.go, openssl.go,
// cryptsetup.go, sevenzip.go, summary.go, validate.go, progress.go, filename.go.
package benchrun

import (
	"boardbench/internal/power"
	"context"
	"io"
	"time"

	"boardbench/internal/clockcheck"
	"boardbench/internal/host"
	"boardbench/internal/memmeasure"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/tools"
	"boardbench/internal/tune"
)

// Options are the user's choices (the command-line flags).
type Options struct {
	// Power is the power source and idle baseline (--power, --idle-baseline).
	Power power.Options
	// Output is the result file; "" means DefaultFileName in the current
	// directory.
	Output string
	// Force skips the idle gate (recorded as a finding).
	Force bool
	// NoInstall forbids installing missing tools.
	NoInstall bool
	// Extensive adds, per core type, openssl's AEAD ciphers and (as root)
	// cryptsetup's aes-xts, then per-cluster 7-Zip, openssl on all cores
	// and a sustained load.
	Extensive bool
	// OPPs walks every cpufreq operating point in the clock phase (root).
	OPPs bool
	// Quick makes a short run for tests and CI; its figures are not
	// comparable.
	Quick bool
	// IdleTimeout bounds the wait for a quiet machine.
	IdleTimeout time.Duration
	// SustainedDuration is the length of the sustained phase (--extensive);
	// 0 means DefaultSustained (QuickSustained with Quick).
	SustainedDuration time.Duration
	// Workloads are the opt-in workloads (--workloads, see
	// ParseWorkloads and WorkloadNames); --extensive adds the cheap ones
	// (zstd, armcap, ssh).
	Workloads []string
	// Model is llama-bench's model file (--model), never downloaded.
	Model string
}

// Defaults.
const (
	DefaultIdleTimeout = 60 * time.Second
	DefaultSustained   = 5 * time.Minute
	QuickSustained     = 20 * time.Second
)

// ToolSet is the external tools a run uses; a nil tool is missing and
// Missing says why (with the hint to install it).
type ToolSet struct {
	SevenZip *tools.Tool
	OpenSSL  *tools.Tool
	// Cryptsetup is looked for only with --extensive as root (see
	// FindCryptsetup).
	Cryptsetup *tools.Tool
	// SevenZipMissing, OpenSSLMissing and CryptsetupMissing explain a nil
	// tool.
	SevenZipMissing, OpenSSLMissing, CryptsetupMissing *ToolMissing
}

// ToolMissing says why a tool is missing and how to install it.
type ToolMissing struct {
	Reason string
	Hint   string
}

// MemoryFunc measures memory bandwidth and latency from one CPU.
type MemoryFunc func(ctx context.Context, h *host.Host, cpu int, core string, plan memmeasure.Plan) (result.MemFigures, error)

// Config is everything a run needs from the outside. Zero fields get the
// live defaults in Run; tests replace them to run on a fixture root with
// fake benchmarks.
type Config struct {
	// Host is the machine: its description, monitor and tunables (a fixture
	// root in tests, with writable cpufreq files).
	Host *host.Host
	// IsRoot says whether governors may be switched; nil asks
	// Host.IsRoot().
	IsRoot *bool
	// Allowed are the CPUs this process may run on; nil reads them.
	Allowed []int
	// Pin checks that a CPU can be pinned (and releases it); nil pins the
	// calling thread for a moment.
	Pin func(cpu int) error
	// Exec runs 7-Zip and openssl; nil means proc.ForHost(Host).
	Exec proc.Executor
	// Clock measures one CPU's clock; nil means the probe.
	Clock clockcheck.MeasureFunc
	// Memory measures one CPU's memory figures; nil means memmeasure.Measure.
	Memory MemoryFunc
	// FindTools finds (or installs) the tools; nil means FindTools.
	FindTools func(ctx context.Context, h *host.Host, allowInstall bool) ToolSet
	// FindCryptsetup finds (or installs) cryptsetup for --extensive as
	// root; nil means FindCryptsetup.
	FindCryptsetup func(ctx context.Context, h *host.Host, allowInstall bool) (*tools.Tool, *ToolMissing)
	// FindWorkloadTool finds a workload's program; nil means
	// FindWorkloadTool.
	FindWorkloadTool func(ctx context.Context, h *host.Host, workload string) (*tools.Tool, *ToolMissing)
	// Progress receives live progress and warnings (standard error); nil
	// for none.
	Progress io.Writer
	// TTY makes progress one updating line instead of plain lines.
	TTY bool
	// Width is the terminal's width in columns; the updating line is cut
	// to fit (0: 80).
	Width int
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// Lock is the root's tuning lock, taken by the command before the run;
	// the guard releases it. nil: the guard takes it itself.
	Lock *tune.Lock
	// Print prints the outcome (the report and the verdict); the zero
	// value prints nothing.
	Print session.Printer
	// Keep saves the finished result to the results store; nil saves it
	// to none (session.Config.Keep).
	Keep session.Keeper
}
