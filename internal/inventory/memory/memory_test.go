package memory

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/testutil/fixture"
)

const pi4Meminfo = `MemTotal:        3884096 kB
MemFree:         3263236 kB
MemAvailable:    3546920 kB
Buffers:           26964 kB
Cached:           349092 kB
SwapCached:            0 kB
Active:           178436 kB
SwapTotal:        102396 kB
SwapFree:         102396 kB
HugePages_Total:       0
CmaTotal:         524288 kB
`

// pi4Tunables are the vm and THP files of a Raspberry Pi 4 (no NUMA, no zswap).
var pi4Tunables = map[string]string{
	"/proc/meminfo":                               pi4Meminfo,
	"/proc/sys/vm/swappiness":                     "60\n",
	"/sys/kernel/mm/transparent_hugepage/enabled": "always [madvise] never\n",
	"/sys/kernel/mm/transparent_hugepage/defrag":  "always defer defer+madvise [madvise] never\n",
	"/sys/block/mmcblk0/":                         "",
}

// pi4SwapfileOnSD is Raspberry Pi OS with its dphys swap file on the SD
// card's root partition, mounted as /dev/root.
var pi4SwapfileOnSD = map[string]string{
	"/proc/swaps": "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/var/swap                               file\t\t102396\t\t0\t\t-2\n",
	"/proc/self/mountinfo": `21 1 179:2 / / rw,noatime shared:1 - ext4 /dev/root rw
22 21 0:5 / /dev rw,relatime shared:2 - devtmpfs devtmpfs rw,size=1800568k
30 21 179:1 / /boot rw,relatime shared:11 - vfat /dev/mmcblk0p1 rw,fmask=0022
`,
	"/sys/devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0/dev":                 "179:0\n",
	"/sys/devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0/mmcblk0p1/dev":       "179:1\n",
	"/sys/devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0/mmcblk0p1/partition": "1\n",
	"/sys/devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0/mmcblk0p2/dev":       "179:2\n",
	"/sys/devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0/mmcblk0p2/partition": "2\n",
	"/sys/devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:aaaa/type":                              "SD\n",
	"/sys/devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0/device":              "->../../../mmc0:aaaa",
	"/sys/class/block/mmcblk0":   "->../../devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0",
	"/sys/class/block/mmcblk0p1": "->../../devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0/mmcblk0p1",
	"/sys/class/block/mmcblk0p2": "->../../devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0/mmcblk0p2",
}

// rk3588ZramZswap is an Armbian-style RK3588 board: zram0 swap with zstd,
// zram1 holding /var/log with lz4, and zswap enabled on top.
var rk3588ZramZswap = map[string]string{
	"/proc/meminfo": "MemTotal:       16102192 kB\nMemFree:        15220732 kB\nMemAvailable:   15493988 kB\nBuffers:           18132 kB\nCached:           472008 kB\nSwapTotal:       8051092 kB\nSwapFree:        8051092 kB\n",
	"/proc/swaps":   "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/dev/zram0                              partition\t8051092\t\t1024\t\t5\n",
	"/proc/self/mountinfo": `24 1 179:2 / / rw,noatime - ext4 /dev/mmcblk1p2 rw,commit=600
35 24 254:1 / /var/log rw,relatime - ext4 /dev/zram1 rw,discard
`,
	"/proc/sys/vm/swappiness":                       "100\n",
	"/sys/block/zram0/disksize":                     "8244318208\n",
	"/sys/block/zram0/comp_algorithm":               "lzo lzo-rle lz4 lz4hc 842 [zstd]\n",
	"/sys/block/zram0/mm_stat":                      "   1048576   262144   393216        0   393216        0        0        0        0\n",
	"/sys/block/zram1/disksize":                     "52428800\n",
	"/sys/block/zram1/comp_algorithm":               "lzo lzo-rle [lz4] lz4hc 842 zstd\n",
	"/sys/block/zram1/mm_stat":                      "0 0 0 0 0 0 0 0 0\n",
	"/sys/block/zram2/disksize":                     "0\n",
	"/sys/block/zram2/comp_algorithm":               "[lzo-rle] lzo lz4\n",
	"/sys/block/mmcblk1/":                           "",
	"/sys/module/zswap/parameters/enabled":          "Y\n",
	"/sys/module/zswap/parameters/compressor":       "lz4\n",
	"/sys/module/zswap/parameters/zpool":            "z3fold\n",
	"/sys/module/zswap/parameters/max_pool_percent": "20\n",
	"/sys/devices/system/node/node0/":               "",
	"/sys/devices/system/node/online":               "0\n",
	"/sys/kernel/mm/transparent_hugepage/enabled":   "[always] madvise never\n",
}

