package kernelfile

import "testing"

func TestParseBlockStat(t *testing.T) {
	cases := []struct {
		in   string
		want BlockStat
		ok   bool
	}{
		// A kernel 5.5+ line (17 fields) and an old one (11 fields).
		{"  844325   116225 21400442   269208   653824   758704 45627496   480500        0   237436   951254  1217465     1872 60585456   190499    79657    11045\n",
			BlockStat{Writes: 653824, Sectors: 45627496}, true},
		{"1 2 3 4 5 6 7 8 9 10 11", BlockStat{Writes: 5, Sectors: 7}, true},
		{"", BlockStat{}, false},
		{"1 2 3", BlockStat{}, false},
		{"1 2 3 4 x 6 7", BlockStat{}, false},
		{"1 2 3 4 5 6 -7", BlockStat{}, false},
	}
	for _, c := range cases {
		got, err := ParseBlockStat(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseBlockStat(%q) = %+v, %v", c.in, got, err)
		}
	}
	if s, err := ReadBlockStat(fakeReader{"/sys/class/block/sda/stat": "1 2 3 4 5 6 7 8 9 10 11\n"}, "sda"); err != nil || s.Writes != 5 {
		t.Errorf("ReadBlockStat = %+v, %v", s, err)
	}
	if _, err := ReadBlockStat(fakeReader{}, "sda"); err == nil {
		t.Error("ReadBlockStat of a missing file: no error")
	}
}

func TestParsePIDIO(t *testing.T) {
	cases := []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\nread_bytes: 5\nwrite_bytes: 40960\ncancelled_write_bytes: 0\n", 40960, true},
		{"rchar: 1\n", 0, false},
		{"write_bytes: lots\n", 0, false},
		{"write_bytes: -5\n", 0, false},
		{"", 0, false},
	}
	for _, c := range cases {
		if got, ok := ParsePIDIO(c.in); got != c.want || ok != c.ok {
			t.Errorf("ParsePIDIO(%q) = %d, %v", c.in, got, ok)
		}
	}
}
