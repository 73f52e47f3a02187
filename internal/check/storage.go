package check

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/blockdev"
	"boardbench/internal/finding"
	"boardbench/internal/inventory/buses"
	"boardbench/internal/result"
)

// Class thresholds of the SD Association's performance classes.
const (
	// A1 and A2: minimum 4 KiB random IOPS (read, write).
	A1ReadIOPS, A1WriteIOPS = 1500, 500
	A2ReadIOPS, A2WriteIOPS = 4000, 2000
	// Speed classes: minimum sequential write in MB/s (10^6 bytes).
	C10WriteMBs = 10
	U3WriteMBs  = 30
	// CPUBoundPct is the CPU use of a cell, in percent of one CPU, from
	// which the figure says more about the CPU than the storage.
	CPUBoundPct = 90
	// IOWaitHighPct is the share of CPU time in iowait from which a monitor
	// sample of the storage test counts as "during I/O".
	IOWaitHighPct = 20
	// LowClockPct is the clock, in percent of the cluster's maximum, below
	// which the median clock during I/O counts as held back.
	LowClockPct = 60
	// LowClockMinSamples is the fewest samples during I/O the judgement
	// needs.
	LowClockMinSamples = 3
)

// StorageFindings are the findings of `boardbench storage` from its result:
// the device identity (r.Device) and the storage phase's figures.
func StorageFindings(r *result.Result) []finding.Finding {
	id := r.Device
	var figs *result.StorageFigures
	for _, p := range r.Phases {
		if p.Name == result.PhaseStorage && len(p.Figures) > 0 {
			var f result.StorageFigures
			if json.Unmarshal(p.Figures, &f) == nil {
				figs = &f
			}
		}
	}
	var out []finding.Finding
	out = append(out, notStorage(id, figs)...)
	out = append(out, belowClass(id, figs)...)
	out = append(out, busMode(id)...)
	out = append(out, usbLink(id)...)
	out = append(out, pcieLink(id)...)
	out = append(out, cpuBound(figs)...)
	out = append(out, lowClockDuringIO(r, figs)...)
	out = append(out, fakeCapacity(r)...)
	return out
}

// fakeCapacity judges the fake-capacity check: blocks that did not read
// back as written mean the storage holds less than it says (a counterfeit
// card), or loses data.
func fakeCapacity(r *result.Result) []finding.Finding {
	for _, p := range r.Phases {
		if p.Name != result.PhaseStorageCapacity || len(p.Figures) == 0 {
			continue
		}
		var f result.StorageCapacityFigures
		if json.Unmarshal(p.Figures, &f) != nil || f.WrittenBytes == 0 || f.OKBytes == f.WrittenBytes {
			continue
		}
		lost := f.WrittenBytes - f.OKBytes
		ev := []string{fmt.Sprintf("%d of %d MiB written read back intact; %d MiB lost (%d MiB as zeros, %d MiB as another position's data, %d MiB changed)",
			f.OKBytes>>20, f.WrittenBytes>>20, lost>>20, f.ZeroBytes>>20, f.MovedBytes>>20, f.ChangedBytes>>20)}
		if f.FirstBadOffset != nil {
			ev = append(ev, fmt.Sprintf("the first lost block is %d MiB into the written data", *f.FirstBadOffset>>20))
		}
		return []finding.Finding{{ID: "storage-fake-capacity", Severity: finding.Warning,
			Title:    "The storage lost data written to its free space: it holds less than it reports",
			Evidence: ev,
			Advice: "Blocks past a point reading back as zeros or as earlier blocks are the mark of a counterfeit card whose controller reports more space than its flash has. " +
				"Do not keep data on it; scattered changed blocks point to failing flash or a bad reader instead. Repeat with another reader to tell them apart.",
			Phases: []string{result.PhaseStorageCapacity}}}
	}
	return nil
}

