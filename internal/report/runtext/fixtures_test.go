package runtext

import (
	"fmt"
	"time"

	"boardbench/internal/finding"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/monitor"
	"boardbench/internal/result"
)

// Hand-built results rendered by the golden tests. Figures are plausible
// for the machines named, not measured.

var t0 = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

func f64(v float64) *float64 { return &v }
func u64(v uint64) *uint64   { return &v }
func u32(v uint32) *uint32   { return &v }
func i64(v int64) *int64     { return &v }
func iptr(v int) *int        { return &v }
func tptr(t time.Time) *time.Time {
	return &t
}

func mustFigures(p *result.Phase, v any) {
	if err := p.SetFigures(v); err != nil {
		panic(err)
	}
}

// phaseAt returns an ok phase starting at offset s seconds and lasting d.
func phaseAt(name, title string, cpus []int, s, d float64) result.Phase {
	start := t0.Add(time.Duration(s * float64(time.Second)))
	end := start.Add(time.Duration(d * float64(time.Second)))
	return result.Phase{Name: name, Title: title, CPUs: cpus, Status: result.PhaseOK,
		StartedAt: start, EndedAt: &end, DurationS: d}
}

// sample is one monitor sample at offset s seconds.
func sample(s float64, clocks []float64, load, cpuPct, sys, usr, temp float64) result.Sample {
	smp := result.Sample{
		Time:  t0.Add(time.Duration(s * float64(time.Second))),
		Load1: f64(load), CPUPct: f64(cpuPct), SysPct: f64(sys), UsrPct: f64(usr),
		NicePct: f64(0), IowaitPct: f64(0), IRQPct: f64(0), TempC: f64(temp),
		SwapUsedBytes: i64(0),
	}
	for _, c := range clocks {
		smp.ClockMHz = append(smp.ClockMHz, f64(c))
	}
	return smp
}

func rk3588Info() *inventory.Info {
	in := &inventory.Info{SchemaVersion: "1.0", CollectedAt: t0, Root: "/"}
	in.Board.Model = "Radxa ROCK 5B"
	in.SoC.Guess = "Rockchip RK3588"
	in.OS.Distro.PrettyName = "Debian GNU/Linux 12 (bookworm)"
	in.OS.Distro.ID = "debian"
	in.OS.Distro.Codename = "bookworm"
	in.OS.Kernel.Release = "6.1.75-vendor-rk35xx"
	in.OS.Kernel.Machine = "aarch64"
	in.OS.Kernel.Arch = "arm64"
	in.OS.Kernel.Bits = iptr(64)
	in.OS.Userland.Arch = "arm64"
	in.OS.Userland.Bits = iptr(64)
	for i := 0; i < 8; i++ {
		core := "Cortex-A76"
		if i < 4 {
			core = "Cortex-A55"
		}
		in.CPU.CPUs = append(in.CPU.CPUs, cpu.CPU{ID: i, Core: core})
	}
	in.CPU.Clusters = []cpu.Cluster{
		{ID: 0, CPUs: []int{0, 1, 2, 3}, Core: "Cortex-A55", Policy: iptr(0), MaxMHz: f64(1800)},
		{ID: 1, CPUs: []int{4, 5}, Core: "Cortex-A76", Policy: iptr(4), MaxMHz: f64(2400)},
		{ID: 2, CPUs: []int{6, 7}, Core: "Cortex-A76", Policy: iptr(6), MaxMHz: f64(2400)},
	}
	return in
}

func rk3588Monitor() result.MonitorInfo {
	return result.MonitorInfo{
		Policies: []result.Policy{
			{Label: "cpu0-3", ID: 0, CPUs: []int{0, 1, 2, 3}},
			{Label: "cpu4-5", ID: 4, CPUs: []int{4, 5}},
			{Label: "cpu6-7", ID: 6, CPUs: []int{6, 7}},
		},
		TempLabel: "soc-thermal",
	}
}

var rkClocks = []float64{1800, 2400, 2400}

