package runtext

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"boardbench/internal/benchtool/wrapped"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/probe/membw"
	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// renderFigures writes a phase's typed figures according to its kind;
// memClockDevice names the sampled memory-controller clock
// (MonitorInfo.MemClock).
func renderFigures(w *textfmt.Writer, p result.Phase, memClockDevice string) {
	if p.Name == result.PhaseCommand {
		renderCommandOutput(w, p)
		if len(p.Figures) == 0 || string(p.Figures) == "null" {
			return
		}
	}
	if len(p.Figures) == 0 || string(p.Figures) == "null" {
		if p.Name != result.PhaseCommand {
			fmt.Fprintln(w.W)
			w.Line("figures: n/a (%s)", noFiguresReason(p))
		}
		return
	}
	var err error
	switch p.Name {
	case result.PhaseClock, result.PhaseClockAfterLoad:
		err = decode(p.Figures, func(f result.ClockFigures) {
			renderClock(w, f)
		})
	case result.PhaseMemory:
		err = decode(p.Figures, func(f result.MemFigures) {
			renderMemory(w, f, result.MemClockOf(memClockDevice, p.Samples))
		})
	case result.PhaseMemoryAllCores:
		err = decode(p.Figures, func(f result.MemAllCoresFigures) {
			renderMemoryAllCores(w, f, result.MemClockOf(memClockDevice, p.Samples))
		})
	case result.PhaseC2C:
		err = decode(p.Figures, func(f result.C2CFigures) {
			renderC2C(w, f)
		})
	case result.PhaseOpenSSL, result.PhaseOpenSSLAllCores, result.PhaseOpenSSLEVP:
		err = decode(p.Figures, func(f result.OpenSSLFigures) {
			renderOpenSSL(w, f, p.Name == result.PhaseOpenSSLAllCores)
			renderOpenSSLBuild(w, f.Build)
			renderUserland(w, f.Userland)
		})
	case result.PhaseCryptsetup:
		err = decode(p.Figures, func(f result.CryptsetupFigures) {
			renderCryptsetup(w, f)
		})
	case result.PhaseHPL:
		err = decode(p.Figures, func(f result.HPLFigures) {
			renderHPL(w, f, p.PowerW)
		})
	case result.PhaseSSHCiphers:
		err = decode(p.Figures, func(f result.SSHFigures) {
			renderSSH(w, f)
		})
	case result.PhaseZstd:
		err = decode(p.Figures, func(f result.ZstdFigures) { renderZstd(w, f) })
	case result.PhaseArmcap:
		err = decode(p.Figures, func(f result.ArmcapFigures) { renderArmcap(w, f) })
	case result.PhaseLlama:
		err = decode(p.Figures, func(f result.LlamaFigures) { renderLlama(w, f) })
	case result.PhaseStorage:
		err = decode(p.Figures, func(f result.StorageFigures) {
			renderStorage(w, f)
		})
	case result.PhaseWrites:
		err = decode(p.Figures, func(f result.WritesFigures) {
			renderWrites(w, f)
		})
	case result.PhaseStorageFio:
		err = decode(p.Figures, func(f result.StorageFioFigures) {
			renderStorageFio(w, f)
		})
	case result.PhaseStorageSustained:
		err = decode(p.Figures, func(f result.StorageSustainedFigures) {
			renderStorageSustained(w, f)
		})
	case result.PhaseStorageCapacity:
		err = decode(p.Figures, func(f result.StorageCapacityFigures) {
			renderStorageCapacity(w, f)
		})
	case result.PhaseCommand:
		err = decode(p.Figures, func(f wrapped.Figures) {
			renderWrapped(w, f)
		})
	case result.PhaseSevenZipSingle, result.PhaseSevenZipMulti, result.PhaseSevenZipCluster, result.PhaseSustained:
		err = decode(p.Figures, func(f result.SevenZipFigures) {
			renderSevenZip(w, f, !p.TimingNotRecorded)
		})
	case result.PhaseSweepSingle, result.PhaseSweepMulti:
		err = decode(p.Figures, func(f result.SweepFigures) {
			renderSweepFigures(w, f)
		})
	case result.PhaseThermalHeat:
		err = decode(p.Figures, func(f result.ThermalHeatFigures) {
			renderThermalHeat(w, f)
		})
	case result.PhaseThermalCool:
		err = decode(p.Figures, func(f result.ThermalCoolFigures) {
			renderThermalCool(w, f)
		})
	case result.PhaseNetTCPForward, result.PhaseNetTCPReverse, result.PhaseNetTCPBidir, result.PhaseNetSmallPackets,
		result.PhaseNetUDP, result.PhaseNetUDPBidir, result.PhaseNetWatch, result.PhaseNetWatchApplied, result.PhaseNetHeadroomIdle:
		renderNet(w, p)
	case result.PhaseNetInterfacesBefore, result.PhaseNetInterfacesAfter:
		err = decode(p.Figures, func(f result.NetInterfaceFigures) {
			renderNetInterfaces(w, f)
		})
	case result.PhaseImportedLog:
		err = decode(p.Figures, func(f result.ImportedFigures) {
			renderImported(w, f, strings.Count(p.RawOutput, "\n")+1)
		})
	default:
		fmt.Fprintln(w.W)
		w.Line("figures: no text view for phase kind %q (see the JSON result)", p.Name)
		return
	}
	if err != nil {
		fmt.Fprintln(w.W)
		w.Line("figures: n/a (not readable as %s figures: %v)", p.Name, err)
	}
}

