package check

import (
	"context"
	"encoding/json"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"boardbench/internal/blockdev"
	"boardbench/internal/finding"
	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/storage"
	"boardbench/internal/result"
)

func storageFixture(t *testing.T, root, p string) *blockdev.Identity {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	h, err := host.New(filepath.Join(filepath.Dir(file), "../../testdata/storage", root))
	if err != nil {
		t.Fatal(err)
	}
	id, err := blockdev.Resolve(context.Background(), h, p, blockdev.Options{Redact: true})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func f64p(v float64) *float64 { return &v }

// storageResult builds a storage result with 4 KiB IOPS and the 16 MiB
// sequential write in MB/s.
func storageResult(t *testing.T, id *blockdev.Identity, readIOPS, writeIOPS, seqWriteMBs float64, mod func(*result.StorageFigures)) *result.Result {
	t.Helper()
	figs := result.StorageFigures{Direct: true, RandRead4kIOPS: f64p(readIOPS), RandWrite4kIOPS: f64p(writeIOPS),
		Table: []result.StorageRow{{RecordKiB: 4}, {RecordKiB: 16384, WriteKBs: f64p(seqWriteMBs * 1e6 / 1024)}},
		Cells: []result.StorageCell{{RecordKiB: 4, Test: "random_read", CPUPct: 20}}}
	if mod != nil {
		mod(&figs)
	}
	p := result.Phase{Name: result.PhaseStorage}
	if err := p.SetFigures(figs); err != nil {
		t.Fatal(err)
	}
	return &result.Result{Device: id.ToResult(), Phases: []result.Phase{p}}
}

func storageIDs(t *testing.T, r *result.Result) []string {
	t.Helper()
	var out []string
	for _, f := range StorageFindings(r) {
		if len(f.Evidence) == 0 || f.Advice == "" {
			t.Errorf("finding %s lacks evidence or advice", f.ID)
		}
		out = append(out, f.ID)
	}
	return out
}

func TestStorageFindings(t *testing.T) {
	sd := storageFixture(t, "sdcard", "/")
	usb2 := storageFixture(t, "usb-storage", "/mnt/usb")
	speed := 480.0
	usb2.Block.USB.SpeedMbps = &speed
	uas := storageFixture(t, "usb-storage", "/mnt/usb")
	uas.Block.USB.Driver = "uas"
	uhsInHS := storageFixture(t, "sdcard", "/")
	uhsInHS.HostModes = nil
	u1 := 1
	uhsInHS.Block.MMC.SD.UHSSpeedGrade = &u1
	cases := []struct {
		name string
		r    *result.Result
		want []string
	}{
		{"slow A1 card in HS mode", storageResult(t, sd, 800, 120, 6, nil), []string{"storage-below-class", "storage-bus-mode"}},
		{"fast enough A1 card", storageResult(t, sd, 2100, 600, 12, nil), []string{"storage-bus-mode"}},
		{"UHS card in HS without device tree", storageResult(t, uhsInHS, 2100, 600, 12, nil), []string{"storage-bus-mode"}},
		{"eMMC in HS400ES", storageResult(t, storageFixture(t, "emmc", "/"), 3000, 2000, 80, nil), nil},
		{"usb-storage at 5 Gbit/s", storageResult(t, storageFixture(t, "usb-storage", "/"+"mnt/usb"), 3000, 2000, 300, nil), []string{"storage-usb-no-uas"}},
		{"USB 3 disk on USB 2", storageResult(t, usb2, 3000, 2000, 30, nil), []string{"storage-usb-no-uas", "storage-usb2-link"}},
		{"UAS at 5 Gbit/s", storageResult(t, uas, 3000, 2000, 300, nil), nil},
		{"NVMe downgraded", storageResult(t, storageFixture(t, "nvme-downgraded", "/"), 9000, 9000, 900, nil), []string{"storage-pcie-link"}},
		{"tmpfs, page cache", storageResult(t, storageFixture(t, "sdcard", "/tmp"), 1e5, 1e5, 3000, func(f *result.StorageFigures) {
			f.Direct, f.DirectError = false, "the filesystem refused O_DIRECT (invalid argument)"
		}), []string{"storage-not-storage", "storage-page-cache"}},
		{"CPU-bound, io_is_busy=0", storageResult(t, storageFixture(t, "emmc", "/"), 3000, 2000, 80, func(f *result.StorageFigures) {
			f.Cells[0].CPUPct = 97
			no := false
			f.IOIsBusy, f.Governors = &no, []string{"policy0: ondemand"}
		}), []string{"storage-cpu-bound", "storage-io-is-busy"}},
	}
	for _, c := range cases {
		if got := storageIDs(t, c.r); !slices.Equal(got, c.want) {
			t.Errorf("%s: findings %v, want %v", c.name, got, c.want)
		}
	}
}

func TestStorageClassThresholds(t *testing.T) {
	id := &blockdev.Identity{Kind: blockdev.KindSD, Block: &storage.Device{MMC: &storage.MMC{Type: "SD", SD: &storage.SDStatus{}}}}
	two, three, thirty := 2, 3, 30
	id.Block.MMC.SD.AppPerfClass, id.Block.MMC.SD.UHSSpeedGrade, id.Block.MMC.SD.VideoSpeedClass = &two, &three, &thirty
	cases := []struct {
		r, w, mbs float64
		below     bool
	}{
		{4000, 2000, 30, false},
		{3999, 2000, 30, true},
		{4000, 1999, 30, true},
		{4000, 2000, 29.9, true},
	}
	for _, c := range cases {
		got := slices.Contains(storageIDs(t, storageResult(t, id, c.r, c.w, c.mbs, nil)), "storage-below-class")
		if got != c.below {
			t.Errorf("A2 U3 V30 card at %.0f/%.0f IOPS, %.1f MB/s: below %v, want %v", c.r, c.w, c.mbs, got, c.below)
		}
	}
}

// TestLowClockDuringIO judges the storage step's monitor samples on a
// big.LITTLE board (cpu0-3 up to 1800 MHz, cpu4-7 up to 2400 MHz).
func TestLowClockDuringIO(t *testing.T) {
	sample := func(iowait, little, big float64) result.Sample {
		return result.Sample{IowaitPct: f64p(iowait), ClockMHz: []*float64{f64p(little), f64p(big)}}
	}
	repeat := func(n int, s result.Sample) []result.Sample {
		var out []result.Sample
		for range n {
			out = append(out, s)
		}
		return out
	}
	tests := []struct {
		name    string
		irqCPUs []int
		samples []result.Sample
		want    bool
		evid    string
	}{
		{"interrupt on the little cluster, held at 600 of 1800 MHz", []int{0}, repeat(5, sample(45, 600, 2400)), true, "cluster cpu0-3 (handles the storage's interrupt 27 mmc0)"},
		{"interrupt on the big cluster at full clock, little one low", []int{5}, repeat(5, sample(45, 600, 2400)), false, ""},
		{"interrupt on the big cluster, low", []int{4, 5}, repeat(5, sample(45, 1800, 1200)), true, "cluster cpu4-7"},
		{"interrupt unknown: every cluster is judged", nil, repeat(5, sample(45, 1800, 1200)), true, "cluster cpu4-7: median clock 1200 MHz, 50% of its 2400 MHz maximum, in 5 samples"},
		{"low clock but little iowait (idle between cells)", []int{0}, repeat(5, sample(5, 600, 600)), false, ""},
		{"too few samples during I/O", []int{0}, append(repeat(2, sample(45, 600, 600)), repeat(5, sample(1, 600, 600))...), false, ""},
		{"clock at 70% of the maximum", []int{0}, repeat(5, sample(45, 1260, 2400)), false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := storageResult(t, nil, 3000, 1000, 40, func(f *result.StorageFigures) {
				f.IRQ, f.IRQCPUs, f.Governors = "27 mmc0", tt.irqCPUs, []string{"policy0: schedutil", "policy4: schedutil"}
			})
			r.Phases[0].Samples = tt.samples
			r.Monitor.Policies = []result.Policy{{Label: "cpu0-3", ID: 0, CPUs: []int{0, 1, 2, 3}}, {Label: "cpu4-7", ID: 4, CPUs: []int{4, 5, 6, 7}}}
			r.Info = &inventory.Info{}
			for id := range 8 {
				top := 1800.0
				if id >= 4 {
					top = 2400
				}
				r.Info.CPU.CPUs = append(r.Info.CPU.CPUs, cpu.CPU{ID: id, MaxMHz: f64p(top)})
			}
			var got *finding.Finding
			for _, f := range StorageFindings(r) {
				if f.ID == "storage-low-clock" {
					got = &f
				}
			}
			if (got != nil) != tt.want {
				t.Fatalf("storage-low-clock fired: %v, want %v (%+v)", got != nil, tt.want, got)
			}
			if got != nil && !strings.Contains(strings.Join(got.Evidence, "\n"), tt.evid) {
				t.Errorf("evidence %q lacks %q", got.Evidence, tt.evid)
			}
		})
	}
}

func TestFakeCapacityFinding(t *testing.T) {
	first := int64(40 << 20)
	for _, tc := range []struct {
		name string
		figs result.StorageCapacityFigures
		want bool
	}{
		{"all read back", result.StorageCapacityFigures{WrittenBytes: 64 << 20, OKBytes: 64 << 20}, false},
		{"tail lost", result.StorageCapacityFigures{WrittenBytes: 64 << 20, OKBytes: 40 << 20, ZeroBytes: 24 << 20, FirstBadOffset: &first}, true},
		{"nothing written", result.StorageCapacityFigures{}, false},
	} {
		raw, _ := json.Marshal(tc.figs)
		r := &result.Result{Phases: []result.Phase{{Name: result.PhaseStorageCapacity, Figures: raw}}}
		got := false
		for _, f := range StorageFindings(r) {
			got = got || f.ID == "storage-fake-capacity"
		}
		if got != tc.want {
			t.Errorf("%s: finding %v, want %v", tc.name, got, tc.want)
		}
	}
}
