package cpu

import (
	"reflect"
	"testing"
)

func TestParseCPUList(t *testing.T) {
	tests := []struct {
		in      string
		want    []int
		wantErr bool
	}{
		{"", []int{}, false},
		{"\n", []int{}, false},
		{"0", []int{0}, false},
		{"0-3", []int{0, 1, 2, 3}, false},
		{"0-3,6", []int{0, 1, 2, 3, 6}, false},
		{"0-1,4-5\n", []int{0, 1, 4, 5}, false},
		{"0 1 2 3", []int{0, 1, 2, 3}, false}, // related_cpus format
		{"4 5 ", []int{4, 5}, false},
		{"6,2,2,0-1", []int{0, 1, 2, 6}, false},
		{"3-1", nil, true},
		{"a", nil, true},
		{"-1", nil, true},
		{"0-", nil, true},
		{"1-2-3", nil, true},
		{"0-4294967295", nil, true},
		{"0-3:1/2", nil, true},
	}
	for _, tt := range tests {
		got, err := ParseCPUList(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseCPUList(%q) error = %v, wantErr %v", tt.in, err, tt.wantErr)
			continue
		}
		if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseCPUList(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestParseCPUSelection(t *testing.T) {
	if got, err := ParseCPUSelection("6, 2-3,2"); err != nil || !reflect.DeepEqual(got, []int{2, 3, 6}) {
		t.Errorf("ParseCPUSelection = %v, %v", got, err)
	}
	for _, bad := range []string{"", ",", " \n", "a", "5-2"} {
		if got, err := ParseCPUSelection(bad); err == nil {
			t.Errorf("ParseCPUSelection(%q) = %v, want an error", bad, got)
		}
	}
}

func TestFormatCPUList(t *testing.T) {
	tests := []struct {
		in   []int
		want string
	}{
		{nil, ""},
		{[]int{0}, "0"},
		{[]int{0, 1, 2, 3}, "0-3"},
		{[]int{6, 0, 1, 2, 3}, "0-3,6"},
		{[]int{0, 0, 1, 5, 7, 8}, "0-1,5,7-8"},
	}
	for _, tt := range tests {
		if got := FormatCPUList(tt.in); got != tt.want {
			t.Errorf("FormatCPUList(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzParseCPUList checks that no input panics and that every accepted list
// survives a round trip through FormatCPUList.
func FuzzParseCPUList(f *testing.F) {
	for _, s := range []string{"0-3,6", "0 1 2 3", "", "0-65535", "7-3", "\x00\xff", "1,,2", "0-1,4-5\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ids, err := ParseCPUList(s)
		if err != nil {
			return
		}
		for i := 1; i < len(ids); i++ {
			if ids[i] <= ids[i-1] {
				t.Fatalf("ParseCPUList(%q) not sorted/unique: %v", s, ids)
			}
		}
		back, err := ParseCPUList(FormatCPUList(ids))
		if err != nil || !reflect.DeepEqual(back, ids) {
			t.Fatalf("round trip of %q: %v → %q → %v (%v)", s, ids, FormatCPUList(ids), back, err)
		}
	})
}