func noFiguresReason(p result.Phase) string {
	switch p.Status {
	case result.PhaseSkipped:
		return "skipped"
	case result.PhaseFailed:
		return "failed"
	case result.PhaseInterrupted:
		return "interrupted"
	}
	return "none recorded"
}

// renderCommandOutput writes the last lines of a monitored command's output.
func renderCommandOutput(w *textfmt.Writer, p result.Phase) {
	fmt.Fprintln(w.W)
	out := strings.TrimRight(p.RawOutput, "\n")
	if strings.TrimSpace(out) == "" {
		w.Line("output: none")
		return
	}
	lines := strings.Split(out, "\n")
	if n := len(lines) - outputTailLines; n > 0 {
		w.Line("output (last %d of %d lines; all of it is in the JSON result):", outputTailLines, len(lines))
		lines = lines[n:]
	} else {
		w.Line("output:")
	}
	for _, l := range lines {
		w.Line("    %s", strings.TrimRight(l, " \r\t"))
	}
}

// clockMethod names how a cluster's clock was measured, marked when the
// result is uncertain.
func clockMethod(c result.ClockCluster) string {
	method := orDash(c.Method)
	if c.Method != "" && !c.Certain {
		method += " (uncertain)"
	}
	return method
}

// mhz formats a clock, "n/a" when nil.
func mhz(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.0f MHz", *v)
}

// pct formats a signed percentage, "n/a" when nil.
func pct(v *float64, signed bool) string {
	if v == nil {
		return "n/a"
	}
	if signed {
		return fmt.Sprintf("%+.1f%%", *v)
	}
	return textfmt.Spread(*v)
}

