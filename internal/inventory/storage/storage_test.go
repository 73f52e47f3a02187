package storage

import (
	"reflect"
	"strings"
	"testing"

	"boardbench/internal/kernelfile"
	"boardbench/internal/redact"
	"boardbench/internal/testutil/fixture"
)

func deviceByName(in Info, name string) *Device {
	for i := range in.Devices {
		if in.Devices[i].Name == name {
			return &in.Devices[i]
		}
	}
	return nil
}

func TestRock5BArmbianDevices(t *testing.T) {
	in := Collect(fixture.Board(t, "rock5b-armbian"), true)
	var names []string
	for _, d := range in.Devices {
		names = append(names, d.Name)
	}
	// loop*, zram*, the empty nbd0 and the eMMC boot areas are not listed;
	// virtual devices come last.
	want := []string{"mmcblk0", "mmcblk1", "mtdblock0", "nvme0n1", "sda", "sdb", "dm-0"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("devices = %q, want %q", names, want)
	}
	cases := []struct {
		name, kind, model, vendor, scheduler string
		size                                 int64
		rotational, discard                  bool
		usbDriver                            string
		usbSpeed                             float64
		partitions                           []string // name=mountpoint(fstype)
	}{
		{"mmcblk0", "SD card", "SN64G", "SanDisk", "mq-deadline", 124735488 * 512, false, true, "", 0,
			[]string{"mmcblk0p1=/boot/firmware(vfat)", "mmcblk0p2=/(ext4)"}},
		{"mmcblk1", "eMMC", "BJTD4R", "Samsung", "mq-deadline", 244277248 * 512, false, true, "", 0,
			[]string{"mmcblk1p1="}},
		{"mtdblock0", "MTD", "loader", "", "none", 16 << 20, true, false, "", 0, nil},
		{"nvme0n1", "NVMe", "Samsung SSD 970 EVO Plus 500GB", "", "none", 976773168 * 512, false, true, "", 0,
			[]string{"nvme0n1p1=/mnt/nvme(ext4)", "nvme0n1p2="}},
		{"sda", "USB", "SSD 870 EVO 500G", "Samsung", "mq-deadline", 976773168 * 512, false, true, "uas", 5000,
			[]string{"sda1=/mnt/usb ssd(ext4)"}},
		{"sdb", "USB", "Cruzer Blade", "SanDisk", "mq-deadline", 30031872 * 512, true, false, "usb-storage", 480,
			[]string{"sdb1="}},
		{"dm-0", "virtual", "cryptdata", "", "none", 567136256 * 512, false, false, "", 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := deviceByName(in, c.name)
			if d == nil {
				t.Fatal("missing")
			}
			if d.Kind != c.kind || d.Model != c.model || d.Vendor != c.vendor || d.Scheduler != c.scheduler {
				t.Errorf("kind %q model %q vendor %q scheduler %q", d.Kind, d.Model, d.Vendor, d.Scheduler)
			}
			if d.SizeBytes == nil || *d.SizeBytes != c.size {
				t.Errorf("size %v, want %d", d.SizeBytes, c.size)
			}
			if d.Rotational == nil || *d.Rotational != c.rotational || d.Discard == nil || *d.Discard != c.discard {
				t.Errorf("rotational %v discard %v", d.Rotational, d.Discard)
			}
			if c.usbDriver == "" {
				if d.USB != nil {
					t.Errorf("unexpected USB %+v", d.USB)
				}
			} else if d.USB == nil || d.USB.Driver != c.usbDriver || d.USB.SpeedMbps == nil || *d.USB.SpeedMbps != c.usbSpeed {
				t.Errorf("USB = %+v, want %s at %v", d.USB, c.usbDriver, c.usbSpeed)
			}
			var parts []string
			for _, p := range d.Partitions {
				s := p.Name + "="
				for _, m := range p.Mounts {
					s += m.MountPoint + "(" + m.FSType + ")"
				}
				parts = append(parts, s)
			}
			if !reflect.DeepEqual(parts, c.partitions) {
				t.Errorf("partitions %q, want %q", parts, c.partitions)
			}
		})
	}

	sd := deviceByName(in, "mmcblk0")
	if m := sd.MMC; m == nil || m.Host != "mmc0" || m.Controller != "fe2c0000.mmc" || m.CapacityClass != "SDXC" ||
		m.OEMIDText != "SD" || m.CID != redact.Placeholder || m.SD.Ratings() != "Class 10, U3, V30, A2" {
		t.Errorf("SD card MMC = %+v", sd.MMC)
	}
	if sd.Serial != redact.Placeholder || len(sd.HardwarePartitions) != 0 {
		t.Errorf("SD serial %q hw partitions %+v", sd.Serial, sd.HardwarePartitions)
	}
	emmc := deviceByName(in, "mmcblk1")
	if m := emmc.MMC; m == nil || m.EMMCVersion != "5.1" || m.LifeTimeA != "0-10%" || m.LifeTimeB != "10-20%" || m.PreEOL != "normal" || m.SD != nil {
		t.Errorf("eMMC MMC = %+v", emmc.MMC)
	}
	if len(emmc.HardwarePartitions) != 2 || emmc.HardwarePartitions[0].Name != "mmcblk1boot0" ||
		*emmc.HardwarePartitions[0].SizeBytes != 4<<20 || !*emmc.HardwarePartitions[1].ReadOnly {
		t.Errorf("eMMC hardware partitions = %+v", emmc.HardwarePartitions)
	}
	nv := deviceByName(in, "nvme0n1")
	if nv.PCIe == nil || nv.PCIe.Address != "0000:01:00.0" || nv.PCIe.Downgraded == nil || !*nv.PCIe.Downgraded || nv.Firmware != "2B2QEXM7" {
		t.Errorf("NVMe = %+v / %+v", nv, nv.PCIe)
	}
	if dm := deviceByName(in, "dm-0"); len(dm.Mounts) != 1 || dm.Mounts[0].MountPoint != "/srv" {
		t.Errorf("dm-0 mounts = %+v (btrfs is matched by its /dev/mapper source)", dm.Mounts)
	}
	if len(in.Warnings) != 0 {
		t.Errorf("warnings = %q, want none (UAS at 5000, usb-storage only at 480)", in.Warnings)
	}
	if len(in.Notes) != 1 || !strings.Contains(in.Notes[0].Reason, "debugfs") {
		t.Errorf("notes = %+v, want the debugfs note", in.Notes)
	}

	raw := Collect(fixture.Board(t, "rock5b-armbian"), false)
	if d := deviceByName(raw, "mmcblk0"); d.Serial != "0x9a8b7c6d" || !strings.HasPrefix(d.MMC.CID, "0353445") {
		t.Errorf("unredacted serial %q cid %q", d.Serial, d.MMC.CID)
	}
}

