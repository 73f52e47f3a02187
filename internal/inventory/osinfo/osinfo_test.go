package osinfo

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"reflect"
	"strings"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/testutil/fixture"
)

func cmd(name string, args ...string) string {
	return host.CommandsDir + "/" + host.CommandKey(name, args...)
}

// elfHeader builds a 64-byte ELF header with the given class (1 = 32-bit,
// 2 = 64-bit), byte order (1 = little, 2 = big), e_machine and e_flags.
func elfHeader(class, data byte, machine uint16, flags uint32) []byte {
	b := make([]byte, 64)
	copy(b, "\x7fELF")
	b[4], b[5], b[6] = class, data, 1
	var bo binary.ByteOrder = binary.LittleEndian
	if data == 2 {
		bo = binary.BigEndian
	}
	bo.PutUint16(b[0x10:], 3) // ET_DYN
	bo.PutUint16(b[0x12:], machine)
	if class == 1 {
		bo.PutUint32(b[0x24:], flags)
	} else {
		bo.PutUint32(b[0x30:], flags)
	}
	return b
}

func TestParseELF(t *testing.T) {
	cases := []struct {
		name     string
		hdr      []byte
		arch     string
		bits     int
		floatABI string
	}{
		{"aarch64", elfHeader(2, 1, emAArch64, 0), "arm64", 64, ""},
		{"armhf", elfHeader(1, 1, emARM, 0x05000400), "armhf", 32, "hard"},
		{"armel", elfHeader(1, 1, emARM, 0x05000200), "armel", 32, "soft"},
		{"arm-old", elfHeader(1, 1, emARM, 0x05000000), "arm", 32, ""},
		{"x86_64", elfHeader(2, 1, emX86_64, 0), "amd64", 64, ""},
		{"x32", elfHeader(1, 1, emX86_64, 0), "x32", 32, ""},
		{"i386", elfHeader(1, 1, em386, 0), "i386", 32, ""},
		{"riscv64", elfHeader(2, 1, emRISCV, 0x5), "riscv64", 64, ""},
		{"loong64", elfHeader(2, 1, emLoongArch, 0x43), "loong64", 64, ""},
		{"mips64el", elfHeader(2, 1, emMIPS, 0), "mips64el", 64, ""},
		{"mips", elfHeader(1, 2, emMIPS, 0), "mips", 32, ""},
		{"ppc64el", elfHeader(2, 1, emPPC64, 0), "ppc64el", 64, ""},
		{"s390x", elfHeader(2, 2, emS390, 0), "s390x", 64, ""},
		{"armhf-short", elfHeader(1, 1, emARM, 0x400)[:0x28], "armhf", 32, "hard"},
		{"arm-no-flags", elfHeader(1, 1, emARM, 0x400)[:0x20], "arm", 32, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := ParseELF(c.hdr)
			if err != nil {
				t.Fatal(err)
			}
			if a.Arch != c.arch || a.Bits != c.bits || a.FloatABI != c.floatABI {
				t.Errorf("got %+v, want %s/%d/%q", a, c.arch, c.bits, c.floatABI)
			}
		})
	}
	bad := [][]byte{nil, []byte("#!/bin/sh\necho hi\n"), elfHeader(2, 1, emAArch64, 0)[:10],
		func() []byte { b := elfHeader(2, 1, 183, 0); b[4] = 9; return b }(),
		func() []byte { b := elfHeader(2, 1, 183, 0); b[5] = 0; return b }()}
	for i, b := range bad {
		if _, err := ParseELF(b); err == nil {
			t.Errorf("bad header %d: want error", i)
		}
	}
}

func FuzzParseELF(f *testing.F) {
	f.Add(elfHeader(2, 1, emAArch64, 0))
	f.Add(elfHeader(1, 1, emARM, 0x400))
	f.Fuzz(func(t *testing.T, b []byte) {
		if a, err := ParseELF(b); err == nil && a.Bits != 32 && a.Bits != 64 {
			t.Errorf("bits = %d", a.Bits)
		}
	})
}

