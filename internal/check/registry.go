package check

import (
	"reflect"

	"boardbench/internal/finding"
)

// Domains of the registry: which measurement a rule judges, and so who
// applies it.
const (
	// DomainResult rules judge every measuring command's result; Run
	// applies them (each Def's Func is a Rule).
	DomainResult = "result"
	// DomainPrepare rules judge what a command saw before measuring: the
	// idle gate and the tools (internal/prepare, internal/benchrun).
	DomainPrepare = "prepare"
	// DomainRun rules are `boardbench run`'s own (internal/benchrun).
	DomainRun = "run"
	// DomainSession rules judge the session engine's own work (the
	// tuning it restores).
	DomainSession = "session"
	// DomainNet rules judge `boardbench net` (NetFindings).
	DomainNet = "net"
	// DomainStorage rules judge `boardbench storage` (StorageFindings).
	DomainStorage = "storage"
)

// Def is one rule of the registry: the finding id it gives, its severity
// (the heaviest, where the evidence decides), the domain it judges, what
// it reads, and the function that builds the finding. One function may
// give several ids: each id has its Def, naming the same function.
type Def struct {
	ID       string
	Severity finding.Severity
	Domain   string
	// Reads says what evidence the rule reads.
	Reads string
	// Func builds the finding: a Rule in DomainResult, otherwise the
	// domain's own function, called by the domain's plan.
	Func any
}

