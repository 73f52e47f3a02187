// Package rpi knows Raspberry Pi specifics: revision codes and the firmware's
// view of clocks, throttling and configuration through vcgencmd.
package rpi

import "boardbench/internal/host"

// Firmware is what the Raspberry Pi firmware reports.
type Firmware struct{}

// Collect asks the firmware through vcgencmd; nil when vcgencmd is absent.
func Collect(h *host.Host) *Firmware { return nil }
