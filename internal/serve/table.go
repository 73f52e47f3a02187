package serve

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"boardbench/internal/serve/page"
	"boardbench/internal/store"
)

// Column is a sortable column of the results table.
type Column struct {
	// Key is the column's name in the sort parameter.
	Key, Title string
	// StoreSort is the store's sort key (a record column or a figure name).
	StoreSort string
	// Numeric columns sort largest first on the first click.
	Numeric bool
}

// Columns are the results table's sortable columns, in order: the
// published table's, then SoC, core types, date and validity. The table
// ends with the tags, which are not sortable.
var Columns = []Column{
	{"device", "Device", "board", false},
	{"clock", "Clock (MHz)", "clock_mhz.max", true},
	{"kernel", "Kernel", "kernel", false},
	{"distro", "Distribution", "distro", false},
	{"7zip-multi", "7-Zip multi", "sevenzip_multi_mips", true},
	{"7zip-single", "7-Zip single", "sevenzip_single_mips.max", true},
	{"aes", "AES-256 16 KiB (kB/s)", "aes256_16k.max", true},
	{"memcpy", "memcpy (MB/s)", "memcpy_mb_s.max", true},
	{"memset", "memset (MB/s)", "memset_mb_s.max", true},
	{"soc", "SoC", "soc", false},
	{"cores", "Core types", "core_types", false},
	{"date", "Date", "created_at", false},
	{"kind", "Kind", "kind", false},
	{"valid", "Validity", "valid", false},
}

// TagsNotSortable is the title of the Tags column's header: the last
// column, which the store cannot sort by (a result has any number of tags).
const TagsNotSortable = "not sortable: a result has any number of tags; filter by one with the tag field"

func columnByKey(key string) (Column, bool) {
	for _, c := range Columns {
		if c.Key == key {
			return c, true
		}
	}
	return Column{}, false
}

// DefaultKinds are the kinds the results table shows when no kind is
// asked for: the results of the standard benchmark and imported ones,
// which fill the published table's columns. Other commands' results
// (mem, c2c, storage, net…) are one menu choice away (kind=all or a kind).
var DefaultKinds = []string{"run", "import"}

// AllKinds is the kind parameter's value that selects every kind (but
// replays, which are listed only with kind=replay).
const AllKinds = "all"

// tableParams is a checked results-table request.
type tableParams struct {
	q         store.Query
	sort, dir string
	page, per int
	valid     bool
	// kind is the kind parameter as given: "" (DefaultKinds in the
	// table, every kind in the API), AllKinds or one kind.
	kind string
}

// withDefaultKinds returns p selecting DefaultKinds when no kind was
// asked for (the table's first screen).
func (p tableParams) withDefaultKinds() tableParams {
	if p.kind == "" {
		p.q.Kinds = DefaultKinds
	}
	return p
}

// parseTable checks the table's query parameters; any error is a 400.
func parseTable(v url.Values) (tableParams, error) {
	p := tableParams{sort: "date", dir: "desc", page: 1, per: DefaultPageSize}
	for name, vals := range v {
		if !knownTableParam(name) {
			return p, fmt.Errorf("unknown parameter %q", name)
		}
		if len(vals) > 1 {
			return p, fmt.Errorf("parameter %q given %d times", name, len(vals))
		}
	}
	text := func(name string) (string, error) {
		s := strings.TrimSpace(v.Get(name))
		if err := checkText(s); err != nil {
			return "", fmt.Errorf("%s: %v", name, err)
		}
		return s, nil
	}
	var err error
	if p.q.Text, err = text("q"); err != nil {
		return p, err
	}
	if p.q.SoC, err = text("soc"); err != nil {
		return p, err
	}
	if p.q.CoreType, err = text("core"); err != nil {
		return p, err
	}
	if p.q.Kernel, err = text("kernel"); err != nil {
		return p, err
	}
	if p.q.Tag, err = text("tag"); err != nil {
		return p, err
	}
	if p.kind, err = text("kind"); err != nil {
		return p, err
	}
	if p.kind != "" && p.kind != AllKinds {
		if !validKind(p.kind) {
			return p, fmt.Errorf("kind: a command name such as run, import or mem, or %q", AllKinds)
		}
		p.q.Kind = p.kind
	}
	switch v.Get("valid") {
	case "":
	case "1", "on", "true":
		p.q.ValidOnly = true
	default:
		return p, fmt.Errorf("valid: 1 or nothing")
	}
	if s := v.Get("sort"); s != "" {
		if _, ok := columnByKey(s); !ok {
			return p, fmt.Errorf("sort: no column %q", s)
		}
		p.sort = s
	}
	switch d := v.Get("dir"); d {
	case "":
	case "asc", "desc":
		p.dir = d
	default:
		return p, fmt.Errorf("dir: asc or desc")
	}
	if p.page, err = intParam(v, "page", 1, 1, MaxPage); err != nil {
		return p, err
	}
	if p.per, err = intParam(v, "per", DefaultPageSize, 1, MaxPageSize); err != nil {
		return p, err
	}
	col, _ := columnByKey(p.sort)
	p.q.Sort, p.q.Desc = col.StoreSort, p.dir == "desc"
	p.q.Offset, p.q.Limit = (p.page-1)*p.per, p.per
	p.q.CountUpTo = CountUpTo
	return p, nil
}

