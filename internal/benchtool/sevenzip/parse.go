// Package sevenzip is the benchtool wrapper of 7-Zip's built-in benchmark
// (`7zz b`, `7z b`): it runs the tool and parses its output into typed
// figures, keeping the raw output.
//
// The figure the community compares is the total rating in MIPS: the last
// column of the "Tot:" line, the mean of the compression and decompression
// ratings. Multi-threaded results are usually quoted as the mean of the Tot
// ratings of three consecutive runs, single-threaded ones (-mmt1, pinned to
// one core) per core type.
//
// The parser reads the output of every 7-Zip version seen on boards: p7zip
// 9.20 ("KB/s", Avr line without a separator), p7zip 16.02 and the current
// 7-Zip releases (22.x to 26.x, which print speed on the Avr line and more
// header lines).
package sevenzip

import (
	"boardbench/internal/lazyre"
	"errors"
	"strconv"
	"strings"

	"boardbench/internal/note"
	"boardbench/internal/tools"
)

// constError is an error whose value is its text, so that a sentinel
// error is a constant: static data that costs nothing when boardbench
// starts (errors.New would run at init). errors.Is and == match it.
type constError string

func (e constError) Error() string { return string(e) }

// ErrNoResult is returned for output without a "Tot:" line: the benchmark
// did not finish or did not run.
const ErrNoResult = constError("no 7-Zip benchmark result (Tot: line) in the output")

// ErrNoMemory is returned when 7-Zip reports that it could not allocate the
// memory the benchmark needs.
const ErrNoMemory = constError("7-Zip could not allocate the memory the benchmark needs")

// Side is one half of a result row: compression or decompression.
type Side struct {
	// SpeedKiBs is the speed in KiB/s (1024 bytes); nil where the line has
	// no speed column (the Avr line of versions before 21).
	SpeedKiBs *int64 `json:"speed_kib_s"`
	// UsagePct is the CPU usage in percent of one hardware thread (above 100
	// for several threads).
	UsagePct int64 `json:"usage_pct"`
	// RUMIPS is the rating per 100 % usage, in MIPS.
	RUMIPS int64 `json:"ru_mips"`
	// RatingMIPS is the rating in MIPS.
	RatingMIPS int64 `json:"rating_mips"`
}

// Row is the result for one dictionary size.
type Row struct {
	// DictLog2 is the dictionary size as 7-Zip prints it: 22 means 2^22 bytes.
	DictLog2 int `json:"dict_log2"`
	// DictBytes is the dictionary size in bytes.
	DictBytes int64 `json:"dict_bytes"`
	// Compress and Decompress are the two halves of the row.
	Compress   Side `json:"compress"`
	Decompress Side `json:"decompress"`
}

// Average is the "Avr:" line: the mean over the dictionary sizes.
type Average struct {
	Compress   Side `json:"compress"`
	Decompress Side `json:"decompress"`
}

// Total is the "Tot:" line. RatingMIPS is the headline figure.
type Total struct {
	UsagePct   int64 `json:"usage_pct"`
	RUMIPS     int64 `json:"ru_mips"`
	RatingMIPS int64 `json:"rating_mips"`
}

// Result is one parsed benchmark run.
type Result struct {
	// Version is the 7-Zip version from the banner, e.g. "16.02".
	Version string `json:"version"`
	// VersionLine is the "7-Zip ..." banner line.
	VersionLine string `json:"version_line"`
	// P7zipLine is the "p7zip Version ..." line, empty if none.
	P7zipLine string `json:"p7zip_line,omitempty"`
	// Flavor is 7-Zip, p7zip or a 7-Zip behind a p7zip banner.
	Flavor tools.Flavor `json:"flavor"`
	// RAMSizeBytes is the RAM 7-Zip saw ("RAM size: N MB", MiB).
	RAMSizeBytes *int64 `json:"ram_size_bytes"`
	// HardwareThreads is "# CPU hardware threads".
	HardwareThreads *int `json:"hardware_threads"`
	// RAMUsageBytes is the memory the benchmark needs ("RAM usage: N MB").
	RAMUsageBytes *int64 `json:"ram_usage_bytes"`
	// BenchmarkThreads is "# Benchmark threads".
	BenchmarkThreads *int `json:"benchmark_threads"`
	// CPUFreqLines are 7-Zip's own clock estimates ("CPU Freq: ..."), as
	// printed.
	CPUFreqLines []string `json:"cpu_freq_lines,omitempty"`
	// Rows are the per-dictionary results in output order.
	Rows []Row `json:"rows"`
	// Average is the "Avr:" line; nil if missing.
	Average *Average `json:"average"`
	// Total is the "Tot:" line.
	Total Total `json:"total"`
	// Notes lists lines that looked like results but could not be read.
	Notes note.List `json:"notes,omitempty"`
}

