package kernelinfo

import "time"

// TableDate is the date of the longterm table built into the binary: what
// boardbench knows about kernel.org's series is "as of" this day.
var TableDate = date(2025, time.July, 1)

// NewestMainline is the newest mainline release as of TableDate, used to
// tell an ended short-lived stable series from one newer than the table.
const NewestMainline = "6.15"

// Series is one kernel.org longterm series.
type Series struct {
	// Version is "MAJOR.MINOR", e.g. "6.1".
	Version string `json:"version"`
	// Released is the day the series' first release came out.
	Released time.Time `json:"released"`
	// EOL is the (projected, for series still maintained at TableDate)
	// end of life: the first day of the month kernel.org gives.
	EOL time.Time `json:"eol"`
	// Final is the last release of a series that had ended by TableDate
	// ("4.19.325"), "" for series still maintained or when not recorded.
	Final string `json:"final,omitempty"`
}

// Longterm lists kernel.org's longterm series, newest first, as published
// on kernel.org's releases page and its archived versions up to TableDate.
// Ended series carry the month of their last release as EOL.
var Longterm = []Series{
	{Version: "6.12", Released: date(2024, time.November, 17), EOL: date(2026, time.December, 1)},
	{Version: "6.6", Released: date(2023, time.October, 29), EOL: date(2026, time.December, 1)},
	{Version: "6.1", Released: date(2022, time.December, 11), EOL: date(2027, time.December, 1)},
	{Version: "5.15", Released: date(2021, time.October, 31), EOL: date(2026, time.December, 1)},
	{Version: "5.10", Released: date(2020, time.December, 13), EOL: date(2026, time.December, 1)},
	{Version: "5.4", Released: date(2019, time.November, 24), EOL: date(2025, time.December, 1)},
	{Version: "4.19", Released: date(2018, time.October, 22), EOL: date(2024, time.December, 1), Final: "4.19.325"},
	{Version: "4.14", Released: date(2017, time.November, 12), EOL: date(2024, time.January, 1), Final: "4.14.336"},
	{Version: "4.9", Released: date(2016, time.December, 11), EOL: date(2023, time.January, 1), Final: "4.9.337"},
	{Version: "4.4", Released: date(2016, time.January, 10), EOL: date(2022, time.February, 1), Final: "4.4.302"},
	{Version: "4.1", Released: date(2015, time.June, 22), EOL: date(2018, time.May, 1)},
	{Version: "3.18", Released: date(2014, time.December, 7), EOL: date(2017, time.January, 1)},
	{Version: "3.16", Released: date(2014, time.August, 3), EOL: date(2020, time.June, 1)},
	{Version: "3.14", Released: date(2014, time.March, 30), EOL: date(2016, time.September, 1)},
	{Version: "3.10", Released: date(2013, time.June, 30), EOL: date(2017, time.November, 1)},
	{Version: "3.4", Released: date(2012, time.May, 20), EOL: date(2016, time.October, 1)},
	{Version: "3.2", Released: date(2012, time.January, 4), EOL: date(2018, time.May, 1)},
}

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
