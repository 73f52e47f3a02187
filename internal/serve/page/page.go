// Package page renders boardbench's HTML pages: the result page (shared by
// `boardbench serve` and `boardbench report --html`), the results table,
// the comparison and error pages. Templates and the style sheet are
// embedded; every page is one document with its CSS inline, server-made
// SVG charts and no script, so it works offline and without JavaScript.
// All text goes through html/template's contextual escaping.
package page

import (
	"context"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"

	"boardbench/internal/finding"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/report/mdrow"
	"boardbench/internal/report/runtext"
	"boardbench/internal/result"
)

//go:embed templates
var files embed.FS

// The style sheet and the templates are read when a page is first made,
// not when boardbench starts (most commands make no page).
var (
	sheet struct {
		once sync.Once
		css  template.CSS
	}
	parsed struct {
		once sync.Once
		t    *template.Template
	}
)

// css returns the style sheet, read on the first call.
func css() template.CSS {
	sheet.once.Do(func() { sheet.css = mustRead("templates/style.css") })
	return sheet.css
}

// templates returns the pages' templates, parsed on the first call.
func templates() *template.Template {
	parsed.once.Do(func() {
		parsed.t = template.Must(template.New("").Funcs(template.FuncMap{"join": strings.Join, "pct": func(v *float64) string { return fmt.Sprintf("%.0f%%", 100**v) }}).ParseFS(files, "templates/*.html"))
	})
	return parsed.t
}

func mustRead(name string) template.CSS {
	b, err := files.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return template.CSS(b)
}

// Chart is one server-made SVG chart of a result.
type Chart struct {
	Name, Title string
	// SVG is the chart's markup, made by boardbench (trusted, not escaped).
	SVG template.HTML
}

// ChartFunc makes the charts of a result, stopping with ctx's error when
// ctx ends; omitted counts the charts it left out (a bound).
type ChartFunc func(ctx context.Context, r *result.Result) (charts []Chart, omitted int, err error)

// Frame is what every page's layout needs.
type Frame struct {
	Title string
	CSS   template.CSS
	// Nav links back to the results table (the server's pages).
	Nav bool
}

// NewFrame returns the frame of a page titled title.
func NewFrame(title string, nav bool) Frame { return Frame{Title: title, CSS: css(), Nav: nav} }

// Headline is one cell of the published row.
type Headline struct{ Name, Value string }

// Result is the content of the result page.
type Result struct {
	ID, Device, SoC, Command, Status, Started, Verdict string
	// Maker is the tool and version that made the figures
	// (result.Maker: "boardbench 0.1.0", "sbc-bench 0.9.72"), Importer
	// "imported by boardbench …" for an imported result.
	Maker, Importer string
	// Tags are the result's tags in the store (none for a file); in the
	// server's page TagLinks link each to the table filtered by it.
	Tags     []string
	TagLinks []Link
	Valid    bool
	// RawJSON is the link to the result's JSON; RawDownload, when set,
	// names the file the browser saves it as.
	RawJSON, RawDownload string
	Headline             []Headline
	// Tables are the figures of a storage, net, sweep or thermal result
	// as tables of their own; such a result has no Headline (the
	// published row's CPU columns, which it never fills).
	Tables    []FigureTable
	Findings  []finding.Finding
	Charts    []Chart
	ChartNote string
	Phases    []PhaseRow
	// Text is the text report, as `boardbench report` prints it (bounded:
	// see Bound).
	Text string
	// Omitted says what the page left out to stay bounded, one line per
	// part (MaxFindings, MaxPhases, monitor lines, the text report's
	// length); the raw JSON has all of it.
	Omitted []string
	// Reference places the headline figures among published results;
	// nil for commands without them.
	Reference *Placement
}

// PhaseRow is one line of the phases table.
type PhaseRow struct {
	Name, Title, CPUs, Status, Reason string
	DurationS                         float64
	// DurationNotRecorded: see result.Phase.TimingNotRecorded.
	DurationNotRecorded bool
}

// BuildResult returns the page content of r. charts may be nil; a chart
// failure is said on the page, never fatal. It is BuildResultContext
// without a deadline.
func BuildResult(r *result.Result, charts ChartFunc) Result {
	p, _ := BuildResultContext(context.Background(), r, charts)
	return p
}

