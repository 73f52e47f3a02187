// Package memory describes the machine's memory (placeholder until implemented).
package memory

import (
	"boardbench/internal/host"
	"boardbench/internal/note"
)

// Info is the Memory section of a machine description.
type Info struct {
	Notes note.List `json:"notes,omitempty"`
}

// Collect describes the memory of the machine behind h. It never fails.
func Collect(h *host.Host) Info {
	return Info{}
}
