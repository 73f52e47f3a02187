package result

// Phase names of `boardbench run`. A name may occur in several phases of
// one result: the single-CPU kinds (memory, openssl, 7zip-single) have one
// phase per core type, told apart by Phase.CPUs; 7zip-cluster has one per
// cluster.
//
// Which figure type each phase's Figures holds:
//
//	clock, clock-after-load        ClockFigures
//	memory                         MemFigures (one CPU)
//	openssl, openssl-all-cores     OpenSSLFigures (all-cores: sums over its CPUs)
//	openssl-evp                    OpenSSLFigures with Build and Userland
//	cryptsetup                     CryptsetupFigures
//	7zip-single, 7zip-multi,
//	7zip-cluster, sustained        SevenZipFigures
//
//	memory-all-cores               MemAllCoresFigures
//	c2c                            C2CFigures
//
// A phase that was skipped or failed before measuring anything has no
// figures (null). PhaseCommand is the one phase of a `boardbench monitor --
// COMMAND` result: the command's output is in its raw_output, and when the
// command is a benchmark internal/benchtool/wrapped recognises (7-Zip,
// openssl speed, stress-ng, sysbench, llama-bench, Geekbench, HPL,
// cpuminer), its Figures hold that package's wrapped.Figures read from the
// output (docs/wrapped.md); otherwise it has none.
const (
	PhaseClock          = "clock"
	PhaseMemory         = "memory"
	PhaseOpenSSL        = "openssl"
	PhaseSevenZipSingle = "7zip-single"
	PhaseSevenZipMulti  = "7zip-multi"
	PhaseClockAfterLoad = "clock-after-load"
	// Extensive phases (`boardbench run --extensive`).
	PhaseSevenZipCluster = "7zip-cluster"
	PhaseOpenSSLAllCores = "openssl-all-cores"
	PhaseSustained       = "sustained"
	// PhaseOpenSSLEVP is `openssl speed -evp` of the AEAD ciphers
	// (aes-256-gcm, chacha20-poly1305) on one CPU per core type.
	PhaseOpenSSLEVP = "openssl-evp"
	// PhaseCryptsetup is `cryptsetup benchmark` of aes-xts (256- and
	// 512-bit keys) on one CPU per core type: the kernel's ciphers.
	PhaseCryptsetup = "cryptsetup"
	// PhaseCommand is the phase of `boardbench monitor -- COMMAND`; its
	// figures, when present, are wrapped.Figures (see above).
	PhaseCommand = "command"
	// PhaseMemoryAllCores is the bandwidth of all CPUs at once
	// (`boardbench mem`).
	PhaseMemoryAllCores = "memory-all-cores"
	// PhaseC2C is the core-to-core latency matrix (`boardbench c2c`).
	PhaseC2C = "c2c"
)

// MemAllCoresFigures are the figures of the memory-all-cores phase: the
// bandwidth of all CPUs working at once, each on its own slice of the
// buffers (MB/s summed over the CPUs).
type MemAllCoresFigures struct {
	CPUs []int `json:"cpus"`
	// SliceBytes is each CPU's share of each buffer.
	SliceBytes int64 `json:"slice_bytes"`
	MemBandwidth
	BandwidthDetail
	// Notes say what could not be measured and why.
	Notes []string `json:"notes,omitempty"`
}

// C2CFigures are the figures of the c2c phase: the round trip of a cache
// line between two pinned CPUs in nanoseconds.
type C2CFigures struct {
	// CPUs are the CPUs the matrix covers; Cores their core types ("" when
	// unknown), parallel to CPUs.
	CPUs  []int    `json:"cpus"`
	Cores []string `json:"cores"`
	// Sampled is true when only a representative sample of pairs was
	// measured.
	Sampled bool `json:"sampled"`
	// MatrixNS[i][j] is the round trip between CPUs[i] and CPUs[j]; null on
	// the diagonal and for pairs not measured.
	MatrixNS [][]*float64 `json:"matrix_ns"`
}

// ClockFigures are the figures of the clock and clock-after-load phases:
// the measured clock of one CPU per cluster next to what the kernel and the
// firmware report.
type ClockFigures struct {
	Clusters []ClockCluster `json:"clusters"`
}

