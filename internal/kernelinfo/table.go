package kernelinfo

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// tableDate is the date of the longterm table built into the binary: what
// boardbench knows about kernel.org's series is "as of" this day.
var tableDate = day{2026, time.August, 22}

// NewestMainline is the newest mainline release as of the built-in table's
// date, used to tell an ended short-lived stable series from one newer
// than the table.
const NewestMainline = "7.2"

// Series is one kernel.org longterm series.
type Series struct {
	// Version is "MAJOR.MINOR", e.g. "6.1".
	Version string `json:"version"`
	// Released is the day the series' first release came out.
	Released time.Time `json:"released"`
	// EOL is the (projected, for series still maintained at the table's
	// date) end of life: the first day of the month kernel.org gives.
	EOL time.Time `json:"eol"`
	// Final is the last release of a series that had ended by the table's
	// date ("4.19.325"), "" for series still maintained or when not
	// recorded.
	Final string `json:"final,omitempty"`
}

// builtinSeries is a Series of the built-in table, as static data: days
// rather than time.Time values (which only a call can make), so that the
// table costs nothing when boardbench starts; Builtin converts it.
type builtinSeries struct {
	version       string
	released, eol day
	final         string
}

// longterm lists kernel.org's longterm series, newest first, as published
// on kernel.org's releases page (and its history in kernel.org's website
// repository) up to tableDate. Ended series carry the month of their last
// release as EOL.
var longterm = []builtinSeries{
	{"6.18", day{2025, time.November, 30}, day{2028, time.December, 1}, ""},
	{"6.12", day{2024, time.November, 17}, day{2028, time.December, 1}, ""},
	{"6.6", day{2023, time.October, 29}, day{2027, time.December, 1}, ""},
	{"6.1", day{2022, time.December, 11}, day{2027, time.December, 1}, ""},
	{"5.15", day{2021, time.October, 31}, day{2026, time.December, 1}, ""},
	{"5.10", day{2020, time.December, 13}, day{2026, time.December, 1}, ""},
	{"5.4", day{2019, time.November, 24}, day{2025, time.December, 1}, "5.4.302"},
	{"4.19", day{2018, time.October, 22}, day{2024, time.December, 1}, "4.19.325"},
	{"4.14", day{2017, time.November, 12}, day{2024, time.January, 1}, "4.14.336"},
	{"4.9", day{2016, time.December, 11}, day{2023, time.January, 1}, "4.9.337"},
	{"4.4", day{2016, time.January, 10}, day{2022, time.February, 1}, "4.4.302"},
	{"4.1", day{2015, time.June, 22}, day{2018, time.May, 1}, ""},
	{"3.18", day{2014, time.December, 7}, day{2017, time.January, 1}, ""},
	{"3.16", day{2014, time.August, 3}, day{2020, time.June, 1}, ""},
	{"3.14", day{2014, time.March, 30}, day{2016, time.September, 1}, ""},
	{"3.10", day{2013, time.June, 30}, day{2017, time.November, 1}, ""},
	{"3.4", day{2012, time.May, 20}, day{2016, time.October, 1}, ""},
	{"3.2", day{2012, time.January, 4}, day{2018, time.May, 1}, ""},
}

// day is a calendar day of the built-in table.
type day struct {
	y int
	m time.Month
	d int
}

// time returns the day's start in UTC.
func (d day) time() time.Time { return date(d.y, d.m, d.d) }

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// SourceBuiltin is Table.Source for the table built into the binary.
const SourceBuiltin = "built-in"

// Table is what boardbench knows about kernel.org's series, as of its
// date: the built-in table (Builtin) or one read from a file (ParseTable,
// `boardbench kernel --kernel-table FILE`).
type Table struct {
	// Date is the day the table is "as of".
	Date time.Time
	// NewestMainline is the newest mainline series as of Date ("7.2").
	NewestMainline string
	// Longterm are the longterm series, newest first.
	Longterm []Series
	// Source is SourceBuiltin or the file the table was read from.
	Source string
}

// Builtin returns the table built into the binary (a copy: changing it
// changes nothing else).
func Builtin() Table {
	series := make([]Series, len(longterm))
	for i, s := range longterm {
		series[i] = Series{Version: s.version, Released: s.released.time(), EOL: s.eol.time(), Final: s.final}
	}
	return Table{Date: tableDate.time(), NewestMainline: NewestMainline, Longterm: series, Source: SourceBuiltin}
}