// nvmePartition is an arm64 board booting from NVMe with a swap partition.
var nvmePartition = map[string]string{
	"/proc/meminfo": pi4Meminfo,
	"/proc/swaps":   "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/dev/nvme0n1p3                          partition\t4194300\t\t0\t\t-2\n",
	"/sys/devices/platform/pcie@fe150000/pci0004:40/0004:40:00.0/0004:41:00.0/nvme/nvme0/nvme0n1/nvme0n1p3/partition": "3\n",
	"/sys/devices/platform/pcie@fe150000/pci0004:40/0004:40:00.0/0004:41:00.0/nvme/nvme0/nvme0n1/nvme0n1p3/dev":       "259:3\n",
	"/sys/class/block/nvme0n1p3": "->../../devices/platform/pcie@fe150000/pci0004:40/0004:40:00.0/0004:41:00.0/nvme/nvme0/nvme0n1/nvme0n1p3",
	"/sys/block/nvme0n1/":        "",
}

// usbSwapfile has a swap file (with a space in its name) on a USB SSD
// mounted at /mnt/ssd; /proc/self/mountinfo is missing so /proc/mounts is used.
var usbSwapfile = map[string]string{
	"/proc/meminfo": pi4Meminfo,
	"/proc/swaps":   "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/mnt/ssd/swap\\040file                  file\t\t2097148\t\t0\t\t-2\n",
	"/proc/mounts":  "/dev/mmcblk0p2 / ext4 rw,noatime 0 0\n/dev/sda1 /mnt/ssd ext4 rw,relatime 0 0\n/dev/sda1 /mnt/ssdx ext4 rw 0 0\n",
	"/sys/devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0/usb2/2-1/2-1:1.0/host0/target0:0:0/0:0:0:0/block/sda/sda1/partition": "1\n",
	"/sys/class/block/sda":  "->../../devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0/usb2/2-1/2-1:1.0/host0/target0:0:0/0:0:0:0/block/sda",
	"/sys/class/block/sda1": "->../../devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0/usb2/2-1/2-1:1.0/host0/target0:0:0/0:0:0:0/block/sda/sda1",
}

// luksOnEMMC has a swap file on an encrypted root (dm-0) on eMMC partition
// mmcblk0p2; sysfs entries are plain directories (no links), so partition
// names are mapped to disks by name.
var luksOnEMMC = map[string]string{
	"/proc/meminfo":                           pi4Meminfo,
	"/proc/swaps":                             "Filename Type Size Used Priority\n/swapfile file 1048572 0 -2\n",
	"/proc/self/mountinfo":                    "25 1 253:0 / / rw,relatime - ext4 /dev/mapper/cryptroot rw\n",
	"/sys/class/block/dm-0/dev":               "253:0\n",
	"/sys/class/block/dm-0/dm/name":           "cryptroot\n",
	"/sys/class/block/dm-0/slaves/mmcblk0p2/": "",
	"/sys/class/block/mmcblk0p2/partition":    "2\n",
	"/sys/class/block/mmcblk0/device/type":    "MMC\n",
}

