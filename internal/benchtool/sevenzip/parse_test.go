package sevenzip

import (
	"errors"
	"strings"
	"testing"

	"boardbench/internal/testutil/fixture"
	"boardbench/internal/tools"
)

// p7zip920 is laid out as p7zip 9.20 prints it: KB/s, no separator on Avr.
const p7zip920 = `
7-Zip (A) 9.20  Copyright (c) 1999-2010 Igor Pavlov  2010-11-18
p7zip Version 9.20 (locale=en_US.UTF-8,Utf16=on,HugeFiles=on,4 CPUs)

RAM size:    2010 MB,  # CPU hardware threads:   4
RAM usage:    850 MB,  # Benchmark threads:      4

Dict        Compressing          |        Decompressing
      Speed Usage    R/U Rating  |    Speed Usage    R/U Rating
       KB/s     %   MIPS   MIPS  |     KB/s     %   MIPS   MIPS

22:    1596   294    528   1552  |    39774   396    906   3588
23:    1578   298    540   1608  |    39249   396    907   3591
----------------------------------------------------------------
Avr:          296    534   1580               396    906   3590
Tot:          346    720   2585
`

// p7zip1602 is laid out as p7zip 16.02 prints it.
const p7zip1602 = `
7-Zip (a) [64] 16.02 : Copyright (c) 1999-2016 Igor Pavlov : 2016-05-21
p7zip Version 16.02 (locale=C,Utf16=off,HugeFiles=on,64 bits,6 CPUs LE)

LE
CPU Freq:  1819  1880  1883  1883  1884  1884  1884  1884  1884

RAM size:    3712 MB,  # CPU hardware threads:   6
RAM usage:   1323 MB,  # Benchmark threads:      6

                       Compressing  |                  Decompressing
Dict     Speed Usage    R/U Rating  |      Speed Usage    R/U Rating
         KiB/s     %   MIPS   MIPS  |      KiB/s     %   MIPS   MIPS

22:       6143   542   1103   5976  |     119945   545   1877  10229
23:       6046   555   1109   6160  |     116792   544   1856  10106
----------------------------------  | ------------------------------
Avr:             549   1106   6068  |              545   1867  10168
Tot:             547   1486   8118
`

func TestParse(t *testing.T) {
	tests := []struct {
		name        string
		out         string
		wantVersion string
		wantFlavor  tools.Flavor
		wantThreads int
		wantRAM     int64
		wantRows    int
		wantTot     Total
		wantAvrC    int64
		wantSpeed   bool // Avr line carries speeds
		wantFreq    int
	}{
		{"p7zip 9.20", p7zip920, "9.20", tools.FlavorP7zip, 4, 2010 << 20, 2, Total{346, 720, 2585}, 1580, false, 0},
		{"p7zip 16.02", p7zip1602, "16.02", tools.FlavorP7zip, 6, 3712 << 20, 2, Total{547, 1486, 8118}, 6068, false, 1},
		{"7zz 26.02 single-threaded", fixture.ReadTestdata(t, "7zz-26.02-x64-mmt1-md18.txt"), "26.02", tools.FlavorSevenZip, 1, 24152 << 20, 1, Total{100, 4210, 4214}, 5612, true, 1},
		{"7zz 26.02 multi-threaded", fixture.ReadTestdata(t, "7zz-26.02-x64-md18.txt"), "26.02", tools.FlavorSevenZip, 2, 24152 << 20, 1, Total{172, 5465, 8851}, 11278, true, 3},
		{"Debian 12 7z wrapper", fixture.ReadTestdata(t, "7z-debian12-wrapper-mmt1-md18.txt"), "26.02", tools.FlavorP7zipWrapper, 1, 24152 << 20, 1, Total{91, 4429, 4047}, 5142, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(tt.out)
			if err != nil {
				t.Fatal(err)
			}
			if r.Version != tt.wantVersion || r.Flavor != tt.wantFlavor {
				t.Errorf("version %q flavor %q, want %q %q", r.Version, r.Flavor, tt.wantVersion, tt.wantFlavor)
			}
			if r.BenchmarkThreads == nil || *r.BenchmarkThreads != tt.wantThreads {
				t.Errorf("benchmark threads = %v, want %d", r.BenchmarkThreads, tt.wantThreads)
			}
			if r.RAMSizeBytes == nil || *r.RAMSizeBytes != tt.wantRAM {
				t.Errorf("RAM size = %v, want %d", r.RAMSizeBytes, tt.wantRAM)
			}
			if len(r.Rows) != tt.wantRows {
				t.Errorf("rows = %d, want %d", len(r.Rows), tt.wantRows)
			}
			if r.Total != tt.wantTot {
				t.Errorf("Tot = %+v, want %+v", r.Total, tt.wantTot)
			}
			if r.Average == nil || r.Average.Compress.RatingMIPS != tt.wantAvrC {
				t.Fatalf("Avr = %+v, want compression rating %d", r.Average, tt.wantAvrC)
			}
			if (r.Average.Compress.SpeedKiBs != nil) != tt.wantSpeed {
				t.Errorf("Avr speed present = %v, want %v", r.Average.Compress.SpeedKiBs != nil, tt.wantSpeed)
			}
			if len(r.CPUFreqLines) != tt.wantFreq {
				t.Errorf("CPU Freq lines = %q, want %d", r.CPUFreqLines, tt.wantFreq)
			}
			if len(r.Notes) != 0 {
				t.Errorf("notes = %+v, want none", r.Notes)
			}
			row := r.Rows[0]
			if row.DictBytes != int64(1)<<row.DictLog2 || row.Compress.SpeedKiBs == nil || row.Decompress.RatingMIPS <= 0 {
				t.Errorf("first row = %+v", row)
			}
		})
	}
}