// ClockMeasurement is what a clock check measured on one cluster: the
// first fields of both ClockCluster (the result of `boardbench run`) and
// the cluster entries of `boardbench clock --json`, which embed it.
type ClockMeasurement struct {
	// Cluster is the index in info.cpu.clusters; nil when clusters are unknown.
	Cluster *int  `json:"cluster"`
	CPUs    []int `json:"cpus"`
	// Core is the core type, "" when unknown.
	Core   string `json:"core"`
	Policy *int   `json:"policy"`
	// CPU is the CPU measured; nil when none could be pinned.
	CPU *int `json:"cpu"`
	// MeasuredMHz is the median of the samples; nil when not measured.
	MeasuredMHz *float64 `json:"measured_mhz"`
	// Samples are the clocks of the samples in MHz, in the order taken.
	Samples []float64 `json:"samples"`
	// DisturbedSamples were set aside because another task took the CPU
	// during them (MHz); all samples when none was undisturbed.
	DisturbedSamples []float64 `json:"disturbed_samples"`
	SpreadPct        *float64  `json:"spread_pct"`
}

// ClockCluster is the measured clock of one cluster.
type ClockCluster struct {
	ClockMeasurement
	// ReportedMHz is the kernel's clock right after measuring, from
	// ReportedSource (scaling_cur_freq or cpuinfo_cur_freq).
	ReportedMHz    *float64 `json:"reported_mhz"`
	ReportedSource string   `json:"reported_source"`
	// FirmwareMHz is the Raspberry Pi firmware's ARM clock.
	FirmwareMHz          *float64 `json:"firmware_mhz"`
	DeviationPct         *float64 `json:"deviation_pct"`
	FirmwareDeviationPct *float64 `json:"firmware_deviation_pct"`
	// AdvertisedMaxMHz is the kernel's cpuinfo_max_freq for the cluster.
	AdvertisedMaxMHz *float64 `json:"advertised_max_mhz"`
	// Method is the measuring kernel ("asm-arm64", "portable"...); Certain
	// is false for the portable one.
	Method  string `json:"method"`
	Certain bool   `json:"certain"`
	// OPPs is the --opps walk, highest clock first; absent without it.
	OPPs []OPPClock `json:"opps,omitempty"`
	// Error says why the cluster could not be measured.
	Error string `json:"error,omitempty"`
}

// OPPMeasurement is what the OPP walk measured at one pinned cpufreq
// operating point: the first fields of both OPPClock and the OPP entries of
// `boardbench clock --json`, which embed it.
type OPPMeasurement struct {
	RequestedMHz float64  `json:"requested_mhz"`
	ReportedMHz  *float64 `json:"reported_mhz"`
	MeasuredMHz  *float64 `json:"measured_mhz"`
	SpreadPct    *float64 `json:"spread_pct"`
}

// OPPClock is the measured clock at one pinned cpufreq operating point.
type OPPClock struct {
	OPPMeasurement
	DeviationPct *float64 `json:"deviation_pct"`
	Error        string   `json:"error,omitempty"`
}

// MemBandwidth holds the bandwidth figures of one memory measurement in
// MB/s (10^6 bytes per second, a copy counts the bytes copied once): the
// median of the samples, with the samples' standard deviation in percent
// of their mean. A figure is nil when its kernel could not run. MemFigures
// and the results of `boardbench mem --json` embed it.
type MemBandwidth struct {
	MemcpyMBs        *float64 `json:"memcpy_mb_s"`
	MemcpyStdDevPct  *float64 `json:"memcpy_stddev_pct"`
	MemsetMBs        *float64 `json:"memset_mb_s"`
	MemsetStdDevPct  *float64 `json:"memset_stddev_pct"`
	ReadMBs          *float64 `json:"read_mb_s"`
	ReadStdDevPct    *float64 `json:"read_stddev_pct"`
	WriteMBs         *float64 `json:"write_mb_s"`
	WriteStdDevPct   *float64 `json:"write_stddev_pct"`
	CopyGoMBs        *float64 `json:"copy_go_mb_s"`
	CopyGoStdDevPct  *float64 `json:"copy_go_stddev_pct"`
	NTWriteMBs       *float64 `json:"nt_write_mb_s"`
	NTWriteStdDevPct *float64 `json:"nt_write_stddev_pct"`
}

// Slots returns the figure and standard-deviation fields of a bandwidth
// kernel by its name ("memcpy", "memset", "read", "write", "copy_go",
// "nt_write"); nil, nil for another name.
func (b *MemBandwidth) Slots(kernel string) (mbs, sd **float64) {
	switch kernel {
	case "memcpy":
		return &b.MemcpyMBs, &b.MemcpyStdDevPct
	case "memset":
		return &b.MemsetMBs, &b.MemsetStdDevPct
	case "read":
		return &b.ReadMBs, &b.ReadStdDevPct
	case "write":
		return &b.WriteMBs, &b.WriteStdDevPct
	case "copy_go":
		return &b.CopyGoMBs, &b.CopyGoStdDevPct
	case "nt_write":
		return &b.NTWriteMBs, &b.NTWriteStdDevPct
	}
	return nil, nil
}

