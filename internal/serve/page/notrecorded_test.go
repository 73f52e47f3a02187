package page

import (
	"bytes"
	"strings"
	"testing"

	"boardbench/internal/result"
)

// TestDurationNotRecorded: a phase whose source did not record its timing
// (an imported log) shows "not recorded" in the phases table, not 0.0 s.
func TestDurationNotRecorded(t *testing.T) {
	r := result.New(result.CommandImport, nil, nil)
	r.Phases = []result.Phase{{Name: result.PhaseImportedLog, Title: "imported", Status: result.PhaseOK, TimingNotRecorded: true}}
	var b bytes.Buffer
	if err := WriteResult(&b, BuildResult(r, nil)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, `<td class="num">not recorded</td>`) || strings.Contains(out, "0.0 s") {
		t.Errorf("phases table does not say the duration is not recorded:\n%s", out)
	}
}
