package kernelfile

import (
	"slices"
	"testing"
)

func TestParseMMCLifeTime(t *testing.T) {
	tests := []struct {
		in   string
		a, b int64 // -1: nil
	}{
		{"0x01 0x02\n", 1, 2},
		{"0x0B 0x0a", 11, 10},
		{"01 0x00", 1, 0},
		{"0x01 zz", 1, -1},
		{"0x01", -1, -1},
		{"0x01 0x02 0x03", -1, -1},
		{"", -1, -1},
	}
	val := func(p *uint64) int64 {
		if p == nil {
			return -1
		}
		return int64(*p)
	}
	for _, tt := range tests {
		a, b := ParseMMCLifeTime(tt.in)
		if val(a) != tt.a || val(b) != tt.b {
			t.Errorf("ParseMMCLifeTime(%q) = %d, %d; want %d, %d", tt.in, val(a), val(b), tt.a, tt.b)
		}
	}
}

func TestParseFrequencyList(t *testing.T) {
	tests := []struct {
		in      string
		want    []int64
		wantErr bool
	}{
		{"408000 600000 816000 \n", []int64{408000, 600000, 816000}, false},
		{"1800000 408000 408000", []int64{1800000, 408000, 408000}, false},
		{"", []int64{}, false},
		{"408000 fast", nil, true},
		{"0", nil, true},
		{"-408000", nil, true},
	}
	for _, tt := range tests {
		got, err := ParseFrequencyList(tt.in)
		if (err != nil) != tt.wantErr || !tt.wantErr && !slices.Equal(got, tt.want) {
			t.Errorf("ParseFrequencyList(%q) = %v, %v; want %v (error %v)", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}
