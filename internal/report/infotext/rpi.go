package infotext

import (
	"boardbench/internal/inventory"
	"boardbench/internal/textfmt"
)

func renderRaspberryPi(w *textfmt.Writer, in *inventory.Info) {}
