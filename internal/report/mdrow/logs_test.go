package mdrow

import (
	"bufio"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"boardbench/internal/finding"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/result"
	"boardbench/internal/testutil/shareddata"
)

// publishedLog is what a test reads from one log: the row the tool printed
// at its end and the figures it derived the row from.
type publishedLog struct {
	row      []string // the 10 cells of the printed row
	release  string   // uname -r
	machine  string   // uname -m
	userland string   // the userland architecture the log names
	distro   string   // lsb_release description
	distroID string
	codename string
	// per cpufreq policy: max clock and CPUs (topology table)
	clusters []cpu.Cluster
	measured []result.Value // top OPP measured per cluster, first check
	single   []float64
	multi    []float64
	aes      []float64
	memcpy   []float64
	memset   []float64
	// minor is the tool's minor version (0.9.minor).
	minor int
	// aesTwice is set when openssl ran twice on one cluster: the row then
	// shows the mean of both runs, which boardbench's one run stands for.
	aesTwice bool
	// topOPP is the highest cpufreq OPP per cluster (first CPU), in whole
	// MHz as the row uses them (the topology table rounds instead).
	topOPP map[int]float64
	// date is when the log was written; lscpuMax lscpu's "CPU max MHz".
	date     time.Time
	lscpuMax float64
}

var (
	reVersion   = regexp.MustCompile(`^sbc-bench v0\.9\.(\d+) .*\((.*)\)$`)
	reLscpuMax  = regexp.MustCompile(`^CPU max MHz:\s+([\d.]+)`)
	reIostat    = regexp.MustCompile(`^Linux (\S+) \(.*\)\s.*\s_(\S+)_\s`)
	reUserland  = regexp.MustCompile(`Userland: (\S+)`)
	reTopo      = regexp.MustCompile(`^\s*(\d+)\s+(-?\d+)\s+(\d+|-)\s+(\d+|-)\s+(\d+|-)\s`)
	reChecking  = regexp.MustCompile(`^Checking cpufreq OPP(?: for cpu(\d+))?`)
	reOPP       = regexp.MustCompile(`^Cpufreq OPP:\s*(\d+)\s+Measured:\s*(\d+)`)
	reNoCpufreq = regexp.MustCompile(`^No cpufreq support available. Measured on cpu(\d+): (\d+)`)
	reTot       = regexp.MustCompile(`^Tot:\s+\S+\s+\S+\s+(\d+)`)
	reMem       = regexp.MustCompile(`^ (libc memcpy copy|libc memset fill|standard memcpy|standard memset)\s+:\s+([\d.]+) MB/s`)
)