// lowClockDuringIO judges the clock of the cluster handling the storage's
// interrupt (all clusters when that is unknown) in the storage step's
// monitor samples with high iowait: a median below LowClockPct of the
// cluster's maximum holds the figures back, whatever the governor.
func lowClockDuringIO(r *result.Result, figs *result.StorageFigures) []finding.Finding {
	if figs == nil || r.Info == nil {
		return nil
	}
	var samples []result.Sample
	for _, p := range r.Phases {
		if p.Name == result.PhaseStorage {
			samples = p.Samples
		}
	}
	maxMHz := map[int]float64{}
	for _, c := range r.Info.CPU.CPUs {
		if c.MaxMHz != nil {
			maxMHz[c.ID] = *c.MaxMHz
		}
	}
	var ev []string
	for i, pol := range r.Monitor.Policies {
		if len(figs.IRQCPUs) > 0 && !slices.ContainsFunc(pol.CPUs, func(c int) bool { return slices.Contains(figs.IRQCPUs, c) }) {
			continue
		}
		top := 0.0
		for _, c := range pol.CPUs {
			top = max(top, maxMHz[c])
		}
		if top <= 0 {
			continue
		}
		var clocks []float64
		for _, s := range samples {
			if s.IowaitPct != nil && *s.IowaitPct >= IOWaitHighPct && i < len(s.ClockMHz) && s.ClockMHz[i] != nil {
				clocks = append(clocks, *s.ClockMHz[i])
			}
		}
		if len(clocks) < LowClockMinSamples {
			continue
		}
		slices.Sort(clocks)
		med := clocks[len(clocks)/2]
		if len(clocks)%2 == 0 {
			med = (clocks[len(clocks)/2-1] + med) / 2
		}
		if med < top*LowClockPct/100 {
			who := "cluster " + pol.Label
			if len(figs.IRQCPUs) > 0 {
				who += " (handles the storage's interrupt " + figs.IRQ + ")"
			}
			ev = append(ev, fmt.Sprintf("%s: median clock %.0f MHz, %.0f%% of its %.0f MHz maximum, in %d samples with iowait of %d%% or more",
				who, med, med/top*100, top, len(clocks), IOWaitHighPct))
		}
	}
	if len(ev) == 0 {
		return nil
	}
	if len(figs.Governors) > 0 {
		ev = append(ev, "cpufreq: "+strings.Join(figs.Governors, "; "))
	}
	return []finding.Finding{{ID: "storage-low-clock", Severity: finding.Warning,
		Title:    "The CPU clock stayed low during I/O: the governor holds the storage figures back",
		Evidence: ev,
		Advice: "Waiting for I/O does not count as busy for most governors, so the clock stays low while the CPU that handles the storage's interrupts " +
			"and submits the requests is the bottleneck of small-record I/O. Use schedutil, ondemand with io_is_busy=1, or performance while measuring; " +
			"the cost is a little more power during I/O.",
		Phases: []string{result.PhaseStorage}}}
}

func notStorage(id *result.DeviceIdentity, figs *result.StorageFigures) []finding.Finding {
	var out []finding.Finding
	if id != nil && id.NotStorage != "" {
		out = append(out, finding.Finding{ID: "storage-not-storage", Severity: finding.Invalidates,
			Title:    "The path is not on storage: the figures measure " + map[bool]string{true: "RAM", false: "a network"}[id.Kind == blockdev.KindRAM],
			Evidence: []string{id.Path + ": " + id.NotStorage},
			Advice:   "Give a path on the SD card, eMMC, SSD or USB disk to measure, e.g. a directory under / or the mount point of the disk.",
			Phases:   []string{result.PhaseStorage}})
	}
	if figs != nil && !figs.Direct && figs.Table != nil {
		out = append(out, finding.Finding{ID: "storage-page-cache", Severity: finding.Invalidates,
			Title:    "The figures are the page cache's, not the storage's",
			Evidence: []string{figs.DirectError},
			Advice:   "Measure on a filesystem that accepts O_DIRECT (ext4, xfs, btrfs, f2fs, exfat on Linux 5.x+); tmpfs and some FUSE filesystems refuse it.",
			Phases:   []string{result.PhaseStorage}})
	}
	return out
}

func row(figs *result.StorageFigures, rec int) *result.StorageRow {
	if figs == nil {
		return nil
	}
	for i := range figs.Table {
		if figs.Table[i].RecordKiB == rec {
			return &figs.Table[i]
		}
	}
	return nil
}