func clockFigures(measured [3]float64) result.ClockFigures {
	cl := []struct {
		cpus []int
		core string
		max  float64
	}{{[]int{0, 1, 2, 3}, "Cortex-A55", 1800}, {[]int{4, 5}, "Cortex-A76", 2400}, {[]int{6, 7}, "Cortex-A76", 2400}}
	var f result.ClockFigures
	for i, c := range cl {
		dev := 100 * (measured[i] - c.max) / c.max
		f.Clusters = append(f.Clusters, result.ClockCluster{
			ClockMeasurement: result.ClockMeasurement{
				Cluster: iptr(i), CPUs: c.cpus, Core: c.core, Policy: iptr(c.cpus[0]), CPU: iptr(c.cpus[0]),
				MeasuredMHz: f64(measured[i]), Samples: []float64{measured[i], measured[i] - 1, measured[i] + 1},
				SpreadPct: f64(0.1),
			},
			ReportedMHz: f64(c.max), ReportedSource: "scaling_cur_freq",
			DeviationPct: f64(dev), AdvertisedMaxMHz: f64(c.max), Method: "asm-arm64", Certain: true,
		})
	}
	return f
}

func memFigures(cpuID int, core string, memcpy, memset float64) result.MemFigures {
	return result.MemFigures{
		CPU: cpuID, Core: core, BufferBytes: 64 << 20,
		MemBandwidth: result.MemBandwidth{
			MemcpyMBs: f64(memcpy), MemcpyStdDevPct: f64(0.4),
			MemsetMBs: f64(memset), MemsetStdDevPct: f64(0.2),
			ReadMBs: f64(memcpy * 1.6), ReadStdDevPct: f64(0.3),
			WriteMBs: f64(memset * 0.9), WriteStdDevPct: f64(0.5),
			CopyGoMBs: f64(memcpy * 0.97), CopyGoStdDevPct: f64(0.6),
		},
		LineBytes: 64,
		Latency: []result.LatencyRow{
			{SizeBytes: 16 << 10, NS: f64(1.7), NSDual: f64(1.7)},
			{SizeBytes: 256 << 10, NS: f64(4.9), NSDual: f64(5.2)},
			{SizeBytes: 4 << 20, NS: f64(31.5), NSDual: f64(36.0)},
			{SizeBytes: 64 << 20, NS: f64(118.3), NSDual: f64(124.9), NSHugePage: f64(97.2), NSDualHugePage: f64(101.1)},
		},
		CacheLevels: []result.CacheLevel{
			{DetectedBytes: 64 << 10, LatencyNS: 1.7, SysfsLevel: iptr(1), SysfsBytes: i64(64 << 10)},
			{DetectedBytes: 512 << 10, LatencyNS: 4.9, SysfsLevel: iptr(2), SysfsBytes: i64(512 << 10)},
			{DetectedBytes: 3 << 20, LatencyNS: 31.5},
		},
	}
}

func opensslFigures(cpuID int, core string, aes256At16K float64) result.OpenSSLFigures {
	sizes := []int{16, 64, 256, 1024, 8192, 16384}
	shares := []float64{0.45, 0.77, 0.93, 0.975, 0.997, 1}
	f := result.OpenSSLFigures{CPUs: []int{cpuID}, Core: core, Version: "3.0.15"}
	for ci, cipher := range []string{"aes-128-cbc", "aes-192-cbc", "aes-256-cbc"} {
		top := aes256At16K * []float64{1.4, 1.2, 1}[ci]
		c := result.OpenSSLCipher{Cipher: cipher}
		for i, s := range sizes {
			c.Values = append(c.Values, result.OpenSSLValue{BlockBytes: s, KBs: f64(top * shares[i])})
		}
		f.Ciphers = append(f.Ciphers, c)
	}
	return f
}

