// Package osinfo describes the machine's osinfo (placeholder until implemented).
package osinfo

import (
	"boardbench/internal/host"
	"boardbench/internal/note"
)

// Info is the OS section of a machine description.
type Info struct {
	Notes note.List `json:"notes,omitempty"`
}

// Collect describes the osinfo of the machine behind h. It never fails.
func Collect(h *host.Host) Info {
	return Info{}
}