// renderClock writes the measured clock of each cluster next to the
// reported and advertised ones, then any OPP walk.
func renderClock(w *textfmt.Writer, f result.ClockFigures) {
	fmt.Fprintln(w.W)
	if len(f.Clusters) == 0 {
		w.Line("clock: n/a (no cluster measured)")
		return
	}
	firmware := false
	for _, c := range f.Clusters {
		if c.FirmwareMHz != nil {
			firmware = true
		}
	}
	// One method for every cluster is said once under the table, which
	// keeps the table within the width.
	methods := map[string]bool{}
	for _, c := range f.Clusters {
		methods[clockMethod(c)] = true
	}
	oneMethod := len(methods) == 1
	// The same column names as `boardbench clock`'s table.
	headers := []string{"cluster", "core", "CPU", "measured", "kernel", "deviation", "advertised max", "spread", "method"}
	if oneMethod {
		headers = headers[:8]
	}
	if firmware {
		headers = append(headers, "firmware", "fw deviation")
	}
	t := textfmt.NewTable(headers...)
	for i, h := range headers {
		t.RightAlign[i] = i >= 3 && h != "method"
	}
	t.Wrap[6] = true
	var errs []string
	for _, c := range f.Clusters {
		name := "-"
		if len(c.CPUs) > 0 {
			name = "cpu" + cpu.FormatCPUList(c.CPUs)
		}
		measured := "-"
		if c.CPU != nil {
			measured = fmt.Sprintf("cpu%d", *c.CPU)
		}
		row := []string{name, orDash(c.Core), measured, mhz(c.MeasuredMHz), mhz(c.ReportedMHz), pct(c.DeviationPct, true), mhz(c.AdvertisedMaxMHz), pct(c.SpreadPct, false)}
		if !oneMethod {
			row = append(row, clockMethod(c))
		}
		if firmware {
			row = append(row, mhz(c.FirmwareMHz), pct(c.FirmwareDeviationPct, true))
		}
		t.Row(row...)
		if c.Error != "" {
			errs = append(errs, fmt.Sprintf("%s: not measured: %s", name, c.Error))
		}
		switch {
		case c.AllDisturbed():
			errs = append(errs, fmt.Sprintf("%s: every sample was disturbed by another task: the measured clock reads low and is not a figure", name))
		case len(c.DisturbedSamples) > 0:
			errs = append(errs, fmt.Sprintf("%s: %s set aside (another task took the CPU)", name, textfmt.Plural(len(c.DisturbedSamples), "sample")))
		}
	}
	w.Table(t)
	legend := "deviation: measured against reported; spread: of the samples"
	if oneMethod {
		legend += "; method: " + clockMethod(f.Clusters[0])
	}
	w.Line("%s", legend)
	for _, e := range errs {
		w.Line("%s", e)
	}
	for _, c := range f.Clusters {
		if len(c.OPPs) == 0 {
			continue
		}
		name := "cpu" + cpu.FormatCPUList(c.CPUs)
		fmt.Fprintln(w.W)
		w.Line("cpufreq OPPs of %s (%s):", name, orDash(c.Core))
		ot := textfmt.NewTable("requested", "kernel", "measured", "deviation", "spread", "")
		for i := 0; i < 5; i++ {
			ot.RightAlign[i] = true
		}
		for _, o := range c.OPPs {
			ot.Row(fmt.Sprintf("%.0f MHz", o.RequestedMHz), mhz(o.ReportedMHz), mhz(o.MeasuredMHz), pct(o.DeviationPct, true), pct(o.SpreadPct, false), o.Error)
		}
		w.Table(ot)
	}
}

// MemoryCompareNotes say what a reader must know to compare boardbench's
// memory figures with those of other memory benchmarks (tinymembench in
// particular), one sentence a line.
func MemoryCompareNotes() []string {
	return []string{
		"bandwidth: the median of the samples; tools that report the best of their runs " +
			"(tinymembench does) give higher figures.",
		"latency: absolute ns per access, L1 included; tools that report the time added on top of " +
			"the L1 latency (tinymembench does) give lower figures: subtract the smallest block's latency to compare.",
	}
}

// renderMemory writes bandwidth per kernel, the latency table and the
// cache steps found.
func renderMemory(w *textfmt.Writer, f result.MemFigures, mc *result.MemClock) {
	fmt.Fprintln(w.W)
	core := ""
	if f.Core != "" {
		core = " (" + f.Core + ")"
	}
	buf := "n/a"
	if f.BufferBytes > 0 {
		buf = textfmt.Bytes(f.BufferBytes)
	}
	w.Line("bandwidth on %s%s, buffers of %s, MB/s = 10^6 bytes per second:", cpuName(f.CPU), core, buf)
	w.Table(bandwidthTable(f.MemBandwidth))
	w.Line("memory clock during the phase: %s", MemClockText(mc))
	renderLatency(w, f)
	fmt.Fprintln(w.W)
	w.Line("how to compare:")
	for _, l := range MemoryCompareNotes() {
		w.Line("  %s", l)
	}
}

// renderMemoryAllCores writes the bandwidth of all CPUs at once.
func renderMemoryAllCores(w *textfmt.Writer, f result.MemAllCoresFigures, mc *result.MemClock) {
	fmt.Fprintln(w.W)
	w.Line("bandwidth of cpu%s at once, %s per CPU and buffer, MB/s = 10^6 bytes per second:", cpu.FormatCPUList(f.CPUs), textfmt.Bytes(f.SliceBytes))
	w.Table(bandwidthTable(f.MemBandwidth))
	w.Line("memory clock during the phase: %s", MemClockText(mc))
}

