package published

import (
	"strings"
	"testing"
)

func TestParseTableAndRounding(t *testing.T) {
	table := "# Results\n\n| Device / details | Clockspeed | Kernel | Distro | 7-zip multi | 7-zip single | AES | memcpy | memset | kH/s |\n" +
		"| ----- | :--------: | :----: | :----: | ----: | ------: | ------: | -----: | -----: | ---: |\n" +
		"| [Board A (RK3399)](results/1iZq.txt) | 1800/1400 MHz | 4.4 | Stretch arm64 | 6380 | 1741 | 1022600 | 4160 | 9000 | 9.36 |\n" +
		"| [Board B](http://ix.io/4a5U) | ~2290 | 5.10 | Jammy arm64 | 7469 | - | 42500 &ast;98560 | 440 | 2020 | - |\n" +
		"| not a row |\n"
	rows, err := ParseTable(strings.NewReader(table))
	if err != nil || len(rows) != 2 || rows[0].ID != "1iZq" || rows[1].ID != "4a5U" || rows[1].Device != "Board B" {
		t.Fatalf("rows %+v, err %v", rows, err)
	}
	if _, err := ParseTable(strings.NewReader("| a | b |\n")); err == nil {
		t.Error("a text without the table's header is accepted")
	}
	for _, tt := range []struct {
		cell     string
		imported float64
		agrees   bool
	}{
		{"1022600", 1022580.05, true}, // the oldest rows: to 100
		{"6380", 6384.9, true},
		{"6380", 6386, true}, // truncated
		{"6380", 6391, false},
		{"7469", 7469.4, true},
		{"7469", 7470, false},
		{"42500 &ast;98560", 42503, true},
		{"2000", 2040, false}, // steps above 10 only within 1% of the value
	} {
		v := tt.imported
		if o := compareNumber("x", tt.cell, &v); o.Agrees != tt.agrees {
			t.Errorf("%q vs %v: agrees %v, want %v (%s)", tt.cell, tt.imported, o.Agrees, tt.agrees, o.Note)
		}
	}
	if o := compareNumber("x", "-", nil); o.Compared {
		t.Error("a cell without a figure is compared")
	}
	if o := compareNumber("x", "6380", nil); !o.Compared || o.Agrees {
		t.Error("a figure not imported must count as a disagreement")
	}
}

func TestCompareClock(t *testing.T) {
	for _, tt := range []struct {
		table, imported string
		agrees          bool
	}{
		{"2400/1800 MHz", "2352/1800 MHz", true},
		{"1800/1900 MHz", "1896/1800 MHz", true}, // the table's order is its own
		{"2400/1800 MHz", "2352 MHz", false},
		{"2980/? MHz", "2980/1800 MHz", true},
		{"~2290", "2330 MHz", true},
		{"1000 MHz", "905 MHz", false},
		{"1400 MHz", "", false},
	} {
		if o := compareClock(tt.table, tt.imported); o.Agrees != tt.agrees {
			t.Errorf("%q vs %q: agrees %v, want %v (%s)", tt.table, tt.imported, o.Agrees, tt.agrees, o.Note)
		}
	}
}