// BuildResultContext returns the page content of r, bounded whatever r
// holds (see Bound): a result with a hundred thousand monitor lines
// makes a page of the same order of size as one with a hundred. It stops
// with ctx's error when ctx ends (a request's deadline).
func BuildResultContext(ctx context.Context, r *result.Result, charts ChartFunc) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	full := r
	r, omitted := Bound(r)
	p := Result{ID: r.ID, Command: r.Command, Status: r.Status, Started: r.StartedAt.UTC().Format("2006-01-02 15:04 UTC"),
		Valid: r.Summary.Valid, Verdict: r.Summary.Verdict, Findings: r.Findings, Omitted: omitted,
		Maker: result.Maker(full), Importer: result.Importer(full)}
	cols := mdrow.Compute(full)
	p.Device = cols.Device
	if r.Info != nil {
		p.SoC = r.Info.SoC.Guess
	}
	names := []string{"Device / details", "Clockspeed", "Kernel", "Distro", "7-zip multi", "7-zip single", "AES", "memcpy", "memset", "kH/s"}
	for i, c := range cols.Cells() {
		if i < len(names) {
			p.Headline = append(p.Headline, Headline{names[i], c})
		}
	}
	p.Tables = figureTables(full)
	if ownTables(r.Command) {
		p.Headline = nil
	}
	for _, ph := range r.Phases {
		p.Phases = append(p.Phases, PhaseRow{Name: ph.Name, Title: ph.Title, CPUs: cpu.FormatCPUList(ph.CPUs), Status: ph.Status, Reason: ph.Reason, DurationS: ph.DurationS,
			DurationNotRecorded: ph.TimingNotRecorded})
	}
	if p.Reference = buildPlacement(r); p.Reference != nil {
		p.Reference.ResultID = r.ID
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	text := &capWriter{max: MaxReportBytes}
	runtext.Render(text, r, false)
	p.Text = strings.ToValidUTF8(text.b.String(), "")
	if text.cut > 0 {
		p.Text += "\n…\n"
		p.Omitted = append(p.Omitted, fmt.Sprintf("the text report is cut after %d bytes (%d more); `boardbench report` prints all of it", MaxReportBytes, text.cut))
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if charts != nil {
		cs, n, err := charts(ctx, full)
		switch {
		case err != nil && ctx.Err() != nil:
			return Result{}, ctx.Err()
		case err != nil:
			p.ChartNote = "charts could not be drawn: " + err.Error()
		case n > 0:
			p.ChartNote = fmt.Sprintf("%d more charts are left out (a page draws at most %d)", n, len(cs))
		}
		p.Charts = cs
	}
	return p, nil
}

// WriteResult writes the server's result page of p.
func WriteResult(w io.Writer, p Result) error {
	return templates().ExecuteTemplate(w, "result", struct {
		Frame
		Result Result
	}{NewFrame(p.Device, true), p})
}

// WriteStandalone writes r as one self-contained HTML file: the result
// page with its CSS and charts inline, the raw JSON as a data: link when
// it is at most MaxEmbeddedJSON bytes, and no link or request leaving the
// file. It stops with ctx's error when ctx ends.
func WriteStandalone(ctx context.Context, w io.Writer, r *result.Result, charts ChartFunc) error {
	return WriteStandaloneTagged(ctx, w, r, nil, charts)
}

// WriteStandaloneTagged is WriteStandalone for a stored result: the page
// also shows its tags in the store.
func WriteStandaloneTagged(ctx context.Context, w io.Writer, r *result.Result, tags []string, charts ChartFunc) error {
	p, err := BuildResultContext(ctx, r, charts)
	if err != nil {
		return err
	}
	p.Tags = tags
	if p.Reference != nil {
		p.Reference.Key = "" // no link may leave the file
	}
	doc, err := result.Marshal(r)
	if err != nil {
		return err
	}
	var raw template.URL
	if len(doc) <= MaxEmbeddedJSON {
		raw = template.URL("data:application/json;base64," + base64.StdEncoding.EncodeToString(doc))
		p.RawDownload = "boardbench-result.json"
		if r.ID != "" {
			p.RawDownload = "boardbench-" + r.ID + ".json"
		}
	} else {
		p.Omitted = append(p.Omitted, fmt.Sprintf("the raw JSON (%s) is not embedded in this file (the limit is %s); it is the result file or `boardbench results show ID --json`",
			sizeText(len(doc)), sizeText(MaxEmbeddedJSON)))
	}
	// A data: URL is not a safe URL to html/template; it is ours, built
	// from base64 only.
	return templates().ExecuteTemplate(w, "result", struct {
		Frame
		Result resultWithURL
	}{NewFrame(p.Device, false), resultWithURL{p, raw}})
}

// resultWithURL carries a data: URL the template must not filter.
type resultWithURL struct {
	Result
	RawJSON template.URL
}

// WriteError writes an error page.
func WriteError(w io.Writer, title, message string) error {
	return templates().ExecuteTemplate(w, "error", struct {
		Frame
		Message string
	}{NewFrame(title, true), message})
}

// WriteTable writes the results table page.
func WriteTable(w io.Writer, t Table) error {
	t.Frame = NewFrame("Results", true)
	return templates().ExecuteTemplate(w, "table", t)
}

// WriteCompare writes the comparison page.
func WriteCompare(w io.Writer, c Compare) error {
	c.Frame = NewFrame(fmt.Sprintf("Compare %d results", len(c.Results)), true)
	return templates().ExecuteTemplate(w, "compare", c)
}
