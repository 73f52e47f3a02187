// Package kernelinfo judges the running kernel: its series and whether
// kernel.org still maintains it (from a longterm table built into the
// binary, with the table's own date), how far its build is behind the
// newest release of its series, and whether it is a vendor (BSP) kernel or
// close to mainline. Judge is a pure function of the kernel's strings;
// Collect reads them through internal/host.
package kernelinfo

import (
	"boardbench/internal/lazyre"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Kinds of kernel tree.
const (
	// KindMainline is a kernel.org kernel (mainline, stable or longterm)
	// or a build of one with few changes.
	KindMainline = "mainline"
	// KindDistribution is a distribution's kernel (Debian, Ubuntu,
	// Fedora...): a kernel.org series with the distribution's patches and
	// security updates.
	KindDistribution = "distribution"
	// KindRaspberryPi is the Raspberry Pi kernel tree: downstream, but it
	// follows kernel.org's longterm series closely.
	KindRaspberryPi = "raspberry-pi"
	// KindVendor is a board or SoC vendor's kernel (BSP), usually an old
	// series with a large out-of-tree patch set.
	KindVendor = "vendor"
	// KindUnknown is a kernel boardbench cannot place.
	KindUnknown = "unknown"
)

// Info is what boardbench knows about a kernel.
type Info struct {
	// Release is `uname -r`; Build is `uname -v`; ProcVersion the first
	// line of /proc/version.
	Release     string `json:"release"`
	Build       string `json:"build"`
	ProcVersion string `json:"proc_version"`
	// Compiler is the compiler named in /proc/version; BuildHost the
	// user@host that built it. "" when not found.
	Compiler  string `json:"compiler"`
	BuildHost string `json:"build_host"`
	// BuildDate is the date in the build string; nil when it has none.
	BuildDate *time.Time `json:"build_date"`
	// Series is "MAJOR.MINOR" and Patch the third number of the release;
	// Patch is nil when absent. Prerelease is set for -rc kernels.
	Series     string `json:"series"`
	Patch      *int   `json:"patch"`
	Prerelease bool   `json:"prerelease,omitempty"`
	// Kind is one of the Kind constants, Tree names the vendor tree when
	// known ("Rockchip BSP"), and KindEvidence says what the judgement
	// stands on.
	Kind         string   `json:"kind"`
	Tree         string   `json:"tree,omitempty"`
	KindEvidence []string `json:"kind_evidence"`
	// Distribution names the distribution that builds and maintains a
	// KindDistribution kernel ("Ubuntu", "Debian", "Fedora"...), or "a
	// distribution" when the strings do not say which; "" for other kinds.
	Distribution string `json:"distribution,omitempty"`
	// Longterm is set when the series is a kernel.org longterm series.
	Longterm bool `json:"longterm"`
	// Maintained says whether kernel.org still maintains the series as of
	// Now (from the table's end-of-life dates); nil when the table cannot
	// say (a series newer than the table).
	Maintained *bool `json:"maintained"`
	// EOL is the series' (projected) end of life; nil for series without
	// one in the table.
	EOL *time.Time `json:"eol"`
	// Status is one sentence about the series' maintenance.
	Status string `json:"status"`
	// MonthsBehind is how many whole months the build is older than the
	// newest release of its series as of TableDate; nil when the build
	// date or that release's date is unknown.
	MonthsBehind *int `json:"months_behind"`
	// FarBehind is set for a vendor kernel on an ended series or two or
	// more longterm series behind the newest.
	FarBehind bool `json:"far_behind"`
	// TableDate is the date of the longterm table used; TableSource is
	// "built-in" or the file it was read from (--kernel-table).
	TableDate   time.Time `json:"table_date"`
	TableSource string    `json:"table_source"`
	// Notes says what could not be judged and why.
	Notes []string `json:"notes,omitempty"`
}

// Input is what Judge needs: the kernel's strings, the kernel config when
// readable (symbol → value, nil when not) and the current time.
type Input struct {
	Release     string
	Build       string
	ProcVersion string
	Compiler    string
	Config      map[string]string
	Now         time.Time
	// Table is the longterm table to judge by; nil means Builtin().
	Table *Table
}

var releaseRE = lazyre.Regexp(`^(\d+)\.(\d+)(?:\.(\d+))?(.*)$`)

// SeriesOf splits a release string into its series ("6.1") and patch
// level (63 for "6.1.63-current-rockchip64"; -1 when absent).
func SeriesOf(release string) (series string, patch int, ok bool) {
	m := releaseRE.FindStringSubmatch(strings.TrimSpace(release))
	if m == nil {
		return "", -1, false
	}
	patch = -1
	if m[3] != "" {
		patch, _ = strconv.Atoi(m[3])
	}
	return m[1] + "." + m[2], patch, true
}

// FindSeries returns the longterm series of the built-in table, nil when
// series is not one.
func FindSeries(series string) *Series {
	return Builtin().Find(series)
}

// Judge places a kernel: series, maintenance, age and tree.
func Judge(in Input) Info {
	tbl := Builtin()
	if in.Table != nil {
		tbl = *in.Table
	}
	info := Info{
		Release: in.Release, Build: in.Build, ProcVersion: in.ProcVersion,
		Compiler: in.Compiler, TableDate: tbl.Date, TableSource: tbl.Source, KindEvidence: []string{},
	}
	if in.Now.IsZero() {
		in.Now = time.Now()
	}
	info.BuildHost = buildHost(in.ProcVersion)
	if d, ok := BuildDate(in.Build); ok {
		info.BuildDate = &d
	} else {
		info.Notes = append(info.Notes, "build date: not in the build string")
	}
	series, patch, ok := SeriesOf(in.Release)
	if !ok {
		info.Kind = KindUnknown
		info.Status = "the kernel release string could not be read"
		info.Notes = append(info.Notes, "kernel release: unreadable")
		return info
	}
	info.Series = series
	if patch >= 0 {
		info.Patch = &patch
	}
	info.Prerelease = strings.Contains(in.Release, "-rc")
	info.Kind, info.Tree, info.KindEvidence = classify(in.Release, series, info.BuildHost, in.Config)
	if info.Kind == KindDistribution {
		info.Distribution = distributionOf(in.Release, in.Build, in.ProcVersion)
	}
	judgeSeries(&info, series, in.Now, tbl)
	if info.Kind == KindVendor {
		info.FarBehind = farBehind(info, tbl)
	}
	return info
}

// judgeSeries fills Longterm, Maintained, EOL, Status and MonthsBehind.
func judgeSeries(info *Info, series string, now time.Time, tbl Table) {
	TableDate, NewestMainline := tbl.Date, tbl.NewestMainline
	asOf := "as of " + TableDate.Format("January 2006")
	if s := tbl.Find(series); s != nil {
		info.Longterm = true
		eol := s.EOL
		info.EOL = &eol
		maintained := now.Before(eol)
		info.Maintained = &maintained
		switch {
		case !eol.After(TableDate):
			info.Status = fmt.Sprintf("longterm series %s reached its end of life in %s", series, eol.Format("January 2006"))
		case maintained:
			info.Status = fmt.Sprintf("longterm series %s, maintained until %s (projected, %s)", series, eol.Format("January 2006"), asOf)
		default:
			info.Status = fmt.Sprintf("longterm series %s, end of life projected for %s (%s): that date has passed", series, eol.Format("January 2006"), asOf)
		}
		newest := eol
		if TableDate.Before(newest) {
			newest = TableDate
		}
		info.MonthsBehind = monthsBehind(info.BuildDate, newest)
		return
	}
	cmp := compareSeries(series, NewestMainline)
	switch {
	case cmp < 0:
		f := false
		info.Maintained = &f
		info.Status = fmt.Sprintf("series %s is not a longterm series; kernel.org maintains such a series only until shortly after the next release, and %s was out %s", series, NewestMainline, asOf)
		if info.Distribution != "" {
			info.Status += fmt.Sprintf("; %s maintains this kernel itself (security and bug fixes come with its updates)", info.Distribution)
		}
	case cmp == 0:
		t := true
		info.Maintained = &t
		info.Status = fmt.Sprintf("series %s is the newest mainline release %s; it is not a longterm series and is maintained only until shortly after the next release", series, asOf)
		info.MonthsBehind = monthsBehind(info.BuildDate, TableDate)
	default:
		info.Status = fmt.Sprintf("series %s is newer than boardbench's kernel table (%s, %s, %s); its maintenance is unknown: give a newer table with --kernel-table FILE (docs/kernel.md)", series, tbl.Source, asOf, tbl.Age(now))
		info.Notes = append(info.Notes, "maintenance: series newer than the table")
	}
}

// Age says how far the build is behind its series and against what:
// "35 months behind the newest release of its series, as of the table's
// date (2025-07-01)" for a series still maintained then, "… behind the last
// release of its series (end of life December 2024)" for one that had
// ended. "" when the build date is unknown.
func (i Info) Age() string {
	if i.MonthsBehind == nil {
		return ""
	}
	n := *i.MonthsBehind
	months := fmt.Sprintf("%d months", n)
	if n == 1 {
		months = "1 month"
	}
	if i.EOL != nil && !i.EOL.After(i.TableDate) {
		return fmt.Sprintf("%s behind the last release of its series (end of life %s)", months, i.EOL.Format("January 2006"))
	}
	return fmt.Sprintf("%s behind the newest release of its series, as of the table's date (%s)", months, i.TableDate.Format("2006-01-02"))
}

// monthsBehind counts whole months from build to newest; nil when the
// build date is unknown. A build after newest counts as 0.
func monthsBehind(build *time.Time, newest time.Time) *int {
	if build == nil {
		return nil
	}
	m := (newest.Year()-build.Year())*12 + int(newest.Month()-build.Month())
	if newest.Day() < build.Day() {
		m--
	}
	m = max(m, 0)
	return &m
}

// farBehind judges a vendor kernel: its series has ended, or two or more
// longterm series have come out since.
func farBehind(info Info, tbl Table) bool {
	if info.Maintained != nil && !*info.Maintained {
		return true
	}
	newer := 0
	for _, s := range tbl.Longterm {
		if compareSeries(s.Version, info.Series) > 0 && s.Released.Before(tbl.Date) {
			newer++
		}
	}
	return newer >= 2
}

// compareSeries orders "MAJOR.MINOR" strings numerically.
func compareSeries(a, b string) int {
	pa, pb := seriesNums(a), seriesNums(b)
	return slices.Compare(pa, pb)
}

func seriesNums(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ".") {
		n, _ := strconv.Atoi(f)
		out = append(out, n)
	}
	return out
}