// CountUpTo bounds the count of a filtered table: beyond it the page says
// "more than CountUpTo results" (the store keeps the totals of the
// unfiltered table and of the SoC and validity filters, which are exact
// at any size).
const CountUpTo = 1000

// validKind accepts a kind: lowercase letters, digits and '-', at most
// 32 of them.
func validKind(k string) bool {
	if len(k) > 32 {
		return false
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return k != ""
}

// knownTableParam reports whether name is a query parameter of the results
// table.
func knownTableParam(name string) bool {
	switch name {
	case "q", "soc", "core", "kernel", "tag", "kind", "valid", "sort", "dir", "page", "per":
		return true
	}
	return false
}

// checkText accepts a filter value: at most MaxTextLen characters of
// valid UTF-8 without control characters.
func checkText(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("not valid UTF-8")
	}
	if utf8.RuneCountInString(s) > MaxTextLen {
		return fmt.Errorf("longer than %d characters", MaxTextLen)
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return fmt.Errorf("control character")
		}
	}
	return nil
}

func intParam(v url.Values, name string, def, lo, hi int) (int, error) {
	s := v.Get(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s: a whole number from %d to %d", name, lo, hi)
	}
	return n, nil
}

// link returns the table URL of p changed by edit.
func (p tableParams) link(edit func(*tableParams)) template.URL {
	c := p
	edit(&c)
	v := url.Values{}
	set := func(k, s string) {
		if s != "" {
			v.Set(k, s)
		}
	}
	set("q", c.q.Text)
	set("soc", c.q.SoC)
	set("core", c.q.CoreType)
	set("kernel", c.q.Kernel)
	set("tag", c.q.Tag)
	set("kind", c.kind)
	if c.q.ValidOnly {
		v.Set("valid", "1")
	}
	if c.sort != "date" || c.dir != "desc" {
		v.Set("sort", c.sort)
		v.Set("dir", c.dir)
	}
	if c.page > 1 {
		v.Set("page", strconv.Itoa(c.page))
	}
	if c.per != DefaultPageSize {
		v.Set("per", strconv.Itoa(c.per))
	}
	if len(v) == 0 {
		return "/"
	}
	return template.URL("/?" + v.Encode())
}

