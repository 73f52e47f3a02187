// Package infotext renders a machine description (inventory.Info) as the
// human-readable text of `boardbench info`: one section per topic, aligned
// tables, units on every figure, "unknown" or the reason where a fact is
// missing.
package infotext

import (
	"io"

	"boardbench/internal/inventory"
	"boardbench/internal/textfmt"
)

// Render writes the text description of in to w.
func Render(w io.Writer, in *inventory.Info, color bool) {
	tw := textfmt.New(w, color)
	renderOS(tw, in)
	renderBoard(tw, in)
	renderCPU(tw, in)
	renderMemory(tw, in)
	renderDevfreq(tw, in)
	renderOPPSelection(tw, in)
	renderSensors(tw, in)
	renderStorage(tw, in)
	renderBuses(tw, in)
	renderNetwork(tw, in)
	renderRaspberryPi(tw, in)
}
