package monitor

import (
	"encoding/json"
	"io"
	"os"

	"boardbench/internal/benchtool/wrapped"
	"boardbench/internal/proc"
	"boardbench/internal/result"

	"golang.org/x/sys/unix"
)

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