// Find returns the longterm series of the table, nil when series is not
// one.
func (t Table) Find(series string) *Series {
	for i := range t.Longterm {
		if t.Longterm[i].Version == series {
			return &t.Longterm[i]
		}
	}
	return nil
}

// Age says how old the table is at now, in whole months: "3 months old",
// "less than a month old".
func (t Table) Age(now time.Time) string {
	m := 0
	if n := monthsBehind(&t.Date, now); n != nil {
		m = *n
	}
	switch m {
	case 0:
		return "less than a month old"
	case 1:
		return "1 month old"
	}
	return fmt.Sprintf("%d months old", m)
}

// maxTableLines bounds a table file (real ones have a few dozen lines).
const maxTableLines = 1000

// ParseTable reads a kernel table file (docs/kernel.md): one statement a
// line, '#' starting a comment,
//
//	date 2026-08-22
//	mainline 7.2
//	longterm 6.18 2025-11-30 2028-12
//	longterm 5.4 2019-11-24 2025-12 5.4.302
//
// "date" is the day the facts are as of, "mainline" the newest mainline
// series then, each "longterm" a series, the day of its first release,
// the month of its (projected) end of life and, for an ended series, its
// last release. date, mainline and at least one longterm are required;
// a series is listed once. Errors name the source and the line.
func ParseTable(data []byte, source string) (Table, error) {
	t := Table{Source: source}
	fail := func(n int, format string, args ...any) (Table, error) {
		return Table{}, fmt.Errorf("%s:%d: %s", source, n, fmt.Sprintf(format, args...))
	}
	lines := strings.Split(string(data), "\n")
	if len(lines) > maxTableLines {
		return Table{}, fmt.Errorf("%s: more than %d lines: not a kernel table", source, maxTableLines)
	}
	for i, line := range lines {
		n := i + 1
		if c, _, ok := strings.Cut(line, "#"); ok {
			line = c
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "date":
			if len(f) != 2 {
				return fail(n, "date takes one day (YYYY-MM-DD)")
			}
			d, err := time.Parse("2006-01-02", f[1])
			if err != nil {
				return fail(n, "date %q is not YYYY-MM-DD", f[1])
			}
			t.Date = d
		case "mainline":
			if len(f) != 2 || !validSeries(f[1]) {
				return fail(n, "mainline takes one series (MAJOR.MINOR)")
			}
			t.NewestMainline = f[1]
		case "longterm":
			if len(f) != 4 && len(f) != 5 {
				return fail(n, "longterm takes SERIES RELEASED(YYYY-MM-DD) EOL(YYYY-MM) [FINAL]")
			}
			if !validSeries(f[1]) {
				return fail(n, "series %q is not MAJOR.MINOR", f[1])
			}
			if t.Find(f[1]) != nil {
				return fail(n, "series %s listed twice", f[1])
			}
			rel, err := time.Parse("2006-01-02", f[2])
			if err != nil {
				return fail(n, "release day %q is not YYYY-MM-DD", f[2])
			}
			eol, err := time.Parse("2006-01", f[3])
			if err != nil {
				return fail(n, "end of life %q is not YYYY-MM", f[3])
			}
			if eol.Before(rel) {
				return fail(n, "series %s ends before its release", f[1])
			}
			s := Series{Version: f[1], Released: rel, EOL: eol}
			if len(f) == 5 {
				if sr, _, ok := SeriesOf(f[4]); !ok || sr != f[1] {
					return fail(n, "final release %q is not of series %s", f[4], f[1])
				}
				s.Final = f[4]
			}
			t.Longterm = append(t.Longterm, s)
		default:
			return fail(n, "unknown statement %q (date, mainline or longterm)", f[0])
		}
	}
	switch {
	case t.Date.IsZero():
		return Table{}, fmt.Errorf("%s: no date line", source)
	case t.NewestMainline == "":
		return Table{}, fmt.Errorf("%s: no mainline line", source)
	case len(t.Longterm) == 0:
		return Table{}, fmt.Errorf("%s: no longterm line", source)
	}
	slices.SortStableFunc(t.Longterm, func(a, b Series) int { return compareSeries(b.Version, a.Version) })
	return t, nil
}

// validSeries reports whether s is MAJOR.MINOR in digits.
func validSeries(s string) bool {
	maj, minor, ok := strings.Cut(s, ".")
	digits := func(x string) bool {
		return x != "" && len(x) <= 4 && strings.Trim(x, "0123456789") == ""
	}
	return ok && digits(maj) && digits(minor)
}
