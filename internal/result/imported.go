package result

import "encoding/json"

// CommandImport is the Command of a result `boardbench import` made from a
// benchmark log written by another tool (see docs/import.md).
const CommandImport = "import"

// PhaseImportedLog is the phase of an imported result that keeps the
// original log: its RawOutput is the whole text as read, its Figures the
// ImportedFigures (what the log tells that no other figure type holds).
// The log's benchmarks are the result's other phases (clock,
// clock-after-load, memory, openssl, 7zip-single, 7zip-multi), each with
// its usual figure type.
const PhaseImportedLog = "imported-log"

// ImportedFormat is the name of the log format `boardbench import` reads.
const ImportedFormat = "sbc-bench result log"

// ImportedSummary holds the headline figures of an imported result that
// the common Summary has no field for.
type ImportedSummary struct {
	// ImportedFormat names the log format ("sbc-bench result log") and
	// ImportedFormatVersion the version its first line names ("0.9.72";
	// "" when the log does not say).
	ImportedFormat        string `json:"imported_format,omitempty"`
	ImportedFormatVersion string `json:"imported_format_version,omitempty"`
	// ImportedRow is the results-table row the log printed at its end, in
	// the log's own column order: each cell as printed less the one space
	// of padding on each side (a row without a device name keeps the
	// space before " / CPU"), so that `report --markdown-row` reproduces
	// the row exactly; empty when it printed none.
	ImportedRow []string `json:"imported_row,omitempty"`
	// ImportedRowColumns names the columns of ImportedRow, by the layout
	// the log's version printed (versions 0.9.0 to 0.9.8 print as many
	// cells as today's rows, with AES-128 where 7-zip single stands now);
	// empty when the layout is not known.
	ImportedRowColumns []string `json:"imported_row_columns,omitempty"`
	// CPUMinerKHs is cpuminer's scrypt hash rate (kH/s) as the log's row
	// takes it from the total scores it lists: the second highest; nil
	// when it lists none.
	CPUMinerKHs *float64 `json:"cpuminer_khs,omitempty"`
}

// ImportedFigures are the figures of the imported-log phase: what the log
// tells beyond the typed figures of the other phases. Lines that could not
// be read are in Notes, never guessed.
type ImportedFigures struct {
	// File is the name of the file read (without its directory).
	File string `json:"file"`
	// Format and FormatVersion: see ImportedSummary.
	Format        string `json:"format"`
	FormatVersion string `json:"format_version"`
	// Device is the machine as the log's first line names it.
	Device string `json:"device"`
	// Hostname is the host name the log's iostat line shows.
	Hostname string `json:"hostname,omitempty"`
	// Distro are the lsb_release lines (Distributor ID, Description,
	// Release, Codename), as printed.
	Distro map[string]string `json:"distro,omitempty"`
	// Topology is the CPU topology table (one entry per CPU) the log
	// printed, from its last occurrence.
	Topology []ImportedTopologyCPU `json:"topology,omitempty"`
	// Ramlat are the ramlat latency tables, one per CPU.
	Ramlat []ImportedRamlat `json:"ramlat,omitempty"`
	// Monitoring are the monitor lines per benchmark, in the log's order.
	Monitoring []ImportedMonitoring `json:"monitoring,omitempty"`
	// Throttling are the cpufreq statistics of the log's throttling
	// section, one per group of CPUs.
	Throttling []ImportedThrottling `json:"throttling,omitempty"`
	// Validation are the lines of the log's "Results validation" section,
	// without their bullets.
	Validation []string `json:"validation,omitempty"`
	// ValidationWarnings are those of Validation that report a problem.
	ValidationWarnings []string `json:"validation_warnings,omitempty"`
	// CPUMinerTotalKHs are cpuminer's total hash rates (the log's "Total
	// Scores"), kH/s.
	CPUMinerTotalKHs []float64 `json:"cpuminer_total_khs,omitempty"`
	// PrintedRow is the results-table row the log printed, as printed.
	PrintedRow string `json:"printed_row,omitempty"`
	// Notes list the parts of the log that could not be read, with why.
	Notes []string `json:"notes,omitempty"`
}

// ImportedTopologyCPU is one row of the log's CPU topology table.
type ImportedTopologyCPU struct {
	CPU     int `json:"cpu"`
	Cluster int `json:"cluster"`
	// Policy, MinMHz and MaxMHz are nil where the table shows "-".
	Policy *int     `json:"policy"`
	MinMHz *float64 `json:"min_mhz"`
	MaxMHz *float64 `json:"max_mhz"`
	// Core is the core type column as printed ("Cortex-A76 / r4p0").
	Core string `json:"core"`
}

// ImportedRamlat is one ramlat table: latency in ns per block size and
// access pattern.
type ImportedRamlat struct {
	// CPU is the CPU it ran on; nil when the log does not say.
	CPU  *int   `json:"cpu"`
	Core string `json:"core"`
	// Columns are the access patterns ("1x32", "2x32", ..., "8xPTR").
	Columns []string            `json:"columns"`
	Rows    []ImportedRamlatRow `json:"rows"`
}

// ImportedRamlatRow is the latency at one block size; NS is parallel to
// ImportedRamlat.Columns, nil where a cell was not a number.
type ImportedRamlatRow struct {
	SizeBytes int64      `json:"size_bytes"`
	NS        []*float64 `json:"ns"`
}

// ImportedMonitoring is one block of monitor lines: the log's "System
// health while running X" (or "System health now" under load).
type ImportedMonitoring struct {
	// While names what ran ("tinymembench", "7-zip multi core benchmark").
	While string `json:"while"`
	// Columns are the header's column names; Rows the lines' fields split
	// on white space, the time first.
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
	// RowsInLog is the number of monitor lines the block has in the log
	// when Rows holds fewer (import keeps at most a bound of them, the
	// coolest and hottest of each stretch; every line is in the original
	// text); 0 when Rows holds them all.
	RowsInLog int `json:"rows_in_log,omitempty"`
}

// ImportedThrottling is the time spent at each cpufreq OPP by one group
// of CPUs, from the log's throttling statistics.
type ImportedThrottling struct {
	// CPUs is the group as printed ("4-7"), "" when not named.
	CPUs string `json:"cpus"`
	// Core is the core type when named.
	Core string `json:"core,omitempty"`
	// Unit is "s" or "ms", as the log printed the times.
	Unit string            `json:"unit"`
	OPPs []ImportedOPPTime `json:"opps"`
}

// ImportedOPPTime is the time spent at one OPP; nil where the log printed
// no number.
type ImportedOPPTime struct {
	MHz  float64  `json:"mhz"`
	Time *float64 `json:"time"`
}

// ImportedOf returns the ImportedFigures of r's imported-log phase; nil
// when r has none or they are not readable.
func ImportedOf(r *Result) *ImportedFigures {
	if r == nil {
		return nil
	}
	for _, p := range r.Phases {
		if p.Name != PhaseImportedLog || len(p.Figures) == 0 {
			continue
		}
		var f ImportedFigures
		if json.Unmarshal(p.Figures, &f) == nil {
			return &f
		}
	}
	return nil
}
