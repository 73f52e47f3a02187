package kernelfile

import (
	"reflect"
	"strings"
	"testing"

	"boardbench/internal/testutil/fixture"
)

func TestParseMountInfo(t *testing.T) {
	cases := []struct {
		name, in string
		want     []MountInfo
	}{
		{"root with optional field",
			"22 1 179:2 / / rw,noatime shared:1 - ext4 /dev/mmcblk0p2 rw,noatime\n",
			[]MountInfo{{ID: 22, ParentID: 1, DevNo: "179:2", Root: "/", MountPoint: "/", Options: []string{"rw", "noatime"},
				Optional: []string{"shared:1"}, FSType: "ext4", Source: "/dev/mmcblk0p2", SuperOptions: []string{"rw", "noatime"}}}},
		{"octal escapes in paths and options",
			`32 22 8:1 /sub\040dir /mnt/usb\040ssd rw,relatime shared:19 master:2 - ext4 /dev/disk\134x rw,lowerdir=/a\054b` + "\n",
			[]MountInfo{{ID: 32, ParentID: 22, DevNo: "8:1", Root: "/sub dir", MountPoint: "/mnt/usb ssd", Options: []string{"rw", "relatime"},
				Optional: []string{"shared:19", "master:2"}, FSType: "ext4", Source: `/dev/disk\x`, SuperOptions: []string{"rw", "lowerdir=/a,b"}}}},
		{"no optional fields, no super options",
			"35 24 0:30 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2\n",
			[]MountInfo{{ID: 35, ParentID: 24, DevNo: "0:30", Root: "/", MountPoint: "/sys/fs/cgroup", Options: []string{"rw", "nosuid"},
				FSType: "cgroup2", Source: "cgroup2"}}},
		{"malformed lines skipped", "garbage\n" +
			"x 22 8:1 / /bad rw - ext4 /dev/sda1 rw\n" + // id not a number
			"40 y 8:1 / /bad rw - ext4 /dev/sda1 rw\n" + // parent not a number
			"-4 1 8:1 / /bad rw - ext4 /dev/sda1 rw\n" + // negative id
			"41 22 8:1 / /bad - ext4 /dev/sda1 rw\n" + // five fields before the separator
			"42 22 8:1 / /nosep rw ext4 /dev/sda1 rw\n" + // no separator
			"43 22 8:1 / /nosource rw - ext4\n" + // no source
			" - \n\n", nil},
	}
	for _, c := range cases {
		got := ParseMountInfo(c.in)
		for i := range got {
			got[i].Line = "" // checked below
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: ParseMountInfo = %+v\nwant %+v", c.name, got, c.want)
		}
	}
	if got := ParseMountInfo("22 1 179:2 / / rw - ext4 /dev/root rw\n"); len(got) != 1 || got[0].Line != "22 1 179:2 / / rw - ext4 /dev/root rw" {
		t.Errorf("Line = %+v", got)
	}
}

// TestReadMountInfoBoards reads the mount tables of the fixture boards
// through host, as the callers do.
func TestReadMountInfoBoards(t *testing.T) {
	cases := []struct {
		board string
		n     int
		point string // a mount point expected, unescaped
		fs    string
	}{
		{"rpi4b", 6, "/boot", "vfat"},
		{"rock5b-armbian", 0, "/mnt/usb ssd", "ext4"},
	}
	for _, c := range cases {
		h := fixture.Board(t, c.board)
		ms, err := ReadMountInfo(h, Self)
		if err != nil {
			t.Fatalf("%s: %v", c.board, err)
		}
		if c.n > 0 && len(ms) != c.n {
			t.Errorf("%s: %d mounts, want %d", c.board, len(ms), c.n)
		}
		found := false
		for _, m := range ms {
			if strings.Contains(m.MountPoint, `\`) {
				t.Errorf("%s: escaped mount point %q", c.board, m.MountPoint)
			}
			found = found || m.MountPoint == c.point && m.FSType == c.fs
		}
		if !found {
			t.Errorf("%s: no %s mount at %q in %+v", c.board, c.fs, c.point, ms)
		}
	}
}

// fakeReader serves files from a map; a missing file is an error.
type fakeReader map[string]string

func (f fakeReader) ReadFile(p string) ([]byte, error) {
	s, ok := f[p]
	if !ok {
		return nil, &missingError{p}
	}
	return []byte(s), nil
}

type missingError struct{ path string }

func (e *missingError) Error() string { return e.path + ": missing" }

func TestReadMountTable(t *testing.T) {
	info := "22 1 179:2 / / rw - ext4 /dev/root rw\n"
	mounts := "/dev/root / ext4 rw,noatime 0 0\n"
	cases := []struct {
		name    string
		r       fakeReader
		devNo   string
		wantErr bool
	}{
		{"mountinfo first", fakeReader{"/proc/self/mountinfo": info, "/proc/mounts": mounts}, "179:2", false},
		{"falls back to /proc/mounts", fakeReader{"/proc/mounts": mounts}, "", false},
		{"neither", fakeReader{}, "", true},
	}
	for _, c := range cases {
		ms, err := ReadMountTable(c.r)
		if (err != nil) != c.wantErr {
			t.Errorf("%s: err = %v", c.name, err)
			continue
		}
		if c.wantErr {
			continue
		}
		if len(ms) != 1 || ms[0].DevNo != c.devNo || ms[0].Source != "/dev/root" || ms[0].MountPoint != "/" {
			t.Errorf("%s: ReadMountTable = %+v", c.name, ms)
		}
	}
	if _, err := ReadMountInfo(fakeReader{"/proc/42/mountinfo": info}, 42); err != nil {
		t.Errorf("ReadMountInfo(pid 42): %v", err)
	}
}

func FuzzParseMountInfo(f *testing.F) {
	f.Add("22 1 179:2 / / rw shared:1 - ext4 /dev/root rw\n")
	f.Add(" - \n - - - \n\\")
	f.Add("1 2 3 4 5 6 - \n- - - - - - - -\n")
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range ParseMountInfo(s) {
			if m.FSType == "" || m.ID < 0 || len(m.Options) == 0 {
				t.Errorf("entry %+v from %q", m, s)
			}
		}
		for _, m := range ParseMounts(s) {
			if m.FSType == "" {
				t.Errorf("entry %+v from %q", m, s)
			}
		}
		_ = ParseMountDevs(s)
	})
}
