package sbcimport

import (
	"boardbench/internal/lazyre"
	"strings"
)

// validation reads the "Results validation" section: bulleted lines up to
// a blank line.
func (p *parser) validation(i int) int {
	p.log.HasValidation = true
	j := i + 1
	for ; j < len(p.lines); j++ {
		line := strings.TrimSpace(p.lines[j])
		if line == "" {
			if len(p.log.Validation) > 0 {
				break
			}
			continue
		}
		item, ok := strings.CutPrefix(line, "* ")
		if !ok {
			break
		}
		p.log.Validation = append(p.log.Validation, strings.TrimSpace(item))
	}
	return j - 1
}

// reWarning matches the validation lines that report a problem; the others
// say a check passed or describe a setting.
var reWarning = lazyre.Regexp(`(?i)occured|occurred|too much|powercap|advertised vs\. measured|^swapping|zswap|might have|mismatch between advertised.*:`)

// reOK matches the lines that say a check passed.
var reOK = lazyre.Regexp(`(?i)^no (throttling|swapping|mismatch)|\bOK$|not lower than`)

// IsValidationWarning reports whether a validation line reports a problem.
func IsValidationWarning(line string) bool {
	return !reOK.MatchString(line) && reWarning.MatchString(line)
}

// IsThrottlingLine reports whether a validation line says the CPU was
// throttled (the log's row then marks its clockspeed "(throttled)").
func IsThrottlingLine(line string) bool {
	return strings.HasPrefix(line, "Throttling occured") || strings.HasPrefix(line, "Throttling occurred")
}
