package compare

import "testing"

func TestConditionLookups(t *testing.T) {
	for _, tc := range []struct {
		name          string
		onlyWhenKnown bool
		sameFunc      bool
	}{
		{"storage device", true, false},
		{"clocks measured", false, true},
		{"kernel", false, false},
		{"", false, false},
	} {
		if got := onlyWhenKnown(tc.name); got != tc.onlyWhenKnown {
			t.Errorf("onlyWhenKnown(%q) = %v, want %v", tc.name, got, tc.onlyWhenKnown)
		}
		if got := sameCondition(tc.name) != nil; got != tc.sameFunc {
			t.Errorf("sameCondition(%q) != nil is %v, want %v", tc.name, got, tc.sameFunc)
		}
	}
	// Every condition these name is one conditions lists.
	for _, name := range []string{"storage device", "clocks measured"} {
		found := false
		for _, cf := range conditionFuncs {
			found = found || cf.name == name
		}
		if !found {
			t.Errorf("%q is not a condition", name)
		}
	}
}

func TestOtherLabel(t *testing.T) {
	for _, tc := range []struct {
		figure, name, unit string
		ok                 bool
	}{
		{"cpuminer_khs", "cpuminer scrypt hash rate", "kH/s", true},
		{"sevenzip_multi_mips", "", "", false},
		{"", "", "", false},
	} {
		if name, unit, ok := otherLabel(tc.figure); name != tc.name || unit != tc.unit || ok != tc.ok {
			t.Errorf("otherLabel(%q) = %q, %q, %v; want %q, %q, %v", tc.figure, name, unit, ok, tc.name, tc.unit, tc.ok)
		}
	}
}
