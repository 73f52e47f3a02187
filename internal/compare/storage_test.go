package compare

import (
	"encoding/json"
	"slices"
	"testing"

	"boardbench/internal/result"
)

// TestCompareStorageTables: two storage results are compared cell by cell
// (record size x test), with the latency cells; a cell one result lacks
// has no change.
func TestCompareStorageTables(t *testing.T) {
	v := func(x float64) *float64 { return &x }
	withStorage := func(f result.StorageFigures) *result.Result {
		r := base()
		raw, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		r.Phases = append(r.Phases, result.Phase{Name: result.PhaseStorage, Figures: raw})
		return r
	}
	sd := withStorage(result.StorageFigures{Table: []result.StorageRow{{RecordKiB: 4, WriteKBs: v(1000), RandomReadKBs: v(8000)}, {RecordKiB: 16384, ReadKBs: v(40000)}},
		Latency: []result.StorageLatency{{Test: "random_read", RecordKiB: 4, QueueDepth: 32, IOPS: v(2000), P50Us: v(500)}}})
	nvme := withStorage(result.StorageFigures{Table: []result.StorageRow{{RecordKiB: 4, WriteKBs: v(4000), RandomReadKBs: v(200000)}, {RecordKiB: 16384, ReadKBs: v(1600000)}},
		Latency: []result.StorageLatency{{Test: "random_read", RecordKiB: 4, QueueDepth: 32, IOPS: v(50000), P50Us: v(50)}}})
	cmp, err := Compare([]Input{{Label: "sd", Result: sd}, {Label: "nvme", Result: nvme}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Figure{}
	for _, f := range cmp.Figures {
		got[f.Key] = f
	}
	for key, want := range map[string]float64{
		"storage.table/4k/write":                     300,
		"storage.table/4k/random_read":               2400,
		"storage.table/16384k/read":                  3900,
		"storage.latency/4k/random_read/qd32/iops":   2400,
		"storage.latency/4k/random_read/qd32/p50_us": -90,
	} {
		f, ok := got[key]
		if !ok || f.ChangePct[1] == nil || *f.ChangePct[1] != want {
			t.Errorf("%s: %+v, want a change of %v%%", key, f, want)
		}
	}
	if _, ok := got["storage.table/4k/rewrite"]; ok {
		t.Error("a cell neither result has is listed")
	}
	if f := got["storage.table/4k/write"]; f.Unit != "KiB/s" || f.Name != "storage 4 KiB write" {
		t.Errorf("cell named %q in %q", f.Name, f.Unit)
	}
}

// TestStorageDeviceCondition: the device each storage result measured is a
// condition, so that an SD card against an NVMe drive shows as such; a run
// over several paths names each device.
func TestStorageDeviceCondition(t *testing.T) {
	one := func(name, kind string) *result.Result {
		r := base()
		r.Device = &result.DeviceIdentity{Name: name, Kind: kind}
		return r
	}
	multi := base()
	raw, err := json.Marshal(result.StorageFigures{Devices: []result.StorageDevice{{Path: "/mnt/a", Device: "sda", Kind: "usb"}, {Path: "/mnt/b", Device: "sdb"}}})
	if err != nil {
		t.Fatal(err)
	}
	multi.Phases = append(multi.Phases, result.Phase{Name: result.PhaseStorage, Figures: raw})
	for _, tc := range []struct {
		name    string
		results []*result.Result
		want    []string
		differs bool
	}{
		{"sd against nvme", []*result.Result{one("mmcblk0", "sd"), one("nvme0n1", "nvme")}, []string{"mmcblk0 (sd)", "nvme0n1 (nvme)"}, true},
		{"the same card twice", []*result.Result{one("mmcblk0", "sd"), one("mmcblk0", "sd")}, []string{"mmcblk0 (sd)", "mmcblk0 (sd)"}, false},
		{"one device against two", []*result.Result{one("sda", "usb"), multi}, []string{"sda (usb)", "2 at once: sda (usb), sdb"}, true},
		{"not storage results: left out", []*result.Result{base(), base()}, nil, false},
	} {
		var in []Input
		for i, r := range tc.results {
			in = append(in, Input{Label: string(rune('a' + i)), Result: r})
		}
		cmp, err := Compare(in)
		if err != nil {
			t.Fatal(err)
		}
		var got *Condition
		for i := range cmp.Conditions {
			if cmp.Conditions[i].Name == "storage device" {
				got = &cmp.Conditions[i]
			}
		}
		if tc.want == nil {
			if got != nil {
				t.Errorf("%s: condition %+v listed", tc.name, got)
			}
			continue
		}
		if got == nil || !slices.Equal(got.Values, tc.want) || got.Differs != tc.differs {
			t.Errorf("%s: condition %+v, want %q (differs %v)", tc.name, got, tc.want, tc.differs)
		}
	}
}