func TestParseRowValues(t *testing.T) {
	r, err := Parse(p7zip1602)
	if err != nil {
		t.Fatal(err)
	}
	got := r.Rows[1]
	if got.DictLog2 != 23 || got.DictBytes != 8<<20 || *got.Compress.SpeedKiBs != 6046 || got.Compress.UsagePct != 555 ||
		got.Compress.RUMIPS != 1109 || got.Compress.RatingMIPS != 6160 || *got.Decompress.SpeedKiBs != 116792 ||
		got.Decompress.UsagePct != 544 || got.Decompress.RUMIPS != 1856 || got.Decompress.RatingMIPS != 10106 {
		t.Errorf("row 23 = %+v", got)
	}
}

func TestParseFailures(t *testing.T) {
	tests := []struct {
		name      string
		out       string
		wantErr   error
		wantParse bool // a partial Result is returned
	}{
		{"empty", "", ErrNoResult, false},
		{"junk", "\x00\x01garbage\nTot: x y z\n", ErrNoResult, false},
		{"cut off before Tot", p7zip1602[:len(p7zip1602)-40], ErrNoResult, true},
		{"no memory", "\n7-Zip (a) [32] 16.02 : Copyright (c) 1999-2016 Igor Pavlov : 2016-05-21\n\nRAM size:     481 MB,  # CPU hardware threads:   4\nRAM usage:    882 MB,  # Benchmark threads:      4\n\nERROR: Can't allocate required memory!\n", ErrNoMemory, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(tt.out)
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if (r != nil) != tt.wantParse {
				t.Errorf("partial result = %+v, want present %v", r, tt.wantParse)
			}
		})
	}
}

func TestParseMalformedRowsAreNoted(t *testing.T) {
	out := p7zip1602[:len(p7zip1602)-1] + "\n"
	out = strings.Replace(out, "23:       6046   555   1109   6160", "23:       6046   555   xx   6160", 1)
	r, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) != 1 || len(r.Notes) != 1 || r.Notes[0].Item != "row 23" {
		t.Errorf("rows %d notes %+v, want 1 row and a note for row 23", len(r.Rows), r.Notes)
	}
}

func TestParseAll(t *testing.T) {
	out := "header\n" + p7zip920 + "\nsomething else\n" + p7zip1602 + "\n" + p7zip1602[:200]
	all, err := ParseAll(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].Version != "9.20" || all[1].Version != "16.02" {
		t.Errorf("ParseAll = %d results, want 9.20 and 16.02 (incomplete third dropped)", len(all))
	}
	if _, err := ParseAll("nothing"); !errors.Is(err, ErrNoResult) {
		t.Errorf("ParseAll(nothing) err = %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(p7zip920)
	f.Add(p7zip1602)
	f.Add("7-Zip Igor Pavlov\n22: 1 2 3 4 | 5 6 7 8\nAvr: 1 2 3 | 4\nTot: 1 2 3\n")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Parse(s)
		if err == nil && r == nil {
			t.Fatal("nil result without error")
		}
		_, _ = ParseAll(s)
	})
}
