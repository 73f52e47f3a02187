// Package sensors describes the machine's sensors (placeholder until implemented).
package sensors

import (
	"boardbench/internal/host"
	"boardbench/internal/note"
)

// Info is the Sensors section of a machine description.
type Info struct {
	Notes note.List `json:"notes,omitempty"`
}

// Collect describes the sensors of the machine behind h. It never fails.
func Collect(h *host.Host) Info {
	return Info{}
}