func TestParseOSRelease(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want Distro
	}{
		{"debian", "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\n" +
			"VERSION=\"12 (bookworm)\"\nVERSION_CODENAME=bookworm\nID=debian\n",
			Distro{Name: "Debian GNU/Linux", PrettyName: "Debian GNU/Linux 12 (bookworm)", ID: "debian",
				IDLike: []string{}, VersionID: "12", Codename: "bookworm", Source: "/etc/os-release"}},
		{"ubuntu", "NAME=\"Ubuntu\"\nVERSION_ID=\"22.04\"\nID=ubuntu\nID_LIKE=debian\nPRETTY_NAME=\"Ubuntu 22.04.3 LTS\"\nVERSION_CODENAME=jammy\n",
			Distro{Name: "Ubuntu", PrettyName: "Ubuntu 22.04.3 LTS", ID: "ubuntu", IDLike: []string{"debian"},
				VersionID: "22.04", Codename: "jammy", Source: "/etc/os-release"}},
		{"alpine", "NAME=\"Alpine Linux\"\nID=alpine\nVERSION_ID=3.19.0\nPRETTY_NAME=\"Alpine Linux v3.19\"\n",
			Distro{Name: "Alpine Linux", PrettyName: "Alpine Linux v3.19", ID: "alpine", IDLike: []string{},
				VersionID: "3.19.0", Source: "/etc/os-release"}},
		{"quotes", "# comment\nNAME='Weird \"OS\"'\nPRETTY_NAME=\"Say \\\"hi\\\" \\$HOME\"\nID_LIKE=\"rhel centos fedora\"\nbroken line\n=x\n",
			Distro{Name: "Weird \"OS\"", PrettyName: "Say \"hi\" $HOME", IDLike: []string{"rhel", "centos", "fedora"},
				Source: "/etc/os-release"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := fixture.Host(t, map[string]string{"/etc/os-release": c.in})
			got := Collect(h).Distro
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestDistroFallbacks(t *testing.T) {
	h := fixture.Host(t, map[string]string{"/usr/lib/os-release": "NAME=Fedora\nID=fedora\n"})
	if d := Collect(h).Distro; d.Name != "Fedora" || d.Source != "/usr/lib/os-release" {
		t.Errorf("usr/lib fallback: %+v", d)
	}
	h = fixture.Host(t, map[string]string{"/etc/os-release": "->../usr/lib/os-release", "/usr/lib/os-release": "ID=arch\n"})
	if d := Collect(h).Distro; d.ID != "arch" || d.Source != "/etc/os-release" {
		t.Errorf("symlinked os-release: %+v", d)
	}
	h = fixture.Host(t, map[string]string{"/etc/hostname": "x\n"})
	in := Collect(h)
	if in.Distro.Name != "" || !hasNote(in, "distribution") {
		t.Errorf("missing os-release: %+v, notes %v", in.Distro, in.Notes)
	}
	h = fixture.Host(t, map[string]string{"/etc/os-release": "\x00\xff\xfe garbage \x01\x02\nNAME=\"ok\x00\"\n"})
	if d := Collect(h).Distro; d.Name != "ok" {
		t.Errorf("binary junk: %+v", d)
	}
}

func hasNote(in Info, item string) bool {
	for _, n := range in.Notes {
		if n.Item == item {
			return true
		}
	}
	return false
}

func TestArmbianAndRPiIssue(t *testing.T) {
	h := fixture.Host(t, map[string]string{
		"/etc/armbian-release": "# PLEASE DO NOT EDIT THIS FILE\nBOARD=orangepi5\nBOARD_NAME=\"Orange Pi 5\"\n" +
			"BOARDFAMILY=rockchip-rk3588\nVERSION=23.8.1\nLINUXFAMILY=rockchip-rk3588\nARCH=arm64\nBRANCH=legacy\n",
		"/etc/rpi-issue": "Raspberry Pi reference 2023-12-05\nGenerated using pi-gen, https://github.com/RPi-Distro/pi-gen, " +
			"2acf7afcba7d11500313a7b93bb55a2aae20b2d6, stage4\n",
	})
	in := Collect(h)
	wantA := &Armbian{Board: "orangepi5", BoardName: "Orange Pi 5", Version: "23.8.1", Branch: "legacy", LinuxFamily: "rockchip-rk3588"}
	if !reflect.DeepEqual(in.Armbian, wantA) {
		t.Errorf("Armbian = %+v", in.Armbian)
	}
	wantR := &RaspberryPiOS{Issue: "Raspberry Pi reference 2023-12-05", ImageDate: "2023-12-05", Stage: "stage4"}
	if !reflect.DeepEqual(in.RaspberryPiOS, wantR) {
		t.Errorf("RaspberryPiOS = %+v", in.RaspberryPiOS)
	}
	in = Collect(fixture.Host(t, map[string]string{"/etc/armbian-release": "# only a comment\n", "/etc/rpi-issue": "\n\n"}))
	if in.Armbian != nil || in.RaspberryPiOS != nil {
		t.Errorf("empty files: armbian %+v, rpi %+v", in.Armbian, in.RaspberryPiOS)
	}
}

func TestParseLddVersion(t *testing.T) {
	cases := []struct {
		in         string
		name, vers string
		ok         bool
	}{
		{"ldd (Debian GLIBC 2.36-9+deb12u4) 2.36\nCopyright (C) 2022 Free Software Foundation, Inc.\n", "glibc", "2.36", true},
		{"ldd (Ubuntu GLIBC 2.35-0ubuntu3.1) 2.35\n", "glibc", "2.35", true},
		{"ldd (GNU libc) 2.39\n", "glibc", "2.39", true},
		{"musl libc (aarch64)\nVersion 1.2.4\nDynamic Program Loader\n", "musl", "1.2.4", true},
		{"\nldd: exit status 1: musl libc (x86_64)", "musl", "", true},
		{"something else\n", "", "", false},
	}
	for _, c := range cases {
		lc, ok := ParseLddVersion(c.in)
		if ok != c.ok || lc.Name != c.name || lc.Version != c.vers {
			t.Errorf("ParseLddVersion(%q) = %+v, %v", c.in, lc, ok)
		}
	}
}

// TestRaspberryPiOSMixed is a 64-bit kernel under the 32-bit armhf userland
// of Raspberry Pi OS: both architectures must show.
func TestRaspberryPiOSMixed(t *testing.T) {
	h := fixture.Host(t, map[string]string{
		"/etc/os-release":            "PRETTY_NAME=\"Raspbian GNU/Linux 12 (bookworm)\"\nNAME=\"Raspbian GNU/Linux\"\nVERSION_ID=\"12\"\nVERSION_CODENAME=bookworm\nID=raspbian\nID_LIKE=debian\n",
		"/etc/debian_version":        "12.4\n",
		"/proc/sys/kernel/osrelease": "6.1.0-rpi7-rpi-v8\n",
		"/proc/sys/kernel/version":   "#1 SMP PREEMPT Debian 1:6.1.63-1+rpt1 (2023-11-24)\n",
		"/proc/sys/kernel/arch":      "aarch64\n",
		"/proc/version":              "Linux version 6.1.0-rpi7-rpi-v8 (debian-kernel@lists.debian.org) (gcc-12 (Raspbian 12.2.0-14+rpi1) 12.2.0, GNU ld (GNU Binutils for Raspbian) 2.40) #1 SMP PREEMPT Debian 1:6.1.63-1+rpt1 (2023-11-24)\n",
		"/bin":                       "->usr/bin",
		"/usr/bin/sh":                "->dash",
		"/usr/bin/dash":              string(elfHeader(1, 1, emARM, 0x05000400)),
		cmd("ldd", "--version"):      "ldd (Debian GLIBC 2.36-9+rpt2+deb12u4) 2.36\n",
		cmd("gcc", "--version"):      "gcc (Raspbian 12.2.0-14+rpi1) 12.2.0\nCopyright (C) 2022 Free Software Foundation, Inc.\n",
		cmd("gcc", "-dumpmachine"):   "arm-linux-gnueabihf\n",
		// No /proc/config.gz (configs is a module there): the distribution's file.
		"/boot/config-6.1.0-rpi7-rpi-v8": "CONFIG_HZ_250=y\nCONFIG_HZ=250\n# CONFIG_PREEMPT_NONE is not set\nCONFIG_PREEMPT=y\nCONFIG_NO_HZ_IDLE=y\n",
	})
	in := Collect(h)
	if c := in.Kernel.Config; c == nil || c.Source != "/boot/config-6.1.0-rpi7-rpi-v8" || c.HZ == nil || *c.HZ != 250 ||
		c.Preempt != "full" || c.PreemptDynamic || c.Tick != "idle" {
		t.Errorf("kernel config = %+v", c)
	}
	if in.Kernel.Arch != "arm64" || in.Kernel.Bits == nil || *in.Kernel.Bits != 64 || in.Kernel.Machine != "aarch64" {
		t.Errorf("kernel = %+v", in.Kernel)
	}
	if in.Kernel.Release != "6.1.0-rpi7-rpi-v8" || !strings.HasPrefix(in.Kernel.Build, "#1 SMP") ||
		in.Kernel.Compiler != "gcc-12 (Raspbian 12.2.0-14+rpi1) 12.2.0" {
		t.Errorf("kernel = %+v", in.Kernel)
	}
	if in.Userland.Arch != "armhf" || in.Userland.Bits == nil || *in.Userland.Bits != 32 || in.Userland.Source != "/bin/sh" {
		t.Errorf("userland = %+v", in.Userland)
	}
	if !in.MixedArch {
		t.Error("MixedArch = false, want true")
	}
	if in.LibC != (LibC{Name: "glibc", Version: "2.36", Source: "ldd --version"}) {
		t.Errorf("libc = %+v", in.LibC)
	}
	want := []Compiler{
		{Name: "gcc", Installed: true, Version: "gcc (Raspbian 12.2.0-14+rpi1) 12.2.0", Target: "arm-linux-gnueabihf"},
		{Name: "clang"},
	}
	if !reflect.DeepEqual(in.Compilers, want) {
		t.Errorf("compilers = %+v", in.Compilers)
	}
	if in.DebianVersion != "12.4" || in.Distro.ID != "raspbian" {
		t.Errorf("distro = %+v, debian %q", in.Distro, in.DebianVersion)
	}
	if len(in.Notes) != 0 {
		t.Errorf("notes = %v, want none", in.Notes)
	}
}

func TestUserlandAndLibCFallbacks(t *testing.T) {
	cases := []struct {
		name      string
		files     map[string]string
		arch      string
		libc      LibC
		mixed     bool
		wantNotes []string
	}{
		{"alpine-musl", map[string]string{
			"/proc/sys/kernel/arch":     "aarch64\n",
			"/bin/sh":                   "->/bin/busybox",
			"/bin/busybox":              string(elfHeader(2, 1, emAArch64, 0)),
			"/lib/ld-musl-aarch64.so.1": "x",
		}, "arm64", LibC{Name: "musl", Source: "loader names"}, false, []string{"C library version"}},
		{"old-armel-glibc", map[string]string{
			"/proc/sys/kernel/arch":                "armv5tel\n",
			"/usr/bin/env":                         string(elfHeader(1, 1, emARM, 0x05000000)),
			"/lib/ld-linux.so.3":                   "x",
			"/lib/arm-linux-gnueabi/libc-2.28.so":  "x",
			"/lib/arm-linux-gnueabi/ld-linux.so.3": "x",
		}, "armel", LibC{Name: "glibc", Version: "2.28", Source: "loader names"}, false, []string{"kernel release"}},
		{"x86-no-shell", map[string]string{
			"/proc/sys/kernel/arch": "x86_64\n",
			"/bin/sh":               "#!/not/elf\n",
		}, "", LibC{}, false, []string{"userland architecture", "C library"}},
		{"riscv64", map[string]string{
			"/proc/sys/kernel/arch":            "riscv64\n",
			"/bin/sh":                          string(elfHeader(2, 1, emRISCV, 5)),
			"/lib/ld-linux-riscv64-lp64d.so.1": "x",
		}, "riscv64", LibC{Name: "glibc", Source: "loader names"}, false, []string{"C library version"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := Collect(fixture.Host(t, c.files))
			if in.Userland.Arch != c.arch || in.LibC != c.libc || in.MixedArch != c.mixed {
				t.Errorf("userland %+v libc %+v mixed %v", in.Userland, in.LibC, in.MixedArch)
			}
			for _, item := range c.wantNotes {
				if !hasNote(in, item) {
					t.Errorf("missing note %q in %v", item, in.Notes)
				}
			}
		})
	}
}

// TestKernelConfig: the kernel config comes from /proc/config.gz before
// /boot/config-RELEASE; without either, or with a corrupt one, the config
// is null and a note says why.
func TestKernelConfig(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("CONFIG_HZ=1000\nCONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_PREEMPT_DYNAMIC=y\nCONFIG_NO_HZ_FULL=y\n"))
	zw.Close()
	base := map[string]string{"/proc/sys/kernel/osrelease": "6.8.0-45-generic\n", "/proc/sys/kernel/arch": "x86_64\n"}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name  string
		files map[string]string
		want  *KernelConfig
		note  string
	}{
		{"config.gz first", with(map[string]string{"/proc/config.gz": gz.String(), "/boot/config-6.8.0-45-generic": "CONFIG_HZ=100\n"}),
			&KernelConfig{Source: "/proc/config.gz", HZ: ptrInt(1000), Preempt: "voluntary", PreemptDynamic: true, Tick: "full"}, ""},
		{"boot file", with(map[string]string{"/boot/config-6.8.0-45-generic": "CONFIG_HZ=100\nCONFIG_PREEMPT_NONE=y\nCONFIG_HZ_PERIODIC=y\n"}),
			&KernelConfig{Source: "/boot/config-6.8.0-45-generic", HZ: ptrInt(100), Preempt: "none", Tick: "periodic"}, ""},
		{"corrupt config.gz, no boot file", with(map[string]string{"/proc/config.gz": "not gzip"}), nil, "/proc/config.gz: not gzip data"},
		{"none", with(nil), nil, "/boot/config-6.8.0-45-generic: not readable"},
		{"symbols unknown", with(map[string]string{"/boot/config-6.8.0-45-generic": "CONFIG_FOO=y\n"}),
			&KernelConfig{Source: "/boot/config-6.8.0-45-generic"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := Collect(fixture.Host(t, tc.files))
			if !reflect.DeepEqual(in.Kernel.Config, tc.want) {
				t.Errorf("config = %+v, want %+v", in.Kernel.Config, tc.want)
			}
			found := false
			for _, n := range in.Notes {
				found = found || n.Item == "kernel config" && strings.Contains(n.Reason, tc.note)
			}
			if tc.note != "" && !found {
				t.Errorf("notes %v lack %q", in.Notes, tc.note)
			}
		})
	}
}

func ptrInt(n int) *int { return &n }

func TestMachineArch(t *testing.T) {
	for _, c := range []struct {
		machine, arch string
		bits          int
	}{
		{"aarch64", "arm64", 64},
		{"arm64", "arm64", 64},
		{"aarch64_be", "arm64be", 64},
		{"armv6l", "arm", 32},
		{"armv7l", "arm", 32},
		{"x86_64", "amd64", 64},
		{"i686", "i386", 32},
		{"riscv64", "riscv64", 64},
		{"loongarch64", "loong64", 64},
		{"ppc64le", "ppc64el", 64},
		{"mipsel", "mipsel", 32},
		{"sparc64", "sparc64", 64},
		{"vax", "", 0},
		{"", "", 0},
	} {
		if arch, bits := machineArch(c.machine); arch != c.arch || bits != c.bits {
			t.Errorf("machineArch(%q) = %q, %d; want %q, %d", c.machine, arch, bits, c.arch, c.bits)
		}
	}
}
