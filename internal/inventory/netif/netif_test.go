package netif

import (
	"errors"
	"os"
	"syscall"
	"testing"

	"boardbench/internal/inventory/network"
)

func TestUseDriverInfo(t *testing.T) {
	tests := []struct {
		name  string
		sysfs string
		info  *DriverInfo
		want  string
	}{
		{"ethtool names a virtual interface's driver", "", &DriverInfo{Driver: "veth"}, "veth"},
		{"ethtool wins over sysfs", "r8169", &DriverInfo{Driver: "r8169", BusInfo: "0000:01:00.0"}, "r8169"},
		{"sysfs is the fallback when ethtool failed", "bcmgenet", nil, "bcmgenet"},
		{"sysfs is the fallback when ethtool names none", "smsc95xx", &DriverInfo{}, "smsc95xx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Details{Interface: network.Interface{Name: "eth0", Driver: tt.sysfs}, DriverInfo: tt.info}
			useDriverInfo(&d)
			if d.Driver != tt.want {
				t.Errorf("driver = %q, want %q", d.Driver, tt.want)
			}
		})
	}
}

func TestCString(t *testing.T) {
	var b [32]byte
	copy(b[:], "veth\x00junk")
	if got := cString(b[:]); got != "veth" {
		t.Errorf("cString = %q", got)
	}
	if got := cString([]byte("a\x1bb\xffc\x00d")); got != "abc" {
		t.Errorf("cString keeps control bytes: %q", got)
	}
}

// TestLiveDriverInfo reads the loopback interface's driver information
// through the kernel; drivers without it answer "not supported".
func TestLiveDriverInfo(t *testing.T) {
	if _, err := os.Stat("/sys/class/net/lo"); err != nil {
		t.Skip("no /sys/class/net/lo")
	}
	info, err := Live{}.DriverInfo("lo")
	if errors.Is(err, syscall.ENOSYS) {
		// qemu's user-mode emulation (the cross-architecture checks)
		// does not pass SIOCETHTOOL on; the native run tests the ioctl.
		t.Skipf("DriverInfo(lo): %v: the ioctl is not available under this emulator", err)
	}
	if err != nil && !errors.Is(err, ErrNotSupported) {
		t.Fatalf("DriverInfo(lo): %v", err)
	}
	t.Logf("lo: %+v, %v", info, err)
	if _, err := (Live{}).DriverInfo("no-such-if0"); err == nil {
		t.Error("DriverInfo of a missing interface succeeded")
	}
}
