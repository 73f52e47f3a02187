package virt

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/testutil/fixture"
)

// x86CPU is an x86 /proc/cpuinfo with two processors; flags is the flag list.
func x86CPU(flags string) string {
	var b strings.Builder
	for i := range 2 {
		b.WriteString("processor\t: " + string(rune('0'+i)) + "\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz\n")
		b.WriteString("flags\t\t: " + flags + "\n\n")
	}
	return b.String()
}

const (
	flagsBare  = "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ss ht syscall nx pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology nonstop_tsc cpuid aperfmperf pni pclmulqdq monitor ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt aes xsave avx f16c rdrand lahf_lm abm 3dnowprefetch"
	flagsGuest = "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ss ht syscall nx pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology nonstop_tsc cpuid tsc_known_freq pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c rdrand hypervisor lahf_lm abm 3dnowprefetch"
	// armCPU is an arm64 /proc/cpuinfo: no flags line.
	armCPU = "processor\t: 0\nBogoMIPS\t: 48.00\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 cpuid\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd0c\nCPU revision\t: 1\n\n"
)

// dmi returns DMI files for the given field=value pairs.
func dmi(pairs ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(pairs); i += 2 {
		m["/sys/class/dmi/id/"+pairs[i]] = pairs[i+1] + "\n"
	}
	return m
}

// dt returns a device tree with model and compatible strings, linked from
// /proc/device-tree as on a real system.
func dt(model string, compatible ...string) map[string]string {
	return map[string]string{
		"/sys/firmware/devicetree/base/model":      model + "\x00",
		"/sys/firmware/devicetree/base/compatible": strings.Join(compatible, "\x00") + "\x00",
		"/proc/device-tree":                        "->/sys/firmware/devicetree/base",
	}
}

