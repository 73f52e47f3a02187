package result

// Phases of `boardbench storage`.
const (
	// PhaseStorage is the native O_DIRECT test: the iozone-style table.
	PhaseStorage = "storage"
	// PhaseStorageFio is the same patterns run by fio (--fio).
	PhaseStorageFio = "storage-fio"
	// PhaseStorageSustained is the sustained-write test (--sustained).
	PhaseStorageSustained = "storage-sustained"
	// PhaseStorageCapacity is the fake-capacity check (--verify-capacity).
	PhaseStorageCapacity = "storage-capacity"
)

// StorageRow is one row of the iozone-style table: one record size, the
// throughput of each test in KiB/s (1 KiB = 1024 bytes; iozone calls it
// kB/s). The JSON names say kb_s for compatibility; the unit is KiB/s.
// A nil figure was not measured (interrupted, or the test failed).
type StorageRow struct {
	RecordKiB      int      `json:"record_kib"`
	WriteKBs       *float64 `json:"write_kb_s"`
	RewriteKBs     *float64 `json:"rewrite_kb_s"`
	ReadKBs        *float64 `json:"read_kb_s"`
	RereadKBs      *float64 `json:"reread_kb_s"`
	RandomReadKBs  *float64 `json:"random_read_kb_s"`
	RandomWriteKBs *float64 `json:"random_write_kb_s"`
}

// StorageCell says how one cell of the table was measured.
type StorageCell struct {
	RecordKiB int `json:"record_kib"`
	// Test is "write", "rewrite", "read", "reread", "random_read" or
	// "random_write".
	Test string `json:"test"`
	// Bytes and Ops are what the cell moved; Seconds its duration
	// (writes include the final fdatasync, as iozone -e does).
	Bytes   int64   `json:"bytes"`
	Ops     int64   `json:"ops"`
	Seconds float64 `json:"seconds"`
	// File is the file the cell used: StorageReadFile (written whole
	// before the table) or StorageWriteFile (new for each record size).
	// Offset is where a sequential cell started in it (it wraps at the end
	// of the region); RegionBytes is the region the cell addressed: the
	// whole read file for read, reread and the random cells, what write
	// wrote for rewrite.
	File        string `json:"file,omitempty"`
	Offset      int64  `json:"offset"`
	RegionBytes int64  `json:"region_bytes,omitempty"`
	// StoppedBy is "time" (the per-cell time limit), "bytes" (the
	// per-cell byte budget), "end of region" (a sequential cell went over
	// its whole region, a random one did as many operations as the region
	// holds records) or "error".
	StoppedBy string `json:"stopped_by"`
	// CPUPct is the CPU time boardbench spent during the cell, in percent
	// of one CPU (100 = one CPU busy all the time).
	CPUPct float64 `json:"cpu_pct"`
	// Error is the I/O error that ended the cell, if any.
	Error string `json:"error,omitempty"`
}

// StorageFigures are the figures of PhaseStorage.
type StorageFigures struct {
	// Dir is the directory the temporary file was created in, or the
	// device measured with --destructive.
	Dir string `json:"dir"`
	// FileBytes is the size of the read file, written whole before the
	// table (in FillSeconds) and the region of the read and random cells.
	FileBytes   int64   `json:"file_bytes"`
	FillSeconds float64 `json:"fill_s,omitempty"`
	// WriteFileBytes is the most the write file holds (write and rewrite).
	WriteFileBytes int64 `json:"write_file_bytes,omitempty"`
	// CellLimitS and CellBudgetBytes bound every cell: it stops at the
	// first of the two.
	CellLimitS      float64 `json:"cell_limit_s"`
	CellBudgetBytes int64   `json:"cell_budget_bytes"`
	// Direct is true when every transfer bypassed the page cache
	// (O_DIRECT); false means the filesystem refused O_DIRECT and the
	// figures are the page cache's, with DirectError saying why.
	Direct      bool   `json:"direct"`
	DirectError string `json:"direct_error,omitempty"`
	// Table is the iozone-style table.
	Table []StorageRow `json:"table"`
	// Cells say how each cell was measured.
	Cells []StorageCell `json:"cells"`
	// RandRead4kIOPS and RandWrite4kIOPS are the 4 KiB random operations
	// per second.
	RandRead4kIOPS  *float64 `json:"rand_read_4k_iops"`
	RandWrite4kIOPS *float64 `json:"rand_write_4k_iops"`
	// Latency are the completion latency cells: 4 KiB random reads and
	// writes over the read file at queue depths 1 and 32 (schema 1.2;
	// absent in older results).
	Latency []StorageLatency `json:"latency,omitempty"`
	// Devices are the devices of a run over several paths at once (schema
	// 1.2), each with its own figures; Table is then their sum, cell by
	// cell (every device ran the cell at the same time), and Cells and
	// Latency are empty.
	Devices []StorageDevice `json:"devices,omitempty"`
	// Governors are the cpufreq governors during the test, per policy
	// ("policy0: ondemand"); IOIsBusy is ondemand's io_is_busy (nil when
	// ondemand is not in use or does not say).
	Governors []string `json:"governors,omitempty"`
	IOIsBusy  *bool    `json:"io_is_busy,omitempty"`
	// IRQ names the device interrupt that fired most during the test (the
	// storage's, "36 virtio1-req.0"); IRQCPUs are the CPUs that handled
	// it. Empty when /proc/interrupts could not be read.
	IRQ     string `json:"irq,omitempty"`
	IRQCPUs []int  `json:"irq_cpus,omitempty"`
}

