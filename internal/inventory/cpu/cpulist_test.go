package cpu

import (
	"reflect"
	"strings"
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

func TestParseSelection(t *testing.T) {
	eight := []int{0, 1, 2, 3, 4, 5, 6, 7}
	tests := []struct {
		in      string
		allowed []int
		want    []int
		wantErr string // a part of the message; "" for success
	}{
		{"0", eight, []int{0}, ""},
		{"6, 2-3,2", eight, []int{2, 3, 6}, ""},
		{"4-7,0", eight, []int{0, 4, 5, 6, 7}, ""},
		{"1,1,2", eight, []int{1, 2}, ""}, // duplicates count once
		{"0-3,2-5", eight, []int{0, 1, 2, 3, 4, 5}, ""},
		{" 3 ", eight, []int{3}, ""},
		{"", eight, nil, "empty CPU list"},
		{" \n", eight, nil, "empty CPU list"},
		{",", eight, nil, "empty element"},
		{"0,,1", eight, nil, "empty element"},
		{"0,", eight, nil, "empty element"},
		{",1", eight, nil, "empty element"},
		{"a", eight, nil, "not a CPU number"},
		{"-1", eight, nil, "not a CPU number"},
		{"0-", eight, nil, "not a CPU number"},
		{"1-2-3", eight, nil, "not a CPU number"},
		{"0 1", eight, nil, "not a CPU number"},
		{"5-2", eight, nil, "reversed range"},
		{"3-1", eight, nil, "reversed range"},
		{"0-999999", eight, nil, "above 65535"},
		{"0-99999", eight, nil, "above 65535"},
		{"100000", eight, nil, "above 65535"},
		{"99", []int{0, 1}, nil, "cpu99 is not available to this process (available: 0-1)"},
		{"1-2", []int{0, 1}, nil, "cpu2 is not available"},
		{"0", nil, nil, "(available: none)"},
	}
	for _, tt := range tests {
		got, err := ParseSelection(tt.in, tt.allowed)
		if tt.wantErr == "" {
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseSelection(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseSelection(%q) = %v, %v; want an error with %q", tt.in, got, err, tt.wantErr)
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
		{[]int{0, 2, 4}, "0,2,4"},
		{[]int{0, 1, 2, 3, 6, 8, 9}, "0-3,6,8-9"},
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

func TestFormatCPUMask(t *testing.T) {
	tests := []struct {
		cpus []int
		want string
	}{
		{[]int{0}, "1"},
		{[]int{1, 2, 3}, "e"},
		{[]int{0, 1, 2, 3}, "f"},
		{[]int{4, 5}, "30"},
		{[]int{0, 1, 2, 3, 4, 5, 6, 7}, "ff"},
		{[]int{32}, "1,00000000"},
		{[]int{0, 32}, "1,00000001"},
		{[]int{0, 1, 2, 3, 4, 5, 6, 7, 32, 33, 34, 35}, "f,000000ff"},
		{[]int{-1, 2}, "4"},
		{nil, "0"},
	}
	for _, tt := range tests {
		if got := FormatCPUMask(tt.cpus); got != tt.want {
			t.Errorf("FormatCPUMask(%v) = %q, want %q", tt.cpus, got, tt.want)
		}
	}
}
