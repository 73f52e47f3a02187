// Package result is the versioned JSON result of a benchmark run (the
// source of truth every view renders) and its incremental, atomic writing:
// after each phase the file on disk is complete, valid JSON.
package result

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"boardbench/internal/buildinfo"
	"boardbench/internal/finding"
	"boardbench/internal/inventory"
	"boardbench/internal/outfile"
	"boardbench/internal/regfile"
	"boardbench/internal/safejson"
	"boardbench/internal/schema"
)

// Status of a run.
const (
	StatusRunning     = "running"
	StatusComplete    = "complete"
	StatusInterrupted = "interrupted"
	StatusFailed      = "failed"
)

// Phase status.
const (
	PhaseOK          = "ok"
	PhaseSkipped     = "skipped"
	PhaseFailed      = "failed"
	PhaseInterrupted = "interrupted"
)

// Result is one run of `boardbench run` or `boardbench monitor -- COMMAND`.
type Result struct {
	SchemaVersion string `json:"schema_version"`
	// ID identifies the result for good: 32 lowercase hex digits, random
	// for a result boardbench made (see NewID), derived from the original
	// text for an imported one. Results written before IDs existed have
	// none; the store then derives one from the document.
	ID   string         `json:"id,omitempty"`
	Tool buildinfo.Info `json:"tool"`
	// Host is the machine's host name when the result was made ("" when
	// unknown): it tells a lab's boards apart in the store.
	Host string `json:"host,omitempty"`
	// Command is "run" or "monitor".
	Command string `json:"command"`
	// Quick is true for a result of a quick mode (`run --quick`, `mem
	// --quick`…): smaller sizes and fewer passes. It is judged by the same
	// rules, but its figures do not compare with standard results
	// (schema 1.1).
	Quick bool `json:"quick,omitempty"`
	// Replay is true for a result made from a recorded root (--root), not
	// the live machine. A replay measures no machine: the store keeps it
	// as kind "replay", out of the lists.
	Replay     bool       `json:"replay,omitempty"`
	Status     string     `json:"status"`
	StartedAt  time.Time  `json:"started_at"`
	FinishedAt *time.Time `json:"finished_at"`
	// Options are the command-line options that shaped the run.
	Options map[string]any `json:"options"`
	// Info is the full description of the machine at the start.
	Info *inventory.Info `json:"info"`
	// Tools are the external benchmark tools and their real versions.
	Tools []ToolVersion `json:"tools"`
	// Tuning says what was changed on the machine for the run and restored.
	Tuning Tuning `json:"tuning"`
	// Monitor describes the sampled columns (clusters, sensors).
	Monitor MonitorInfo `json:"monitor"`
	// Power is the power source and its idle baseline; nil without one.
	Power    *Power            `json:"power,omitempty"`
	Phases   []Phase           `json:"phases"`
	Findings []finding.Finding `json:"findings"`
	Summary  Summary           `json:"summary"`
	// Device is the storage a storage command measured.
	Device *DeviceIdentity `json:"device,omitempty"`
	// Notes say what the document could not hold as it was measured, such
	// as a value that was not a finite number and is written as null.
	Notes []string `json:"notes,omitempty"`
}

// ToolVersion records one external tool.
type ToolVersion struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	Version string `json:"version"`
	// VersionLine is the tool's own banner line.
	VersionLine string `json:"version_line"`
	// Note explains a missing tool or a version caveat.
	Note string `json:"note,omitempty"`
}

// Tuning records governor changes and whether they were undone.
type Tuning struct {
	// Changed lists what was set, e.g. "policy0 governor schedutil → performance".
	Changed []string `json:"changed"`
	// Restored is true once every change was written back.
	Restored bool `json:"restored"`
	// Note says why nothing was tuned, e.g. "not root".
	Note string `json:"note,omitempty"`
}

// MonitorInfo names the sample columns.
type MonitorInfo struct {
	Policies  []Policy `json:"policies"`
	TempLabel string   `json:"temp_label"`
	Power     []Sensor `json:"power"`
	Firmware  bool     `json:"firmware"`
	// MemClock names the memory controller's devfreq device whose clock
	// the samples hold (Sample.MemClockMHz; schema 1.2); "" for none.
	MemClock string `json:"mem_clock,omitempty"`
	// Steal is true when sample lines show steal time (virtual machines).
	Steal bool `json:"steal,omitempty"`
	// Temps name the temperatures of each sample's temps, in order.
	Temps []Sensor `json:"temps,omitempty"`
}

