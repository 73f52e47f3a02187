// Package sbcimport reads the result logs of the sbc-bench shell script
// (every version from 0.4 to 0.9.x) and turns each into a boardbench result
// of kind "import": the machine the log describes, its benchmarks as the
// usual typed figures, the rest as result.ImportedFigures, the summary
// derived the way the log's own results-table row is, and the original
// text. It is a pure function of the text: no I/O. docs/import.md
// describes what is read and how.
//
// One file per section of the log: header.go (first line, lsb_release,
// kernel, userland), topology.go, clock.go (cpufreq OPP checks),
// tinymembench.go, ramlat.go, openssl.go, sevenzip.go, monitoring.go,
// throttling.go, validation.go, cpuminer.go, row.go; toresult.go maps a
// Log to a result.
package sbcimport

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"boardbench/internal/result"
)

// MaxLogBytes is the largest log Parse accepts (real logs are under 1 MiB).
const MaxLogBytes = 64 << 20

// NotALogError says why a text is not an sbc-bench result log.
type NotALogError struct{ Reason string }

func (e *NotALogError) Error() string { return "not an " + result.ImportedFormat + ": " + e.Reason }

// IsNotALog reports whether err says the input is not a log.
func IsNotALog(err error) bool {
	var n *NotALogError
	return errors.As(err, &n)
}

// Log is what one log tells, section by section. Parse fills it.
type Log struct {
	// Text is the log, normalised (see Normalize).
	Text string
	// Version is the version of the first line ("0.9.72"), "" when the log
	// does not name one (the earliest logs).
	Version string
	// Device names the machine as the first line does.
	Device string
	// Date is when the run started (first line); TestedAt when the log's
	// summary was written ("Tested with ... on DATE"); zero when absent.
	Date, TestedAt time.Time

	// Distro holds the lsb_release lines by name, in LSBOrder.
	Distro map[string]string
	// KernelRelease, Machine, Hostname and CPUCount come from the first
	// iostat (or uname -a) line.
	KernelRelease, Machine, Hostname string
	CPUCount                         int
	// Userland is the userland architecture the log names ("arm64").
	Userland string
	// LscpuMaxMHz are lscpu's "CPU max MHz" values, in order.
	LscpuMaxMHz []float64

	Topology []result.ImportedTopologyCPU
	// Clock are the cpufreq checks before the benchmarks, ClockAfterLoad
	// those of the check repeated under load.
	Clock, ClockAfterLoad []ClusterCheck
	Memory                []MemoryRun
	Ramlat                []result.ImportedRamlat
	OpenSSL               OpenSSLRun
	SevenZip              []SevenZipBlock
	// SevenZipTotals are the totals of the multi-threaded runs the log
	// lists ("Total: a,b,c").
	SevenZipTotals []float64
	// MultiCPUs are the CPUs of the multi-threaded 7-Zip runs when named.
	MultiCPUs  []int
	Monitoring []result.ImportedMonitoring
	Throttling []result.ImportedThrottling
	// Validation are the "Results validation" lines; HasValidation is set
	// when the section is present.
	Validation    []string
	HasValidation bool
	CPUMiner      []float64
	// PrintedRow is the last results-table row, as printed; RowCells its
	// trimmed cells.
	PrintedRow string
	RowCells   []string

	// Identity is what the log says of the machine's SoC, board, core
	// types and governors (see Identity).
	Identity Identity

	// Notes are the parts that could not be read.
	Notes []string
}

func (l *Log) note(format string, args ...any) {
	l.Notes = append(l.Notes, fmt.Sprintf(format, args...))
}

// Normalize returns the text with Windows line ends turned into newlines
// and trailing white space at the end removed: the form IDs are derived
// from, so that a log saved by another editor is still the same log.
func Normalize(data []byte) string {
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	return strings.TrimRight(s, " \t\r\n")
}

// ID returns the result ID of an imported log: the first 32 hex digits of
// the SHA-256 of its normalised text.
func ID(data []byte) string {
	sum := sha256.Sum256([]byte(Normalize(data)))
	return hex.EncodeToString(sum[:16])
}

// markers are lines only an sbc-bench result log has together; a log
// without a version line must show at least two of them.
var markers = []string{
	"System health while running",
	"Monitoring data for each run",
	"tinymembench v",
	"Compression: ",
	"Checking cpufreq OPP",
	"Executing benchmark",
}