var (
	ramSizeRE  = lazyre.Regexp(`RAM size:\s*(\d+)\s*MB.*#\s*CPU hardware threads:\s*(\d+)`)
	ramUsageRE = lazyre.Regexp(`RAM usage:\s*(\d+)\s*MB.*#\s*Benchmark threads:\s*(\d+)`)
	rowRE      = lazyre.Regexp(`^\s*(\d{1,2}):\s+(.*)$`)
	noMemoryRE = lazyre.Regexp(`(?i)can't allocate|cannot allocate|E_OUTOFMEMORY|not enough memory`)
)

// isBanner reports whether line starts a 7-Zip run: the "7-Zip ... Igor
// Pavlov" line every version prints first.
func isBanner(line string) bool {
	return strings.HasPrefix(line, "7-Zip") && strings.Contains(line, "Igor Pavlov")
}

// Parse reads the output of one `7z b` run. It returns ErrNoMemory when 7-Zip
// reported an allocation failure and ErrNoResult when no "Tot:" line is
// present; the partial Result is returned with either.
func Parse(out string) (*Result, error) {
	results, err := parseBlocks(out, 1)
	if len(results) == 0 {
		return nil, err
	}
	return &results[0], err
}

// ParseAll reads every run in out (for example a log holding several runs)
// and returns the complete ones in order. The error is ErrNoResult when there
// is none, or ErrNoMemory when 7-Zip reported an allocation failure anywhere.
func ParseAll(out string) ([]Result, error) {
	results, err := parseBlocks(out, 0)
	var complete []Result
	for _, r := range results {
		if r.Total.RatingMIPS > 0 || r.Total.RUMIPS > 0 {
			complete = append(complete, r)
		}
	}
	if len(complete) > 0 && errors.Is(err, ErrNoResult) {
		err = nil
	}
	return complete, err
}

