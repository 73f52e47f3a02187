package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"boardbench/internal/finding"
	"boardbench/internal/result"
)

// Printer is how the engine prints a finished measurement: the command's
// view of its figures, then the verdict and each disturbed figure on its
// own line, then (on standard error) where the result was written.
type Printer struct {
	// Out receives the view (standard output; standard error for
	// monitor, whose command owns standard output); nil prints nothing.
	Out io.Writer
	// JSON prints the JSON document instead of the text view: JSONDoc's
	// value when set, else the result. The verdict is then in the
	// document (or, for a document without it, on standard error when it
	// is not valid).
	JSON    bool
	JSONDoc func(*result.Result) any
	// Text writes the command's text view of the result; nil writes
	// none (only the verdict).
	Text func(w io.Writer, r *result.Result)
	// Summary, when set, is used instead of Text: a view that needs the
	// outcome (where the result was written).
	Summary func(w io.Writer, out *Outcome)
	// Fallback receives the result's JSON when no file could be written
	// at all (nil: Out).
	Fallback io.Writer
	// TextHasVerdict says that Text shows the verdict and the disturbed
	// figures itself (the full report of run).
	TextHasVerdict bool
	// SaysWhere says that Text names the result file itself, so the
	// engine's line "result written to" is left out.
	SaysWhere bool
	// Silent, when set and true at the end, prints nothing on Out: the
	// command's error says all in one line (e.g. a peer that cannot be
	// used).
	Silent func() bool
}

// print writes the outcome (see Printer). err is the command's error:
// a failed save names the file itself, so "written to" is left out.
func (p Printer) print(command string, out *Outcome, err error, warn io.Writer) {
	res := out.Result
	if p.Out != nil && (p.Silent == nil || !p.Silent()) {
		switch {
		case p.JSON:
			var doc any = res
			if p.JSONDoc != nil {
				doc = p.JSONDoc(res)
			}
			writeJSON(p.Out, doc)
			if _, isResult := doc.(*result.Result); !isResult && !res.Summary.Valid && warn != nil {
				fmt.Fprintf(warn, "boardbench %s: %s\n", command, res.Summary.Verdict)
			}
		default:
			switch {
			case p.Summary != nil:
				p.Summary(p.Out, out)
			case p.Text != nil:
				p.Text(p.Out, res)
			}
			if !p.TextHasVerdict {
				WriteVerdict(p.Out, res)
			}
			var se *ErrSave
			if errors.As(err, &se) && out.Path == "" {
				// Nowhere to keep the figures but the output itself.
				w := p.Fallback
				if w == nil {
					w = p.Out
				}
				writeJSON(w, res)
			}
		}
	}
	var se *ErrSave
	if warn != nil && !p.SaysWhere && out.Path != "" && !errors.As(err, &se) {
		fmt.Fprintf(warn, "boardbench %s: result written to %s (status %s)\n", command, out.Path, res.Status)
	}
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// WriteVerdict writes the verdict of r ("Verdict: …") and, below it, one
// line per figure a finding disturbed: the phase's title and the finding
// ("  disturbed: Memory on cpu0 (Cortex-A53): Other tasks used the CPU").
// Every measuring command prints it with its figures.
func WriteVerdict(w io.Writer, r *result.Result) {
	fmt.Fprintf(w, "\nVerdict: %s\n", r.Summary.Verdict)
	for _, l := range DisturbedLines(r) {
		fmt.Fprintf(w, "  disturbed: %s\n", l)
	}
}

// DisturbedLines names each phase (figure) that a warning or an
// invalidating finding concerns, with the finding's title, in the order
// of the phases; a finding about the whole result names no phase and is
// left to the verdict line.
func DisturbedLines(r *result.Result) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range r.Phases {
		if p.Status == result.PhaseSkipped {
			continue
		}
		for _, f := range r.Findings {
			if f.Severity.Rank() < finding.Warning.Rank() || !concerns(f, p, r) {
				continue
			}
			title := p.Title
			if title == "" {
				title = p.Name
			}
			l := title + ": " + strings.TrimSuffix(f.Title, ".") + " (" + f.ID + ")"
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	return out
}

// concerns reports whether finding f names phase p, by its name or its
// title. Several phases may share a name (mem's per-CPU phases are all
// "memory"): a finding about disturbed figures then concerns only those
// of them that were judged disturbed or had a figure left out, so that
// one hogged CPU does not mark every CPU's figures.
func concerns(f finding.Finding, p result.Phase, r *result.Result) bool {
	for _, name := range f.Phases {
		if name == p.Title && p.Title != "" {
			return true
		}
		if name != p.Name {
			continue
		}
		if !disturbedID(f.ID) || sharedName(r, p.Name) < 2 {
			return true
		}
		return p.IsDisturbed() || excludedFrom(r, p)
	}
	return false
}

// disturbedID reports whether id is one of the findings about figures
// judged disturbed phase by phase (check.DisturbedFigures).
func disturbedID(id string) bool {
	return id == "disturbed_figures" || id == "disturbed_runs"
}

// sharedName counts the phases of r named name.
func sharedName(r *result.Result, name string) int {
	n := 0
	for _, q := range r.Phases {
		if q.Name == name {
			n++
		}
	}
	return n
}

// excludedFrom reports whether a figure of phase p was left out of a
// headline: an excluded figure of p's name on one of p's CPUs (any, when
// the figure names no CPU).
func excludedFrom(r *result.Result, p result.Phase) bool {
	for _, e := range r.Summary.Excluded {
		if e.Phase != p.Name {
			continue
		}
		if e.CPU != nil {
			if slices.Contains(p.CPUs, *e.CPU) {
				return true
			}
			continue
		}
		if p.Name != result.PhaseSweepSingle && p.Name != result.PhaseSweepMulti {
			return true
		}
		// A sweep step's figures name no CPU: judge the step itself.
		var f result.SweepFigures
		if json.Unmarshal(p.Figures, &f) == nil {
			if bad, _ := result.SweepStepDisturbed(p, f); bad {
				return true
			}
		}
	}
	return false
}

// NotValidError ends a command whose measurement finished with a verdict
// that is not valid: exit status 3, distinct from a failure (1), bad
// input (2) and an interruption (130), so that a script notices. Its
// message, the verdict, was already printed with the figures.
type NotValidError struct{ Verdict string }

// Error is the verdict.
func (e *NotValidError) Error() string { return e.Verdict }

// ExitCode is 3.
func (e *NotValidError) ExitCode() int { return ExitNotValid }

// AlreadyReported is true: the verdict was printed with the figures.
func (e *NotValidError) AlreadyReported() bool { return true }

// ExitNotValid is the exit status of a measurement that ended not valid.
const ExitNotValid = 3

// NewPrinter returns how a measuring command's outcome is printed on out
// (standard output): the JSON document with asJSON (doc's value when doc
// is set, else the result), else text (the command's view of its
// figures) followed by the verdict.
func NewPrinter(out io.Writer, asJSON bool, doc func(*result.Result) any, text func(w io.Writer, r *result.Result)) Printer {
	return Printer{Out: out, JSON: asJSON, JSONDoc: doc, Text: text}
}