func sevenZipFigures(cpus []int, core string, threads int, totals ...float64) result.SevenZipFigures {
	f := result.SevenZipFigures{CPUs: cpus, Core: core, Threads: threads, Version: "16.02", Flavor: "p7zip",
		Args: []string{"b", fmt.Sprintf("-mmt%d", threads)}}
	sum := 0.0
	for _, t := range totals {
		usage := 100.0 * float64(threads) * 0.96
		if threads == 1 {
			usage = 100
		}
		f.Runs = append(f.Runs, result.SevenZipRun{
			TotMIPS: f64(t), CompressMIPS: f64(t * 0.92), DecompressMIPS: f64(t * 1.08),
			UsagePct: f64(usage), RAMUsageBytes: i64(int64(threads) * 220 << 20), DurationS: 36.4,
		})
		sum += t
	}
	if len(totals) > 0 {
		f.TotMIPS = f64(sum / float64(len(totals)))
	}
	if len(totals) > 1 {
		f.DriftPct = f64(100 * (totals[len(totals)-1] - totals[0]) / totals[0])
	}
	return f
}

func withSamples(p result.Phase, load, cpuPct, temp float64) result.Phase {
	start := p.StartedAt.Sub(t0).Seconds()
	p.Samples = []result.Sample{
		sample(start, rkClocks, load, 1.2, 0.6, 0.6, temp),
		sample(start+p.DurationS, rkClocks, load+0.4, cpuPct, 0.9, cpuPct-0.9, temp+3.5),
	}
	p.TimeInState = []result.PolicyTime{
		{Policy: 0, TopMHz: 1800, TotalS: p.DurationS, ByMHz: map[string]float64{"1800": p.DurationS}},
		{Policy: 4, TopMHz: 2400, TotalS: p.DurationS, ByMHz: map[string]float64{"2400": p.DurationS}},
		{Policy: 6, TopMHz: 2400, TotalS: p.DurationS, ByMHz: map[string]float64{"2400": p.DurationS}},
	}
	p.SwapIn, p.SwapOut = u64(0), u64(0)
	p.Events = []result.Event{}
	return p
}