// MemFigures are the figures of one memory phase: bandwidth (see
// MemBandwidth) and latency measured from one CPU. Notes say why a figure
// is nil.
type MemFigures struct {
	CPU  int    `json:"cpu"`
	Core string `json:"core"`
	// BufferBytes is the size of each bandwidth buffer.
	BufferBytes int64 `json:"buffer_bytes"`

	MemBandwidth

	// Latency is the latency table, one row per block size.
	Latency []LatencyRow `json:"latency"`
	// LineBytes is the slot size of the latency chains.
	LineBytes int `json:"line_bytes"`
	// CacheLevels are the steps of the latency curve next to sysfs caches.
	CacheLevels []CacheLevel `json:"cache_levels"`
	// LatencyStillRising is true when the latency still rose at the largest
	// block (main memory latency is then underestimated).
	LatencyStillRising bool `json:"latency_still_rising"`
	// CacheLevelsFrom names the curve the levels come from: "ns_hugepage"
	// (fewer TLB effects) or "ns"; "" in results of older versions.
	CacheLevelsFrom string `json:"cache_levels_from,omitempty"`
	// HugePages reports the huge-page pass; nil when it did not run.
	HugePages *HugePageCheck `json:"huge_pages,omitempty"`
	// SysfsCaches are the data and unified caches sysfs lists for the CPU.
	SysfsCaches []SysfsCache `json:"sysfs_caches,omitempty"`
	BandwidthDetail
	// Notes say what could not be measured and why.
	Notes []string `json:"notes,omitempty"`
}

// HugePageCheck reports the huge-page pass of the latency curve
// (internal/probe/memlat measures it; internal/memmeasure converts it).
type HugePageCheck struct {
	// BufferBytes is the size of the buffer advised with MADV_HUGEPAGE.
	BufferBytes int64 `json:"buffer_bytes"`
	// AnonHugeDeltaBytes is the growth of the system's AnonHugePages while
	// the buffer was filled: about the part of it on huge pages. Nil when
	// not read.
	AnonHugeDeltaBytes *int64 `json:"anon_huge_delta_bytes"`
}

// SysfsCache is one data or unified cache sysfs lists for a CPU.
type SysfsCache struct {
	Level     int    `json:"level"`
	Type      string `json:"type"`
	SizeBytes int64  `json:"size_bytes"`
	// SharedCPUs is shared_cpu_list, e.g. "0-3"; "" when not exposed.
	SharedCPUs string `json:"shared_cpus,omitempty"`
}

// LargestCacheBytes returns the size of the largest cache in SysfsCaches,
// 0 when none is known.
func (f MemFigures) LargestCacheBytes() int64 {
	var m int64
	for _, c := range f.SysfsCaches {
		m = max(m, c.SizeBytes)
	}
	return m
}

// BandwidthDetail keeps the samples behind the bandwidth figures.
type BandwidthDetail struct {
	// Samples has every kernel's samples, keyed by the figure's field name
	// ("memcpy_mb_s", ...).
	Samples map[string]BandwidthSamples `json:"samples,omitempty"`
	// PassesPerSample is how many passes over the buffer one sample took
	// (per CPU for all-CPU figures), keyed like Samples.
	PassesPerSample map[string]int `json:"passes_per_sample,omitempty"`
	// NTWriteInstruction names the non-temporal store ("MOVNTDQ", "STNP").
	NTWriteInstruction string `json:"nt_write_instruction,omitempty"`
}

// BandwidthSamples are the samples of one bandwidth kernel in MB/s.
type BandwidthSamples struct {
	MBs          []float64 `json:"samples"`
	Median       float64   `json:"median"`
	RelStdDevPct float64   `json:"rel_stddev_pct"`
}

// LatencyRow is the random-access latency at one block size in ns per
// access; the dual figures are per step of two chains chased at once.
// Huge-page figures are nil when not measured.
type LatencyRow struct {
	SizeBytes      int64    `json:"size_bytes"`
	NS             *float64 `json:"ns"`
	NSDual         *float64 `json:"ns_dual"`
	NSHugePage     *float64 `json:"ns_hugepage"`
	NSDualHugePage *float64 `json:"ns_dual_hugepage"`
}

