package soc

// FromCompatible names the SoC that a list of device-tree compatible
// strings (most specific first) names, by the same table and vendor
// patterns the board's own guess uses, with the string that named it;
// "" and "" when none does. `boardbench import` uses it on the compatible
// strings a benchmark log printed.
func FromCompatible(compatible []string) (name, matched string) {
	return socFromCompatible(compatible)
}
