package chart

import (
	"bytes"
	"context"
	"encoding/base64"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"boardbench/internal/testutil/need"

	"github.com/chromedp/chromedp"
)

// allCharts draws every chart of every fixture, and the compare charts of
// the imported logs and the synthetic run, named FIXTURE-CHART.
func allCharts(t *testing.T) map[string]Chart {
	t.Helper()
	out := map[string]Chart{}
	var items []Item
	for _, fx := range fixtures() {
		r := fx.result(t)
		cs, err := ForResult(r)
		if err != nil {
			t.Fatalf("%s: %v", fx.name, err)
		}
		if len(cs) == 0 {
			t.Fatalf("%s: no charts", fx.name)
		}
		for _, c := range cs {
			out[fx.name+"-"+c.Name] = c
		}
		if fx.name == "pi5-log" || fx.name == "rk3588-log" || fx.name == "storage" {
			items = append(items, Item{Label: fx.name, Result: r})
		}
	}
	cs, err := Compare(items)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		out["compare-"+c.Name] = c
	}
	return out
}

// TestPNG renders every chart type from the fixtures to PNG in headless
// Chromium, as a browser shows them inline in a page, and writes them to
// $BOARDBENCH_CHART_PNG (created when missing) to be looked at, else to a
// temporary directory. Each PNG has the chart's size and is not blank.
func TestPNG(t *testing.T) {
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		need.Missing(t, "chromium not installed (Debian package chromium)")
		t.SkipNow()
	}
	dir := os.Getenv("BOARDBENCH_CHART_PNG")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox,
		chromedp.WindowSize(Width+40, 1000), chromedp.Flag("disable-gpu", true))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancelC := chromedp.NewContext(actx)
	defer cancelC()
	ctx, cancelT := context.WithTimeout(ctx, 5*time.Minute)
	defer cancelT()
	charts := allCharts(t)
	kinds := map[string]bool{}
	for name, c := range charts {
		html := `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0;font:15px/1.45 system-ui,sans-serif}</style></head><body>` +
			string(c.SVG[bytes.Index(c.SVG, []byte("<svg")):]) + `</body></html>`
		if err := chromedp.Do(ctx, chromedp.Navigate("data:text/html;base64,"+base64.StdEncoding.EncodeToString([]byte(html))), chromedp.WaitVisible(chromedp.CSS("svg"))); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		shot, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("svg")))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		img, err := png.Decode(bytes.NewReader(shot))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if w := img.Bounds().Dx(); w != Width {
			t.Errorf("%s: %d px wide, want %d", name, w, Width)
		}
		dark := 0
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y += 2 {
			for x := b.Min.X; x < b.Max.X; x += 2 {
				if r, g, bl, _ := img.At(x, y).RGBA(); r+g+bl < 3*0x8000 {
					dark++
				}
			}
		}
		if dark < 200 {
			t.Errorf("%s: nearly blank (%d dark pixels)", name, dark)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".png"), shot, 0o644); err != nil {
			t.Fatal(err)
		}
		kinds[chartKind(name)] = true
	}
	for _, k := range []string{"sweep", "temperature", "clock", "power", "imported-clock", "imported-temperature", "memory-latency", "storage-table", "storage-sustained", "reference", "compare"} {
		if !kinds[k] {
			t.Errorf("no %s chart rendered", k)
		}
	}
}

// chartKind is the chart type of a FIXTURE-CHART name.
func chartKind(name string) string {
	for _, k := range []string{"sweep", "imported-clock", "imported-temperature", "memory-latency", "storage-table", "storage-sustained", "reference", "compare-", "temperature", "clock", "power"} {
		if i := bytes.Index([]byte(name), []byte(k)); i >= 0 {
			if k == "compare-" {
				return "compare"
			}
			if (k == "clock" || k == "temperature") && bytes.Contains([]byte(name), []byte("imported-"+k)) {
				continue
			}
			return k
		}
	}
	return name
}
