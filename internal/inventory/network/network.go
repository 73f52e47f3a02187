// Package network describes the machine's network (placeholder until implemented).
package network

import (
	"boardbench/internal/host"
	"boardbench/internal/note"
)

// Info is the Network section of a machine description.
type Info struct {
	Notes note.List `json:"notes,omitempty"`
}

// Collect describes the network of the machine behind h. It never fails.
func Collect(h *host.Host, redact bool) Info {
	return Info{}
}