// renderC2C writes the core-to-core round-trip matrix in ns.
func renderC2C(w *textfmt.Writer, f result.C2CFigures) {
	fmt.Fprintln(w.W)
	w.Line("core-to-core round trip in ns (median of the samples)%s:", map[bool]string{true: ", a sample of the pairs", false: ""}[f.Sampled])
	headers := []string{""}
	for _, c := range f.CPUs {
		headers = append(headers, fmt.Sprintf("cpu%d", c))
	}
	t := textfmt.NewTable(headers...)
	for i := 1; i < len(headers); i++ {
		t.RightAlign[i] = true
	}
	for i, c := range f.CPUs {
		row := []string{fmt.Sprintf("cpu%d", c)}
		for j := range f.CPUs {
			v := "-"
			if i < len(f.MatrixNS) && j < len(f.MatrixNS[i]) && f.MatrixNS[i][j] != nil {
				v = fmt.Sprintf("%.0f", *f.MatrixNS[i][j])
			}
			row = append(row, v)
		}
		t.Row(row...)
	}
	w.Table(t)
}

// bandwidthTable is the table of the bandwidth kernels.
func bandwidthTable(f result.MemBandwidth) *textfmt.Table {
	t := textfmt.NewTable("kernel", "bandwidth", "spread")
	t.RightAlign[1], t.RightAlign[2] = true, true
	for _, k := range []struct {
		name   string
		v, dev *float64
	}{
		{membw.Memcpy.Label(), f.MemcpyMBs, f.MemcpyStdDevPct},
		{membw.Memset.Label(), f.MemsetMBs, f.MemsetStdDevPct},
		{membw.Read.Label(), f.ReadMBs, f.ReadStdDevPct},
		{membw.Write.Label(), f.WriteMBs, f.WriteStdDevPct},
		{membw.CopyGo.Label(), f.CopyGoMBs, f.CopyGoStdDevPct},
		{"non-temporal write", f.NTWriteMBs, f.NTWriteStdDevPct},
	} {
		v := "n/a"
		if k.v != nil {
			v = fmt.Sprintf("%.0f MB/s", *k.v)
		}
		dev := "-"
		if k.dev != nil {
			dev = textfmt.Spread(*k.dev)
		}
		t.Row(k.name, v, dev)
	}
	return t
}

// renderLatency writes the latency table and the cache levels.
func renderLatency(w *textfmt.Writer, f result.MemFigures) {
	if len(f.Latency) > 0 {
		fmt.Fprintln(w.W)
		line := ""
		if f.LineBytes > 0 {
			line = fmt.Sprintf(", chains of %d-byte slots", f.LineBytes)
		}
		w.Line("random-access latency in ns per access%s:", line)
		lt := textfmt.NewTable("block", "latency", "dual chains", "huge pages", "dual, huge pages")
		for i := 0; i < 5; i++ {
			lt.RightAlign[i] = true
		}
		ns := func(v *float64) string {
			if v == nil {
				return "-"
			}
			return fmt.Sprintf("%.1f ns", *v)
		}
		for _, l := range f.Latency {
			lt.Row(textfmt.Bytes(l.SizeBytes), ns(l.NS), ns(l.NSDual), ns(l.NSHugePage), ns(l.NSDualHugePage))
		}
		w.Table(lt)
	}
	for _, c := range f.CacheLevels {
		s := fmt.Sprintf("latency step: up to %s at %.1f ns", textfmt.Bytes(c.DetectedBytes), c.LatencyNS)
		if c.SysfsLevel != nil && c.SysfsBytes != nil {
			s += fmt.Sprintf(" (sysfs: L%d cache of %s)", *c.SysfsLevel, textfmt.Bytes(*c.SysfsBytes))
		} else {
			s += " (no matching sysfs cache)"
		}
		w.Line("%s", s)
	}
	if f.LatencyStillRising {
		w.Line("latency was still rising at the largest block: main memory latency is underestimated")
	}
	for _, n := range f.Notes {
		w.Line("note: %s", n)
	}
}