// StorageDevice is one device of a run over several paths at once.
type StorageDevice struct {
	// Path is the path as given; Device the whole device's name
	// ("sda"), Kind its kind ("usb", "nvme"…).
	Path    string         `json:"path"`
	Device  string         `json:"device,omitempty"`
	Kind    string         `json:"kind,omitempty"`
	Figures StorageFigures `json:"figures"`
}

// StorageWindow is one window of the sustained-write test.
type StorageWindow struct {
	// WrittenBytes is what was written when the window ended; KBs the
	// window's rate in KiB/s (its bytes over its time, with fdatasync).
	WrittenBytes int64   `json:"written_bytes"`
	KBs          float64 `json:"kb_s"`
}

// StorageSustainedFigures are the figures of PhaseStorageSustained (schema
// 1.2): sequential O_DIRECT writes of ChunkBytes in windows of
// WindowBytes, until the rate falls (FallRule) or MaxBytes are written.
type StorageSustainedFigures struct {
	Dir          string  `json:"dir"`
	MaxBytes     int64   `json:"max_bytes"`
	WindowBytes  int64   `json:"window_bytes"`
	ChunkBytes   int64   `json:"chunk_bytes"`
	Direct       bool    `json:"direct"`
	WrittenBytes int64   `json:"written_bytes"`
	Seconds      float64 `json:"seconds"`
	// FallRule says when the rate counts as fallen.
	FallRule string `json:"fall_rule"`
	// Fell is true when the rate fell; CacheBytes is then what was written
	// before the fall (the write cache, e.g. an SLC cache), KBsBefore the
	// median rate before it and KBsAfter the median rate of the windows
	// that confirmed the fall. Without a fall CacheBytes is null (the
	// cache, if any, is larger than what was written) and KBsBefore the
	// median rate of all windows.
	Fell       bool            `json:"fell"`
	CacheBytes *int64          `json:"cache_bytes"`
	KBsBefore  *float64        `json:"kb_s_before"`
	KBsAfter   *float64        `json:"kb_s_after"`
	Windows    []StorageWindow `json:"windows"`
	// StoppedBy is "fall", "size" (MaxBytes written), "no space" or
	// "error"; Error the error that stopped it.
	StoppedBy string `json:"stopped_by"`
	Error     string `json:"error,omitempty"`
}

// StorageCapacityFigures are the figures of PhaseStorageCapacity (schema
// 1.2): position-tagged blocks written over the free space through the
// file system, then read back.
type StorageCapacityFigures struct {
	Dir string `json:"dir"`
	// FreeBytes is the free space before the test; WrittenBytes what was
	// written (the free space less a margin), in files of FileBytes.
	FreeBytes    int64 `json:"free_bytes"`
	WrittenBytes int64 `json:"written_bytes"`
	FileBytes    int64 `json:"file_bytes"`
	BlockBytes   int64 `json:"block_bytes"`
	Direct       bool  `json:"direct"`
	// OKBytes read back as written: the real capacity of what was
	// tested. The lost blocks are split into ZeroBytes (read back as
	// zeros), MovedBytes (read back another position's block: the
	// addresses wrap around, as on counterfeit cards) and ChangedBytes
	// (anything else).
	OKBytes      int64 `json:"ok_bytes"`
	ZeroBytes    int64 `json:"zero_bytes"`
	MovedBytes   int64 `json:"moved_bytes"`
	ChangedBytes int64 `json:"changed_bytes"`
	// FirstBadOffset is the position (in the written data) of the first
	// block that did not read back; null when all did.
	FirstBadOffset *int64  `json:"first_bad_offset"`
	WriteSeconds   float64 `json:"write_s"`
	ReadSeconds    float64 `json:"read_s"`
	// StoppedBy is "done", "no space" (the file system filled before the
	// planned size; what was written was verified) or "error".
	StoppedBy string `json:"stopped_by"`
	Error     string `json:"error,omitempty"`
}