func TestCollect(t *testing.T) {
	yes, no := new(bool), new(bool)
	*yes = true
	cases := []struct {
		name       string
		files      map[string]string
		isVM       *bool // nil: unknown
		hypervisor string
		cloud      string
		evidence   []string // substrings some evidence line must contain
		absent     []string // substrings no evidence line may contain
	}{
		{
			name: "EC2 Nitro instance: flag and DMI",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": x86CPU(flagsGuest)},
				dmi("sys_vendor", "Amazon EC2", "product_name", "m5.large", "bios_vendor", "Amazon EC2", "bios_version", "1.0", "chassis_vendor", "Amazon EC2")),
			isVM: yes, hypervisor: "KVM", cloud: "Amazon EC2",
			evidence: []string{`/proc/cpuinfo: flags include "hypervisor"`, `sys_vendor: "Amazon EC2"`},
		},
		{
			name: "EC2 Graviton instance (arm64, ACPI, no device tree)",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": armCPU},
				dmi("sys_vendor", "Amazon EC2", "product_name", "c6g.large", "bios_vendor", "Amazon EC2")),
			isVM: yes, hypervisor: "KVM", cloud: "Amazon EC2",
			evidence: []string{"no flags line", "device tree: absent"},
		},
		{
			name: "EC2 bare-metal instance",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": x86CPU(flagsBare)},
				dmi("sys_vendor", "Amazon EC2", "product_name", "m5.metal", "bios_vendor", "Amazon EC2")),
			isVM: no, cloud: "Amazon EC2",
			evidence: []string{`product_name "m5.metal": a bare-metal instance`, `flags without "hypervisor"`},
		},
		{
			name: "EC2 Xen instance",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": x86CPU(flagsGuest), "/sys/hypervisor/type": "xen\n"},
				dmi("sys_vendor", "Xen", "product_name", "HVM domU", "bios_vendor", "Xen", "bios_version", "4.11.amazon")),
			isVM: yes, hypervisor: "Xen", cloud: "Amazon EC2",
			evidence: []string{`/sys/hypervisor/type: "xen"`, `bios_version: "4.11.amazon"`},
		},
		{
			name: "Google Compute Engine",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": x86CPU(flagsGuest)},
				dmi("sys_vendor", "Google", "product_name", "Google Compute Engine", "bios_vendor", "Google", "bios_version", "Google", "board_vendor", "Google", "chassis_vendor", "Google")),
			isVM: yes, hypervisor: "KVM", cloud: "Google Compute Engine",
		},
		{
			name: "Azure: Hyper-V with Azure's asset tag",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": x86CPU(flagsGuest)},
				dmi("sys_vendor", "Microsoft Corporation", "product_name", "Virtual Machine", "bios_vendor", "Microsoft Corporation",
					"bios_version", "Hyper-V UEFI Release v4.1", "chassis_vendor", "Microsoft Corporation", "chassis_asset_tag", azureAssetTag)),
			isVM: yes, hypervisor: "Microsoft Hyper-V", cloud: "Microsoft Azure",
			evidence: []string{`chassis_asset_tag: "` + azureAssetTag + `"`},
		},
		{
			name: "Hyper-V on premises",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": x86CPU(flagsGuest)},
				dmi("sys_vendor", "Microsoft Corporation", "product_name", "Virtual Machine", "bios_vendor", "Microsoft Corporation", "bios_version", "Hyper-V UEFI Release v4.1")),
			isVM: yes, hypervisor: "Microsoft Hyper-V",
		},
		{
			name: "Surface laptop is not Hyper-V",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": x86CPU(flagsBare)},
				dmi("sys_vendor", "Microsoft Corporation", "product_name", "Surface Laptop 4", "chassis_asset_tag", "ACME-0042")),
			isVM: no, absent: []string{"ACME-0042", "chassis_asset_tag"},
		},
		{
			name: "VMware",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": x86CPU(flagsGuest)},
				dmi("sys_vendor", "VMware, Inc.", "product_name", "VMware Virtual Platform", "bios_vendor", "Phoenix Technologies LTD", "board_vendor", "Intel Corporation")),
			isVM: yes, hypervisor: "VMware",
		},
		{
			name: "VirtualBox",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": x86CPU(flagsGuest)},
				dmi("sys_vendor", "innotek GmbH", "product_name", "VirtualBox", "bios_vendor", "innotek GmbH", "board_vendor", "Oracle Corporation")),
			isVM: yes, hypervisor: "VirtualBox",
		},
		{
			name: "Parallels on Apple silicon (arm64 ACPI)",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": armCPU},
				dmi("sys_vendor", "Parallels International GmbH.", "product_name", "Parallels ARM Virtual Machine")),
			isVM: yes, hypervisor: "Parallels",
		},
		{
			name: "Hetzner Cloud",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": x86CPU(flagsGuest)},
				dmi("sys_vendor", "Hetzner", "product_name", "vServer", "bios_vendor", "Hetzner", "chassis_vendor", "QEMU")),
			isVM: yes, hypervisor: "KVM", cloud: "Hetzner Cloud",
		},
		{
			name: "DigitalOcean",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": x86CPU(flagsGuest)},
				dmi("sys_vendor", "DigitalOcean", "product_name", "Droplet", "bios_vendor", "DigitalOcean")),
			isVM: yes, hypervisor: "KVM", cloud: "DigitalOcean",
		},
		{
			name: "Oracle Cloud VM",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": x86CPU(flagsGuest)},
				dmi("sys_vendor", "QEMU", "product_name", "Standard PC (i440FX + PIIX, 1996)", "bios_vendor", "SeaBIOS", "chassis_vendor", "QEMU", "chassis_asset_tag", "OracleCloud.com")),
			isVM: yes, hypervisor: "QEMU", cloud: "Oracle Cloud",
		},
		{
			name: "Alibaba Cloud",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": x86CPU(flagsGuest)},
				dmi("sys_vendor", "Alibaba Cloud", "product_name", "Alibaba Cloud ECS", "bios_vendor", "SeaBIOS")),
			isVM: yes, hypervisor: "KVM", cloud: "Alibaba Cloud",
		},
		{
			name: "plain QEMU/KVM on x86",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": x86CPU(flagsGuest)},
				dmi("sys_vendor", "QEMU", "product_name", "Standard PC (Q35 + ICH9, 2009)", "bios_vendor", "SeaBIOS", "chassis_vendor", "QEMU")),
			isVM: yes, hypervisor: "QEMU",
		},
		{
			name: "OpenStack Nova",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": x86CPU(flagsGuest)},
				dmi("sys_vendor", "OpenStack Foundation", "product_name", "OpenStack Nova")),
			isVM: yes, hypervisor: "KVM",
		},
		{
			name:  "x86 flag only, no DMI: a VM of unnamed hypervisor",
			files: map[string]string{"/proc/cpuinfo": x86CPU(flagsGuest)},
			isVM:  yes, evidence: []string{"/sys/class/dmi/id/: absent"},
		},
		{
			name: "physical x86 PC",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": x86CPU(flagsBare)},
				dmi("sys_vendor", "ASUSTeK COMPUTER INC.", "product_name", "PN51", "bios_vendor", "American Megatrends Inc.")),
			isVM: no, evidence: []string{`flags without "hypervisor"`},
		},
		{
			name: "arm64 QEMU virt machine with KVM and UEFI",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": armCPU},
				dmi("sys_vendor", "QEMU", "product_name", "KVM Virtual Machine", "bios_vendor", "EFI Development Kit II / UEFI")),
			isVM: yes, hypervisor: "KVM",
		},
		{
			name:  "arm64 qemu -M virt without firmware: device tree only",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": armCPU}, dt("linux,dummy-virt", "linux,dummy-virt")),
			isVM:  yes, hypervisor: "QEMU", evidence: []string{`compatible "linux,dummy-virt"`},
		},
		{
			name: "arm64 Xen guest: hypervisor node",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": armCPU, "/sys/firmware/devicetree/base/hypervisor/compatible": "xen,xen-4.17\x00xen,xen\x00"},
				dt("XENVM-4.17", "xen,xenvm-4.17", "xen,xenvm")),
			isVM: yes, hypervisor: "Xen", evidence: []string{`hypervisor/compatible: "xen,xen-4.17, xen,xen"`},
		},
		{
			name:  "Raspberry Pi: a real device tree without hypervisor node",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": armCPU}, dt("Raspberry Pi 5 Model B Rev 1.0", "raspberrypi,5-model-b", "brcm,bcm2712")),
			isVM:  no, evidence: []string{`compatible "raspberrypi,5-model-b, brcm,bcm2712", no hypervisor node`},
		},
		{
			name:  "ARM without DMI and without device tree: unknown",
			files: map[string]string{"/proc/cpuinfo": armCPU},
			isVM:  nil, evidence: []string{"no flags line", "device tree: absent", "/sys/class/dmi/id/: absent"},
		},
		{
			name:  "nothing readable: unknown",
			files: map[string]string{"/etc/hostname": "x\n"},
			isVM:  nil, evidence: []string{"/proc/cpuinfo: unreadable"},
		},
		{
			name: "control characters in DMI are dropped",
			files: fixture.Merge(map[string]string{"/proc/cpuinfo": x86CPU(flagsGuest)},
				dmi("sys_vendor", "VMware,\x1b[31m Inc.", "product_name", "VMware7,1")),
			isVM: yes, hypervisor: "VMware", absent: []string{"\x1b"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := fixture.Host(t, tc.files)
			got := Collect(h)
			switch {
			case tc.isVM == nil && got.IsVM != nil:
				t.Errorf("is_vm = %v, want unknown (nil)", *got.IsVM)
			case tc.isVM != nil && got.IsVM == nil:
				t.Errorf("is_vm = unknown, want %v", *tc.isVM)
			case tc.isVM != nil && *got.IsVM != *tc.isVM:
				t.Errorf("is_vm = %v, want %v", *got.IsVM, *tc.isVM)
			}
			if got.Hypervisor != tc.hypervisor {
				t.Errorf("hypervisor = %q, want %q", got.Hypervisor, tc.hypervisor)
			}
			if got.Cloud != tc.cloud {
				t.Errorf("cloud = %q, want %q", got.Cloud, tc.cloud)
			}
			if len(got.Evidence) == 0 {
				t.Errorf("no evidence")
			}
			all := strings.Join(got.Evidence, "\n")
			for _, want := range tc.evidence {
				if !strings.Contains(all, want) {
					t.Errorf("evidence lacks %q:\n%s", want, all)
				}
			}
			for _, bad := range tc.absent {
				if strings.Contains(all, bad) {
					t.Errorf("evidence contains %q:\n%s", bad, all)
				}
			}
		})
	}
}

