package check

import "boardbench/internal/finding"

// IDToolMissing is the finding id of a benchmark tool that is neither
// installed nor installable here.
const IDToolMissing = "tool_missing"

// ToolMissing is the finding of a missing tool: name is the tool ("7-Zip"),
// lost what its absence cost ("nothing could be measured"), reason why it
// is missing ("not installed: …") and hint how to install it.
func ToolMissing(name, lost, reason, hint string) finding.Finding {
	return finding.Finding{ID: IDToolMissing, Severity: finding.Warning,
		Title:    name + " is missing: " + lost,
		Evidence: []string{name + " " + reason},
		Advice:   hint}
}