func TestCollectSwapAndWarnings(t *testing.T) {
	cases := []struct {
		name         string
		files        map[string]string
		wantSwaps    []Swap
		wantWarnings []string // substrings, one per expected warning
	}{
		{
			name:  "pi4 swap file on SD card via /dev/root",
			files: fixture.Merge(pi4Tunables, pi4SwapfileOnSD),
			wantSwaps: []Swap{{
				Path: "/var/swap", Kind: KindFile, SizeBytes: 102396 * 1024, Priority: -2,
				FileSystem: &FileSystem{MountPoint: "/", Type: "ext4", Source: "/dev/root"},
				Device:     &BlockDevice{Name: "mmcblk0p2", Disk: "mmcblk0", DiskKind: DiskSD},
			}},
			wantWarnings: []string{"swap file /var/swap is on an SD card (mmcblk0)"},
		},
		{
			name:  "zram swap with zswap enabled",
			files: rk3588ZramZswap,
			wantSwaps: []Swap{{
				Path: "/dev/zram0", Kind: KindZram, SizeBytes: 8051092 * 1024, UsedBytes: 1024 * 1024, Priority: 5,
				Zram: &Zram{Name: "zram0", DiskSizeBytes: i64(8244318208), Algorithm: "zstd",
					Algorithms:    []string{"lzo", "lzo-rle", "lz4", "lz4hc", "842", "zstd"},
					OrigDataBytes: i64(1048576), ComprDataBytes: i64(262144), MemUsedBytes: i64(393216),
					CompressionRatio: f64(4), Swap: true},
			}},
			wantWarnings: []string{"zswap is enabled while swap goes to zram (/dev/zram0)"},
		},
		{
			name:  "swap partition on NVMe",
			files: nvmePartition,
			wantSwaps: []Swap{{
				Path: "/dev/nvme0n1p3", Kind: KindPartition, SizeBytes: 4194300 * 1024, Priority: -2,
				Device: &BlockDevice{Name: "nvme0n1p3", Disk: "nvme0n1", DiskKind: DiskNVMe},
			}},
		},
		{
			name:  "swap file with escaped name on USB disk, /proc/mounts fallback",
			files: usbSwapfile,
			wantSwaps: []Swap{{
				Path: "/mnt/ssd/swap file", Kind: KindFile, SizeBytes: 2097148 * 1024, Priority: -2,
				FileSystem: &FileSystem{MountPoint: "/mnt/ssd", Type: "ext4", Source: "/dev/sda1"},
				Device:     &BlockDevice{Name: "sda1", Disk: "sda", DiskKind: DiskUSB},
			}},
		},
		{
			name:  "swap file on LUKS over eMMC",
			files: luksOnEMMC,
			wantSwaps: []Swap{{
				Path: "/swapfile", Kind: KindFile, SizeBytes: 1048572 * 1024, Priority: -2,
				FileSystem: &FileSystem{MountPoint: "/", Type: "ext4", Source: "/dev/mapper/cryptroot"},
				Device:     &BlockDevice{Name: "dm-0", Disk: "mmcblk0", DiskKind: DiskEMMC, Via: []string{"dm-0"}},
			}},
			wantWarnings: []string{"swap file /swapfile is on eMMC (mmcblk0)"},
		},
	}
	cases = append(cases, struct {
		name         string
		files        map[string]string
		wantSwaps    []Swap
		wantWarnings []string
	}{
		name: "swap partition on an MMC device of unknown type, no sysfs links",
		files: map[string]string{
			"/proc/swaps":                          "Filename Type Size Used Priority\n/dev/mmcblk1p3 partition 524284 0 -2\n",
			"/sys/class/block/mmcblk1p3/partition": "3\n",
		},
		wantSwaps: []Swap{{
			Path: "/dev/mmcblk1p3", Kind: KindPartition, SizeBytes: 524284 * 1024, Priority: -2,
			Device: &BlockDevice{Name: "mmcblk1p3", Disk: "mmcblk1", DiskKind: DiskMMC},
		}},
		wantWarnings: []string{"swap partition /dev/mmcblk1p3 is on an MMC device (SD card or eMMC) (mmcblk1)"},
	})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := Collect(fixture.Host(t, c.files))
			if !reflect.DeepEqual(in.Swaps, c.wantSwaps) {
				got, _ := json.MarshalIndent(in.Swaps, "", " ")
				want, _ := json.MarshalIndent(c.wantSwaps, "", " ")
				t.Errorf("swaps:\n got %s\nwant %s\nnotes %v", got, want, in.Notes)
			}
			if len(in.Warnings) != len(c.wantWarnings) {
				t.Fatalf("warnings = %q, want %d matching %q", in.Warnings, len(c.wantWarnings), c.wantWarnings)
			}
			for i, w := range c.wantWarnings {
				if !strings.Contains(in.Warnings[i], w) {
					t.Errorf("warning %d = %q, want it to contain %q", i, in.Warnings[i], w)
				}
			}
		})
	}
}