func TestWarnings(t *testing.T) {
	const usb = "/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1"
	h := fixture.Host(t, map[string]string{
		"/sys/block/sdc": "->../devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host3/target3:0:0/3:0:0:0/block/sdc",
		usb + "/2-1:1.0/host3/target3:0:0/3:0:0:0/block/sdc/size": "1000\n",
		usb + "/2-1:1.0/driver":                                   "->../../../../../../bus/usb/drivers/usb-storage",
		usb + "/speed":                                            "5000\n",
		"/sys/bus/usb/devices/2-1":                                "->../../../devices/pci0000:00/0000:00:14.0/usb2/2-1",
		"/sys/bus/usb/devices/2-1:1.0":                            "->../../../devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0",
		"/sys/block/mmcblk2":                                      "->../devices/platform/soc/mmc_host/mmc2/mmc2:0001/block/mmcblk2",
		"/sys/devices/platform/soc/mmc_host/mmc2/mmc2:0001/block/mmcblk2/size":   "1000\n",
		"/sys/devices/platform/soc/mmc_host/mmc2/mmc2:0001/block/mmcblk2/device": "->../../../mmc2:0001",
		"/sys/devices/platform/soc/mmc_host/mmc2/mmc2:0001/type":                 "MMC\n",
		"/sys/devices/platform/soc/mmc_host/mmc2/mmc2:0001/life_time":            "0x0a 0x0b\n",
		"/sys/devices/platform/soc/mmc_host/mmc2/mmc2:0001/pre_eol_info":         "0x02\n",
	})
	in := Collect(h, true)
	want := []string{
		"mmcblk2: eMMC reports pre-end-of-life state \"warning\"",
		"mmcblk2: eMMC wear estimate (type A) is 90-100%",
		"mmcblk2: eMMC wear estimate (type B) is exceeded",
		"sdc: USB storage via usb-storage (no UAS) at 5000 Mbit/s",
	}
	if len(in.Warnings) != len(want) {
		t.Fatalf("warnings = %q", in.Warnings)
	}
	for i, w := range want {
		if !strings.HasPrefix(in.Warnings[i], w) {
			t.Errorf("warning %d = %q, want prefix %q", i, in.Warnings[i], w)
		}
	}
}