// completeRK3588 is a finished, valid standard run on an RK3588 board with
// three clusters (Cortex-A55 ×4, Cortex-A76 ×2, Cortex-A76 ×2).
func completeRK3588() *result.Result {
	r := &result.Result{
		SchemaVersion: "1.0", Command: "run", Status: result.StatusComplete,
		StartedAt: t0, FinishedAt: tptr(t0.Add(172 * time.Second)),
		Options: map[string]any{"force": false},
		Info:    rk3588Info(),
		Tools: []result.ToolVersion{
			{Name: "7-Zip", Path: "/usr/bin/7zr", Version: "16.02", VersionLine: "7-Zip (r) 16.02 : Copyright (c) 1999-2016 Igor Pavlov : 2016-05-21"},
			{Name: "openssl", Path: "/usr/bin/openssl", Version: "3.0.15", VersionLine: "OpenSSL 3.0.15 3 Sep 2024 (Library: OpenSSL 3.0.15 3 Sep 2024)"},
		},
		Tuning:  result.Tuning{Changed: []string{"policy0 governor schedutil → performance", "policy4 governor schedutil → performance", "policy6 governor schedutil → performance"}, Restored: true},
		Monitor: rk3588Monitor(),
	}
	r.Tool.Name, r.Tool.Version, r.Tool.GoVersion, r.Tool.Arch = "boardbench", "0.1.0", "go1.26.0", "arm64"

	p := phaseAt(result.PhaseClock, "Clock check of one CPU per cluster", []int{0, 4, 6}, 0, 1.6)
	mustFigures(&p, clockFigures([3]float64{1830, 2380, 2370}))
	r.Phases = append(r.Phases, withSamples(p, 0.05, 12, 38.8))

	off := 1.6
	for _, c := range []struct {
		cpu            int
		core           string
		memcpy, memset float64
	}{{0, "Cortex-A55", 6730.4, 22001.1}, {4, "Cortex-A76", 11290.2, 29430.3}} {
		p = phaseAt(result.PhaseMemory, fmt.Sprintf("Memory bandwidth and latency on cpu%d (%s)", c.cpu, c.core), []int{c.cpu}, off, 14.2)
		mustFigures(&p, memFigures(c.cpu, c.core, c.memcpy, c.memset))
		r.Phases = append(r.Phases, withSamples(p, 0.3, 12.6, 39.7))
		off += 14.2
	}
	for _, c := range []struct {
		cpu  int
		core string
		aes  float64
	}{{0, "Cortex-A55", 847364.1}, {4, "Cortex-A76", 1321910.4}} {
		p = phaseAt(result.PhaseOpenSSL, fmt.Sprintf("OpenSSL AES on cpu%d (%s)", c.cpu, c.core), []int{c.cpu}, off, 18)
		mustFigures(&p, opensslFigures(c.cpu, c.core, c.aes))
		r.Phases = append(r.Phases, withSamples(p, 0.9, 12.5, 41.6))
		off += 18
	}
	for _, c := range []struct {
		cpu  int
		core string
		mips float64
	}{{0, "Cortex-A55", 1605}, {4, "Cortex-A76", 3140}} {
		p = phaseAt(result.PhaseSevenZipSingle, fmt.Sprintf("7-Zip single-threaded on cpu%d (%s)", c.cpu, c.core), []int{c.cpu}, off, 12.5)
		mustFigures(&p, sevenZipFigures([]int{c.cpu}, c.core, 1, c.mips))
		r.Phases = append(r.Phases, withSamples(p, 1.0, 12.5, 42.5))
		off += 12.5
	}
	p = phaseAt(result.PhaseSevenZipMulti, "7-Zip multi-threaded on all CPUs, 3 runs", []int{0, 1, 2, 3, 4, 5, 6, 7}, off, 50.8)
	mustFigures(&p, sevenZipFigures([]int{0, 1, 2, 3, 4, 5, 6, 7}, "", 8, 16310, 16330, 16320))
	r.Phases = append(r.Phases, withSamples(p, 6.2, 96.4, 61.9))
	off += 50.8
	p = phaseAt(result.PhaseClockAfterLoad, "Clock check right after the heaviest load", []int{0, 4, 6}, off, 1.6)
	mustFigures(&p, clockFigures([3]float64{1829, 2379, 2370}))
	r.Phases = append(r.Phases, withSamples(p, 5.8, 14.1, 58.3))

	r.Findings = []finding.Finding{{
		ID: "sevenzip_version", Severity: finding.Info, Title: "7-Zip version differs from the one published results use",
		Evidence: []string{"7-Zip 16.02 (p7zip) is the version published results use"},
		Advice:   "none needed",
	}}
	r.Summary = result.Summary{
		ClockMHz:           []result.Value{{CPU: 0, Core: "Cortex-A55", Value: 1830}, {CPU: 4, Core: "Cortex-A76", Value: 2380}, {CPU: 6, Core: "Cortex-A76", Value: 2370}},
		SevenZipMultiMIPS:  f64(16320),
		SevenZipMultiRuns:  []float64{16310, 16330, 16320},
		SevenZipSingleMIPS: []result.Value{{CPU: 0, Core: "Cortex-A55", Value: 1605}, {CPU: 4, Core: "Cortex-A76", Value: 3140}},
		AES256At16K:        []result.Value{{CPU: 0, Core: "Cortex-A55", Value: 847364.1}, {CPU: 4, Core: "Cortex-A76", Value: 1321910.4}},
		MemcpyMBs:          []result.Value{{CPU: 0, Core: "Cortex-A55", Value: 6730.4}, {CPU: 4, Core: "Cortex-A76", Value: 11290.2}},
		MemsetMBs:          []result.Value{{CPU: 0, Core: "Cortex-A55", Value: 22001.1}, {CPU: 4, Core: "Cortex-A76", Value: 29430.3}},
		Valid:              true,
		Verdict:            "valid: no throttling, swapping, background activity or other problem seen",
	}
	return r
}

// interruptedRK3588 is a run stopped with Ctrl-C after the clock check
// and the first memory phase.
func interruptedRK3588() *result.Result {
	full := completeRK3588()
	r := *full
	r.Status = result.StatusInterrupted
	r.Phases = append([]result.Phase(nil), full.Phases[:2]...)
	r.FinishedAt = tptr(t0.Add(17 * time.Second))
	r.Findings = []finding.Finding{}
	r.Summary = result.Summary{
		ClockMHz:  full.Summary.ClockMHz,
		MemcpyMBs: full.Summary.MemcpyMBs[:1],
		MemsetMBs: full.Summary.MemsetMBs[:1],
	}
	return &r
}