// Phase is one step of a run with its figures and evidence.
type Phase struct {
	Name string `json:"name"`
	// Title is a human description, e.g. "7-Zip single-threaded on cpu4 (Cortex-A76)".
	Title     string     `json:"title"`
	CPUs      []int      `json:"cpus"`
	Status    string     `json:"status"`
	Reason    string     `json:"reason,omitempty"`
	StartedAt time.Time  `json:"started_at"`
	EndedAt   *time.Time `json:"ended_at"`
	DurationS float64    `json:"duration_s"`
	// TimingNotRecorded is true when the phase's source did not record
	// when it ran or for how long (a phase of an imported log):
	// StartedAt, EndedAt and DurationS, and the durations of its runs,
	// are then unknown, not zero. Views print "not recorded".
	TimingNotRecorded bool `json:"timing_not_recorded,omitempty"`
	// Figures are the phase's typed measurements (see docs/result.md).
	Figures json.RawMessage `json:"figures,omitempty"`
	// RawOutput is the external tool's output, unchanged.
	RawOutput string `json:"raw_output,omitempty"`
	// ExitStatus of an external command (monitor -- COMMAND), if any.
	ExitStatus *int `json:"exit_status,omitempty"`
	// Passive is true for a phase that watched the machine without loading
	// it (`boardbench writes`): other tasks' work is what it observes, not
	// interference, so the background-activity rule does not judge it.
	Passive bool `json:"passive,omitempty"`
	// Judgement is how the check rules judged the phase's evidence
	// (schema 1.1; nil in older results and for phases never judged).
	Judgement *Judgement `json:"judgement,omitempty"`
	Evidence
}

// Value is one per-CPU or per-core-type figure.
type Value struct {
	CPU   int     `json:"cpu"`
	Core  string  `json:"core"`
	Value float64 `json:"value"`
}

// Summary holds the headline figures users compare.
type Summary struct {
	// ClockMHz is the measured clock per cluster (one CPU each). A cluster
	// whose samples were all disturbed has no entry: see ClockAllDisturbed.
	ClockMHz []Value `json:"clock_mhz"`
	// ClockAllDisturbed are the clusters whose clock samples were all
	// disturbed by other tasks: Value is what they read (low), which is
	// not a figure of the machine.
	ClockAllDisturbed []Value `json:"clock_all_disturbed_mhz"`
	// SevenZipMultiMIPS is the headline multi-threaded 7-Zip figure: the
	// mean total rating of the valid multi-threaded runs (those neither
	// 7-Zip's own usage nor the phase's judgement shows as disturbed); nil
	// when no valid run is left (HeadlineNotes then says why). Every view
	// shows this number. In schema 1.0 it was the mean of all runs; Parse
	// migrates such documents (see SevenZipMultiMIPSAllRuns).
	SevenZipMultiMIPS *float64 `json:"sevenzip_multi_mips"`
	// SevenZipMultiMIPSAllRuns is the mean total rating of every
	// successful multi-threaded run, disturbed ones included (schema 1.1).
	SevenZipMultiMIPSAllRuns *float64 `json:"sevenzip_multi_mips_all_runs"`
	// SevenZipMultiRuns are the individual multi-threaded totals.
	SevenZipMultiRuns []float64 `json:"sevenzip_multi_runs"`
	// SevenZipMultiDisturbedRuns are the numbers (from 1) of the
	// multi-threaded runs whose own CPU usage shows that other tasks took
	// their CPUs (SevenZipFigures.LowUsageRuns).
	SevenZipMultiDisturbedRuns []int `json:"sevenzip_multi_disturbed_runs"`
	// SevenZipMultiMIPSUndisturbed is the mean total rating of the other
	// runs; nil when none succeeded. Since schema 1.1 it equals
	// SevenZipMultiMIPS; it is kept for readers of 1.0.
	SevenZipMultiMIPSUndisturbed *float64 `json:"sevenzip_multi_mips_undisturbed"`
	// SevenZipMultiBasis says which runs the headline stands on: "all
	// runs" when no run was disturbed, "undisturbed runs" when some were
	// left out; "" without a result.
	SevenZipMultiBasis string `json:"sevenzip_multi_basis"`
	// SevenZipSingleMIPS is the single-threaded total rating per core type
	// (valid runs only: a disturbed run is in Excluded).
	SevenZipSingleMIPS []Value `json:"sevenzip_single_mips"`
	// SevenZipSingleDisturbedCPUs are the CPUs whose single-threaded run
	// was disturbed (its usage was below SingleThreadMinUsagePct, or its
	// phase was judged disturbed): their figure is in Excluded.
	SevenZipSingleDisturbedCPUs []int `json:"sevenzip_single_disturbed_cpus"`
	// AES256At16K is AES-256-CBC throughput on 16 KiB blocks in kB/s
	// (1 kB = 1000 bytes), as openssl prints it.
	AES256At16K []Value `json:"aes256_16k"`
	MemcpyMBs   []Value `json:"memcpy_mb_s"`
	MemsetMBs   []Value `json:"memset_mb_s"`
	// StorageSummary holds the storage command's headline (nil for other commands).
	*StorageSummary
	// NetSummary holds the headline figures of `boardbench net`.
	*NetSummary
	// Workloads are the headline figures of the opt-in workload phases
	// (`run --workloads`) by name (schema 1.3); nil without any.
	Workloads *Workloads `json:"workloads,omitempty"`
	// Valid is false when a finding invalidates the figures.
	Valid bool `json:"valid"`
	// Verdict is a one-line human summary of validity.
	Verdict string `json:"verdict"`
	// Excluded are the figures measured under disturbance: kept, marked,
	// left out of the headline figures above (schema 1.1).
	Excluded []ExcludedFigure `json:"excluded_figures,omitempty"`
	// HeadlineNotes say why a headline figure that was measured is null
	// (schema 1.1).
	HeadlineNotes []HeadlineNote `json:"headline_notes,omitempty"`
	*SweepSummary
	*ThermalSummary
	*ImportedSummary
}