func TestCollectTotalsAndTunables(t *testing.T) {
	in := Collect(fixture.Host(t, fixture.Merge(pi4Tunables, pi4SwapfileOnSD)))
	checks := []struct {
		name string
		got  *int64
		want int64
	}{
		{"total", in.TotalBytes, 3884096 * 1024},
		{"available", in.AvailableBytes, 3546920 * 1024},
		{"free", in.FreeBytes, 3263236 * 1024},
		{"buffers", in.BuffersBytes, 26964 * 1024},
		{"cached", in.CachedBytes, 349092 * 1024},
		{"swap total", in.SwapTotalBytes, 102396 * 1024},
		{"swap free", in.SwapFreeBytes, 102396 * 1024},
	}
	for _, c := range checks {
		if c.got == nil || *c.got != c.want {
			t.Errorf("%s = %v, want %d", c.name, c.got, c.want)
		}
	}
	if in.Swappiness == nil || *in.Swappiness != 60 {
		t.Errorf("swappiness = %v, want 60", in.Swappiness)
	}
	if in.NUMANodes != nil {
		t.Errorf("numa nodes = %d, want nil (no /sys/devices/system/node)", *in.NUMANodes)
	}
	want := &HugePages{
		Enabled: &Choice{Selected: "madvise", Options: []string{"always", "madvise", "never"}},
		Defrag:  &Choice{Selected: "madvise", Options: []string{"always", "defer", "defer+madvise", "madvise", "never"}},
	}
	if !reflect.DeepEqual(in.TransparentHugePages, want) {
		t.Errorf("thp = %+v, want %+v", in.TransparentHugePages, want)
	}
	if in.Zswap != nil {
		t.Errorf("zswap = %+v, want nil", in.Zswap)
	}
}

func TestCollectZramAndZswap(t *testing.T) {
	in := Collect(fixture.Host(t, rk3588ZramZswap))
	if len(in.Zram) != 3 {
		t.Fatalf("zram devices = %d, want 3: %+v", len(in.Zram), in.Zram)
	}
	z0, z1, z2 := in.Zram[0], in.Zram[1], in.Zram[2]
	if !z0.Swap || z0.Algorithm != "zstd" || z0.MountPoint != "" {
		t.Errorf("zram0 = %+v, want swap with zstd", z0)
	}
	if z1.Swap || z1.Algorithm != "lz4" || z1.MountPoint != "/var/log" || z1.CompressionRatio != nil {
		t.Errorf("zram1 = %+v, want lz4 mounted on /var/log, no ratio", z1)
	}
	if z2.DiskSizeBytes == nil || *z2.DiskSizeBytes != 0 || z2.OrigDataBytes != nil {
		t.Errorf("zram2 = %+v, want disksize 0 and no mm_stat", z2)
	}
	wantZswap := &Zswap{Enabled: b(true), Compressor: "lz4", Zpool: "z3fold", MaxPoolPct: i(20)}
	if !reflect.DeepEqual(in.Zswap, wantZswap) {
		t.Errorf("zswap = %+v, want %+v", in.Zswap, wantZswap)
	}
	if in.NUMANodes == nil || *in.NUMANodes != 1 {
		t.Errorf("numa nodes = %v, want 1", in.NUMANodes)
	}
	if in.TransparentHugePages == nil || in.TransparentHugePages.Enabled.Selected != "always" || in.TransparentHugePages.Defrag != nil {
		t.Errorf("thp = %+v", in.TransparentHugePages)
	}
}