func TestMissingAndJunk(t *testing.T) {
	empty := fixture.Host(t, map[string]string{"/proc/version": "x"})
	in := Collect(empty, true)
	if len(in.Devices) != 0 || in.Devices == nil || len(in.Notes) != 1 {
		t.Errorf("empty root: %+v", in)
	}

	junk := fixture.Host(t, map[string]string{
		"/sys/block/sdz": "->../devices/platform/x/host0/target0:0:0/0:0:0:0/block/sdz",
		"/sys/devices/platform/x/host0/target0:0:0/0:0:0:0/block/sdz/size":                "\x00\xffgarbage",
		"/sys/devices/platform/x/host0/target0:0:0/0:0:0:0/block/sdz/queue/scheduler":     "",
		"/sys/devices/platform/x/host0/target0:0:0/0:0:0:0/block/sdz/queue/rotational":    "2",
		"/sys/devices/platform/x/host0/target0:0:0/0:0:0:0/block/sdz/queue/read_ahead_kb": "-4",
		"/sys/devices/platform/x/host0/target0:0:0/0:0:0:0/block/sdz/sdz1/partition":      "one",
		"/sys/block/mmcblk9": "->../devices/nowhere/mmcblk9",
		"/sys/block/nvme3n1": "->../devices/virtual/nvme-subsystem/nvme-subsys3/nvme3n1",
		"/sys/devices/virtual/nvme-subsystem/nvme-subsys3/nvme3n1/size": "2048\n",
		"/proc/self/mountinfo": "garbage line\n\n1 2 3 - \n",
	})
	in = Collect(junk, true)
	if len(in.Devices) != 3 {
		t.Fatalf("devices = %+v", in.Devices)
	}
	sdz := deviceByName(in, "sdz")
	if sdz.Kind != "SCSI" || sdz.SizeBytes != nil || sdz.Rotational != nil || sdz.ReadAheadBytes != nil || sdz.Scheduler != "" {
		t.Errorf("sdz = %+v", sdz)
	}
	if len(sdz.Partitions) != 1 || sdz.Partitions[0].Number != nil {
		t.Errorf("sdz partitions = %+v", sdz.Partitions)
	}
	if mmc := deviceByName(in, "mmcblk9"); mmc.Kind != "MMC" || mmc.MMC == nil || mmc.MMC.Manufacturer != "" {
		t.Errorf("mmcblk9 = %+v", mmc)
	}
	// A multipath NVMe namespace lives under a virtual subsystem but is
	// still an NVMe drive, kept even without a visible controller.
	if nv := deviceByName(in, "nvme3n1"); nv.Kind != "NVMe" || nv.PCIe != nil || *nv.SizeBytes != 2048*512 {
		t.Errorf("nvme3n1 = %+v", nv)
	}
}

