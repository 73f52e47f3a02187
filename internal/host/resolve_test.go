package host

import (
	"os"
	"path/filepath"
	"testing"
)

func FuzzResolveNeverEscapes(f *testing.F) {
	f.Add("/proc/device-tree/model")
	f.Add("/sys/../../../etc/passwd")
	f.Add("/sys/class/net/eth0/../../../../x")
	root := f.TempDir()
	os.MkdirAll(filepath.Join(root, "sys/class/net"), 0o755)
	os.Symlink("/../../..", filepath.Join(root, "sys/class/net/up"))
	h, _ := New(root)
	f.Fuzz(func(t *testing.T, p string) {
		if len(p) == 0 || p[0] != '/' {
			return
		}
		rp, err := h.resolve(p)
		if err != nil {
			return
		}
		real := h.real(rp)
		if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || (len(rel) > 2 && rel[:3] == "../") {
			t.Fatalf("%q resolved outside root: %q", p, real)
		}
	})
}

func TestDeniedBase(t *testing.T) {
	for _, c := range []struct {
		name string
		want bool
	}{
		{"rom", true},
		{"kcore", true},
		{"unbind", true},
		{"uevent_trigger", true},
		{"nvmem", true},
		{"eeprom", true},
		{"model", false},
		{"roms", false},
		{"", false},
	} {
		if got := deniedBase(c.name); got != c.want {
			t.Errorf("deniedBase(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}
