package mem

import (
	"boardbench/internal/note"
	"boardbench/internal/result"
)

// Report is the JSON document of `boardbench mem`. Its per-CPU results and
// its total are the figures of the memory phases of a `boardbench run`
// result (result.MemFigures, result.MemAllCoresFigures), made by the same
// measurement (package memmeasure).
type Report struct {
	SchemaVersion string              `json:"schema_version"`
	Results       []result.MemFigures `json:"results"`
	// Total is nil when fewer than two CPUs can be used.
	Total *result.MemAllCoresFigures `json:"total"`
	// MemClock is the memory controller's clock while each of Results was
	// measured (same order; null entries where none was sampled), and
	// TotalMemClock while Total was (schema 1.2).
	MemClock      []*result.MemClock `json:"mem_clock"`
	TotalMemClock *result.MemClock   `json:"total_mem_clock"`
	// Notes are about the whole measurement; each result has its own.
	Notes note.List `json:"notes"`
	// Valid and Verdict are the measurement's verdict (result.Summary).
	Valid   bool   `json:"valid"`
	Verdict string `json:"verdict"`
}