// The values of Summary.SevenZipMultiBasis.
const (
	BasisAllRuns         = "all runs"
	BasisUndisturbedRuns = "undisturbed runs"
)

// SevenZipMultiHeadline returns the multi-threaded 7-Zip headline, the
// mean of the valid runs (SevenZipMultiMIPS); nil when there is none.
func (s Summary) SevenZipMultiHeadline() *float64 { return s.SevenZipMultiMIPS }

// New returns a running result for a command. A result whose options
// hold "quick": true is a quick result (Quick).
func New(command string, info *inventory.Info, options map[string]any) *Result {
	quick, _ := options["quick"].(bool)
	return &Result{
		Quick:         quick,
		SchemaVersion: schema.Version,
		ID:            NewID(),
		Tool:          buildinfo.Get(),
		Command:       command,
		Status:        StatusRunning,
		StartedAt:     time.Now().UTC(),
		Options:       options,
		Info:          info,
		Phases:        []Phase{},
		Findings:      []finding.Finding{},
	}
}

// NewID returns a random result ID: 32 lowercase hex digits.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b[:])
}

// SetFigures stores typed figures in a phase.
// A float of v that is not a finite number is stored as null, with a note
// on the phase naming it (see Marshal).
func (p *Phase) SetFigures(v any) error {
	data, nulled, err := safejson.Marshal(v, safejson.Options{})
	if err != nil {
		return err
	}
	for i := range nulled {
		nulled[i] = "figures." + nulled[i]
	}
	addNonFiniteNotes(&p.Notes, nulled)
	p.Figures = data
	return nil
}

// maxNonFiniteNotes bounds the notes naming values that were not finite
// numbers; further ones share one note.
const maxNonFiniteNotes = 10

// nonFiniteSuffix ends each note naming a value that was not a finite
// number.
const nonFiniteSuffix = ": not a finite number; written as null"

// moreNonFinite is the note standing for the values beyond
// maxNonFiniteNotes.
const moreNonFinite = "more values that were not finite numbers were written as null"

// addNonFiniteNotes adds a note per path (as safejson.Marshal reports
// them) that notes lacks, and reports whether it added any.
func addNonFiniteNotes(notes *[]string, paths []string) bool {
	added := false
	for _, p := range paths {
		n := p + nonFiniteSuffix
		if slices.Contains(*notes, n) {
			continue
		}
		count := 0
		for _, x := range *notes {
			if strings.HasSuffix(x, nonFiniteSuffix) {
				count++
			}
		}
		if count >= maxNonFiniteNotes {
			n = moreNonFinite
			if slices.Contains(*notes, n) {
				continue
			}
		}
		*notes = append(*notes, n)
		added = true
	}
	return added
}