// buildHost returns the "user@host" of a /proc/version line.
func buildHost(pv string) string {
	rest, ok := strings.CutPrefix(pv, "Linux version ")
	if !ok {
		return ""
	}
	i := strings.Index(rest, " (")
	if i < 0 {
		return ""
	}
	rest = rest[i+2:]
	j := strings.IndexByte(rest, ')')
	if j < 0 || !strings.Contains(rest[:j], "@") {
		return ""
	}
	return rest[:j]
}

var (
	isoDateRE  = lazyre.Regexp(`\((\d{4}-\d{2}-\d{2})\)`)
	unixDateRE = lazyre.Regexp(`(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +(\d{1,2}) [0-9:]+ (?:[A-Z]{2,5} |[+-]\d{4} )?(\d{4})`)
)

// BuildDate finds the build date in a kernel build string (`uname -v`):
// "#1 SMP PREEMPT Debian 1:6.1.63-1+rpt1 (2023-11-24)" or
// "#1122 SMP Tue Jun 19 12:26:26 BST 2018". Debian's form names the date
// of the package's upload, which is what its users run.
func BuildDate(build string) (time.Time, bool) {
	if m := isoDateRE.FindStringSubmatch(build); m != nil {
		if t, err := time.Parse("2006-01-02", m[1]); err == nil {
			return t, true
		}
	}
	if m := unixDateRE.FindStringSubmatch(build); m != nil {
		if t, err := time.Parse("Jan 2 2006", m[2]+" "+m[3]+" "+m[4]); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
