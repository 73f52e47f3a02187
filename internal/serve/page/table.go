package page

import (
	"html/template"

	"boardbench/internal/store"
)

// Table is the content of the results table page.
type Table struct {
	Frame
	// Query is the filter in force (shown in the form).
	Query store.Query
	// Sort and Dir are the sort key and direction ("asc", "desc") in force.
	Sort, Dir string
	SoCs      []string
	// Kind is the kind parameter in force ("" for DefaultKinds, "all",
	// or one kind); Kinds are the store's kinds (the menu); DefaultKinds
	// says which kinds "" shows ("run and import").
	Kind, DefaultKinds string
	Kinds              []string
	Columns            []Column
	Rows               []Row
	Total              int
	// More says that Total is a bound: more than Total results match (a
	// filtered total is counted only up to serve.CountUpTo), and Pages
	// is not known.
	More     bool
	From, To int
	Page     int
	Pages    int
	// Prev and Next link the neighbouring pages ("" at the ends).
	Prev, Next template.URL
}

// Column is a sortable column header.
type Column struct {
	Key, Title, Arrow string
	// Link sorts by the column; "" for a column that cannot be sorted,
	// whose Note (its header's title) says why.
	Link   template.URL
	Note   string
	Sorted bool
}

// Row is one result in the table.
type Row struct {
	ID, Device, Clock, Kernel, Distro                  string
	SevenZipMulti, SevenZipSingle, AES, Memcpy, Memset string
	SevenZipMultiRaw                                   string
	// DistroShort is Distro as the table shows it, without the words
	// every Debian-family name repeats ("Debian 12 (bookworm)"); the
	// cell's title has Distro whole.
	DistroShort          string
	SoC, CoreTypes, Date string
	Valid                bool
	// FindingsTitle lists the findings of an invalid result (hover text).
	FindingsTitle string
	Tags          []string
	// TagLinks link each tag to the table filtered by it.
	TagLinks []Link
	// Kind is the command that made the result, or "import".
	Kind string
	// Quick marks a result of a quick mode: its figures do not compare
	// with the standard results beside it.
	Quick bool
}

// Link is a text and the URL it links to.
type Link struct {
	Text string
	URL  template.URL
}

// Compare is the content of the comparison page.
type Compare struct {
	Frame
	Results []CompareResult
	// Rows come with the differing conditions first.
	Rows []CompareRow
	// Text is the text comparison, when one was made.
	Text string
	// Notes warn about what the figures cannot say (compare's notes: a
	// quick result beside standard ones), shown above the table.
	Notes []string
}

// CompareResult heads one column of the comparison.
type CompareResult struct{ ID, Device, Date string }

// CompareRow is one condition or figure across the compared results.
type CompareRow struct {
	Name    string
	Values  []string
	Differs bool
}
