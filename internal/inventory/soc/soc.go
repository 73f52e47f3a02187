// Package soc identifies the board (device-tree model and compatible strings,
// Raspberry Pi revision, DMI) and guesses the SoC with the reason for the guess.
package soc

import (
	"boardbench/internal/host"
	"boardbench/internal/inventory/cpu"
)

// Board describes the board.
type Board struct{}

// SoC is the guessed system-on-chip.
type SoC struct {
	Guess  string `json:"guess"`
	Reason string `json:"reason"`
}

// Collect describes the board and guesses its SoC from h and the CPUs.
func Collect(h *host.Host, c cpu.Info, redact bool) (Board, SoC) { return Board{}, SoC{} }