// StorageLatency is one latency cell: random requests of one record size
// over the read file with QueueDepth requests in flight, each timed from
// its submission to its completion (fio's "clat").
type StorageLatency struct {
	// Test is "random_read" or "random_write".
	Test      string `json:"test"`
	RecordKiB int    `json:"record_kib"`
	// QueueDepth is the number of requests kept in flight (1 or 32).
	QueueDepth int `json:"queue_depth"`
	// Engine is how requests were issued: "libaio" (Linux native
	// asynchronous I/O with O_DIRECT, as fio's ioengine=libaio).
	Engine string `json:"engine"`
	// Ops requests completed in Seconds (from the first submission to the
	// last completion); IOPS and KBs (KiB/s) follow from them.
	Ops     int64    `json:"ops"`
	Seconds float64  `json:"seconds"`
	IOPS    *float64 `json:"iops"`
	KBs     *float64 `json:"kb_s"`
	// P50Us, P99Us and P999Us are completion latency percentiles in
	// microseconds (nearest rank over every request); a percentile needs
	// at least 100 (p99) or 1000 (p99.9) requests, else it is null and
	// Note says so. MaxUs is the slowest request.
	P50Us  *float64 `json:"p50_us"`
	P99Us  *float64 `json:"p99_us"`
	P999Us *float64 `json:"p99_9_us"`
	MaxUs  *float64 `json:"max_us"`
	// StoppedBy is "time", "bytes", "requests" (the most requests a cell
	// records) or "error".
	StoppedBy string `json:"stopped_by"`
	Note      string `json:"note,omitempty"`
	Error     string `json:"error,omitempty"`
}

// Files of the storage test (StorageCell.File).
const (
	StorageReadFile  = "read file"
	StorageWriteFile = "write file"
)

// StorageFioJob is one fio job's figures next to boardbench's: the job
// repeats one cell of the table with the same record size, region and
// number of bytes.
type StorageFioJob struct {
	// Name is the pattern: "seq_write_16m", "seq_read_16m", "write_4k",
	// "rand_read_4k", "rand_write_4k".
	Name      string `json:"name"`
	RecordKiB int    `json:"record_kib"`
	// Test is the cell of the table the job repeats ("write", "read",
	// "random_read", "random_write").
	Test string `json:"test,omitempty"`
	// SizeBytes is the region; Bytes what fio moved.
	SizeBytes int64   `json:"size_bytes,omitempty"`
	Bytes     int64   `json:"bytes,omitempty"`
	KBs       float64 `json:"kb_s"`
	IOPS      float64 `json:"iops"`
	// BoardbenchKBs is boardbench's figure of the same cell.
	BoardbenchKBs *float64 `json:"boardbench_kb_s,omitempty"`
	// QueueDepth is set on a latency job (libaio with this many requests
	// in flight; schema 1.2). ClatP50Us, ClatP99Us and ClatP999Us are
	// fio's completion latency percentiles in microseconds, the
	// Boardbench ones the latency cell's.
	QueueDepth       int      `json:"queue_depth,omitempty"`
	ClatP50Us        *float64 `json:"clat_p50_us,omitempty"`
	ClatP99Us        *float64 `json:"clat_p99_us,omitempty"`
	ClatP999Us       *float64 `json:"clat_p99_9_us,omitempty"`
	BoardbenchP50Us  *float64 `json:"boardbench_p50_us,omitempty"`
	BoardbenchP99Us  *float64 `json:"boardbench_p99_us,omitempty"`
	BoardbenchP999Us *float64 `json:"boardbench_p99_9_us,omitempty"`
}

