package kernelfile

import (
	"reflect"
	"testing"

	"boardbench/internal/testutil/fixture"
)

func TestParseMounts(t *testing.T) {
	in := "/dev/mmcblk0p2 / ext4 rw,noatime 0 0\n" +
		"/dev/sda1 /mnt/a\\011b vfat rw,relatime 0 0\n" +
		"/dev/sdb1 /mnt/usb\\040ssd ext4 rw 0 0\n" +
		"none /x tmpfs\n" + // no options
		"short line\n\n"
	want := []MountInfo{
		{ID: -1, ParentID: -1, Source: "/dev/mmcblk0p2", MountPoint: "/", FSType: "ext4", Options: []string{"rw", "noatime"},
			Line: "/dev/mmcblk0p2 / ext4 rw,noatime 0 0"},
		{ID: -1, ParentID: -1, Source: "/dev/sda1", MountPoint: "/mnt/a\tb", FSType: "vfat", Options: []string{"rw", "relatime"},
			Line: "/dev/sda1 /mnt/a\\011b vfat rw,relatime 0 0"},
		{ID: -1, ParentID: -1, Source: "/dev/sdb1", MountPoint: "/mnt/usb ssd", FSType: "ext4", Options: []string{"rw"},
			Line: "/dev/sdb1 /mnt/usb\\040ssd ext4 rw 0 0"},
		{ID: -1, ParentID: -1, Source: "none", MountPoint: "/x", FSType: "tmpfs", Line: "none /x tmpfs"},
	}
	if got := ParseMounts(in); !reflect.DeepEqual(got, want) {
		t.Errorf("ParseMounts = %+v\nwant %+v", got, want)
	}
}

func TestReadMountsBoard(t *testing.T) {
	ms, err := ReadMounts(fixture.Board(t, "rpi4b"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 6 || ms[0].Source != "/dev/mmcblk0p2" || ms[0].MountPoint != "/" || ms[0].FSType != "ext4" {
		t.Errorf("ReadMounts(rpi4b) = %+v", ms)
	}
}