// parseLog reads the figures of one log (the full logs of the bash
// benchmark whose table the rows follow); ok is false when the log has no
// row in the ten-column format.
func parseLog(t *testing.T, log shareddata.Log) (publishedLog, bool) {
	pl := publishedLog{minor: -1, topOPP: map[int]float64{}}
	sc := bufio.NewScanner(strings.NewReader(log.Text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	section := ""
	seenCluster := map[int]bool{}
	checking := -1
	// clusters as boardbench forms them: CPUs of one package (cluster
	// column), cpufreq maximum and core type, whatever their policies
	topo := map[string]*cpu.Cluster{}
	var topoOrder []string
	inTopo := false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "| ") && strings.HasSuffix(line, "|"):
			parts := strings.Split(line, "|")
			if len(parts) == 12 {
				pl.row = nil
				for _, p := range parts[1:11] {
					pl.row = append(pl.row, strings.TrimSpace(p))
				}
			}
		case pl.minor < 0 && reVersion.MatchString(line):
			m := reVersion.FindStringSubmatch(line)
			pl.minor, _ = strconv.Atoi(m[1])
			pl.date, _ = time.Parse(time.RFC1123Z, m[2])
		case reLscpuMax.MatchString(line):
			pl.lscpuMax, _ = strconv.ParseFloat(reLscpuMax.FindStringSubmatch(line)[1], 64)
		case strings.HasPrefix(line, "Executing benchmark twice on cluster"):
			pl.aesTwice = true
		case strings.HasPrefix(line, "Distributor ID:"):
			pl.distroID = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(line, "Distributor ID:")))
		case strings.HasPrefix(line, "Description:") && pl.distro == "":
			pl.distro = strings.TrimSpace(strings.TrimPrefix(line, "Description:"))
		case strings.HasPrefix(line, "Codename:"):
			pl.codename = strings.TrimSpace(strings.TrimPrefix(line, "Codename:"))
		case reIostat.MatchString(line) && pl.release == "":
			m := reIostat.FindStringSubmatch(line)
			pl.release, pl.machine = m[1], m[2]
		case reUserland.MatchString(line):
			pl.userland = reUserland.FindStringSubmatch(line)[1]
		case strings.HasPrefix(line, "CPU sysfs topology"):
			inTopo, topo, topoOrder = true, map[string]*cpu.Cluster{}, nil
		case inTopo && reTopo.MatchString(line):
			m := reTopo.FindStringSubmatch(line)
			id, _ := strconv.Atoi(m[1])
			if m[3] == "-" || m[5] == "-" {
				continue
			}
			pol, _ := strconv.Atoi(m[3])
			max, _ := strconv.ParseFloat(m[5], 64)
			key := m[2] + " " + m[5] + " " + strings.TrimSpace(line[len(m[0]):])
			cl, ok := topo[key]
			if !ok {
				p := pol
				cl = &cpu.Cluster{ID: len(topoOrder), Policy: &p, MaxMHz: &max}
				topo[key] = cl
				topoOrder = append(topoOrder, key)
			}
			cl.CPUs = append(cl.CPUs, id)
		case inTopo && strings.TrimSpace(line) == "" && len(topoOrder) > 0:
			inTopo = false
		case reChecking.MatchString(line):
			checking = 0 // one cluster: the tool names no CPU and checks cpu0
			if m := reChecking.FindStringSubmatch(line); m[1] != "" {
				checking, _ = strconv.Atoi(m[1])
			}
		case reOPP.MatchString(line) && checking >= 0:
			if !seenCluster[checking] {
				seenCluster[checking] = true
				m := reOPP.FindStringSubmatch(line)
				opp, _ := strconv.ParseFloat(m[1], 64)
				v, _ := strconv.ParseFloat(m[2], 64)
				pl.topOPP[checking] = opp
				pl.measured = append(pl.measured, result.Value{CPU: checking, Value: v})
			}
			checking = -1
		case reNoCpufreq.MatchString(line) && len(pl.measured) == 0:
			m := reNoCpufreq.FindStringSubmatch(line)
			id, _ := strconv.Atoi(m[1])
			v, _ := strconv.ParseFloat(m[2], 64)
			pl.measured = append(pl.measured, result.Value{CPU: id, Value: v})
		case strings.HasPrefix(line, "Executing benchmark single-threaded"):
			section = "single"
		case strings.HasPrefix(line, "Executing benchmark") && strings.Contains(line, "multi-threaded"):
			section = "multi"
		case strings.HasPrefix(line, "Total: ") && pl.multi == nil:
			for _, s := range strings.Split(strings.TrimPrefix(line, "Total: "), ",") {
				if v, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
					pl.multi = append(pl.multi, v)
				}
			}
			section = ""
		case reTot.MatchString(line) && section == "single":
			v, _ := strconv.ParseFloat(reTot.FindStringSubmatch(line)[1], 64)
			pl.single = append(pl.single, v)
		case strings.HasPrefix(line, "aes-256-cbc "):
			fields := strings.Fields(line)
			if len(fields) >= 7 {
				if v, err := strconv.ParseFloat(strings.TrimSuffix(fields[6], "k"), 64); err == nil {
					pl.aes = append(pl.aes, v)
				}
			}
		case reMem.MatchString(line):
			m := reMem.FindStringSubmatch(line)
			v, _ := strconv.ParseFloat(m[2], 64)
			if strings.Contains(m[1], "memcpy") {
				pl.memcpy = append(pl.memcpy, v)
			} else {
				pl.memset = append(pl.memset, v)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", log.Name, err)
	}
	for _, key := range topoOrder {
		cl := *topo[key]
		if opp, ok := pl.topOPP[cl.CPUs[0]]; ok && cl.MaxMHz != nil && opp < *cl.MaxMHz && *cl.MaxMHz-opp <= 1 {
			cl.MaxMHz = &opp
		}
		pl.clusters = append(pl.clusters, cl)
	}
	if len(pl.clusters) == 1 && pl.lscpuMax > 0 && math.Abs(pl.lscpuMax-*pl.clusters[0].MaxMHz) < 1 {
		// the topology table rounds, the row truncates: use the exact value
		pl.clusters[0].MaxMHz = &pl.lscpuMax
	}
	if pl.aesTwice && len(pl.aes) == 2 {
		pl.aes = []float64{math.Floor((math.Trunc(pl.aes[0]) + math.Trunc(pl.aes[1])) / 2)}
	}
	// rows before 0.9.9 (and of early 0.9.9 builds) have other columns: no
	// 7-zip single, AES-128 on 16-byte blocks in its place
	tenColumns := pl.minor > 9 || (pl.minor == 9 && !pl.date.Before(sevenZipSingleSince))
	return pl, pl.row != nil && tenColumns
}