func TestCollectEmptyRootNotes(t *testing.T) {
	in := Collect(fixture.Host(t, map[string]string{"/proc/": ""}))
	if in.TotalBytes != nil || in.Swaps != nil || in.Zswap != nil || in.TransparentHugePages != nil {
		t.Errorf("empty root invented values: %+v", in)
	}
	items := map[string]bool{}
	for _, n := range in.Notes {
		items[n.Item] = true
	}
	for _, want := range []string{"/proc/meminfo", "/proc/swaps", "vm.swappiness", "zswap", "transparent huge pages"} {
		if !items[want] {
			t.Errorf("missing note for %q in %+v", want, in.Notes)
		}
	}
	if len(in.Warnings) != 0 {
		t.Errorf("warnings on empty root: %q", in.Warnings)
	}
}

func TestCollectNoSwapIsEmptyNotNull(t *testing.T) {
	in := Collect(fixture.Host(t, map[string]string{"/proc/swaps": "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"}))
	if in.Swaps == nil || len(in.Swaps) != 0 {
		t.Errorf("swaps = %#v, want empty non-nil", in.Swaps)
	}
	js, _ := json.Marshal(in)
	if !strings.Contains(string(js), `"swaps":[]`) {
		t.Errorf("json %s lacks \"swaps\":[]", js)
	}
}

func TestChoiceOf(t *testing.T) {
	cases := []struct {
		in     string
		want   Choice
		wantOK bool
	}{
		{"always [madvise] never", Choice{"madvise", []string{"always", "madvise", "never"}}, true},
		{"[lzo-rle] lzo lz4 ", Choice{"lzo-rle", []string{"lzo-rle", "lzo", "lz4"}}, true},
		{"lzo lz4", Choice{"", []string{"lzo", "lz4"}}, false},
		{"[] x", Choice{"", []string{"x"}}, false},
	}
	for _, c := range cases {
		got, ok := choiceOf(c.in)
		if ok != c.wantOK || !reflect.DeepEqual(got, c.want) {
			t.Errorf("choiceOf(%q) = %+v, %v; want %+v, %v", c.in, got, ok, c.want, c.wantOK)
		}
	}
}

func TestTrimPartition(t *testing.T) {
	cases := map[string]string{
		"mmcblk0p2": "mmcblk0", "nvme0n1p3": "nvme0n1", "sda5": "sda", "vdb1": "vdb",
		"mmcblk0": "mmcblk0", "zram0": "zram0", "dm-1": "dm-1", "": "", "p1": "p1",
	}
	for in, want := range cases {
		if got := trimPartition(in); got != want {
			t.Errorf("trimPartition(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMountHolding(t *testing.T) {
	tab := mountTable{mounts: kernelfile.ParseMountInfo(string(
		"1 0 8:1 / / rw - ext4 /dev/sda1 rw\n" +
			"2 1 8:2 / /boot rw - vfat /dev/sda2 rw\n" +
			"3 1 0:40 / /mnt/my\\040disk rw shared:3 master:1 - btrfs /dev/sdb1 rw\n" +
			"4 1 8:3 / /boot rw - ext4 /dev/sda3 rw\n" +
			"garbage\n"))}
	cases := map[string]string{
		"/swapfile":         "/dev/sda1",
		"/bootswap":         "/dev/sda1",
		"/boot/swap":        "/dev/sda3", // the later mount hides the earlier one
		"/mnt/my disk/swap": "/dev/sdb1",
	}
	for file, want := range cases {
		m, ok := tab.holding(file)
		if !ok || m.Source != want {
			t.Errorf("holding(%q) = %+v, %v; want source %s", file, m, ok, want)
		}
	}
}

func TestCollectLive(t *testing.T) {
	if _, err := os.Stat("/proc/meminfo"); err != nil {
		t.Skip("no /proc/meminfo: not a Linux machine")
	}
	h, err := host.New("/")
	if err != nil {
		t.Fatal(err)
	}
	in := Collect(h)
	if in.TotalBytes == nil || *in.TotalBytes <= 0 {
		t.Errorf("live total = %v, notes %v", in.TotalBytes, in.Notes)
	}
}

func i64(v int64) *int64     { return &v }
func i(v int) *int           { return &v }
func f64(v float64) *float64 { return &v }
func b(v bool) *bool         { return &v }
