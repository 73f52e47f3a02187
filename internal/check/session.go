package check

import (
	"strings"

	"boardbench/internal/finding"
)

// IDRestoreFailed is the finding id of tunables the session's guard could
// not put back at the end.
const IDRestoreFailed = "restore_failed"

// RestoreFailed is the finding of a tuning guard that could not restore
// everything; err lists what, a line each.
func RestoreFailed(err error) finding.Finding {
	return finding.Finding{
		ID: IDRestoreFailed, Severity: finding.Warning, Title: "Some tunables could not be restored",
		Evidence: strings.Split(err.Error(), "\n"),
		Advice:   "Run boardbench restore; check the cpufreq governors and limits (a reboot restores the defaults).",
	}
}
