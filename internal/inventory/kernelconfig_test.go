package inventory_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/osinfo"
	"boardbench/internal/kernelinfo"
)

// TestKernelConfigReadOnce checks that Collect, which reads the kernel
// config once for both sections, says what osinfo and kernelinfo say
// when each reads it itself.
func TestKernelConfigReadOnce(t *testing.T) {
	const cfg = "CONFIG_HZ=250\nCONFIG_PREEMPT=y\nCONFIG_NO_HZ_IDLE=y\nCONFIG_CPU_RK3588=y\n# CONFIG_SUNXI_FOO is not set\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write([]byte(cfg)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		files    map[string][]byte
		wantHZ   int  // 0: no config
		wantVend bool // the summary names the Rockchip BSP
	}{
		{"proc config.gz", map[string][]byte{"proc/config.gz": gz.Bytes()}, 250, true},
		{"boot config", map[string][]byte{"boot/config-5.10.110": []byte(cfg)}, 250, true},
		{"no config", nil, 0, false},
		{"corrupt config.gz", map[string][]byte{"proc/config.gz": []byte("not gzip")}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			files := map[string][]byte{
				"proc/sys/kernel/osrelease": []byte("5.10.110\n"),
				"proc/sys/kernel/version":   []byte("#1 SMP PREEMPT\n"),
				"proc/sys/kernel/arch":      []byte("aarch64\n"),
			}
			for p, b := range tc.files {
				files[p] = b
			}
			for p, b := range files {
				full := filepath.Join(root, p)
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(full, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			h, err := host.New(root)
			if err != nil {
				t.Fatal(err)
			}
			in := inventory.Collect(h, inventory.Options{})
			if want := osinfo.Collect(h); !reflect.DeepEqual(in.OS.Kernel, want.Kernel) || !reflect.DeepEqual(in.OS.Notes, want.Notes) {
				t.Errorf("OS kernel = %+v, notes %v; osinfo alone: %+v, notes %v", in.OS.Kernel, in.OS.Notes, want.Kernel, want.Notes)
			}
			if want := kernelinfo.Collect(h, time.Now()).Summary(); in.KernelSummary != want {
				t.Errorf("kernel summary = %q; kernelinfo alone: %q", in.KernelSummary, want)
			}
			c := in.OS.Kernel.Config
			switch {
			case tc.wantHZ == 0 && c != nil:
				t.Errorf("config = %+v, want none", c)
			case tc.wantHZ != 0 && (c == nil || c.HZ == nil || *c.HZ != tc.wantHZ):
				t.Errorf("config = %+v, want HZ %d", c, tc.wantHZ)
			}
			if got := bytes.Contains([]byte(in.KernelSummary), []byte("Rockchip BSP")); got != tc.wantVend {
				t.Errorf("kernel summary %q: names Rockchip BSP %v, want %v", in.KernelSummary, got, tc.wantVend)
			}
		})
	}
}
