package sbcimport

import (
	"boardbench/internal/lazyre"
	"strconv"
	"strings"

	"boardbench/internal/result"
)

// SevenZipBlock is one 7-Zip benchmark run as the log shows it.
type SevenZipBlock struct {
	// Mode is "single", "multi" (all CPUs) or "cluster" (all CPUs of one
	// cluster, in the extensive mode); CPU the CPU of a single-threaded
	// run when named, CPUs those of a cluster run; Group tells the cluster
	// runs of one cluster from the next.
	Mode    string
	CPUs    []int
	Group   int
	CPU     *int
	Core    string
	Version string
	Flavor  string
	Threads int
	Run     result.SevenZipRun
	Raw     string
}

var (
	reSevenContext = lazyre.Regexp(`on (?:cpu(\d+)(?: \((.*)\))?|CPUs ([\d,-]+)(?: \((.*)\))?)`)
	reSevenVersion = lazyre.Regexp(`^7-Zip(?: \([a-zA-Z]\))?(?: \[\d+\])? (\d+\.\d+)`)
	reSevenThreads = lazyre.Regexp(`# Benchmark threads:\s*(\d+)`)
	reSevenRAM     = lazyre.Regexp(`^RAM usage:\s*(\d+) MB`)
)

// sevenContext notes what the next 7-Zip runs are.
func (p *parser) sevenContext(line, mode string) {
	p.sevenMode, p.singleCPU, p.singleCore = mode, nil, ""
	m := reSevenContext.FindStringSubmatch(line)
	if m == nil {
		return
	}
	if m[1] != "" {
		v, _ := strconv.Atoi(m[1])
		p.singleCPU, p.singleCore = &v, m[2]
	}
	switch {
	case mode == "multi" && m[4] != "":
		p.sevenMode, p.clusterCPUs, p.singleCore = "cluster", cpuList(m[3]), m[4]
		p.clusterGroup++
	case mode == "multi" && m[3] != "":
		p.log.MultiCPUs = cpuList(m[3])
	}
}

// sevenZip reads one run, from its banner to its Tot: line.
func (p *parser) sevenZip(i int) int {
	b := SevenZipBlock{Mode: p.sevenMode, Flavor: "7-Zip"}
	switch b.Mode {
	case "single":
		b.CPU, b.Core = p.singleCPU, p.singleCore
		p.singleCPU, p.singleCore, p.sevenMode = nil, "", ""
	case "cluster":
		b.CPUs, b.Core, b.Group = p.clusterCPUs, p.singleCore, p.clusterGroup
	}
	if m := reSevenVersion.FindStringSubmatch(p.lines[i]); m != nil {
		b.Version = m[1]
	}
	j := i + 1
	done := false
	for ; j < len(p.lines) && !done; j++ {
		line := p.lines[j]
		switch {
		case strings.HasPrefix(line, "p7zip Version"):
			b.Flavor = "p7zip"
		case reSevenThreads.MatchString(line):
			b.Threads, _ = strconv.Atoi(reSevenThreads.FindStringSubmatch(line)[1])
			if m := reSevenRAM.FindStringSubmatch(line); m != nil {
				mb, _ := strconv.ParseInt(m[1], 10, 64)
				bytes := mb << 20
				b.Run.RAMUsageBytes = &bytes
			}
		case strings.HasPrefix(line, "Avr:"):
			c, d := avrRatings(strings.TrimPrefix(line, "Avr:"))
			b.Run.CompressMIPS, b.Run.DecompressMIPS = c, d
		case strings.HasPrefix(line, "Tot:"):
			f := strings.Fields(strings.TrimPrefix(line, "Tot:"))
			if len(f) >= 3 {
				b.Run.UsagePct, b.Run.TotMIPS = optFloat(f[0]), optFloat(f[len(f)-1])
			}
			done = true
		case strings.HasPrefix(line, "7-Zip "), strings.HasPrefix(line, "Executing "), strings.HasPrefix(line, "#####"),
			strings.HasPrefix(line, "System health"), strings.HasPrefix(line, "Compression: "):
			done = true
			j-- // not ours: the next section starts here
		}
	}
	b.Raw = strings.Join(p.lines[i:j], "\n")
	if b.Run.TotMIPS == nil {
		b.Run.Failure = "no_result"
		b.Run.Error = "the log shows no Tot: line for this run"
		p.log.note("7-Zip run %d: no Tot: line (the run did not finish)", len(p.log.SevenZip)+1)
	}
	p.log.SevenZip = append(p.log.SevenZip, b)
	return j - 1
}

// avrRatings reads the compression and decompression ratings (last column
// of each half) of an Avr: line; 7-Zip 9.20 prints no "|" between halves.
func avrRatings(s string) (c, d *float64) {
	if left, right, ok := strings.Cut(s, "|"); ok {
		lf, rf := strings.Fields(left), strings.Fields(right)
		if len(lf) > 0 && len(rf) > 0 {
			return optFloat(lf[len(lf)-1]), optFloat(rf[len(rf)-1])
		}
		return nil, nil
	}
	f := strings.Fields(s)
	if len(f) == 6 {
		return optFloat(f[2]), optFloat(f[5])
	}
	return nil, nil
}

// resolveSevenZip decides the runs the log names no mode for (the oldest
// logs): the last ones, as many as the log's "Total:" line lists, are the
// multi-threaded runs; those before them are single-threaded.
func (p *parser) resolveSevenZip() {
	var open []int
	for k, b := range p.log.SevenZip {
		if b.Mode == "" {
			open = append(open, k)
		}
	}
	if len(open) == 0 {
		return
	}
	multi := len(p.log.SevenZipTotals)
	if multi == 0 {
		// no totals: the thread count each run printed decides
		for _, k := range open {
			b := &p.log.SevenZip[k]
			switch {
			case b.Threads == 1:
				b.Mode = "single"
			case b.Threads > 1:
				b.Mode = "multi"
			default:
				p.log.note("7-Zip run %d: neither single- nor multi-threaded as far as the log says", k+1)
			}
		}
		return
	}
	multi = min(multi, len(open))
	for n, k := range open {
		if n >= len(open)-multi {
			p.log.SevenZip[k].Mode = "multi"
		} else {
			p.log.SevenZip[k].Mode = "single"
		}
	}
}