// Parse reads a log. A text that is not a log gives a *NotALogError;
// parts of a log that cannot be read become notes, never errors.
func Parse(data []byte) (*Log, error) {
	switch {
	case len(data) == 0 || len(strings.TrimSpace(string(data))) == 0:
		return nil, &NotALogError{"the file is empty"}
	case len(data) > MaxLogBytes:
		return nil, &NotALogError{fmt.Sprintf("larger than %d MiB", MaxLogBytes>>20)}
	case strings.IndexByte(string(data[:min(len(data), 8192)]), 0) >= 0:
		return nil, &NotALogError{"binary content"}
	}
	text := Normalize(data)
	lines := strings.Split(text, "\n")
	l := &Log{Text: text, Distro: map[string]string{}}
	head := lines[:min(len(lines), 5)]
	for _, line := range head {
		if parseVersionLine(l, line) {
			break
		}
	}
	if l.Version == "" {
		found := 0
		for _, m := range markers {
			if strings.Contains(text, "\n"+m) || strings.HasPrefix(text, m) {
				found++
			}
		}
		if found < 2 {
			return nil, &NotALogError{"no sbc-bench version line and none of its sections"}
		}
	}
	p := &parser{log: l, lines: lines}
	p.run()
	l.readIdentity(lines)
	return l, nil
}

// parser walks the lines once; each section reader consumes its lines and
// returns the index of the last one it used.
type parser struct {
	log   *Log
	lines []string
	// context set by "Executing ..." lines for the next block
	memCPU     *int
	memCore    string
	singleCPU  *int
	singleCore string
	sevenMode  string // "single", "multi", "cluster" or ""
	// clusterCPUs, clusterGroup: the cluster of the next cluster runs
	clusterCPUs  []int
	clusterGroup int
	afterLoad    bool
}

func (p *parser) run() {
	l := p.log
	for i := 0; i < len(p.lines); i++ {
		line := p.lines[i]
		switch {
		case parseHeaderLine(l, line):
		case strings.HasPrefix(line, "CPU sysfs topology") || strings.HasPrefix(strings.TrimSpace(line), "CPU sysfs topology"):
			i = p.topology(i)
		case strings.HasPrefix(line, "Testing maximum cpufreq again") || strings.HasPrefix(line, "Testing clockspeeds again"):
			p.afterLoad = true
			i = p.monitoring(i, "load (clockspeeds checked again)")
		case strings.HasPrefix(line, "Checking cpufreq OPP"), strings.HasPrefix(line, "No cpufreq support available"):
			i = p.clock(i)
		case strings.HasPrefix(line, "Executing benchmark on cpu"), strings.HasPrefix(line, "Executing tinymembench on"):
			p.memContext(line)
		case strings.HasPrefix(line, "tinymembench v"):
			i = p.tinymembench(i)
		case strings.HasPrefix(line, "Executing ramlat on"):
			i = p.ramlat(i)
		case strings.HasPrefix(line, "Executing benchmark single-threaded"):
			p.sevenContext(line, "single")
		case strings.HasPrefix(line, "Executing benchmark") && strings.Contains(line, "multi-threaded"):
			p.sevenContext(line, "multi")
		case strings.HasPrefix(line, "7-Zip "):
			i = p.sevenZip(i)
		case strings.HasPrefix(line, "Compression: "), strings.HasPrefix(line, "Decompression: "):
		case strings.HasPrefix(line, "Total: ") && l.SevenZipTotals == nil:
			l.SevenZipTotals = p.numberList(strings.TrimPrefix(line, "Total: "), "7-Zip totals")
		case strings.HasPrefix(line, "Executing benchmark twice on cluster"):
			l.OpenSSL.Twice = true
		case isOpenSSLVersion(line):
			if l.OpenSSL.Version == "" {
				l.OpenSSL.Version = strings.TrimSpace(line)
			}
		case strings.HasPrefix(line, "type ") && strings.Contains(line, "bytes"):
			i = p.openssl(i)
		case strings.HasPrefix(line, "System health while running "):
			what := strings.TrimSuffix(strings.TrimPrefix(line, "System health while running "), ":")
			i = p.monitoring(i, what)
		case strings.HasPrefix(line, "Throttling statistics"), strings.HasPrefix(line, "Throttling occured. Cpufreq statistics"):
			i = p.throttling(i)
		case strings.HasPrefix(line, "Results validation:"):
			i = p.validation(i)
		case strings.HasPrefix(line, "Total Scores: "):
			l.CPUMiner = p.numberList(strings.TrimPrefix(line, "Total Scores: "), "cpuminer total scores")
		case isRow(line):
			l.PrintedRow = strings.TrimSpace(line)
			l.RowCells = rowCells(line)
		}
	}
	p.resolveSevenZip()
	l.resolveOpenSSL()
}