// parseBlocks splits out at banner lines and parses up to max blocks (0: all).
func parseBlocks(out string, max int) ([]Result, error) {
	var results []Result
	var cur *Result
	haveTot := false
	noMemory := false
	finish := func() {
		if cur != nil {
			results = append(results, *cur)
		}
		cur = nil
	}
	for _, raw := range strings.Split(out, "\n") {
		line := strings.TrimRight(raw, "\r")
		trimmed := strings.TrimSpace(line)
		if noMemoryRE.MatchString(trimmed) {
			noMemory = true
		}
		if isBanner(trimmed) {
			finish()
			if max > 0 && len(results) >= max {
				break
			}
			cur = &Result{VersionLine: trimmed}
			if id, ok := tools.ParseSevenZipIdentity(trimmed); ok {
				cur.Version, cur.Flavor = id.Version, id.Flavor
			}
			continue
		}
		if cur == nil {
			continue
		}
		switch {
		case strings.HasPrefix(trimmed, "p7zip Version"):
			cur.P7zipLine = trimmed
			if id, ok := tools.ParseSevenZipIdentity(cur.VersionLine + "\n" + trimmed); ok {
				cur.Flavor = id.Flavor
			}
		case strings.Contains(trimmed, "CPU Freq"):
			cur.CPUFreqLines = append(cur.CPUFreqLines, trimmed)
		case strings.HasPrefix(trimmed, "RAM size:"):
			if m := ramSizeRE.FindStringSubmatch(trimmed); m != nil {
				cur.RAMSizeBytes = mibToBytes(m[1])
				cur.HardwareThreads = atoiPtr(m[2])
			} else {
				cur.Notes.Add("RAM size line", note.Malformed)
			}
		case strings.HasPrefix(trimmed, "RAM usage:"):
			if m := ramUsageRE.FindStringSubmatch(trimmed); m != nil {
				cur.RAMUsageBytes = mibToBytes(m[1])
				cur.BenchmarkThreads = atoiPtr(m[2])
			} else {
				cur.Notes.Add("RAM usage line", note.Malformed)
			}
		case strings.HasPrefix(trimmed, "Avr:"):
			if avg, ok := parseAverage(strings.TrimPrefix(trimmed, "Avr:")); ok {
				cur.Average = &avg
			} else {
				cur.Notes.Add("Avr line", note.Malformed)
			}
		case strings.HasPrefix(trimmed, "Tot:"):
			nums, ok := ints(strings.Fields(strings.TrimPrefix(trimmed, "Tot:")))
			if ok && len(nums) == 3 {
				cur.Total = Total{UsagePct: nums[0], RUMIPS: nums[1], RatingMIPS: nums[2]}
				haveTot = true
			} else {
				cur.Notes.Add("Tot line", note.Malformed)
			}
			finish()
			if max > 0 && len(results) >= max {
				return results, nil
			}
		default:
			if m := rowRE.FindStringSubmatch(line); m != nil {
				if row, ok := parseRow(m[1], m[2]); ok {
					cur.Rows = append(cur.Rows, row)
				} else {
					cur.Notes.Add("row "+m[1], note.Malformed)
				}
			}
		}
	}
	finish()
	switch {
	case noMemory:
		return results, ErrNoMemory
	case !haveTot:
		return results, ErrNoResult
	}
	return results, nil
}

// parseRow reads "22:  4381  100  4270  4262  |  48754  100  4168  4163".
func parseRow(dict, rest string) (Row, bool) {
	d, err := strconv.Atoi(dict)
	if err != nil || d < 10 || d > 40 {
		return Row{}, false
	}
	left, right, found := strings.Cut(rest, "|")
	if !found {
		return Row{}, false
	}
	c, ok1 := parseSide(strings.Fields(left), true)
	dc, ok2 := parseSide(strings.Fields(right), true)
	if !ok1 || !ok2 {
		return Row{}, false
	}
	return Row{DictLog2: d, DictBytes: int64(1) << d, Compress: c, Decompress: dc}, true
}

// parseAverage reads the Avr line in its three forms: "usage ru rating |
// usage ru rating" (16.02), the same with speeds (21 and later), and six
// numbers without a separator (9.20).
func parseAverage(rest string) (Average, bool) {
	var lf, rf []string
	if left, right, found := strings.Cut(rest, "|"); found {
		lf, rf = strings.Fields(left), strings.Fields(right)
	} else {
		f := strings.Fields(rest)
		if len(f)%2 != 0 {
			return Average{}, false
		}
		lf, rf = f[:len(f)/2], f[len(f)/2:]
	}
	c, ok1 := parseSide(lf, false)
	d, ok2 := parseSide(rf, false)
	return Average{Compress: c, Decompress: d}, ok1 && ok2
}

// parseSide reads "speed usage ru rating", or "usage ru rating" when speed
// is optional.
func parseSide(f []string, needSpeed bool) (Side, bool) {
	nums, ok := ints(f)
	if !ok {
		return Side{}, false
	}
	switch {
	case len(nums) == 4:
		s := nums[0]
		return Side{SpeedKiBs: &s, UsagePct: nums[1], RUMIPS: nums[2], RatingMIPS: nums[3]}, true
	case len(nums) == 3 && !needSpeed:
		return Side{UsagePct: nums[0], RUMIPS: nums[1], RatingMIPS: nums[2]}, true
	}
	return Side{}, false
}

func ints(fields []string) ([]int64, bool) {
	out := make([]int64, 0, len(fields))
	for _, f := range fields {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil || v < 0 {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

func mibToBytes(s string) *int64 {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 || v > 1<<40 {
		return nil
	}
	b := v << 20
	return &b
}

func atoiPtr(s string) *int {
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		return nil
	}
	return &v
}