// TestAssetTagReadOnlyOnVMs checks that a physical machine's chassis asset
// tag, which may be an owner's inventory number, is never read (and so
// never recorded into a capture).
func TestAssetTagReadOnlyOnVMs(t *testing.T) {
	files := fixture.Merge(map[string]string{"/proc/cpuinfo": x86CPU(flagsBare)},
		dmi("sys_vendor", "Dell Inc.", "product_name", "OptiPlex 7090", "chassis_asset_tag", "ACME-0042"))
	rec := host.NewRecorder()
	h := fixture.Host(t, files, host.WithRecorder(rec))
	Collect(h)
	if _, ok := rec.Snapshot().Files["/sys/class/dmi/id/chassis_asset_tag"]; ok {
		t.Error("chassis_asset_tag was read on a physical machine")
	}
}

// TestBoards runs Collect on the real board fixtures: every board with a
// device tree or an x86 processor is bare metal, a root with nothing but an
// ARM cpuinfo is unknown.
func TestBoards(t *testing.T) {
	const boards = "../../../testdata/boards"
	want := map[string]*bool{
		"rpi-zero2w": new(bool), "rpi4b": new(bool), "rpi5": new(bool), "rock5b": new(bool),
		"rk3399": new(bool), "odroid-n2plus": new(bool), "orangepi-zero3": new(bool),
		"visionfive2": new(bool), "intel-hybrid": new(bool), "qcs6490": new(bool),
		"cpuinfo-only": nil,
	}
	ents, err := os.ReadDir(boards)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), "_") {
			continue
		}
		name := e.Name()
		w, known := want[name]
		t.Run(name, func(t *testing.T) {
			got := Collect(fixture.Open(t, filepath.Join(boards, name)))
			if len(got.Evidence) == 0 {
				t.Error("no evidence")
			}
			if !known {
				// A board added since (e.g. a VM root) is checked by
				// its own test; here it only must not fail.
				return
			}
			seen = append(seen, name)
			switch {
			case w == nil && got.IsVM != nil:
				t.Errorf("is_vm = %v, want unknown; evidence %q", *got.IsVM, got.Evidence)
			case w != nil && (got.IsVM == nil || *got.IsVM != *w):
				t.Errorf("is_vm = %v, want %v; evidence %q", got.IsVM, *w, got.Evidence)
			}
			if got.Hypervisor != "" || got.Cloud != "" {
				t.Errorf("hypervisor %q, cloud %q on a physical board", got.Hypervisor, got.Cloud)
			}
		})
	}
	for name := range want {
		if !slices.Contains(seen, name) {
			t.Errorf("board fixture %s missing", name)
		}
	}
}
