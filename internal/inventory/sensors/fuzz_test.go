package sensors

import (
	"math"
	"strings"
	"testing"
)

func FuzzParseValue(f *testing.F) {
	for _, s := range []string{"45277\n", "56", "-273150", "65535", "0", "4294967295", "9223372036854775807", "-9223372036854775808", "1e3", "\x00\xff", " 12 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, q := range quantitySpecs {
			v, _, err := ParseValue(q.quantity, s)
			if err != nil {
				continue
			}
			if math.IsNaN(v) || math.IsInf(v, 0) || v < q.spec.min || v > q.spec.max {
				t.Errorf("ParseValue(%s, %q) = %v accepted outside %v…%v", q.quantity, s, v, q.spec.min, q.spec.max)
			}
			if p := parseLimit(q.quantity, s); p != nil && (math.IsNaN(*p) || math.IsInf(*p, 0)) {
				t.Errorf("parseLimit(%s, %q) = %v", q.quantity, s, *p)
			}
		}
		if p := tripTemp(s); p != nil && (*p < -273.15 || *p > 1000) {
			t.Errorf("tripTemp(%q) = %v", s, *p)
		}
	})
}

func FuzzSoCScoreAndNames(f *testing.F) {
	f.Add("cpu-thermal")
	f.Add("thermal_zone007")
	f.Add("Package id 0")
	f.Fuzz(func(t *testing.T, s string) {
		score, what := socScore(s)
		if score > 0 && what == "" {
			t.Errorf("socScore(%q) = %d without a description", s, score)
		}
		for _, n := range numbered([]string{s, "thermal_zone1"}, "thermal_zone") {
			if !strings.HasPrefix(n, "thermal_zone") {
				t.Errorf("numbered kept %q", n)
			}
		}
	})
}
