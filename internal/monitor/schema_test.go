package monitor

import (
	"encoding/json"
	"testing"

	"boardbench/internal/testutil/fill"
)

// sameJSON fails when a and b do not marshal to the same JSON.
func sameJSON(t *testing.T, name string, a, b any) {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if string(ja) != string(jb) {
		t.Errorf("%s: the conversion changes the JSON:\n%s\n%s", name, ja, jb)
	}
}

// TestToResultKeepsEveryField: the result schema's copy of the evidence
// and the columns has every field of the monitor's, under the same names,
// and nil and empty slices stay apart.
func TestToResultKeepsEveryField(t *testing.T) {
	var e Evidence
	fill.All(&e)
	sameJSON(t, "evidence", e, e.ToResult())
	var ps []Policy
	fill.All(&ps)
	sameJSON(t, "policies", ps, ResultPolicies(ps))
	var ss []Sensor
	fill.All(&ss)
	sameJSON(t, "sensors", ss, ResultSensors(ss))
	sameJSON(t, "empty evidence", Evidence{}, Evidence{}.ToResult())
	sameJSON(t, "empty samples", Evidence{Samples: []Sample{}}, Evidence{Samples: []Sample{}}.ToResult())
	var s Sample
	fill.All(&s)
	if got := SampleOf(e.ToResult().Samples[0]); Line(Columns{}, got) != Line(Columns{}, e.Samples[0]) {
		t.Errorf("SampleOf does not give the sample back")
	}
}