// Marshal returns r as the result file holds it: indented JSON with a
// final newline. JSON cannot hold a float that is not a finite number
// (NaN, ±Inf), and encoding/json refuses the whole document for one; here
// such a value is written as null — unknown — and a note in r.Notes names
// it, so that no value a source or a computation produces can make a save
// fail. Every writer of a result document (Save, the store, the views)
// goes through it.
func Marshal(r *Result) ([]byte, error) {
	o := safejson.Options{Indent: "  "}
	data, nulled, err := safejson.Marshal(r, o)
	if err != nil {
		return nil, err
	}
	if addNonFiniteNotes(&r.Notes, nulled) {
		if data, _, err = safejson.Marshal(r, o); err != nil {
			return nil, err
		}
	}
	return append(data, '\n'), nil
}

// MaxFileBytes is the largest result file Load reads (a result with every
// phase's raw output is a few MiB).
const MaxFileBytes = 256 << 20

// statuses are the run statuses a result may have.
var statuses = []string{StatusRunning, StatusComplete, StatusInterrupted, StatusFailed}

// Load reads a result file, refusing other documents, unknown statuses and
// other major versions. It reads only a regular file of at most
// MaxFileBytes: a FIFO or device named as a result is refused without
// being opened for reading. Errors name path and fit on one line.
func Load(path string) (*Result, error) {
	data, err := regfile.Read(path, MaxFileBytes, regfile.Follow)
	if err != nil {
		return nil, err
	}
	r, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return r, nil
}

// Parse decodes and validates a result document: JSON with a
// schema_version of a major version this boardbench reads
// ("MAJOR.MINOR", newer minor versions only add fields) and a known
// status.
func Parse(data []byte) (*Result, error) {
	var r Result
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("not a boardbench result: %v", err)
	}
	if r.SchemaVersion == "" || r.Status == "" {
		return nil, fmt.Errorf("not a boardbench result (no schema_version/status)")
	}
	if !schemaSupported(r.SchemaVersion) {
		return nil, fmt.Errorf("schema version %q is not supported by this boardbench (it reads %s.x)", truncate(r.SchemaVersion), major(schema.Version))
	}
	if !slices.Contains(statuses, r.Status) {
		return nil, fmt.Errorf("unknown status %q (want %s)", truncate(r.Status), strings.Join(statuses, ", "))
	}
	migrate(&r)
	return &r, nil
}

// migrate brings a schema 1.0 summary to 1.1: sevenzip_multi_mips became
// the headline (the mean of the runs not disturbed), the mean of all runs
// moved to sevenzip_multi_mips_all_runs. The document's schema_version
// is left as written.
func migrate(r *Result) {
	_, minor, _ := strings.Cut(r.SchemaVersion, ".")
	if minor != "0" {
		return
	}
	s := &r.Summary
	if s.SevenZipMultiMIPSAllRuns == nil {
		s.SevenZipMultiMIPSAllRuns = s.SevenZipMultiMIPS
	}
	if s.SevenZipMultiBasis == BasisUndisturbedRuns && s.SevenZipMultiMIPSUndisturbed != nil {
		s.SevenZipMultiMIPS = s.SevenZipMultiMIPSUndisturbed
	}
}

// schemaSupported reports whether v is "MAJOR.MINOR" in decimal with the
// major version of schema.Version.
func schemaSupported(v string) bool {
	maj, min, ok := strings.Cut(v, ".")
	return ok && maj == major(schema.Version) && isDecimal(min)
}

func major(v string) string { m, _, _ := strings.Cut(v, "."); return m }

func isDecimal(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// truncate keeps a value quoted in an error message short.
func truncate(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// Save writes r to path atomically (see package outfile): a temporary file
// in the same directory is written, synced and renamed over path, so
// readers and crashes only ever see a complete previous or new version. A
// path holding anything but a regular file (a device, a FIFO) is refused
// with an *outfile.RefusedError; callers check it with outfile.Check
// before a run starts.
func Save(path string, r *Result) error {
	data, err := Marshal(r)
	if err != nil {
		return err
	}
	return outfile.WriteFile(path, data)
}