// invalidRPi4 is a run on a Raspberry Pi 4 that swapped and saw
// under-voltage; openssl was not installed.
func invalidRPi4() *result.Result {
	in := &inventory.Info{SchemaVersion: "1.0", CollectedAt: t0, Root: "/"}
	in.Board.Model = "Raspberry Pi 4 Model B Rev 1.4"
	in.SoC.Guess = "Broadcom BCM2711"
	in.OS.Distro.PrettyName = "Debian GNU/Linux 12 (bookworm)"
	in.OS.Distro.ID = "debian"
	in.OS.Kernel.Release = "6.6.51+rpt-rpi-v8"
	in.OS.Kernel.Machine = "aarch64"
	in.OS.Kernel.Arch = "arm64"
	in.OS.Kernel.Bits = iptr(64)
	in.OS.Userland.Arch = "armhf"
	in.OS.Userland.Bits = iptr(32)
	in.OS.MixedArch = true
	for i := 0; i < 4; i++ {
		in.CPU.CPUs = append(in.CPU.CPUs, cpu.CPU{ID: i, Core: "Cortex-A72"})
	}
	in.CPU.Clusters = []cpu.Cluster{{ID: 0, CPUs: []int{0, 1, 2, 3}, Core: "Cortex-A72", Policy: iptr(0), MaxMHz: f64(1800)}}
	r := &result.Result{
		SchemaVersion: "1.0", Command: "run", Status: result.StatusComplete,
		StartedAt: t0, FinishedAt: tptr(t0.Add(131 * time.Second)),
		Info: in,
		Tools: []result.ToolVersion{
			{Name: "7-Zip", Path: "/usr/bin/7z", Version: "16.02"},
			{Name: "openssl", Note: "not installed; install with: sudo apt install openssl"},
		},
		Tuning: result.Tuning{Note: "not root: governors left as they were"},
		Monitor: result.MonitorInfo{
			Policies:  []result.Policy{{Label: "cpu0-3", ID: 0, CPUs: []int{0, 1, 2, 3}}},
			TempLabel: "cpu_thermal", Firmware: true,
		},
	}
	r.Tool.Name, r.Tool.Version = "boardbench", "0.1.0"
	rpiSample := func(s, clock, fw, load, cpuPct, io, temp, volts float64, swap int64) result.Sample {
		smp := sample(s, []float64{clock}, load, cpuPct, 1.1, cpuPct-1.1-io, temp)
		smp.FirmwareMHz, smp.CoreVolts, smp.IowaitPct, smp.SwapUsedBytes = f64(fw), f64(volts), f64(io), i64(swap)
		return smp
	}
	p := phaseAt(result.PhaseClock, "Clock check of one CPU per cluster", []int{0}, 0, 1.2)
	f := result.ClockFigures{Clusters: []result.ClockCluster{{
		ClockMeasurement: result.ClockMeasurement{
			Cluster: iptr(0), CPUs: []int{0, 1, 2, 3}, Core: "Cortex-A72", Policy: iptr(0), CPU: iptr(0),
			MeasuredMHz: f64(1799), SpreadPct: f64(0.2),
		},
		ReportedMHz: f64(1800), ReportedSource: "scaling_cur_freq",
		FirmwareMHz: f64(1800), DeviationPct: f64(-0.1), FirmwareDeviationPct: f64(-0.1), AdvertisedMaxMHz: f64(1800),
		Method: "asm-arm64", Certain: true,
	}}}
	mustFigures(&p, f)
	p.Samples = []result.Sample{rpiSample(0, 1800, 1800, 0.02, 2, 0, 47.2, 0.8563, 0)}
	p.SwapIn, p.SwapOut = u64(0), u64(0)
	p.ThrottledBefore, p.ThrottledAfter = u32(0), u32(0)
	r.Phases = append(r.Phases, p)

	p = result.Phase{Name: result.PhaseOpenSSL, Title: "OpenSSL AES", CPUs: []int{0}, Status: result.PhaseSkipped,
		Reason: "openssl not installed; install with: sudo apt install openssl", StartedAt: t0.Add(1200 * time.Millisecond)}
	r.Phases = append(r.Phases, p)

	p = phaseAt(result.PhaseSevenZipSingle, "7-Zip single-threaded on cpu0 (Cortex-A72)", []int{0}, 1.2, 14)
	mustFigures(&p, sevenZipFigures([]int{0}, "Cortex-A72", 1, 1544))
	p.Samples = []result.Sample{rpiSample(1.2, 1800, 1800, 0.3, 26, 0.4, 52.1, 0.8563, 0), rpiSample(15.2, 1800, 1800, 1.0, 27, 1.8, 55.0, 0.8563, 0)}
	p.SwapIn, p.SwapOut = u64(0), u64(0)
	p.ThrottledBefore, p.ThrottledAfter = u32(0), u32(0)
	r.Phases = append(r.Phases, p)

	p = phaseAt(result.PhaseSevenZipMulti, "7-Zip multi-threaded on all CPUs, 3 runs", []int{0, 1, 2, 3}, 15.2, 115)
	mf := sevenZipFigures([]int{0, 1, 2, 3}, "Cortex-A72", 4, 5720, 5030)
	mf.Runs = append(mf.Runs, result.SevenZipRun{DurationS: 21.7, Failure: "oom_killed", Error: "killed by the kernel's OOM killer"})
	mustFigures(&p, mf)
	p.Samples = []result.Sample{
		rpiSample(15.2, 1800, 1800, 1.2, 97, 0.9, 58.4, 0.8563, 12<<20),
		rpiSample(55.2, 1800, 1500, 4.1, 91, 11.5, 71.3, 0.8400, 402<<20),
		rpiSample(130.2, 1500, 1500, 5.7, 74, 23.9, 80.2, 0.8350, 611<<20),
	}
	p.TimeInState = []result.PolicyTime{{Policy: 0, TopMHz: 1800, TotalS: 115, BelowTopS: 31.5, ByMHz: map[string]float64{"1800": 83.5, "1500": 31.5}}}
	p.SwapIn, p.SwapOut = u64(18211), u64(156433)
	p.Events = []result.Event{
		{Kind: monitor.EventUnderVoltage, Line: "[ 8412.031845] hwmon hwmon1: Undervoltage detected!"},
		{Kind: monitor.EventOOM, Line: "[ 8466.920113] Out of memory: Killed process 5321 (7z) total-vm:1843220kB"},
	}
	p.ThrottledBefore, p.ThrottledAfter = u32(0), u32(0x50005)
	r.Phases = append(r.Phases, p)

	r.Findings = []finding.Finding{
		{ID: "swapping", Severity: finding.Invalidates, Title: "The machine swapped during the run",
			Evidence: []string{"7zip-multi: 18211 pages swapped in, 156433 pages swapped out", "7zip-multi: swap used rose from 12 MiB to 611 MiB"},
			Advice:   "Benchmark with enough free memory: close other programs, or compare multi-threaded scores only with boards of the same RAM size.",
			Phases:   []string{"7zip-multi"}},
		{ID: "under_voltage", Severity: finding.Invalidates, Title: "Under-voltage during the run",
			Evidence: []string{"[ 8412.031845] hwmon hwmon1: Undervoltage detected!", "firmware get_throttled after 7zip-multi: 0x50005 (under-voltage now, throttled now)"},
			Advice:   "Use a power supply that delivers 5.1 V at 3 A and a short, thick cable.",
			Phases:   []string{"7zip-multi"}},
		{ID: "oom_kill", Severity: finding.Invalidates, Title: "The kernel killed a process for lack of memory",
			Evidence: []string{"[ 8466.920113] Out of memory: Killed process 5321 (7z) total-vm:1843220kB"},
			Advice:   "The multi-threaded 7-Zip figure covers only the runs that finished.",
			Phases:   []string{"7zip-multi"}},
		{ID: "throttling", Severity: finding.Warning, Title: "Throttling: clocks dropped below the maximum under load",
			Evidence: []string{"policy0 (cpu0-3): 31.5 s of 115.0 s below 1800 MHz"},
			Advice:   "Improve cooling (heatsink, fan) and check the power supply.",
			Phases:   []string{"7zip-multi"}},
	}
	r.Summary = result.Summary{
		ClockMHz:           []result.Value{{CPU: 0, Core: "Cortex-A72", Value: 1799}},
		SevenZipMultiMIPS:  f64(5375),
		SevenZipMultiRuns:  []float64{5720, 5030},
		SevenZipSingleMIPS: []result.Value{{CPU: 0, Core: "Cortex-A72", Value: 1544}},
		Valid:              false,
		Verdict:            "NOT VALID: swapping, under_voltage, oom_kill invalidate the figures",
	}
	return r
}

