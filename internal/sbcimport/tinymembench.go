package sbcimport

import (
	"boardbench/internal/lazyre"
	"strconv"
	"strings"

	"boardbench/internal/result"
)

// MemoryRun is one tinymembench run: its figures and its text.
type MemoryRun struct {
	// CPU is nil when the log does not name the CPU ("on a big core").
	CPU     *int
	Core    string
	Version string
	Figures result.MemFigures
	Raw     string
}

var (
	reMemContext = lazyre.Regexp(`^Executing (?:benchmark on cpu(\d+)(?: \((.*)\))?|tinymembench on (?:an? )?(.*?)(?: core)?):?\s*$`)
	reBandwidth  = lazyre.Regexp(`^ (\S.*?)\s+:\s+([\d.]+) MB/s`)
	reLatencyRow = lazyre.Regexp(`^\s*(\d+) :\s+([\d.]+) ns\s*/\s*([\d.]+) ns`)
)

// memContext notes the CPU of the next tinymembench run.
func (p *parser) memContext(line string) {
	p.memCPU, p.memCore = nil, ""
	m := reMemContext.FindStringSubmatch(line)
	if m == nil {
		return
	}
	if m[1] != "" {
		v, _ := strconv.Atoi(m[1])
		p.memCPU, p.memCore = &v, m[2]
	} else {
		p.memCore = m[3] + " core"
	}
}

// inTinymembench reports whether a line still belongs to a tinymembench
// block: its rows are indented, its notes framed by "=".
func inTinymembench(line string) bool {
	switch {
	case line == "", strings.HasPrefix(line, " "), strings.HasPrefix(line, "="),
		strings.HasPrefix(line, "block size"), strings.HasPrefix(line, "CFLAGS"),
		strings.HasPrefix(line, "bandwidth test"), strings.HasPrefix(line, "tinymembench"):
		return true
	}
	return false
}

// tinymembench reads one run: memcpy and memset (libc's, "standard" in
// older versions) and the latency tables.
func (p *parser) tinymembench(i int) int {
	run := MemoryRun{CPU: p.memCPU, Core: p.memCore}
	p.memCPU, p.memCore = nil, ""
	run.Version = strings.Fields(p.lines[i])[1]
	f := &run.Figures
	f.CPU = -1
	if run.CPU != nil {
		f.CPU = *run.CPU
	}
	f.Core = run.Core
	table := ""
	rows := map[int64]int{}
	j := i + 1
	for ; j < len(p.lines) && inTinymembench(p.lines[j]); j++ {
		line := p.lines[j]
		if strings.HasPrefix(line, "block size") {
			table = "plain"
			if strings.Contains(line, "[MADV_HUGEPAGE]") {
				table = "huge"
			}
			continue
		}
		if m := reLatencyRow.FindStringSubmatch(line); m != nil && table != "" {
			size, _ := strconv.ParseInt(m[1], 10, 64)
			single, dual := optFloat(m[2]), optFloat(m[3])
			k, ok := rows[size]
			if !ok {
				k = len(f.Latency)
				rows[size] = k
				f.Latency = append(f.Latency, result.LatencyRow{SizeBytes: size})
			}
			if table == "huge" {
				f.Latency[k].NSHugePage, f.Latency[k].NSDualHugePage = single, dual
			} else {
				f.Latency[k].NS, f.Latency[k].NSDual = single, dual
			}
			continue
		}
		m := reBandwidth.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		v := optFloat(m[2])
		switch strings.TrimSpace(m[1]) {
		case "libc memcpy copy", "standard memcpy":
			f.MemcpyMBs = v
		case "libc memset fill", "standard memset":
			f.MemsetMBs = v
		}
	}
	run.Raw = strings.Join(p.lines[i:j], "\n")
	if f.MemcpyMBs == nil && f.MemsetMBs == nil && len(f.Latency) == 0 {
		p.log.note("tinymembench run %d: no figures read", len(p.log.Memory)+1)
	}
	p.log.Memory = append(p.log.Memory, run)
	return j - 1
}
