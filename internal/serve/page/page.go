// Package page renders boardbench's HTML pages: the result page (shared by
// `boardbench serve` and `boardbench report --html`), the results table,
// the comparison and error pages. Templates and the style sheet are
// embedded; every page is one document with its CSS inline, server-made
// SVG charts and no script, so it works offline and without JavaScript.
// All text goes through html/template's contextual escaping.
package page

import (
	"bytes"
	"embed"
	"encoding/base64"
	"encoding/json"
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
	css       = sync.OnceValue(func() template.CSS { return mustRead("templates/style.css") })
	templates = sync.OnceValue(func() *template.Template {
		return template.Must(template.New("").Funcs(template.FuncMap{"join": strings.Join}).ParseFS(files, "templates/*.html"))
	})
)

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

// ChartFunc makes the charts of a result.
type ChartFunc func(r *result.Result) ([]Chart, error)

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
	Valid                                              bool
	// RawJSON is the link to the result's JSON; RawDownload, when set,
	// names the file the browser saves it as.
	RawJSON, RawDownload string
	Headline             []Headline
	Findings             []finding.Finding
	Charts               []Chart
	ChartNote            string
	Phases               []PhaseRow
	// Text is the text report, as `boardbench report` prints it.
	Text string
}

// PhaseRow is one line of the phases table.
type PhaseRow struct {
	Name, Title, CPUs, Status, Reason string
	DurationS                         float64
	// DurationNotRecorded: see result.Phase.TimingNotRecorded.
	DurationNotRecorded bool
}

// BuildResult returns the page content of r. charts may be nil; a chart
// failure is said on the page, never fatal.
func BuildResult(r *result.Result, charts ChartFunc) Result {
	p := Result{ID: r.ID, Command: r.Command, Status: r.Status, Started: r.StartedAt.UTC().Format("2006-01-02 15:04 UTC"),
		Valid: r.Summary.Valid, Verdict: r.Summary.Verdict, Findings: r.Findings}
	cols := mdrow.Compute(r)
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
	for _, ph := range r.Phases {
		p.Phases = append(p.Phases, PhaseRow{Name: ph.Name, Title: ph.Title, CPUs: cpu.FormatCPUList(ph.CPUs), Status: ph.Status, Reason: ph.Reason, DurationS: ph.DurationS,
			DurationNotRecorded: ph.TimingNotRecorded})
	}
	var text bytes.Buffer
	runtext.Render(&text, r, false)
	p.Text = text.String()
	if charts != nil {
		cs, err := charts(r)
		if err != nil {
			p.ChartNote = "charts could not be drawn: " + err.Error()
		}
		p.Charts = cs
	}
	return p
}

// WriteResult writes the server's result page of p.
func WriteResult(w io.Writer, p Result) error {
	return templates().ExecuteTemplate(w, "result", struct {
		Frame
		Result Result
	}{NewFrame(p.Device, true), p})
}

// WriteStandalone writes r as one self-contained HTML file: the result
// page with its CSS and charts inline, the raw JSON as a data: link, and
// no link or request leaving the file.
func WriteStandalone(w io.Writer, r *result.Result, charts ChartFunc) error {
	p := BuildResult(r, charts)
	doc, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	p.RawJSON = "data:application/json;base64," + base64.StdEncoding.EncodeToString(doc)
	p.RawDownload = "boardbench-result.json"
	if r.ID != "" {
		p.RawDownload = "boardbench-" + r.ID + ".json"
	}
	// A data: URL is not a safe URL to html/template; it is ours, built
	// from base64 only.
	return templates().ExecuteTemplate(w, "result", struct {
		Frame
		Result resultWithURL
	}{NewFrame(p.Device, false), resultWithURL{p, template.URL(p.RawJSON)}})
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