// Registry returns every rule of measurements boardbench has, one Def per
// finding id; the result rules in report order. docs/verdicts.md
// documents each id (a test checks).
func Registry() []Def {
	return []Def{
		{"oom_kill", finding.Invalidates, DomainResult, "kernel-log events (oom_kill)", Rule(OOMKill)},
		{"under_voltage", finding.Invalidates, DomainResult, "kernel-log and firmware under-voltage events during the run", Rule(UnderVoltage)},
		{"under_voltage_before", finding.Warning, DomainResult, "the firmware's sticky under-voltage flag at the start", Rule(UnderVoltage)},
		{"cpu_offline", finding.Invalidates, DomainResult, "the online CPUs before and after, CPU hotplug events", Rule(CPUOffline)},
		{"disturbed_figures", finding.Invalidates, DomainResult, "each phase's judgement (foreign CPU time) of a headline phase", Rule(DisturbedFigures)},
		{"disturbed_runs", finding.Warning, DomainResult, "each phase's judgement of a secondary phase, the excluded runs", Rule(DisturbedFigures)},
		{"swapping", finding.Invalidates, DomainResult, "swap-in and swap-out counts of the monitor's samples", Rule(Swapping)},
		{"throttling", finding.Warning, DomainResult, "clocks and throttling flags of the monitor's samples under load", Rule(Throttling)},
		{IDHiddenThrottling, finding.Warning, DomainResult, "the firmware's ARM clock against cpufreq's clock in each sample under load", Rule(HiddenThrottling)},
		{"falling_scores", finding.Warning, DomainResult, "the multi-threaded 7-Zip runs' totals, in order", Rule(FallingScores)},
		{"sevenzip_spread", finding.Warning, DomainResult, "the multi-threaded 7-Zip runs' spread", Rule(RunSpread)},
		{"sevenzip_low_usage", finding.Warning, DomainResult, "7-Zip's own CPU usage (its Tot: line) per run", Rule(SevenZipLowUsage)},
		{"background_activity", finding.Warning, DomainResult, "foreign CPU time, system time and iowait of each phase's samples", Rule(BackgroundActivity)},
		{"steal_time", finding.Warning, DomainResult, "steal time of each phase's samples, the machine's hypervisor", Rule(StealTime)},
		{"clock_disturbed", finding.Warning, DomainResult, "clock figures whose samples were all disturbed", Rule(ClockDisturbed)},
		{"clock_below_max", finding.Warning, DomainResult, "measured against advertised clocks per cluster (Facts.Clusters)", Rule(ClockBelowMax)},
		{"clock_mismatch", finding.Warning, DomainResult, "measured against reported (cpufreq, firmware) clocks per cluster", Rule(ClockMismatch)},
		{"governor", finding.Warning, DomainResult, "the cpufreq governors during the run (Facts.Governors)", Rule(Governor)},
		{"hpl_residual_failed", finding.Invalidates, DomainResult, "HPL figures of the command phase (monitor -- COMMAND) and of the hpl phase (run --workloads hpl)", Rule(HPLResidualFailed)},
		{"sevenzip_version", finding.Info, DomainResult, "the 7-Zip binary's version and flavour (Facts.SevenZip)", Rule(SevenZipVersion)},
		{IDMemControllerThrottling, finding.Warning, DomainResult, "all-CPU bandwidth samples before and after the memory load (mem --throttle-test), the memory clock", Rule(MemControllerThrottling)},
		{IDDMCPinnedLow, finding.Warning, DomainResult, "the memory controller's devfreq governor and limits against its clocks (info.devfreq)", Rule(DMCScaling)},
		{IDDMCAbsent, finding.Info, DomainResult, "the SoC and whether it has a memory-controller devfreq device (info.devfreq)", Rule(DMCScaling)},
		{"zswap_with_zram", finding.Warning, DomainResult, "zswap and zram swap settings of the machine", Rule(ZswapWithZram)},
		{"rpi_temp_soft_limit", finding.Warning, DomainResult, "the Raspberry Pi model and its temp_soft_limit", Rule(TempSoftLimit)},
		{"near_trip_point", finding.Warning, DomainResult, "the highest temperature against the SoC's thermal trip points", Rule(NearTripPoint)},

		{IDIdleGateSkipped, finding.Warning, DomainPrepare, "--force and the 1-minute load average at the start", IdleGateSkipped},
		{IDNotQuiet, finding.Warning, DomainPrepare, "the idle gate's last look: load, CPU use, busiest processes", NotQuiet},
		{IDIdleUnknown, finding.Info, DomainPrepare, "the idle gate's error (CPU statistics unreadable)", IdleUnknown},
		{IDToolMissing, finding.Warning, DomainPrepare, "the tool search and the installer's answer", ToolMissing},

		{IDPinningFailed, finding.Warning, DomainRun, "CPUs the run could not pin its benchmarks to", PinningFailed},
		{IDCPUsOfflineAtStart, finding.Warning, DomainRun, "CPUs offline at the start", CPUsOfflineAtStart},
		{IDNotTuned, finding.Info, DomainRun, "whether the run is root, the governors during the run", NotTuned},
		{IDOPPWalkSkipped, finding.Info, DomainRun, "--opps without root or cpufreq tunables", OPPWalkSkipped},
		{IDSustainedDrift, finding.Warning, DomainRun, "the sustained phase's 7-Zip runs and their drift", SustainedDrift},

		{IDRestoreFailed, finding.Warning, DomainSession, "the tuning guard's errors when it restores", RestoreFailed},

		{IDNetOneCPU, finding.Warning, DomainNet, "per-CPU load of the network phases", NetFindings},
		{IDNetCoalescingOff, finding.Info, DomainNet, "the interface's interrupt coalescing", NetFindings},
		{IDNetUSB2, finding.Warning, DomainNet, "the interface's USB bus speed", NetFindings},
		{IDNetLinkBelow, finding.Warning, DomainNet, "negotiated link modes, ours and the peer's", NetFindings},
		{IDNetHalfDuplex, finding.Warning, DomainNet, "the negotiated duplex", NetFindings},
		{IDNetEEE, finding.Info, DomainNet, "Energy-Efficient Ethernet state", NetFindings},
		{IDNetGovernorLow, finding.Warning, DomainNet, "clocks of the CPUs handling the traffic against their maximum", NetFindings},

		{"storage-not-storage", finding.Invalidates, DomainStorage, "the device identity (a RAM or network device)", StorageFindings},
		{"storage-page-cache", finding.Invalidates, DomainStorage, "whether the figures came through the page cache", StorageFindings},
		{"storage-below-class", finding.Warning, DomainStorage, "the card's SD classes against its measured figures", StorageFindings},
		{"storage-bus-mode", finding.Warning, DomainStorage, "the MMC bus mode against the card's best", StorageFindings},
		{"storage-usb-no-uas", finding.Warning, DomainStorage, "the USB driver (usb-storage instead of uas)", StorageFindings},
		{"storage-usb2-link", finding.Warning, DomainStorage, "the USB link speed of a USB 3 device", StorageFindings},
		{"storage-pcie-link", finding.Warning, DomainStorage, "the NVMe drive's PCIe link against its capability", StorageFindings},
		{"storage-cpu-bound", finding.Warning, DomainStorage, "fio's CPU use per cell", StorageFindings},
		{"storage-io-is-busy", finding.Warning, DomainStorage, "the ondemand governor's io_is_busy", StorageFindings},
		{"storage-low-clock", finding.Warning, DomainStorage, "clocks of the monitor's samples with high iowait", StorageFindings},
	}
}

// Rules returns every rule each result goes through (DomainResult), in
// report order, each function once.
func Rules() []Rule {
	var out []Rule
	seen := map[uintptr]bool{}
	for _, d := range Registry() {
		r, ok := d.Func.(Rule)
		if d.Domain != DomainResult || !ok {
			continue
		}
		p := reflect.ValueOf(r).Pointer()
		if !seen[p] {
			seen[p] = true
			out = append(out, r)
		}
	}
	return out
}