// CacheLevel is a step found in the latency curve.
type CacheLevel struct {
	// DetectedBytes is the largest block that still fit the level.
	DetectedBytes int64   `json:"detected_bytes"`
	LatencyNS     float64 `json:"latency_ns"`
	// SysfsLevel and SysfsBytes describe the matching sysfs cache; nil when
	// none matched.
	SysfsLevel *int   `json:"sysfs_level"`
	SysfsBytes *int64 `json:"sysfs_bytes"`
}

// OpenSSLFigures are the figures of an openssl phase: AES-CBC throughput in
// kB/s (1 kB = 1000 bytes) per block size. In openssl-all-cores, one
// process ran on each CPU at once and the values are their sums.
type OpenSSLFigures struct {
	CPUs []int `json:"cpus"`
	// Core is the core type of the CPUs ("" when unknown or mixed).
	Core    string `json:"core"`
	Version string `json:"version"`
	// SecondsPerBlockSize is the -seconds value passed; 0 is openssl's
	// default (3 s), which published results use.
	SecondsPerBlockSize int             `json:"seconds_per_block_size"`
	Ciphers             []OpenSSLCipher `json:"ciphers"`
	// Build is how the openssl that ran was built (`openssl version -a`);
	// recorded in openssl-evp, absent in the other phases.
	Build *OpenSSLBuild `json:"build,omitempty"`
	// Userland is the bitness of the programs next to the kernel's;
	// recorded in openssl-evp, absent in the other phases.
	Userland *Userland `json:"userland,omitempty"`
}

// OpenSSLBuild is what `openssl version -a` printed about the binary and
// its library: the same CPU can give very different figures with another
// build (assembler code paths, a 32-bit build on a 64-bit CPU, a
// distribution that leaves out a fast but less side-channel-safe AES).
type OpenSSLBuild struct {
	// VersionLine is the first line, e.g. "OpenSSL 3.0.19 27 Jan 2026
	// (Library: OpenSSL 3.0.19 27 Jan 2026)".
	VersionLine string `json:"version_line"`
	// Flavor is "OpenSSL" or "LibreSSL".
	Flavor string `json:"flavor"`
	// LibraryVersion is the libcrypto version when printed.
	LibraryVersion string `json:"library_version"`
	// BuiltOn, Platform ("debian-arm64", "debian-armhf"...), Options
	// ("bn(64,64)"...) and Compiler (with the -D flags of the build) are
	// the values as printed; "" when not printed.
	BuiltOn  string `json:"built_on"`
	Platform string `json:"platform"`
	Options  string `json:"options"`
	Compiler string `json:"compiler"`
	// OpenSSLDir, EnginesDir and ModulesDir are the directories printed
	// (without quotes).
	OpenSSLDir string `json:"openssldir"`
	EnginesDir string `json:"enginesdir"`
	ModulesDir string `json:"modulesdir"`
	// CPUInfo is the CPU capability vector OpenSSL 3 detected
	// ("OPENSSL_armcap=0xbd"); CPUInfoEnv the override set in the
	// environment (OPENSSL_armcap=...), "" when none.
	CPUInfo    string `json:"cpuinfo"`
	CPUInfoEnv string `json:"cpuinfo_env"`
	// HardwareAES says whether OpenSSL uses AES instructions, decoded from
	// CPUInfo; null when unknown.
	HardwareAES *bool `json:"hardware_aes"`
}

// Userland records the bitness of the user-space programs (the ELF class
// of /bin/sh, see info.os.userland) next to the kernel's: a 64-bit kernel
// with a 32-bit userland runs 32-bit benchmark binaries, whose figures
// differ from the same board's 64-bit ones.
type Userland struct {
	// Bits is 32 or 64; nil when unknown.
	Bits *int `json:"bits"`
	// Arch is the userland's architecture in Debian's naming ("arm64",
	// "armhf", "amd64"...), "" when unknown.
	Arch string `json:"arch"`
	// KernelBits and KernelArch describe the running kernel.
	KernelBits *int   `json:"kernel_bits"`
	KernelArch string `json:"kernel_arch"`
	// MixedArch is true when kernel and userland differ in bitness.
	MixedArch bool `json:"mixed_arch"`
}