func (s *Server) table(w http.ResponseWriter, r *http.Request) {
	v, err := queryValues(r)
	if err != nil {
		s.badRequest(w, err.Error())
		return
	}
	p, err := parseTable(v)
	if err != nil {
		s.badRequest(w, err.Error())
		return
	}
	p = p.withDefaultKinds()
	recs, total, err := s.cfg.Store.List(r.Context(), p.q)
	if err != nil {
		s.storeError(w, r, err)
		return
	}
	t := page.Table{Query: p.q, Sort: p.sort, Dir: p.dir, Total: total, Page: p.page, SoCs: s.socList(r.Context()),
		Kind: p.kind, Kinds: s.kindList(r.Context()), DefaultKinds: strings.Join(DefaultKinds, " and ")}
	if total > CountUpTo && !store.TotalKept(p.q) {
		// Counted up to CountUpTo only: the number of pages is not known.
		t.Total, t.More = CountUpTo, true
		total = max(p.q.Offset+len(recs), CountUpTo)
		if len(recs) == p.per {
			total++ // a next page may hold more
		}
	}
	t.Pages = max(1, (total+p.per-1)/p.per)
	if total > 0 && len(recs) > 0 {
		t.From, t.To = p.q.Offset+1, p.q.Offset+len(recs)
	}
	for _, c := range Columns {
		col := page.Column{Key: c.Key, Title: c.Title, Sorted: c.Key == p.sort}
		dir := "asc"
		if c.Numeric || c.Key == "date" {
			dir = "desc"
		}
		if col.Sorted {
			if p.dir == "asc" {
				col.Arrow, dir = " ▲", "desc"
			} else {
				col.Arrow, dir = " ▼", "asc"
			}
		}
		col.Link = p.link(func(q *tableParams) { q.sort, q.dir, q.page = c.Key, dir, 1 })
		t.Columns = append(t.Columns, col)
	}
	t.Columns = append(t.Columns, page.Column{Key: "tags", Title: "Tags", Note: TagsNotSortable})
	for _, rc := range recs {
		row := rowOf(rc)
		for _, tag := range rc.Tags {
			row.TagLinks = append(row.TagLinks, page.Link{Text: tag, URL: p.link(func(q *tableParams) { q.q.Tag, q.page = tag, 1 })})
		}
		t.Rows = append(t.Rows, row)
	}
	if p.page > 1 {
		t.Prev = p.link(func(q *tableParams) { q.page = min(p.page-1, t.Pages) })
	}
	if p.page < t.Pages {
		t.Next = p.link(func(q *tableParams) { q.page++ })
	}
	s.render(w, r, func(b *bytes.Buffer) error { return page.WriteTable(b, t) })
}

// rowOf returns the table row of a record, from its indexed columns only.
func rowOf(rc store.Record) page.Row {
	fig := func(name string, unit string) string {
		v, ok := rc.Figures[name]
		if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
			return "-"
		}
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64) + unit
	}
	row := page.Row{ID: rc.ID, Device: rc.Board, Kernel: rc.Kernel, Distro: rc.Distro,
		Clock: fig("clock_mhz.max", ""), SevenZipMulti: fig("sevenzip_multi_mips", ""), SevenZipSingle: fig("sevenzip_single_mips.max", ""),
		AES: fig("aes256_16k.max", ""), Memcpy: fig("memcpy_mb_s.max", ""), Memset: fig("memset_mb_s.max", ""),
		SoC: rc.SoC, CoreTypes: rc.CoreTypes, Valid: rc.Valid, Tags: rc.Tags, Quick: rc.Quick, Kind: rc.Kind}
	if v, ok := rc.Figures["sevenzip_multi_mips"]; ok {
		row.SevenZipMultiRaw = strconv.FormatFloat(v, 'f', -1, 64)
	}
	row.DistroShort = strings.Replace(rc.Distro, " GNU/Linux", "", 1)
	if row.Device == "" {
		row.Device = rc.Host
	}
	if row.Device == "" {
		row.Device = "unknown"
	}
	if !rc.CreatedAt.IsZero() {
		row.Date = rc.CreatedAt.UTC().Format("2006-01-02")
	}
	if !rc.Valid {
		row.FindingsTitle = "not valid"
		if len(rc.FindingIDs) > 0 {
			row.FindingsTitle = "findings: " + strings.Join(rc.FindingIDs, ", ")
		}
		if rc.Status != "" && rc.Status != "complete" {
			row.FindingsTitle += " (run " + rc.Status + ")"
		}
	}
	return row
}

// TableQuery returns the store query of a results-table request's query
// parameters (the page's filters, sort, offset, size and count bound),
// as the table builds it (DefaultKinds when no kind is asked for); any
// error is what the table
// answers 400 with. scripts/benchlab -explain uses it to show the plans
// of serve's pages.
func TableQuery(v url.Values) (store.Query, error) {
	p, err := parseTable(v)
	return p.withDefaultKinds().q, err
}
