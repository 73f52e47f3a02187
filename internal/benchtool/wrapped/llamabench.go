package wrapped

import (
	"boardbench/internal/lazyre"
	"strings"
)

// LlamaBenchFigures are the rows of llama-bench's markdown table (its
// default output), one per model and test.
type LlamaBenchFigures struct {
	Rows []LlamaBenchRow `json:"rows"`
}

// LlamaBenchRow is one table row. Strings are as printed.
type LlamaBenchRow struct {
	// Model is the model's description, e.g. "llama 7B Q4_0".
	Model string `json:"model"`
	// Size is the model file's size as printed, e.g. "3.56 GiB".
	Size string `json:"size"`
	// Params is the parameter count as printed, e.g. "6.74 B".
	Params string `json:"params"`
	// Backend is e.g. "CPU", "BLAS", "Vulkan", "CUDA".
	Backend string `json:"backend"`
	// Threads is the threads column; nil when the table has none (GPU
	// backends print n_gpu_layers instead).
	Threads *int64 `json:"threads"`
	// Test is "pp512" (prompt processing of 512 tokens), "tg128" (text
	// generation of 128 tokens) or another test llama-bench was asked for.
	Test string `json:"test"`
	// TokensPerS is the mean throughput in tokens per second and
	// TokensPerSStddev its standard deviation over the repetitions (nil
	// when not printed).
	TokensPerS       float64  `json:"tokens_s"`
	TokensPerSStddev *float64 `json:"tokens_s_stddev"`
}

var (
	llamaBuildRE = lazyre.Regexp(`^build:\s*(\S+)\s+\((\d+)\)`)
	llamaTPSRE   = lazyre.Regexp(`^([\d.]+)(?:\s*±\s*([\d.]+))?$`)
)

// parseLlamaBench reads the table: a header row naming at least "model",
// "test" and "t/s", an alignment row, then the rows. The "build: COMMIT
// (NUMBER)" line gives the version.
func parseLlamaBench(_ []string, out string, f *Figures) bool {
	fig := &LlamaBenchFigures{}
	var cols map[string]int
	for _, raw := range lines(out) {
		line := strings.TrimSpace(raw)
		if m := llamaBuildRE.FindStringSubmatch(line); m != nil {
			f.Version = "build " + m[2] + " (" + m[1] + ")"
			continue
		}
		if !strings.HasPrefix(line, "|") || !strings.HasSuffix(line, "|") || len(line) < 2 {
			cols = nil
			continue
		}
		cells := strings.Split(line[1:len(line)-1], "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if cols == nil {
			c := map[string]int{}
			for i, name := range cells {
				c[name] = i
			}
			_, hasModel := c["model"]
			_, hasTest := c["test"]
			_, hasTPS := c["t/s"]
			if hasModel && hasTest && hasTPS {
				cols = c
			}
			continue
		}
		if strings.Trim(strings.Join(cells, ""), "-: ") == "" {
			continue // alignment row
		}
		if row, ok := llamaRow(cells, cols); ok {
			fig.Rows = append(fig.Rows, row)
		}
	}
	if len(fig.Rows) == 0 {
		f.Version = ""
		return false
	}
	f.LlamaBench = fig
	return true
}

// llamaRow reads one row by the header's column positions.
func llamaRow(cells []string, cols map[string]int) (LlamaBenchRow, bool) {
	cell := func(name string) string {
		if i, ok := cols[name]; ok && i < len(cells) {
			return cells[i]
		}
		return ""
	}
	m := llamaTPSRE.FindStringSubmatch(cell("t/s"))
	if m == nil || cell("model") == "" || cell("test") == "" {
		return LlamaBenchRow{}, false
	}
	tps, ok := number(m[1])
	if !ok {
		return LlamaBenchRow{}, false
	}
	row := LlamaBenchRow{Model: cell("model"), Size: cell("size"), Params: cell("params"), Backend: cell("backend"),
		Test: cell("test"), TokensPerS: tps}
	if m[2] != "" {
		row.TokensPerSStddev = numberPtr(m[2])
	}
	if n, ok := integer(cell("threads")); ok {
		row.Threads = &n
	}
	return row, true
}
