package blockdev

import (
	"context"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/inventory/storage"
)

func fixture(t *testing.T, name string) *host.Host {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	h, err := host.New(filepath.Join(filepath.Dir(file), "../../testdata/storage", name))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func resolve(t *testing.T, root, p string) *Identity {
	t.Helper()
	id, err := Resolve(context.Background(), fixture(t, root), p, Options{Redact: true})
	if err != nil {
		t.Fatalf("%s %s: %v", root, p, err)
	}
	return id
}

func layerKinds(id *Identity) string {
	var k []string
	for _, l := range id.Stack {
		k = append(k, l.Kind+":"+l.Device)
	}
	return strings.Join(k, " ")
}

func TestIdentityOnFixtures(t *testing.T) {
	cases := []struct {
		root, path            string
		kind, name, partition string
		stack                 string
		notStorage            bool
	}{
		{"sdcard", "/home/pi", KindSD, "mmcblk0", "mmcblk0p2", "partition:mmcblk0p2", false},
		{"sdcard", "/boot/firmware/config.txt", KindSD, "mmcblk0", "mmcblk0p1", "partition:mmcblk0p1", false},
		{"sdcard", "/tmp/x", KindRAM, "", "", "", true},
		{"sdcard", "/dev/mmcblk0", KindSD, "mmcblk0", "", "", false},
		{"emmc", "/", KindEMMC, "mmcblk2", "mmcblk2p1", "partition:mmcblk2p1", false},
		{"nvme-downgraded", "/var", KindNVMe, "nvme0n1", "nvme0n1p1", "partition:nvme0n1p1", false},
		{"usb-storage", "/mnt/usb/data", KindUSB, "sda", "sda1", "partition:sda1", false},
		{"dm-crypt", "/home/user", KindSATA, "sda", "sda2", "dm-crypt:dm-0 partition:sda2", false},
		{"dm-crypt", "/srv/www", KindSATA, "sda", "sda2", "bind:/srv dm-crypt:dm-0 partition:sda2", false},
		{"dm-crypt", "/merged/etc", KindSATA, "sda", "sda2", "overlay:/merged dm-crypt:dm-0 partition:sda2", false},
		{"dm-crypt", "/mnt/nas/films", KindNetwork, "", "", "", true},
		{"dm-crypt", "/dev/mapper/crypthome", KindSATA, "sda", "sda2", "dm-crypt:dm-0 partition:sda2", false},
	}
	for _, c := range cases {
		id := resolve(t, c.root, c.path)
		if id.Kind != c.kind || id.Name != c.name || id.Partition != c.partition || layerKinds(id) != c.stack || (id.NotStorage != "") != c.notStorage {
			t.Errorf("%s %s: kind %q name %q partition %q stack %q not-storage %q; want %q %q %q %q %v",
				c.root, c.path, id.Kind, id.Name, id.Partition, layerKinds(id), id.NotStorage, c.kind, c.name, c.partition, c.stack, c.notStorage)
		}
	}
}

func TestSDCardIdentity(t *testing.T) {
	id := resolve(t, "sdcard", "/")
	if id.CID == nil || id.CID.Manufacturer != "SanDisk" || id.CID.Product != "SC16G" || id.CID.Year != 2017 || id.CID.Month != 10 || id.CID.Serial != "(redacted)" {
		t.Errorf("CID %+v", id.CID)
	}
	if id.CSD == nil || id.CSD.Structure != 1 || id.CSD.TransferMbps != 25 {
		t.Errorf("CSD %+v", id.CSD)
	}
	if id.Block.MMC.SD == nil || id.Block.MMC.SD.Ratings() != "Class 10, A1" {
		t.Errorf("claimed classes %q", id.Block.MMC.SD.Ratings())
	}
	if id.BusMode == nil || id.BusMode.Mode != "HS" || !strings.Contains(id.BusMode.Line, "mmc0: new high speed SDHC card") {
		t.Errorf("bus mode %+v", id.BusMode)
	}
	if !slices.Equal(id.HostModes, []string{"SDR104", "DDR50"}) {
		t.Errorf("host modes %v", id.HostModes)
	}
	if id.Filesystem == nil || id.Filesystem.Atime != "noatime" || id.Filesystem.CommitS != nil || id.TRIM == nil || !*id.TRIM {
		t.Errorf("filesystem %+v, TRIM %v", id.Filesystem, id.TRIM)
	}
	raw := resolve(t, "sdcard", "/dev/mmcblk0")
	if !raw.Raw {
		t.Error("/dev/mmcblk0 not recognised as a raw device")
	}
}

func TestEMMCNVMeUSBIdentity(t *testing.T) {
	e := resolve(t, "emmc", "/")
	if e.BusMode == nil || e.BusMode.Mode != "HS400ES" || e.CID == nil || e.CID.Product != "DG4008" || e.CID.Year != 2018 || e.CID.Month != 4 || e.CID.Manufacturer != "SanDisk" {
		t.Errorf("eMMC: bus %+v CID %+v", e.BusMode, e.CID)
	}
	if e.Filesystem.CommitS == nil || *e.Filesystem.CommitS != 600 {
		t.Errorf("eMMC commit %v", e.Filesystem.CommitS)
	}
	n := resolve(t, "nvme-downgraded", "/")
	if n.Block.PCIe == nil || n.Block.PCIe.Downgraded == nil || !*n.Block.PCIe.Downgraded || n.Block.Model != "Samsung SSD 980 PRO 1TB" {
		t.Errorf("NVMe: %+v", n.Block.PCIe)
	}
	u := resolve(t, "usb-storage", "/mnt/usb")
	if u.Block.USB == nil || u.Block.USB.Driver != "usb-storage" || u.Block.USB.Version != "3.20" {
		t.Errorf("USB: %+v", u.Block.USB)
	}
}

func TestDecodeRegisters(t *testing.T) {
	// SanDisk SC16G (published CID with the serial replaced).
	c := storage.DecodeCID("SD", "0353445343313647806cb1100a011a00")
	if c == nil || c.ManfID != 3 || c.OEMID != "SD" || c.Product != "SC16G" || c.Revision != "8.0" || c.Serial != "6cb1100a" || c.Year != 2017 || c.Month != 10 {
		t.Errorf("SC16G CID %+v", c)
	}
	// SanDisk SL128 (published CID).
	c = storage.DecodeCID("SD", "035344534c31323880ac79a543010300")
	if c == nil || c.Product != "SL128" || c.Year != 2016 || c.Month != 3 {
		t.Errorf("SL128 CID %+v", c)
	}
	csd := storage.DecodeCSD("SD", "400e00325b59000076b27f800a404000")
	if csd == nil || csd.CapacityBytes != (0x76b2+1)*512*1024 || csd.TransferMbps != 25 || csd.CommandClasses != 0x5b5 {
		t.Errorf("SC16G CSD %+v", csd)
	}
	// The 59 GiB SDXC of the inventory tests.
	if csd := storage.DecodeCSD("SD", "400e0032db790001dbd37f800a404000"); csd == nil || csd.CapacityBytes != int64(0x1dbd3+1)*512*1024 {
		t.Errorf("SDXC CSD %+v", csd)
	}
	for _, bad := range []string{"", "03", "zz53445343313647806cb1100a011a00"} {
		if storage.DecodeCID("SD", bad) != nil || storage.DecodeCSD("SD", bad) != nil {
			t.Errorf("%q decoded", bad)
		}
	}
	modes := storage.ParseBusModes("[ 2.0] mmc1: new ultra high speed SDR104 SDXC card at address 59b4\n" +
		"[ 2.1] mmc0: new HS200 MMC card at address 0001\n[ 9.0] mmc2: new ultra high speed DDR50 SDHC card at address 0007\n" +
		"mmc3: new high speed SDIO card at address 0001\nmmc1: card 59b4 removed\n")
	want := map[string]string{"mmc1": "SDR104", "mmc0": "HS200", "mmc2": "DDR50", "mmc3": "HS"}
	for h, m := range want {
		if modes[h].Mode != m {
			t.Errorf("%s: mode %q, want %q", h, modes[h].Mode, m)
		}
	}
}
