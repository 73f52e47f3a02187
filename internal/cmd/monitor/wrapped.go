package monitor

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"boardbench/internal/benchtool/wrapped"
	"boardbench/internal/proc"
	"boardbench/internal/result"

	"golang.org/x/sys/unix"
)

// addWrappedFigures stores in p the figures of the benchmark the command
// ran, when internal/benchtool/wrapped recognises it from the command line
// or the output. cut says that the output was longer than what was kept,
// so that figures printed early may be missing.
func addWrappedFigures(p *result.Phase, argv []string, out []byte, cut bool) {
	figs, ok := wrapped.Recognize(argv, out)
	if !ok {
		return
	}
	if cut {
		figs.Notes = append(figs.Notes, fmt.Sprintf("read from the last %d bytes of the output only: figures printed before them are missing", len(out)))
	}
	if err := p.SetFigures(figs); err != nil {
		p.Notes = append(p.Notes, "the "+figs.Benchmark+" figures could not be stored: "+err.Error())
	}
}

// commandFigures returns the wrapped figures of res's command phase.
func commandFigures(res *result.Result) (wrapped.Figures, bool) {
	for _, p := range res.Phases {
		if p.Name != result.PhaseCommand || len(p.Figures) == 0 {
			continue
		}
		var f wrapped.Figures
		if json.Unmarshal(p.Figures, &f) == nil && f.Benchmark != "" {
			return f, true
		}
	}
	return wrapped.Figures{}, false
}

// windowSize is the size of the terminal w writes to, zero when w is not
// a terminal or its size is unknown (proc then uses its default).
func windowSize(w io.Writer) proc.WindowSize {
	f, ok := w.(*os.File)
	if !ok {
		return proc.WindowSize{}
	}
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return proc.WindowSize{}
	}
	return proc.WindowSize{Rows: int(ws.Row), Cols: int(ws.Col)}
}

// strayNote says that the command left processes running, which proc
// stopped.
func strayNote(n int) string {
	if n == 1 {
		return "the command left 1 process running when it exited; boardbench stopped it"
	}
	return fmt.Sprintf("the command left %d processes running when it exited; boardbench stopped them", n)
}

// figuresLine says which benchmark's figures the result keeps, "" when
// none were recognised.
func figuresLine(res *result.Result, path string) string {
	f, ok := commandFigures(res)
	if !ok {
		return ""
	}
	name := f.Benchmark
	if f.Version != "" {
		name += " " + f.Version
	}
	if !f.HasResult() {
		return "figures: " + name + " named on the command line, but no result in its output"
	}
	if path == "" {
		return "figures: " + name + ", read from the output and kept in the result"
	}
	return "figures: " + name + ", read from the output (boardbench report " + path + " shows them)"
}
