package infotext

import (
	"strings"
	"testing"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/buses"
	"boardbench/internal/inventory/network"
	"boardbench/internal/inventory/storage"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/textfmt"
)

// hwSectionsText renders the storage, buses and network sections of the
// board fixture root testdata/boards/<name>.
func hwSectionsText(t *testing.T, name string, render func(*textfmt.Writer, *inventory.Info)) string {
	t.Helper()
	h := fixture.Board(t, name)
	in := &inventory.Info{
		Storage: storage.Collect(h, true),
		Buses:   buses.Collect(h, true),
		Network: network.Collect(h, true),
	}
	var b strings.Builder
	render(textfmt.New(&b, false), in)
	return b.String()
}

// hwWantLines fails for every wanted fragment missing from text.
func hwWantLines(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in:\n%s", w, text)
		}
	}
}

func TestRenderStorage(t *testing.T) {
	text := hwSectionsText(t, "rock5b-armbian", renderStorage)
	hwWantLines(t, text,
		"Storage\n",
		"  mmcblk0    SD card  59.5 GiB  SanDisk SN64G ",
		"nvme0n1    NVMe      466 GiB  Samsung SSD 970 EVO Plus 500GB  PCIe 5.0 GT/s x1 of 8.0  none\n",
		"GT/s x4 (downgraded)\n",
		"USB 5000 Mbit/s, uas",
		"USB 480 Mbit/s,          mq-deadline\n",
		"mtdblock0  MTD        16 MiB  loader (nor)",
		"mmcblk0p2     59.0 GiB  /               ext4",
		"sda1           466 GiB  /mnt/usb ssd    ext4",
		"dm-0 (whole)   270 GiB  /srv            btrfs",
		`mmcblk0: SDXC card, maker SanDisk (manfid 0x000003, oemid 0x5344 "SD"), made 03/2022`,
		"Class 10, U3, V30, A2",
		"mmcblk1: eMMC 5.1, maker Samsung",
		"wear 0-10% (A) / 10-20% (B), reserved blocks normal",
		"hardware partitions boot0 4 MiB, boot1 4 MiB",
		"unknown: SD/eMMC bus mode and clock (only in debugfs",
	)
	if strings.Contains(text, "loop0") || strings.Contains(text, "zram0") || strings.Contains(text, "9a8b7c6d") {
		t.Errorf("skipped device or unredacted serial in:\n%s", text)
	}
}