// sevenZipSingleSince is when 0.9.9 development builds started printing the
// 7-zip single column (first log of that format in the reference data).
var sevenZipSingleSince = time.Date(2022, 11, 1, 0, 0, 0, 0, time.UTC)

// resultOf builds the result a boardbench run on that machine would hold.
func (pl publishedLog) resultOf() *result.Result {
	in := &inventory.Info{}
	in.OS.Kernel.Release = pl.release
	in.OS.Kernel.Machine = pl.machine
	in.OS.Userland.Arch = pl.userland
	in.OS.Distro.PrettyName = pl.distro
	in.OS.Distro.ID = pl.distroID
	if pl.minor >= 65 {
		// older versions did not add the Ubuntu codename to the name
		in.OS.Distro.Codename = pl.codename
	}
	in.CPU.Clusters = pl.clusters
	r := &result.Result{Info: in, Status: result.StatusComplete}
	if strings.Contains(pl.row[1], "(throttled)") {
		// the bash tool's throttling detection stands for boardbench's finding
		r.Findings = append(r.Findings, finding.Finding{ID: ThrottlingFindingID, Severity: finding.Warning})
	}
	values := func(xs []float64) []result.Value {
		var out []result.Value
		for i, x := range xs {
			out = append(out, result.Value{CPU: i, Value: x})
		}
		return out
	}
	r.Summary.ClockMHz = pl.measured
	r.Summary.SevenZipMultiRuns = pl.multi
	r.Summary.SevenZipSingleMIPS = values(pl.single)
	r.Summary.AES256At16K = values(pl.aes)
	r.Summary.MemcpyMBs = values(pl.memcpy)
	r.Summary.MemsetMBs = values(pl.memset)
	return r
}

// Known differences between a log's own row and the derivation from its
// figures, by log file and column, with the reason.
var knownDifferences = map[string]map[int]string{
	"4fea.txt": {
		1: "an early 0.9.9 build printed cpuinfo_max_freq in kHz as MHz (2361600/1900800 MHz)",
		6: "an early 0.9.9 build reported the first cluster's AES figure, not the highest",
	},
	"4ijy.txt": {1: "a 0.9.9 build showed the cpufreq maximum although the measured clock was 3.9% above it; later builds show ~MHz (e.g. 4qJF.txt, +5.2%)"},
	"4pgq.txt": {1: "only the little cluster (Cortex-A510) was measured and compared with the big cluster's maximum; boardbench compares the fastest cluster with its own maximum"},
	"4IT1.txt": {6: "openssl failed: the bash tool prints 0, boardbench prints - for a value it does not have"},
}

// TestRowsMatchPublishedLogs rebuilds the row of every ten-column log from
// the figures in that log and compares every column boardbench derives the
// same way (all but the device name, which the bash tool embellishes, and
// kH/s, which boardbench does not measure).
func TestRowsMatchPublishedLogs(t *testing.T) {
	logs := shareddata.Logs(t)
	names := []string{"Device", "Clockspeed", "Kernel", "Distro", "7-zip multi", "7-zip single", "AES", "memcpy", "memset", "kH/s"}
	compared, mismatched := 0, 0
	perColumn := make([]int, 10)
	for _, log := range logs {
		pl, ok := parseLog(t, log)
		if !ok {
			continue
		}
		base := log.Name
		got := Compute(pl.resultOf()).Cells()
		compared++
		bad := false
		for i := 1; i <= 8; i++ {
			want := strings.Join(strings.Fields(pl.row[i]), " ")
			if i == 3 {
				// The distribution's name is PRETTY_NAME, which the logs do
				// not record (their lsb_release lines differ, e.g. on
				// Armbian): compare the architecture part only.
				want, got[i] = lastWord(want), lastWord(got[i])
			}
			if got[i] == want {
				continue
			}
			if _, known := knownDifferences[base][i]; known {
				continue
			}
			perColumn[i]++
			bad = true
			t.Errorf("%s %s: got %q, log has %q", base, names[i], got[i], want)
		}
		if bad {
			mismatched++
		}
		if got[9] != Unknown {
			t.Errorf("%s: kH/s = %q, want %q", base, got[9], Unknown)
		}
	}
	t.Logf("%d logs compared, %d with differences; per column %v", compared, mismatched, perColumn)
	if compared < 50 {
		t.Errorf("only %d logs with a ten-column row parsed", compared)
	}
}

func lastWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}
