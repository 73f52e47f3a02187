package kernelfile

import (
	"slices"
	"testing"
)

func TestParseFDInfo(t *testing.T) {
	cases := []struct {
		name     string
		in       string
		ok       bool
		want     FDInfo
		writable bool
	}{
		{"write only, append", "pos:\t4096\nflags:\t02102001\nmnt_id:\t29\nino:\t131090\n", true, FDInfo{Flags: 0o2102001, MntID: 29}, true},
		{"read-write", "pos:\t0\nflags:\t0100002\nmnt_id:\t1\n", true, FDInfo{Flags: 0o100002, MntID: 1}, true},
		{"read only", "pos:\t0\nflags:\t0100000\nmnt_id:\t29\n", true, FDInfo{Flags: 0o100000, MntID: 29}, false},
		{"O_PATH with access bits 3", "pos:\t0\nflags:\t012000003\nmnt_id:\t29\n", true, FDInfo{Flags: 0o12000003, MntID: 29}, false},
		{"old kernel without mnt_id", "pos:\t0\nflags:\t01\n", true, FDInfo{Flags: 1, MntID: -1}, true},
		{"eventfd extra lines", "pos:\t0\nflags:\t02\nmnt_id:\t15\nino:\t1057\neventfd-count:    0\n", true, FDInfo{Flags: 2, MntID: 15}, true},
		{"bad mnt_id", "flags:\t01\nmnt_id:\tx\n", true, FDInfo{Flags: 1, MntID: -1}, true},
		{"negative mnt_id", "flags:\t01\nmnt_id:\t-3\n", true, FDInfo{Flags: 1, MntID: -1}, true},
		{"flags not octal", "pos:\t0\nflags:\t0109\nmnt_id:\t29\n", false, FDInfo{MntID: -1}, false},
		{"flags too large", "flags:\t7777777777777777777777777\n", false, FDInfo{MntID: -1}, false},
		{"no flags", "pos:\t0\nmnt_id:\t29\n", false, FDInfo{MntID: 29}, false},
		{"empty", "", false, FDInfo{MntID: -1}, false},
	}
	for _, c := range cases {
		got, ok := ParseFDInfo(c.in)
		if ok != c.ok || (ok && got != c.want) || (ok && got.Writable() != c.writable) {
			t.Errorf("%s: ParseFDInfo = %+v, %v (writable %v); want %+v, %v (writable %v)", c.name, got, ok, got.Writable(), c.want, c.ok, c.writable)
		}
	}
}

func FuzzParseFDInfo(f *testing.F) {
	f.Add("pos:\t0\nflags:\t0100002\nmnt_id:\t29\n")
	f.Add("flags:\t\nmnt_id:\t\n")
	f.Fuzz(func(t *testing.T, s string) {
		if got, ok := ParseFDInfo(s); !ok && got.Flags != 0 {
			t.Errorf("rejected input left flags %o", got.Flags)
		}
	})
}

func TestParseMountDevs(t *testing.T) {
	in := "22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n" +
		"23 22 0:21 / /proc rw,nosuid - proc proc rw\n" +
		"30 22 254:1 /srv/data /data rw - ext4 /dev/vda1 rw\n" +
		"31 22 0:45 / /home rw - btrfs /dev/vdb2 rw,subvol=/home\n" +
		"31 22 8:1 / /dup rw - ext4 /dev/sda1 rw\n" +
		"garbage line\n" +
		"x 22 8:1 / /bad rw - ext4 /dev/sda1 rw\n" +
		"40 22 8:z / /bad rw - ext4 /dev/sda1 rw\n" +
		"41 22 8:1 / /nosep rw ext4 /dev/sda1 rw\n" +
		"42 22 259:3 / /mnt/a\\040b rw - xfs /dev/nvme0n1p3 rw\n"
	got := ParseMountDevs(in)
	want := map[int]MountDev{
		22: {"254:1", "ext4", "/dev/vda1"},
		23: {"0:21", "proc", "proc"},
		30: {"254:1", "ext4", "/dev/vda1"},
		31: {"0:45", "btrfs", "/dev/vdb2"},
		42: {"259:3", "xfs", "/dev/nvme0n1p3"},
	}
	if len(got) != len(want) {
		t.Errorf("ParseMountDevs = %v, want %v", got, want)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("mount %d = %+v, want %+v", id, got[id], w)
		}
	}
}

func TestSharedWritableMaps(t *testing.T) {
	in := "55d4c2a00000-55d4c2a21000 r-xp 00000000 fe:01 1311 /usr/bin/journalctl\n" +
		"7f2a1c000000-7f2a1c800000 rw-s 00000000 b3:02 131090 /var/log/journal/x/system.journal\n" +
		"7f2a1d000000-7f2a1d800000 rw-s 00800000 b3:02 131090 /var/log/journal/x/system.journal\n" +
		"7f2a1e000000-7f2a1e100000 r--s 00000000 fe:11 200 /var/lib/ro.db\n" +
		"7f2a1f000000-7f2a1f100000 rw-p 00000000 fe:11 201 /var/lib/private.db\n" +
		"7f2a20000000-7f2a20100000 rw-s 00000000 00:05 3 /dev/zero (deleted)\n" +
		"7f2a21000000-7f2a21100000 rw-s 00000000 00:01 0 \n" +
		"7f2a22000000-7f2a22100000 rw-s 00000000 103:05 77 /srv/lmdb/data.mdb\n" +
		"7f2a23000000-7f2a23100000 -w-s 00000000 fe:11 78 /srv/wo\n" +
		"7f2a24000000-7f2a24100000 rw-s 00000000 zz:11 79 /srv/bad\n" +
		"short line\n"
	got := SharedWritableMaps(in)
	want := []string{"179:2", "259:5", "254:17"}
	if !slices.Equal(got, want) {
		t.Errorf("SharedWritableMaps = %v, want %v", got, want)
	}
	if got := SharedWritableMaps(""); len(got) != 0 {
		t.Errorf("SharedWritableMaps(\"\") = %v", got)
	}
}