// StorageFioFigures are the figures of PhaseStorageFio; the phase's raw
// output holds fio's JSON.
type StorageFioFigures struct {
	Version string          `json:"version"`
	Jobs    []StorageFioJob `json:"jobs"`
}

// StorageSummary holds the headline storage figures (embedded in Summary).
type StorageSummary struct {
	// SeqReadMBs and SeqWriteMBs are the 16384 KiB record read and write
	// throughput in MB/s (1 MB = 10^6 bytes).
	SeqReadMBs  *float64 `json:"seq_read_mb_s,omitempty"`
	SeqWriteMBs *float64 `json:"seq_write_mb_s,omitempty"`
	// RandRead4kIOPS and RandWrite4kIOPS are the 4 KiB random IOPS.
	RandRead4kIOPS  *float64 `json:"rand_read_4k_iops,omitempty"`
	RandWrite4kIOPS *float64 `json:"rand_write_4k_iops,omitempty"`
}

// StorageSummaryOf computes the storage headline from the figures.
func StorageSummaryOf(f StorageFigures) *StorageSummary {
	s := &StorageSummary{RandRead4kIOPS: f.RandRead4kIOPS, RandWrite4kIOPS: f.RandWrite4kIOPS}
	mb := func(kbs *float64) *float64 {
		if kbs == nil {
			return nil
		}
		v := *kbs * 1024 / 1e6
		return &v
	}
	for _, r := range f.Table {
		if r.RecordKiB == 16384 {
			s.SeqReadMBs, s.SeqWriteMBs = mb(r.ReadKBs), mb(r.WriteKBs)
		}
	}
	return s
}

// PhaseWrites is the watch of `boardbench writes`.
const PhaseWrites = "writes"

// Writer is one process's share of the writes.
type Writer struct {
	PID  int     `json:"pid"`
	Comm string  `json:"comm"`
	KiB  float64 `json:"kib"`
}

// WritesLine is one interval in which the device was written to: the
// `--json` line of `boardbench writes`.
type WritesLine struct {
	Time   string `json:"time"`
	Device string `json:"device"`
	// IntervalS is the time since the previous line (or the start).
	IntervalS float64 `json:"interval_s"`
	// Writes are the write requests the device completed; KiBWritten
	// what they wrote (sectors written / 2).
	Writes     uint64  `json:"writes"`
	KiBWritten float64 `json:"kib_written"`
	// Writers are the processes whose write_bytes grew in the interval
	// and that hold a file open for writing (or mapped shared and
	// writable) on the device, one of its partitions or a device stacked
	// on it, largest first. write_bytes is counted over all devices: a
	// process writing to several is listed with all of it.
	Writers []Writer `json:"writers"`
	// NotAttributable are the processes whose write_bytes grew but that
	// held no writable file on any block device at the poll (e.g. one that
	// opened, wrote and closed a file in between): they may have written
	// to this device or another. Absent in results of older versions.
	NotAttributable []Writer `json:"not_attributable,omitempty"`
}

// WritesFigures are the figures of PhaseWrites.
type WritesFigures struct {
	Device    string       `json:"device"`
	IntervalS float64      `json:"poll_interval_s"`
	DurationS float64      `json:"duration_s"`
	Lines     []WritesLine `json:"lines"`
	// Events is the number of lines; Writes and KiBWritten the totals.
	Events     int     `json:"events"`
	Writes     uint64  `json:"writes"`
	KiBWritten float64 `json:"kib_written"`
	// TopWriters are the processes that wrote most over the whole watch.
	TopWriters []Writer `json:"top_writers"`
	// TopNotAttributable are the processes that wrote most where the
	// writes could not be put on a device (see WritesLine.NotAttributable).
	TopNotAttributable []Writer `json:"top_not_attributable,omitempty"`
	// AttributedDevices are the devices whose writers are the watched
	// device's: itself, its partitions and the devices stacked on it.
	AttributedDevices []string `json:"attributed_devices,omitempty"`
	// Advice are the changes that would reduce the writes, each with its
	// evidence and cost.
	Advice []WritesAdvice `json:"advice"`
}

// WritesAdvice is one piece of advice of `boardbench writes`.
type WritesAdvice struct {
	ID       string `json:"id"`
	Evidence string `json:"evidence"`
	Change   string `json:"change"`
	Cost     string `json:"cost"`
}
