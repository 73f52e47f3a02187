// Package storage describes the machine's storage (placeholder until implemented).
package storage

import (
	"boardbench/internal/host"
	"boardbench/internal/note"
)

// Info is the Storage section of a machine description.
type Info struct {
	Notes note.List `json:"notes,omitempty"`
}

// Collect describes the storage of the machine behind h. It never fails.
func Collect(h *host.Host, redact bool) Info {
	return Info{}
}