// renderOpenSSL writes AES throughput per cipher and block size.
func renderOpenSSL(w *textfmt.Writer, f result.OpenSSLFigures, allCores bool) {
	fmt.Fprintln(w.W)
	where := cpusLabel(f.CPUs, f.Core)
	secs := "openssl's default duration per block size"
	if f.SecondsPerBlockSize > 0 {
		secs = fmt.Sprintf("%d s per block size", f.SecondsPerBlockSize)
	}
	w.Line("OpenSSL %s on %s, %s", orNA(f.Version, "version unknown"), where, secs)
	if allCores {
		w.Line("one process per CPU at once: values are the sums over the CPUs")
	}
	var sizes []int
	seen := map[int]bool{}
	for _, c := range f.Ciphers {
		for _, v := range c.Values {
			if !seen[v.BlockBytes] {
				seen[v.BlockBytes] = true
				sizes = append(sizes, v.BlockBytes)
			}
		}
	}
	sort.Ints(sizes)
	w.Line("throughput in kB/s (1 kB = 1000 bytes) by block size:")
	headers := []string{"cipher"}
	for _, s := range sizes {
		headers = append(headers, textfmt.Bytes(int64(s)))
	}
	t := textfmt.NewTable(headers...)
	for i := 1; i <= len(sizes); i++ {
		t.RightAlign[i] = true
	}
	var errs []string
	for _, c := range f.Ciphers {
		row := []string{orDash(c.Cipher)}
		for _, s := range sizes {
			cell := "-"
			for _, v := range c.Values {
				if v.BlockBytes == s && v.KBs != nil {
					cell = fmt.Sprintf("%.0f", *v.KBs)
				}
			}
			row = append(row, cell)
		}
		t.Row(row...)
		if c.Error != "" {
			errs = append(errs, c.Cipher+": "+c.Error)
		}
	}
	w.Table(t)
	for _, e := range errs {
		w.Line("%s", e)
	}
}

// renderOpenSSLBuild writes what decides openssl's figures besides the CPU:
// its build and the CPU features it uses. The compiler flags are in the
// JSON result.
func renderOpenSSLBuild(w *textfmt.Writer, b *result.OpenSSLBuild) {
	if b == nil {
		return
	}
	var parts []string
	if b.Platform != "" {
		parts = append(parts, "platform "+b.Platform)
	}
	if b.Options != "" {
		parts = append(parts, "options "+b.Options)
	}
	if b.LibraryVersion != "" {
		parts = append(parts, "library "+b.LibraryVersion)
	}
	if len(parts) == 0 {
		parts = append(parts, "n/a (openssl version -a printed no build details)")
	}
	w.Line("build: %s", strings.Join(parts, ", "))
	aes := "AES instructions: unknown"
	if b.HardwareAES != nil {
		aes = map[bool]string{true: "AES instructions: used", false: "AES instructions: not used"}[*b.HardwareAES]
	}
	if b.CPUInfo != "" {
		aes += " (" + b.CPUInfo + ")"
	}
	w.Line("%s", aes)
	if b.CPUInfoEnv != "" {
		w.Line("capability override in the environment: %s (changes which code paths run)", b.CPUInfoEnv)
	}
}

// renderUserland writes the bitness of the programs next to the kernel's.
func renderUserland(w *textfmt.Writer, u *result.Userland) {
	if u == nil {
		return
	}
	bits := func(b *int, arch string) string {
		s := "unknown"
		if b != nil {
			s = fmt.Sprintf("%d-bit", *b)
		}
		if arch != "" {
			s += " " + arch
		}
		return s
	}
	line := "userland: " + bits(u.Bits, u.Arch) + ", kernel: " + bits(u.KernelBits, u.KernelArch)
	if u.MixedArch {
		line += " (mixed: the benchmark ran as a " + bits(u.Bits, "") + " program)"
	}
	w.Line("%s", line)
}

// renderCryptsetup writes the kernel's aes-xts throughput per key size.
func renderCryptsetup(w *textfmt.Writer, f result.CryptsetupFigures) {
	fmt.Fprintln(w.W)
	where := cpusLabel(f.CPUs, f.Core)
	w.Line("cryptsetup %s on %s: the kernel's ciphers, in memory (no storage)", orNA(f.Version, "version unknown"), where)
	t := textfmt.NewTable("cipher", "key", "encryption", "decryption")
	t.RightAlign[1], t.RightAlign[2], t.RightAlign[3] = true, true, true
	mibs := func(v *float64) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprintf("%.1f MiB/s", *v)
	}
	var errs []string
	for _, c := range f.Ciphers {
		t.Row(orDash(c.Cipher), fmt.Sprintf("%d bits", c.KeyBits), mibs(c.EncryptionMiBs), mibs(c.DecryptionMiBs))
		if c.Error != "" {
			errs = append(errs, fmt.Sprintf("%d bits: %s", c.KeyBits, c.Error))
		}
	}
	if len(f.Ciphers) > 0 {
		w.Table(t)
	} else {
		w.Line("ciphers: none measured")
	}
	w.Line("MiB/s = 2^20 bytes per second; XTS splits its key in two: 512 bits are AES-256")
	for _, e := range errs {
		w.Line("%s", e) // wrapped to the report's width by the writer
	}
	renderUserland(w, f.Userland)
}