// CryptsetupFigures are the figures of a cryptsetup phase: the kernel's
// cipher throughput as `cryptsetup benchmark` measures it in memory (no
// storage), in MiB/s (2^20 bytes per second), from one CPU.
type CryptsetupFigures struct {
	CPUs []int `json:"cpus"`
	// Core is the core type of the CPUs ("" when unknown or mixed).
	Core string `json:"core"`
	// Version is the cryptsetup version; Flags its build flags
	// ("KERNEL_CAPI"...), empty when not printed.
	Version string   `json:"version"`
	Flags   []string `json:"flags"`
	// Ciphers are the measurements in the order run.
	Ciphers []CryptsetupCipher `json:"ciphers"`
	// Userland is the bitness of the programs next to the kernel's.
	Userland *Userland `json:"userland,omitempty"`
}

// CryptsetupCipher is one cipher and key size.
type CryptsetupCipher struct {
	// Cipher is the specification asked for, e.g. "aes-xts-plain64".
	Cipher string `json:"cipher"`
	// KeyBits is the key size, e.g. 256 or 512 (XTS splits it into two
	// keys: 512 bits are AES-256).
	KeyBits int `json:"key_bits"`
	// EncryptionMiBs and DecryptionMiBs are nil when not measured.
	EncryptionMiBs *float64 `json:"encryption_mib_s"`
	DecryptionMiBs *float64 `json:"decryption_mib_s"`
	// Error says why the cipher has no figures (cryptsetup's own message
	// when the kernel does not offer it).
	Error string `json:"error,omitempty"`
}

// OpenSSLCipher is one cipher's throughput per block size.
type OpenSSLCipher struct {
	// Cipher is e.g. "aes-256-cbc".
	Cipher string         `json:"cipher"`
	Values []OpenSSLValue `json:"values"`
	// Error says why the cipher has no values.
	Error string `json:"error,omitempty"`
}

// OpenSSLValue is the throughput at one block size; KBs is nil when not
// measured (e.g. 16384 bytes on OpenSSL 1.0).
type OpenSSLValue struct {
	BlockBytes int      `json:"block_bytes"`
	KBs        *float64 `json:"kb_s"`
}

// KBs returns the throughput of cipher at blockBytes, nil when absent.
func (o OpenSSLFigures) KBs(cipher string, blockBytes int) *float64 {
	for _, c := range o.Ciphers {
		if c.Cipher != cipher {
			continue
		}
		for _, v := range c.Values {
			if v.BlockBytes == blockBytes {
				return v.KBs
			}
		}
	}
	return nil
}

// SevenZipFigures are the figures of a 7-Zip phase: one or more
// consecutive benchmark runs on the same CPUs. Ratings are in MIPS.
type SevenZipFigures struct {
	CPUs []int `json:"cpus"`
	// Core is the core type of the CPUs ("" when unknown or mixed).
	Core    string `json:"core"`
	Threads int    `json:"threads"`
	// Version is the 7-Zip version that ran; Flavor "7-Zip", "p7zip" or
	// "7-Zip (p7zip wrapper)".
	Version string `json:"version"`
	Flavor  string `json:"flavor"`
	// Args are the 7-Zip arguments, e.g. ["b", "-mmt1"].
	Args []string      `json:"args"`
	Runs []SevenZipRun `json:"runs"`
	// TotMIPS is the mean total rating of the successful runs; nil when
	// none succeeded.
	TotMIPS *float64 `json:"tot_mips"`
	// DriftPct is (last − first) / first total rating in percent, for
	// phases of several runs; negative when scores fell.
	DriftPct *float64 `json:"drift_pct"`
}

// SevenZipRun is one 7-Zip benchmark run.
type SevenZipRun struct {
	// TotMIPS is the total rating (last column of Tot:), the headline
	// figure; nil when the run failed.
	TotMIPS *float64 `json:"tot_mips"`
	// CompressMIPS and DecompressMIPS are the ratings of the Avr: line.
	CompressMIPS   *float64 `json:"compress_mips"`
	DecompressMIPS *float64 `json:"decompress_mips"`
	// CompressKiBs and DecompressKiBs are the speeds of the Avr: line in
	// KiB/s; nil for versions before 21, which do not print them.
	CompressKiBs   *float64 `json:"compress_speed_kib_s"`
	DecompressKiBs *float64 `json:"decompress_speed_kib_s"`
	// UsagePct is the CPU usage of the Tot: line (% of one thread).
	UsagePct *float64 `json:"usage_pct"`
	// RAMUsageBytes is the memory the benchmark said it needs.
	RAMUsageBytes *int64  `json:"ram_usage_bytes"`
	DurationS     float64 `json:"duration_s"`
	// Failure is oom_killed, no_memory, cancelled, exit_error, no_result or
	// not_started; empty on success.
	Failure string `json:"failure,omitempty"`
	Error   string `json:"error,omitempty"`
}
