// Package buses describes the machine's buses (placeholder until implemented).
package buses

import (
	"boardbench/internal/host"
	"boardbench/internal/note"
)

// Info is the Buses section of a machine description.
type Info struct {
	Notes note.List `json:"notes,omitempty"`
}

// Collect describes the buses of the machine behind h. It never fails.
func Collect(h *host.Host, redact bool) Info {
	return Info{}
}