// monitoredCommand is a `boardbench monitor -- stress-ng ...` result on
// the RK3588 board with two power sensors.
func monitoredCommand() *result.Result {
	mi := rk3588Monitor()
	mi.Power = []result.Sensor{
		{Label: "in0", Path: "/sys/class/hwmon/hwmon5/in0_input", Quantity: "voltage", Unit: "V"},
		{Label: "curr1", Path: "/sys/class/hwmon/hwmon5/curr1_input", Quantity: "current", Unit: "A"},
	}
	r := &result.Result{
		SchemaVersion: "1.0", Command: "monitor", Status: result.StatusComplete,
		StartedAt: t0, FinishedAt: tptr(t0.Add(61 * time.Second)),
		Options: map[string]any{"cpus": "4-7"},
		Info:    rk3588Info(),
		Tools:   []result.ToolVersion{},
		Monitor: mi,
	}
	r.Tool.Name, r.Tool.Version = "boardbench", "0.1.0"
	p := phaseAt(result.PhaseCommand, "stress-ng --cpu 4 --timeout 60s --metrics-brief", []int{4, 5, 6, 7}, 0.2, 60.3)
	p.ExitStatus = iptr(0)
	var out string
	for i := 1; i <= 25; i++ {
		out += fmt.Sprintf("stress-ng: info:  [4242] line %d of the command's output\n", i)
	}
	p.RawOutput = out
	for i, s := range []float64{0.2, 20.2, 40.2, 60.5} {
		smp := sample(s, []float64{1800, 2400, 2400}, 0.1+float64(i), 50.2, 0.4, 49.8, 45+4*float64(i))
		smp.Power = []*float64{f64(5.12), f64(1.4 + 0.1*float64(i))}
		p.Samples = append(p.Samples, smp)
	}
	p.TimeInState = []result.PolicyTime{
		{Policy: 0, TopMHz: 1800, TotalS: 60.3, ByMHz: map[string]float64{"1800": 60.3}},
		{Policy: 4, TopMHz: 2400, TotalS: 60.3, ByMHz: map[string]float64{"2400": 60.3}},
		{Policy: 6, TopMHz: 2400, TotalS: 60.3, BelowTopS: 4.2, ByMHz: map[string]float64{"2400": 56.1, "2208": 4.2}},
	}
	p.SwapIn, p.SwapOut = u64(0), u64(0)
	p.Notes = []string{"kernel log not readable (needs root on most systems): under-voltage, OOM and CPU-offline events may go unseen"}
	r.Phases = []result.Phase{p}
	r.Findings = []finding.Finding{{
		ID: "throttling", Severity: finding.Warning, Title: "Throttling: clocks dropped below the maximum under load",
		Evidence: []string{"policy6 (cpu6-7): 4.2 s of 60.3 s below 2400 MHz"},
		Advice:   "Improve cooling (heatsink, fan).", Phases: []string{result.PhaseCommand},
	}}
	r.Summary = result.Summary{Valid: true, Verdict: "valid with warnings: throttling"}
	return r
}
