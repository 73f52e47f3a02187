package finding

import (
	"reflect"
	"testing"
)

func TestTextLines(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    Finding
		want []Line
	}{
		{"full", Finding{ID: "throttling", Severity: Warning, Title: "Clock throttled", Evidence: []string{"a", "b"}, Advice: "Cool it.", Phases: []string{"7zip", "mem"}},
			[]Line{{0, "[WARNING] throttling: Clock throttled"}, {6, "a"}, {6, "b"}, {4, "advice: Cool it."}, {4, "phases: 7zip, mem"}}},
		{"bare", Finding{Severity: Invalidates},
			[]Line{{0, "[INVALIDATES] -: -"}}},
		{"no severity", Finding{ID: "x", Title: "y"},
			[]Line{{0, "[UNKNOWN SEVERITY] x: y"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.f.TextLines(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
