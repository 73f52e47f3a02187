package soc

import (
	"regexp"
	"strings"
	"testing"
)

// TestCompatiblePatternVendor checks that every pattern starts with the
// literal "vendor," its guard uses, so the guard never hides a match.
func TestCompatiblePatternVendor(t *testing.T) {
	lit := regexp.MustCompile(`^\^[a-z0-9-]+,`)
	for _, p := range compatiblePatterns {
		v := p.vendor()
		if v == "" || !lit.MatchString(p.re.String()) || !strings.HasPrefix(p.re.String(), "^"+v) {
			t.Errorf("pattern %q: vendor %q is not its literal start", p.re.String(), v)
		}
	}
}
