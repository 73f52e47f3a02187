package review

import (
	"strings"
	"testing"
	"unicode/utf8"

	"boardbench/internal/testutil/fixture"
	"boardbench/internal/textfmt"
)

// TestSettingsTableReadable renders a review with long paths and values:
// every line fits in textfmt.MaxWidth, each directory is shown once, each
// file name whole, and every word of a long value is there (wrapped, not
// cut).
func TestSettingsTableReadable(t *testing.T) {
	const vulns = "/sys/devices/system/cpu/vulnerabilities/"
	spectre := "Mitigation: Enhanced / Automatic IBRS; IBPB: conditional; RSB filling; " +
		"PBRSB-eIBRS: SW sequence; BHI: BHI_DIS_S; and a tail that makes the value longer than one line of the table"
	cmdline := "console=ttyS2,1500000 root=PARTUUID=614e0000-0000 rw rootwait " + strings.Repeat("x", 130) + " quiet"
	r := Run(fixture.Host(t, fixture.Merge(base, map[string]string{
		vulns + "spectre_v2":        spectre + "\n",
		vulns + "meltdown":          "Not affected\n",
		vulns + "spec_store_bypass": "Mitigation: Speculative Store Bypass disabled via prctl\n",
		"/proc/cmdline":             cmdline + "\n",
	})), now)
	var sb strings.Builder
	Render(&sb, r, false)
	out := sb.String()
	table := out[strings.Index(out, "Settings read"):]
	for _, l := range strings.Split(table, "\n") {
		if n := utf8.RuneCountInString(l); n > textfmt.MaxWidth {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
	if n := strings.Count(table, vulns); n != 1 {
		t.Errorf("%s shown %d times in the table, want once:\n%s", vulns, n, table)
	}
	for _, name := range []string{"spectre_v2", "meltdown", "spec_store_bypass"} {
		if !strings.Contains(table, " "+name+" ") {
			t.Errorf("file name %s not shown whole:\n%s", name, table)
		}
	}
	if n := strings.Count(table, "x"); n != 130 {
		t.Errorf("the 130-letter word of /proc/cmdline shows %d of its letters", n)
	}
	for _, v := range []string{spectre, cmdline} {
		for _, word := range strings.Fields(v) {
			if !strings.Contains(word, "xxx") && !strings.Contains(table, word) {
				t.Errorf("word %q of a value missing (cut?):\n%s", word, table)
			}
		}
	}
	if strings.Contains(table, "...") {
		t.Errorf("a value was shortened with ...:\n%s", table)
	}
}
