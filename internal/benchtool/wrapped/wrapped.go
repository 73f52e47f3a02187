// Package wrapped recognises the benchmarks reviewers run under
// `boardbench monitor -- COMMAND` and parses their figures from the
// command's output: 7-Zip, `openssl speed`, stress-ng, sysbench,
// llama-bench, Geekbench (its result URL and scores), HPL (its Gflops lines
// and residual checks) and cpuminer (its hash rate).
//
// A benchmark is recognised by the command's name (argv[0], or the first
// argument naming a known benchmark, so that `taskset -c 0 7zz b` works)
// and, failing that, by the shape of its output (so that `sh -c '7zz b'` is
// recognised too). Every figure is one the tool printed; a value the output
// does not hold is absent, never invented. docs/wrapped.md describes every
// field.
package wrapped

import (
	"math"
	"path"
	"strconv"
	"strings"
)

// Benchmark names, the values of Figures.Benchmark.
const (
	SevenZip   = "7-Zip"
	OpenSSL    = "openssl speed"
	StressNG   = "stress-ng"
	Sysbench   = "sysbench"
	LlamaBench = "llama-bench"
	Geekbench  = "Geekbench"
	HPL        = "HPL"
	CPUMiner   = "cpuminer"
)

// How a benchmark was recognised, the values of Figures.RecognizedBy.
const (
	ByCommand = "command"
	ByOutput  = "output"
)

// Figures are what a wrapped benchmark printed. Exactly one of the
// per-benchmark fields is set when the output held a result; all are nil
// when the command names a benchmark whose output held none (Notes says so).
type Figures struct {
	// Benchmark names the benchmark: "7-Zip", "openssl speed", "stress-ng",
	// "sysbench", "llama-bench", "Geekbench", "HPL" or "cpuminer".
	Benchmark string `json:"benchmark"`
	// Version is the benchmark's version as its output prints it; "" when
	// the output does not say.
	Version string `json:"version"`
	// RecognizedBy is "command" (the command line names the benchmark) or
	// "output" (only the output's shape told).
	RecognizedBy string `json:"recognized_by"`

	SevenZip   *SevenZipFigures   `json:"sevenzip,omitempty"`
	OpenSSL    *OpenSSLFigures    `json:"openssl,omitempty"`
	StressNG   *StressNGFigures   `json:"stress_ng,omitempty"`
	Sysbench   *SysbenchFigures   `json:"sysbench,omitempty"`
	LlamaBench *LlamaBenchFigures `json:"llama_bench,omitempty"`
	Geekbench  *GeekbenchFigures  `json:"geekbench,omitempty"`
	HPL        *HPLFigures        `json:"hpl,omitempty"`
	CPUMiner   *CPUMinerFigures   `json:"cpuminer,omitempty"`

	// Notes says what could not be read, e.g. "no result in the output".
	Notes []string `json:"notes,omitempty"`
}

// HasResult reports whether f holds parsed figures (not only a name).
func (f Figures) HasResult() bool {
	return f.SevenZip != nil || f.OpenSSL != nil || f.StressNG != nil || f.Sysbench != nil ||
		f.LlamaBench != nil || f.Geekbench != nil || f.HPL != nil || f.CPUMiner != nil
}

// parser reads one benchmark's output into f; ok when a result was found.
type parser struct {
	name string
	// commands are the executable names (basenames) of the benchmark.
	commands []string
	// commandPrefixes are name prefixes ("geekbench" for geekbench6,
	// geekbench_aarch64...).
	commandPrefixes []string
	// subcommand, when set, must be the argument after the executable
	// ("speed" for openssl).
	subcommand string
	parse      func(argv []string, out string, f *Figures) bool
}

// parsers are tried in this order when recognising by output: the most
// specific shapes first.
var parsers = []parser{
	{name: SevenZip, commands: []string{"7zz", "7z", "7za", "7zr", "7zzs"}, parse: parseSevenZip},
	{name: OpenSSL, commands: []string{"openssl"}, subcommand: "speed", parse: parseOpenSSL},
	{name: HPL, commands: []string{"xhpl"}, parse: parseHPL},
	{name: LlamaBench, commands: []string{"llama-bench"}, parse: parseLlamaBench},
	{name: StressNG, commands: []string{"stress-ng"}, parse: parseStressNG},
	{name: Sysbench, commands: []string{"sysbench"}, parse: parseSysbench},
	{name: Geekbench, commandPrefixes: []string{"geekbench"}, parse: parseGeekbench},
	{name: CPUMiner, commands: []string{"minerd", "cpuminer"}, parse: parseCPUMiner},
}

// Recognize tells which benchmark argv ran and parses its figures from
// output (standard output and error as captured). ok is false when neither
// the command line nor the output names a known benchmark. When the command
// line names one whose output holds no result, ok is true and Figures has
// the name and a note but no values.
func Recognize(argv []string, output []byte) (Figures, bool) {
	out := string(output)
	named := commandParser(argv)
	if named != nil {
		f := Figures{Benchmark: named.name, RecognizedBy: ByCommand}
		if named.parse(argv, out, &f) {
			return f, true
		}
	}
	for _, p := range parsers {
		if named != nil && p.name == named.name {
			continue
		}
		f := Figures{Benchmark: p.name, RecognizedBy: ByOutput}
		if p.parse(argv, out, &f) {
			return f, true
		}
	}
	if named != nil {
		return Figures{Benchmark: named.name, RecognizedBy: ByCommand, Notes: []string{"no " + named.name + " result in the output"}}, true
	}
	return Figures{}, false
}

// commandParser returns the parser of the first argument of argv whose
// basename is a known benchmark (so that wrappers such as taskset, nice,
// numactl or mpirun are looked through); nil when none is.
func commandParser(argv []string) *parser {
	for i, a := range argv {
		base := path.Base(a)
		for pi := range parsers {
			p := &parsers[pi]
			if !p.isCommand(base) {
				continue
			}
			if p.subcommand != "" && !(i+1 < len(argv) && argv[i+1] == p.subcommand) {
				continue
			}
			return p
		}
	}
	return nil
}

func (p *parser) isCommand(base string) bool {
	for _, c := range p.commands {
		if base == c {
			return true
		}
	}
	for _, pre := range p.commandPrefixes {
		if strings.HasPrefix(strings.ToLower(base), pre) {
			return true
		}
	}
	return false
}

// lines splits out into lines without their line endings.
func lines(out string) []string {
	ls := strings.Split(out, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimRight(l, "\r")
	}
	return ls
}

// number parses a finite decimal number.
func number(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// numberPtr is number as a pointer, nil when s is not a number.
func numberPtr(s string) *float64 {
	if v, ok := number(s); ok {
		return &v
	}
	return nil
}

// integer parses a decimal integer.
func integer(s string) (int64, bool) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return v, err == nil
}