func belowClass(id *result.DeviceIdentity, figs *result.StorageFigures) []finding.Finding {
	if id == nil || id.Block == nil || id.Block.MMC == nil || id.Block.MMC.SD == nil || figs == nil || !figs.Direct {
		return nil
	}
	sd := id.Block.MMC.SD
	claims := sd.Ratings()
	var ev []string
	if a := sd.AppPerfClass; a != nil && *a >= 1 && figs.RandRead4kIOPS != nil && figs.RandWrite4kIOPS != nil {
		rd, wr := float64(A1ReadIOPS), float64(A1WriteIOPS)
		if *a == 2 {
			rd, wr = A2ReadIOPS, A2WriteIOPS
		}
		if *figs.RandRead4kIOPS < rd || *figs.RandWrite4kIOPS < wr {
			ev = append(ev, fmt.Sprintf("A%d needs at least %.0f read and %.0f write IOPS at 4 KiB; measured %.0f and %.0f",
				*a, rd, wr, *figs.RandRead4kIOPS, *figs.RandWrite4kIOPS))
		}
	}
	need, class := 0.0, ""
	switch {
	case sd.UHSSpeedGrade != nil && *sd.UHSSpeedGrade == 3:
		need, class = U3WriteMBs, "U3"
	case sd.VideoSpeedClass != nil && *sd.VideoSpeedClass >= 30:
		need, class = float64(*sd.VideoSpeedClass), "V"+strconv.Itoa(*sd.VideoSpeedClass)
	case sd.UHSSpeedGrade != nil && *sd.UHSSpeedGrade == 1:
		need, class = C10WriteMBs, "U1"
	case sd.VideoSpeedClass != nil && *sd.VideoSpeedClass == 10:
		need, class = C10WriteMBs, "V10"
	case sd.SpeedClass != nil && *sd.SpeedClass > 0:
		need, class = float64(*sd.SpeedClass), "Class "+strconv.Itoa(*sd.SpeedClass)
	}
	if r := row(figs, 16384); need > 0 && r != nil && r.WriteKBs != nil {
		if mbs := *r.WriteKBs * 1024 / 1e6; mbs < need {
			ev = append(ev, fmt.Sprintf("%s needs at least %.0f MB/s sequential write; measured %.1f MB/s with 16 MiB records", class, need, mbs))
		}
	}
	if len(ev) == 0 {
		return nil
	}
	ev = append(ev, "the card claims "+claims+" in its SD Status Register")
	return []finding.Finding{{ID: "storage-below-class", Severity: finding.Warning,
		Title:    "The SD card is slower than the class it claims",
		Evidence: ev,
		Advice: "A card below its own class is worn out, fake, or held back by the host: check the bus mode finding, if any. " +
			"A2's random-write figure needs the command queue and cache, which many hosts and kernels do not enable for SD cards; such a card is then held to A1's. " +
			"For a system disk, prefer a genuine A1/A2 card from a known brand, or eMMC, USB SSD or NVMe.",
		Phases: []string{result.PhaseStorage}}}
}

// modeRank orders bus modes by speed; an unknown mode ranks 0, with the
// slowest.
func modeRank(mode string) int {
	switch mode {
	case "HS", "SDR25":
		return 1
	case "DDR50", "SDR50", "DDR52":
		return 2
	case "SDR104", "HS200":
		return 3
	case "HS400", "HS400ES":
		return 4
	}
	return 0 // DS, SDR12 and unknown modes
}

func busMode(id *result.DeviceIdentity) []finding.Finding {
	if id == nil || id.BusMode == nil || id.Block == nil || id.Block.MMC == nil {
		return nil
	}
	cur := id.BusMode.Mode
	best := ""
	for _, m := range id.HostModes {
		if id.Block.MMC.Type == "SD" && (m == "HS200" || m == "HS400") || id.Block.MMC.Type == "MMC" && strings.HasPrefix(m, "SDR") {
			continue
		}
		if modeRank(m) > modeRank(cur) && (best == "" || modeRank(m) > modeRank(best)) {
			best = m
		}
	}
	sd := id.Block.MMC.SD
	uhsCard := sd != nil && sd.UHSSpeedGrade != nil && *sd.UHSSpeedGrade >= 1
	var ev []string
	switch {
	case best != "":
		ev = append(ev, fmt.Sprintf("the controller's device tree declares %s; the card runs in %s (%.0f MB/s at most)", best, cur, id.BusMode.MaxMBs))
	case id.Block.MMC.Type == "SD" && uhsCard && modeRank(cur) <= 1:
		ev = append(ev, fmt.Sprintf("the card is a UHS-I card (%s) but runs in %s (%.0f MB/s at most)", sd.Ratings(), cur, id.BusMode.MaxMBs))
	default:
		return nil
	}
	ev = append(ev, "kernel log: "+id.BusMode.Line)
	return []finding.Finding{{ID: "storage-bus-mode", Severity: finding.Warning,
		Title:    "The SD/eMMC bus runs below what card and controller support",
		Evidence: ev,
		Advice: "UHS and HS200/HS400 modes need 1.8 V signalling: check the board's device tree (sd-uhs-sdr104, mmc-hs200-1_8v, a vqmmc-supply regulator) " +
			"and the kernel version; the kernel log shows retuning or voltage-switch errors when the fast mode failed.",
		Phases: []string{result.PhaseStorage}}}
}