// renderSevenZip writes each 7-Zip run, their mean and drift. timed is
// false when the runs' durations were not recorded (an imported log).
func renderSevenZip(w *textfmt.Writer, f result.SevenZipFigures, timed bool) {
	fmt.Fprintln(w.W)
	where := cpusLabel(f.CPUs, f.Core)
	ver := orNA(f.Version, "version unknown")
	if f.Flavor != "" {
		ver += " (" + f.Flavor + ")"
	}
	w.Line("7-Zip %s on %s, %s, arguments: %s", ver, where, textfmt.Plural(f.Threads, "thread"), orDash(strings.Join(f.Args, " ")))
	t := textfmt.NewTable("run", "total", "compress", "decompress", "usage", "RAM", "duration", "")
	for i := 0; i < 7; i++ {
		t.RightAlign[i] = true
	}
	mips := func(v *float64) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprintf("%.0f MIPS", *v)
	}
	for i, run := range f.Runs {
		usage := "-"
		if run.UsagePct != nil {
			usage = fmt.Sprintf("%.0f%%", *run.UsagePct)
		}
		ram := "-"
		if run.RAMUsageBytes != nil {
			ram = textfmt.Bytes(*run.RAMUsageBytes)
		}
		status := ""
		if run.Failure != "" {
			status = "FAILED: " + run.Failure
			if run.Error != "" {
				status += ": " + run.Error
			}
		}
		took := notRecorded
		if timed {
			took = duration(run.DurationS)
		}
		t.Row(fmt.Sprint(i+1), mips(run.TotMIPS), mips(run.CompressMIPS), mips(run.DecompressMIPS), usage, ram, took, status)
	}
	if len(f.Runs) > 0 {
		w.Table(t)
	} else {
		w.Line("runs: none")
	}
	s := "mean total: " + mips(f.TotMIPS)
	if f.TotMIPS == nil {
		s = "mean total: n/a (no run succeeded)"
	}
	if f.DriftPct != nil {
		s += fmt.Sprintf("; drift from first to last run: %+.1f%%", *f.DriftPct)
	}
	w.Line("%s", s)
	w.Line("usage: CPU usage as 7-Zip reports it on its Tot: line")
}

// decode unmarshals a phase's figures into T and renders them.
func decode[T any](data json.RawMessage, render func(T)) error {
	var f T
	err := json.Unmarshal(data, &f)
	if err == nil {
		render(f)
	}
	return err
}

// cpusLabel names the CPUs a figure was measured on, with their core type:
// "cpu4-7 (Cortex-A76)"; "n/a" when the CPUs are unknown.
func cpusLabel(cpus []int, core string) string {
	where := "n/a"
	if len(cpus) > 0 {
		where = "cpu" + cpu.FormatCPUList(cpus)
	}
	if core != "" {
		where += " (" + core + ")"
	}
	return where
}

// MemClockText is the memory controller's clock over a phase as the
// memory views print it next to the bandwidth: "2112 MHz (dmc, 12
// samples)", with the range when it moved ("1560 MHz (dmc, 528–2112 MHz
// over 12 samples)"), "unknown (…)" when none was sampled.
func MemClockText(c *result.MemClock) string {
	if c == nil {
		return "unknown (no memory-controller clock sampled)"
	}
	dev := c.Device
	if dev == "" {
		dev = "devfreq"
	}
	n := textfmt.Plural(c.Samples, "sample")
	if c.MinMHz == c.MaxMHz {
		return fmt.Sprintf("%s MHz (%s, %s)", fmtMHzNum(c.MedianMHz), dev, n)
	}
	return fmt.Sprintf("%s MHz (%s, %s–%s MHz over %s)", fmtMHzNum(c.MedianMHz), dev, fmtMHzNum(c.MinMHz), fmtMHzNum(c.MaxMHz), n)
}

// fmtMHzNum formats a clock in MHz without its unit, decimals only where
// it has them.
func fmtMHzNum(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }
