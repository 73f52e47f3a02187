package monitor

import "boardbench/internal/power"

// measuresText says in words what a power source measures.
func measuresText(m string) string {
	switch m {
	case power.MeasuresWall:
		return "measures at the wall, power supply included"
	case power.MeasuresBoard:
		return "measures the board's input"
	case power.MeasuresSoC:
		return "measures the SoC side, not the wall"
	case power.MeasuresLimit:
		return "a supply limit, not a measurement"
	}
	return "what it measures depends on the meter"
}