func TestMountinfo(t *testing.T) {
	s := "22 1 179:2 / / rw,noatime shared:1 - ext4 /dev/root rw\n" +
		"31 22 8:1 / /mnt/my\\040disk rw shared:19 - ext4 /dev/sda1 rw\n" +
		"32 22 8:1 /sub /bind rw - ext4 /dev/sda1 rw\n" +
		"33 22 0:35 /@ /srv rw - btrfs /dev/sdb2 rw\n" +
		"broken\n"
	e := mountEntries(kernelfile.ParseMountInfo(s))
	if len(e) != 4 {
		t.Fatalf("entries = %+v", e)
	}
	cases := []struct {
		devno, source string
		want          []string
	}{
		{"179:2", "/dev/mmcblk0p2", []string{"/"}},
		{"8:1", "/dev/sda1", []string{"/mnt/my disk", "/bind"}},
		{"8:18", "/dev/sdb2", []string{"/srv"}},
		{"8:32", "/dev/sdc", nil},
	}
	for _, c := range cases {
		var got []string
		for _, m := range mountsOf(e, c.devno, c.source) {
			got = append(got, m.MountPoint)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("mountsOf(%s) = %q, want %q", c.devno, got, c.want)
		}
	}
}

func TestKinds(t *testing.T) {
	cases := []struct {
		name, path string
		usb        bool
		want       string
	}{
		{"sda", "/sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda", false, "SATA"},
		{"sda", "/sys/devices/platform/fe210000.sata/ata1/host0/target0:0:0/0:0:0:0/block/sda", false, "SATA"},
		{"sda", "/sys/devices/platform/xhci/usb2/2-1/2-1:1.0/host0/target0:0:0/0:0:0:0/block/sda", true, "USB"},
		{"vda", "/sys/devices/pci0000:00/0000:00:04.0/virtio1/block/vda", false, "virtio"},
		{"sda", "/sys/devices/platform/1d84000.ufs/host0/target0:0:0/0:0:0:0/block/sda", false, "UFS"},
		{"sda", "/sys/devices/platform/soc/624000.ufshc/host0/target0:0:0/0:0:0:0/block/sda", false, "UFS"},
		{"sdc", "/sys/devices/platform/soc/11270000.ufshci/host0/target0:0:0/0:0:0:2/block/sdc", false, "UFS"},
		{"sdb", "/sys/devices/pci0000:00/0000:00:10.0/host2/target2:0:0/2:0:0:0/block/sdb", false, "SCSI"},
		{"md0", "/sys/devices/virtual/block/md0", false, "virtual"},
		{"xyz0", "/sys/devices/platform/xyz/block/xyz0", false, "other"},
	}
	for _, c := range cases {
		if got := pathKind(c.name, c.path, c.usb); got != c.want {
			t.Errorf("pathKind(%s) = %q, want %q", c.path, got, c.want)
		}
	}
	mmc := map[string]string{"SD": "SD card", "MMC": "eMMC", "SDIO": "SDIO", "": "MMC"}
	for in, want := range mmc {
		if got := mmcKind(in); got != want {
			t.Errorf("mmcKind(%q) = %q, want %q", in, got, want)
		}
	}
	ctrl := map[string]string{"nvme0n1": "nvme0", "nvme12n3": "nvme12", "nvmex": ""}
	for in, want := range ctrl {
		if got := nvmeController(in); got != want {
			t.Errorf("nvmeController(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSATAOnPCIe(t *testing.T) {
	const ctl = "/sys/devices/platform/a40800000.pcie/pci0002:20/0002:20:00.0/0002:21:00.0"
	h := fixture.Host(t, map[string]string{
		"/sys/block/sda": "->../devices/platform/a40800000.pcie/pci0002:20/0002:20:00.0/0002:21:00.0/ata1/host0/target0:0:0/0:0:0:0/block/sda",
		ctl + "/ata1/host0/target0:0:0/0:0:0:0/block/sda/size":   "7814037168\n",
		ctl + "/ata1/host0/target0:0:0/0:0:0:0/vendor":           "ATA     \n",
		ctl + "/ata1/host0/target0:0:0/0:0:0:0/model":            "WDC WD40EFRX-68N\n",
		ctl + "/ata1/host0/target0:0:0/0:0:0:0/block/sda/device": "->../../../0:0:0:0",
		ctl + "/current_link_speed":                              "5.0 GT/s PCIe\n",
		ctl + "/max_link_speed":                                  "8.0 GT/s PCIe\n",
		ctl + "/current_link_width":                              "1\n",
		ctl + "/max_link_width":                                  "1\n",
		"/sys/bus/pci/devices/0002:21:00.0":                      "->../../../devices/platform/a40800000.pcie/pci0002:20/0002:20:00.0/0002:21:00.0",
	})
	in := Collect(h, true)
	if len(in.Devices) != 1 {
		t.Fatalf("devices = %+v", in.Devices)
	}
	d := in.Devices[0]
	if d.Kind != "SATA" || d.Vendor != "ATA" || d.Model != "WDC WD40EFRX-68N" || d.PCIe == nil ||
		d.PCIe.Address != "0002:21:00.0" || d.PCIe.Downgraded == nil || !*d.PCIe.Downgraded || d.PCIe.LimitedByPort != nil {
		t.Errorf("sda = %+v, pcie %+v", d, d.PCIe)
	}
}

// TestUFSByHost covers UFS controllers whose device name does not say UFS:
// the SCSI host's proc_name or the controller's driver does.
func TestUFSByHost(t *testing.T) {
	const pci = "/sys/devices/pci0000:00/0000:00:12.5"
	const sas = "/sys/devices/pci0000:00/0000:00:1c.0/0000:01:00.0"
	const disk = "/host0/target0:0:0/0:0:0:0"
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"PCI controller with the ufshcd-pci driver", map[string]string{
			pci + "/driver":                         "->../../../bus/pci/drivers/ufshcd-pci",
			"/sys/bus/pci/drivers/ufshcd-pci/.keep": "",
		}, "UFS"},
		{"host proc_name ufshcd", map[string]string{
			pci + disk + "/../../scsi_host/host0/proc_name": "ufshcd\n",
			"/sys/class/scsi_host/host0":                    "->../../devices/pci0000:00/0000:00:12.5/host0/scsi_host/host0",
		}, "UFS"},
		{"SAS HBA stays SCSI", map[string]string{
			sas + "/driver":                      "->../../../../bus/pci/drivers/mpt3sas",
			"/sys/bus/pci/drivers/mpt3sas/.keep": "",
		}, "SCSI"},
		{"no driver link, no proc_name: SCSI", map[string]string{}, "SCSI"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctl := pci
			if strings.Contains(c.name, "SAS") {
				ctl = sas
			}
			files := map[string]string{
				"/sys/block/sda":                 "->.." + strings.TrimPrefix(ctl, "/sys") + disk + "/block/sda",
				ctl + disk + "/block/sda/size":   "247717888\n",
				ctl + disk + "/model":            "KLUDG4UHGC-B0E1\n",
				ctl + disk + "/block/sda/device": "->../../../0:0:0:0",
			}
			for k, v := range c.files {
				files[k] = v
			}
			in := Collect(fixture.Host(t, files), true)
			d := deviceByName(in, "sda")
			if d == nil {
				t.Fatalf("sda missing: %+v", in.Devices)
			}
			if d.Kind != c.want {
				t.Errorf("kind %q, want %q (path %s)", d.Kind, c.want, d.SysfsPath)
			}
		})
	}
}
