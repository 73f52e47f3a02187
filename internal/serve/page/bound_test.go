package page

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"boardbench/internal/chart"
	"boardbench/internal/result"
	"boardbench/internal/serve/servetest"
)

// maxPageBytes is what a page of a result with 100,000 monitor lines may
// weigh: the bounds (MaxReportBytes of text, MaxMonitorRows shown, charts
// of at most chart.MaxPoints points per line) make it about 0.5 MB,
// whatever the number of lines; before them it was 97 MB.
const maxPageBytes = 2 << 20

// pathPoints returns the number of points of the longest chart line of a
// page (internal/chart draws each as a polyline of "x,y" points).
func pathPoints(html string) int {
	most := 0
	for _, d := range regexp.MustCompile(`<polyline [^>]*\bpoints="([^"]*)"`).FindAllStringSubmatch(html, -1) {
		most = max(most, len(strings.Fields(d[1])))
	}
	return most
}

// TestHugeResultPageBounded renders a result with 100,000 imported
// monitor lines and 100,000 monitor samples: the page (served and
// standalone) stays within maxPageBytes, no chart line has more than
// chart.MaxPoints points, and the page says what it left out.
func TestHugeResultPageBounded(t *testing.T) {
	r, _ := servetest.Huge(0, 100_000)
	p, err := BuildResultContext(context.Background(), r, Charts)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Charts) == 0 {
		t.Fatal("no charts drawn")
	}
	var served bytes.Buffer
	if err := WriteResult(&served, p); err != nil {
		t.Fatal(err)
	}
	var standalone bytes.Buffer
	if err := WriteStandalone(context.Background(), &standalone, r, Charts); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string]*bytes.Buffer{"served page": &served, "report --html": &standalone} {
		html := b.String()
		if b.Len() > maxPageBytes {
			t.Errorf("%s: %d bytes, want at most %d", name, b.Len(), maxPageBytes)
		}
		if n := pathPoints(html); n > chart.MaxPoints {
			t.Errorf("%s: a chart line of %d points, want at most %d", name, n, chart.MaxPoints)
		}
		if n := pathPoints(html); n < chart.MaxPoints/2 {
			t.Errorf("%s: the longest chart line has %d points: the series were not drawn", name, n)
		}
		for _, want := range []string{`id="omitted"`, "show their first and last 50 lines only", "(continued; 99900 lines left out)"} {
			if !strings.Contains(html, want) {
				t.Errorf("%s does not say %q", name, want)
			}
		}
	}
	if strings.Contains(standalone.String(), "data:application/json") {
		t.Error("report --html embedded a raw JSON larger than MaxEmbeddedJSON")
	}
	if !strings.Contains(standalone.String(), "is not embedded in this file") {
		t.Error("report --html does not say the raw JSON was left out")
	}
	// Bound copies what it cuts: the result itself keeps everything.
	if f := result.ImportedOf(r); len(f.Monitoring[0].Rows) != 100_000 {
		t.Errorf("Bound changed the result: %d monitor rows left", len(f.Monitoring[0].Rows))
	}
}

// countdown is a context whose Err turns to context.Canceled after n
// calls: it stops the work part of the way through, wherever the
// renderer looks at it.
type countdown struct {
	context.Context
	n int
}

func (c *countdown) Err() error {
	if c.n <= 0 {
		return context.Canceled
	}
	c.n--
	return nil
}

// TestCancelledContextStopsRendering: an ended context (a request past
// its deadline) stops the rendering with the context's error, before it
// starts and part of the way through the charts.
func TestCancelledContextStopsRendering(t *testing.T) {
	r, _ := servetest.Huge(1, 100_000)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	charts := func(ctx context.Context, r *result.Result) ([]Chart, int, error) {
		called = true
		return Charts(ctx, r)
	}
	if _, err := BuildResultContext(ctx, r, charts); !errors.Is(err, context.Canceled) {
		t.Errorf("BuildResultContext(cancelled) = %v, want context.Canceled", err)
	}
	if called {
		t.Error("the charts were drawn for a cancelled request")
	}
	if err := WriteStandalone(ctx, &bytes.Buffer{}, r, Charts); !errors.Is(err, context.Canceled) {
		t.Errorf("WriteStandalone(cancelled) = %v, want context.Canceled", err)
	}
	for _, n := range []int{2, 3, 5, 20} {
		// The checks before the charts pass; the charts see the end.
		_, _, err := chart.ForResultContext(&countdown{Context: context.Background(), n: n}, r)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("charts cancelled after %d looks: %v, want context.Canceled", n, err)
		}
	}
}