func usbLink(id *result.DeviceIdentity) []finding.Finding {
	if id == nil || id.Block == nil || id.Block.USB == nil {
		return nil
	}
	u := id.Block.USB
	var out []finding.Finding
	bridge := strings.TrimSpace(u.Manufacturer + " " + u.Product)
	ids := u.VendorID + ":" + u.ProductID
	usb3Device := strings.HasPrefix(u.Version, "3")
	if u.Driver == "usb-storage" && (usb3Device || u.SpeedMbps != nil && *u.SpeedMbps >= 5000) {
		out = append(out, finding.Finding{ID: "storage-usb-no-uas", Severity: finding.Warning,
			Title:    "The USB disk runs on usb-storage, not UAS",
			Evidence: []string{fmt.Sprintf("%s: bridge %s (%s), USB %s, driver usb-storage", id.Name, bridge, ids, u.Version)},
			Advice: "UAS queues commands and gives much faster random I/O. Either the bridge does not support UAS, or the kernel disables it for this bridge " +
				"(a quirk for a buggy chip: look for 'UAS is ignored for this device' in the kernel log). A bridge with working UAS (e.g. ASMedia ASM1153/ASM2362, JMicron JMS583 with recent firmware) helps.",
			Phases: []string{result.PhaseStorage}})
	}
	if usb3Device && u.SpeedMbps != nil && *u.SpeedMbps <= 480 {
		out = append(out, finding.Finding{ID: "storage-usb2-link", Severity: finding.Warning,
			Title:    "A USB 3 disk runs on a USB 2 link",
			Evidence: []string{fmt.Sprintf("%s: device declares USB %s, link at %s", id.Name, u.Version, buses.FormatUSBSpeed(*u.SpeedMbps))},
			Advice:   "Plug it into a USB 3 port (blue or marked SS), use a USB 3 cable, and avoid USB 2 hubs; USB 2 caps throughput near 40 MB/s.",
			Phases:   []string{result.PhaseStorage}})
	}
	return out
}

func pcieLink(id *result.DeviceIdentity) []finding.Finding {
	if id == nil || id.Block == nil || id.Block.PCIe == nil || id.Block.PCIe.Downgraded == nil || !*id.Block.PCIe.Downgraded {
		return nil
	}
	l := id.Block.PCIe
	sev, advice := finding.Warning, "Check the slot, adapter and cable (M.2 adapters and FPC cables often force a lower speed), and the board's PCIe settings (e.g. dtparam=pciex1_gen=3 on a Raspberry Pi 5)."
	if l.LimitedByPort != nil && *l.LimitedByPort {
		sev, advice = finding.Info, "The port upstream cannot go faster: this is the board's limit, not a fault."
	}
	return []finding.Finding{{ID: "storage-pcie-link", Severity: sev,
		Title:    "The NVMe drive's PCIe link runs below its capability",
		Evidence: []string{fmt.Sprintf("%s at %s: link %s, capable of %s", id.Name, l.Address, buses.FormatLink(l.CurrentGTs, l.CurrentWidth), buses.FormatLink(l.MaxGTs, l.MaxWidth))},
		Advice:   advice,
		Phases:   []string{result.PhaseStorage}}}
}

func cpuBound(figs *result.StorageFigures) []finding.Finding {
	if figs == nil {
		return nil
	}
	var out []finding.Finding
	var ev []string
	for _, c := range figs.Cells {
		if c.CPUPct >= CPUBoundPct {
			ev = append(ev, fmt.Sprintf("%d KiB %s: boardbench used %.0f%% of a CPU", c.RecordKiB, strings.ReplaceAll(c.Test, "_", " "), c.CPUPct))
		}
	}
	if len(ev) > 0 {
		out = append(out, finding.Finding{ID: "storage-cpu-bound", Severity: finding.Warning,
			Title:    "Some figures are limited by the CPU, not the storage",
			Evidence: capEvidence(ev, 6),
			Advice:   "A CPU busy all the time during I/O means the figure is the CPU's submission rate: check the clock during the test (governor, throttling) and compare on a faster CPU.",
			Phases:   []string{result.PhaseStorage}})
	}
	if figs.IOIsBusy != nil && !*figs.IOIsBusy {
		out = append(out, finding.Finding{ID: "storage-io-is-busy", Severity: finding.Warning,
			Title:    "The ondemand governor does not count I/O wait as busy: the clock stays low during I/O",
			Evidence: append(slices.Clone(figs.Governors), "/sys/devices/system/cpu/cpufreq/ondemand/io_is_busy = 0"),
			Advice:   "Set io_is_busy to 1 (echo 1 > /sys/devices/system/cpu/cpufreq/ondemand/io_is_busy, e.g. from a boot script) or use schedutil; the cost is a little more power during I/O.",
			Phases:   []string{result.PhaseStorage}})
	}
	return out
}
