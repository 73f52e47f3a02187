package tools

import (
	"context"
	"os"
	"strings"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/note"
	"boardbench/internal/testutil/fixture"
)

// elfHead is enough of an ELF header to be told apart from a script.
const elfHead = "\x7fELF\x02\x01\x01\x00"

// toolsHost returns a Host on a fixture root: files maps machine paths to
// contents (a value starting with "->" makes a symbolic link), commands
// maps a command key to recorded output.
func toolsHost(t *testing.T, files map[string]string, commands map[string]string) *host.Host {
	t.Helper()
	root := fixture.Root(t, files)
	fixture.Commands(t, root, commands)
	return fixture.Open(t, root)
}

const debianWrapper = "#! /bin/sh\nexec /usr/lib/p7zip/7z \"$@\"\n"

// realP7zip1602 is the banner of the real p7zip 16.02, as printed at the top
// of its benchmark output.
const realP7zip1602 = "\n7-Zip (a) [64] 16.02 : Copyright (c) 1999-2016 Igor Pavlov : 2016-05-21\np7zip Version 16.02 (locale=C,Utf16=off,HugeFiles=on,64 bits,6 CPUs LE)\n"

func TestParseSevenZipIdentity(t *testing.T) {
	tests := []struct {
		name        string
		out         string
		wantOK      bool
		wantVersion string
		wantFlavor  Flavor
		wantP7zip   string
	}{
		{"debian 12 7z wrapper", fixture.ReadTestdata(t, "debian12/7z.txt"), true, "26.02", FlavorP7zipWrapper, "16.02"},
		{"debian 12 7zr wrapper", fixture.ReadTestdata(t, "debian12/7zr.txt"), true, "26.02", FlavorP7zipWrapper, "16.02"},
		{"7zz", fixture.ReadTestdata(t, "debian12/7zz.txt"), true, "26.02", FlavorSevenZip, ""},
		{"real p7zip 16.02", realP7zip1602, true, "16.02", FlavorP7zip, "16.02"},
		{"real p7zip 16.02 32-bit", "7-Zip (a) [32] 16.02 : Copyright (c) 1999-2016 Igor Pavlov : 2016-05-21\np7zip Version 16.02 (locale=C,Utf16=off,HugeFiles=on,32 bits,4 CPUs LE)", true, "16.02", FlavorP7zip, "16.02"},
		{"p7zip 9.20", "7-Zip (A) 9.20  Copyright (c) 1999-2010 Igor Pavlov  2010-11-18\np7zip Version 9.20 (locale=en_US.UTF-8,Utf16=on,HugeFiles=on,4 CPUs)", true, "9.20", FlavorP7zip, "9.20"},
		{"7-Zip 23.01 arm64", "7-Zip (a) 23.01 (arm64) : Copyright (c) 1999-2023 Igor Pavlov : 2023-06-20\n 64-bit arm_v:8-A locale=C.UTF-8 Threads:4 OPEN_MAX:1024", true, "23.01", FlavorSevenZip, ""},
		{"p7zip 17.05 fork", "7-Zip [64] 17.05 : Copyright (c) 1999-2021 Igor Pavlov : 2017-08-28\np7zip Version 17.05 (locale=C.UTF-8,Utf16=on,HugeFiles=on,64 bits,4 CPUs LE)", true, "17.05", FlavorP7zip, "17.05"},
		{"not 7-Zip", "Usage: something else\nVersion 1.2", false, "", "", ""},
		{"empty", "", false, "", "", ""},
		{"binary junk", "\x00\x01\xff7-Zip\x00", false, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, ok := ParseSevenZipIdentity(tt.out)
			if ok != tt.wantOK || id.Version != tt.wantVersion || id.Flavor != tt.wantFlavor || id.P7zipVersion != tt.wantP7zip {
				t.Errorf("got ok=%v version=%q flavor=%q p7zip=%q, want ok=%v %q %q %q",
					ok, id.Version, id.Flavor, id.P7zipVersion, tt.wantOK, tt.wantVersion, tt.wantFlavor, tt.wantP7zip)
			}
		})
	}
}

func TestSevenZipComparability(t *testing.T) {
	tests := []struct {
		version  string
		flavor   Flavor
		want     bool
		contains string
	}{
		{"16.02", FlavorP7zip, true, "16.02"},
		{"26.02", FlavorP7zipWrapper, false, "prints a p7zip 16.02 banner but runs 7-Zip 26.02"},
		{"23.01", FlavorSevenZip, false, "7-Zip 23.01 is not 16.02"},
		{"9.20", FlavorP7zip, false, "9.20"},
	}
	for _, tt := range tests {
		got, why := SevenZipComparability(tt.version, tt.flavor)
		if got != tt.want || !strings.Contains(why, tt.contains) {
			t.Errorf("SevenZipComparability(%q) = %v, %q; want %v containing %q", tt.version, got, why, tt.want, tt.contains)
		}
	}
}

func TestIdentifySevenZipOnFixtures(t *testing.T) {
	tests := []struct {
		name         string
		files        map[string]string
		commands     map[string]string
		cmd          string
		wantPath     string
		wantReal     string
		wantWrapper  string
		wantVersion  string
		wantFlavor   Flavor
		wantCompared bool
		wantNotes    int
	}{
		{
			name:        "debian 12 p7zip-full wrapper",
			files:       map[string]string{"/usr/bin/7z": debianWrapper, "/usr/lib/p7zip/7z": elfHead},
			commands:    map[string]string{"7z": fixture.ReadTestdata(t, "debian12/7z.txt")},
			cmd:         "7z",
			wantPath:    "/usr/bin/7z",
			wantReal:    "/usr/lib/p7zip/7z",
			wantWrapper: "/usr/bin/7z",
			wantVersion: "26.02", wantFlavor: FlavorP7zipWrapper,
		},
		{
			name:        "7zz binary",
			files:       map[string]string{"/usr/bin/7zz": elfHead},
			commands:    map[string]string{"7zz": fixture.ReadTestdata(t, "debian12/7zz.txt")},
			cmd:         "7zz",
			wantPath:    "/usr/bin/7zz",
			wantReal:    "/usr/bin/7zz",
			wantVersion: "26.02", wantFlavor: FlavorSevenZip,
		},
		{
			name:        "7z symlink to 7zz",
			files:       map[string]string{"/usr/bin/7zz": elfHead, "/usr/bin/7z": "->7zz"},
			commands:    map[string]string{"7z": fixture.ReadTestdata(t, "debian12/7zz.txt")},
			cmd:         "7z",
			wantPath:    "/usr/bin/7z",
			wantReal:    "/usr/bin/7zz",
			wantVersion: "26.02", wantFlavor: FlavorSevenZip,
		},
		{
			name:        "real p7zip 16.02 behind wrapper and symlink",
			files:       map[string]string{"/usr/bin/7za": "#!/bin/sh\n# p7zip wrapper\nset -e\n\"/usr/lib/p7zip/7za\" \"$@\"\n", "/usr/lib/p7zip/7za": "->/usr/lib/p7zip/7za.bin", "/usr/lib/p7zip/7za.bin": elfHead},
			commands:    map[string]string{"7za": realP7zip1602},
			cmd:         "7za",
			wantPath:    "/usr/bin/7za",
			wantReal:    "/usr/lib/p7zip/7za.bin",
			wantWrapper: "/usr/bin/7za",
			wantVersion: "16.02", wantFlavor: FlavorP7zip, wantCompared: true,
		},
		{
			name:        "script that cannot be followed: real path unknown",
			files:       map[string]string{"/usr/bin/7z": "#!/bin/sh\nexec \"$(dirname \"$0\")/../lib/7z\" \"$@\"\n"},
			commands:    map[string]string{"7z": realP7zip1602},
			cmd:         "7z",
			wantPath:    "/usr/bin/7z",
			wantWrapper: "/usr/bin/7z",
			wantNotes:   1,
			wantVersion: "16.02", wantFlavor: FlavorP7zip, wantCompared: true,
		},
		{
			name:        "wrapper pointing at a missing binary",
			files:       map[string]string{"/usr/bin/7z": debianWrapper},
			commands:    map[string]string{"7z": fixture.ReadTestdata(t, "debian12/7z.txt")},
			cmd:         "7z",
			wantPath:    "/usr/bin/7z",
			wantWrapper: "/usr/bin/7z",
			wantVersion: "26.02", wantFlavor: FlavorP7zipWrapper, wantNotes: 1,
		},
		{
			name:        "no file in the fixture: path unknown",
			commands:    map[string]string{"7zz": fixture.ReadTestdata(t, "debian12/7zz.txt")},
			cmd:         "7zz",
			wantVersion: "26.02", wantFlavor: FlavorSevenZip,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := toolsHost(t, tt.files, tt.commands)
			got, err := IdentifySevenZip(context.Background(), h, tt.cmd)
			if err != nil {
				t.Fatal(err)
			}
			if got.Path != tt.wantPath || got.RealPath != tt.wantReal || got.Wrapper != tt.wantWrapper {
				t.Errorf("paths = %q → %q (wrapper %q), want %q → %q (wrapper %q)", got.Path, got.RealPath, got.Wrapper, tt.wantPath, tt.wantReal, tt.wantWrapper)
			}
			if got.Version != tt.wantVersion || got.Flavor != tt.wantFlavor || got.Comparable != tt.wantCompared {
				t.Errorf("version %q flavor %q comparable %v, want %q %q %v", got.Version, got.Flavor, got.Comparable, tt.wantVersion, tt.wantFlavor, tt.wantCompared)
			}
			if len(got.Notes) != tt.wantNotes {
				t.Errorf("notes = %+v, want %d", got.Notes, tt.wantNotes)
			}
			if got.ComparableReason == "" || got.VersionLine == "" {
				t.Errorf("reason %q / version line %q must not be empty", got.ComparableReason, got.VersionLine)
			}
		})
	}
}

func TestFindSevenZipPreferenceAndNotes(t *testing.T) {
	h := toolsHost(t,
		map[string]string{"/usr/bin/7z": debianWrapper, "/usr/lib/p7zip/7z": elfHead, "/usr/bin/7zz": elfHead},
		map[string]string{
			"7z":  fixture.ReadTestdata(t, "debian12/7z.txt"),
			"7zz": fixture.ReadTestdata(t, "debian12/7zz.txt"),
			"7za": realP7zip1602,
			"7zr": "garbage\n",
		})
	all, notes := FindAllSevenZip(context.Background(), h)
	var names []string
	for _, tool := range all {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "7zz,7z,7za" {
		t.Errorf("found %v, want 7zz,7z,7za", names)
	}
	if len(notes) != 1 || notes[0].Item != "7zr" || !strings.Contains(notes[0].Reason, note.Malformed) {
		t.Errorf("notes = %+v, want one malformed note for 7zr", notes)
	}
	best, _ := FindSevenZip(context.Background(), h)
	if best == nil || best.Name != "7zz" {
		t.Errorf("FindSevenZip = %+v, want 7zz", best)
	}
	if c := PickComparableSevenZip(all); c == nil || c.Name != "7za" {
		t.Errorf("PickComparableSevenZip = %+v, want 7za (16.02)", c)
	}

	empty := toolsHost(t, nil, nil)
	none, notes := FindSevenZip(context.Background(), empty)
	if none != nil || len(notes) != 1 || notes[0].Reason != note.NotInstalled {
		t.Errorf("empty root: %+v, %+v; want nil and a not-installed note", none, notes)
	}
}

func TestScriptExecTarget(t *testing.T) {
	tests := []struct {
		script string
		want   string
	}{
		{debianWrapper, "/usr/lib/p7zip/7z"},
		{"#!/bin/sh\n/usr/lib/p7zip/7za \"$@\"\n", "/usr/lib/p7zip/7za"},
		{"#!/bin/sh\nexec '/opt/7zip/7zz' \"$@\"", "/opt/7zip/7zz"},
		{"#!/bin/sh\nexec $HOME/7zz \"$@\"", ""},
		{"#!/bin/sh\nexec 7zz \"$@\"", ""},
		{"#!/bin/sh\n", ""},
		{"#!/usr/bin/env python3\nimport sys\n", ""},
	}
	for _, tt := range tests {
		if got := scriptExecTarget(tt.script); got != tt.want {
			t.Errorf("scriptExecTarget(%q) = %q, want %q", tt.script, got, tt.want)
		}
	}
}

func TestParseOpenSSLVersion(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name        string
		out         string
		wantOK      bool
		wantFlavor  Flavor
		wantVersion string
		wantLibrary string
		wantPlat    string
		wantAES     *bool
		wantCompil  string
	}{
		{
			name: "OpenSSL 3.0 on Debian 12 x86_64", out: fixture.ReadTestdata(t, "debian12/openssl_version_-a.txt"), wantOK: true,
			wantFlavor: FlavorOpenSSL, wantVersion: "3.0.19", wantLibrary: "3.0.19", wantPlat: "debian-amd64", wantAES: &yes, wantCompil: "-DOPENSSL_USE_NODELETE",
		},
		{
			name: "OpenSSL 3.x arm64 with crypto extensions",
			out: "OpenSSL 3.0.17 1 Jul 2025 (Library: OpenSSL 3.0.17 1 Jul 2025)\nbuilt on: Tue Jul  1 10:00:00 2025 UTC\nplatform: debian-arm64\noptions:  bn(64,64)\n" +
				"compiler: gcc -fPIC -pthread -Wa,--noexecstack -Wall -DOPENSSL_USE_NODELETE -DOPENSSL_PIC\nOPENSSLDIR: \"/usr/lib/ssl\"\nCPUINFO: OPENSSL_armcap=0xbd\n",
			wantOK: true, wantFlavor: FlavorOpenSSL, wantVersion: "3.0.17", wantLibrary: "3.0.17", wantPlat: "debian-arm64", wantAES: &yes, wantCompil: "-DOPENSSL_PIC",
		},
		{
			name:   "OpenSSL 3.x armv7 without crypto extensions",
			out:    "OpenSSL 3.0.11 19 Sep 2023 (Library: OpenSSL 3.0.11 19 Sep 2023)\nplatform: debian-armhf\nCPUINFO: OPENSSL_armcap=0x1 env:0x1\n",
			wantOK: true, wantFlavor: FlavorOpenSSL, wantVersion: "3.0.11", wantLibrary: "3.0.11", wantPlat: "debian-armhf", wantAES: &no,
		},
		{
			name: "OpenSSL 1.1.1 (no CPUINFO)",
			out: "OpenSSL 1.1.1f  31 Mar 2020\nbuilt on: Mon Apr 20 11:53:50 2020 UTC\nplatform: debian-arm64\noptions:  bn(64,64) rc4(char) des(int) idea(int) blowfish(ptr)\n" +
				"compiler: gcc -fPIC -pthread -Wa,--noexecstack -Wall -DOPENSSL_CPUID_OBJ -DOPENSSL_BN_ASM_MONT -DSHA1_ASM -DVPAES_ASM\nOPENSSLDIR: \"/usr/lib/ssl\"\nENGINESDIR: \"/usr/lib/aarch64-linux-gnu/engines-1.1\"\nSeeding source: os-specific\n",
			wantOK: true, wantFlavor: FlavorOpenSSL, wantVersion: "1.1.1f", wantPlat: "debian-arm64", wantCompil: "-DVPAES_ASM",
		},
		{
			name:   "OpenSSL 1.0.2",
			out:    "OpenSSL 1.0.2g  1 Mar 2016\nbuilt on: reproducible build, date unspecified\nplatform: debian-armhf\noptions:  bn(64,32) rc4(ptr,char) des(idx,cisc,16,long) blowfish(ptr)\ncompiler: cc -I. -I.. -I../include -DOPENSSL_THREADS\nOPENSSLDIR: \"/usr/lib/ssl\"\n",
			wantOK: true, wantFlavor: FlavorOpenSSL, wantVersion: "1.0.2g", wantPlat: "debian-armhf", wantCompil: "-DOPENSSL_THREADS",
		},
		{
			name:   "LibreSSL",
			out:    "LibreSSL 3.8.2\nbuilt on: date not available\nplatform: information not available\noptions:  bn(64,64) rc4(16x,int) des(idx,cisc,16,int) blowfish(idx)\ncompiler: information not available\nOPENSSLDIR: \"/etc/ssl\"\n",
			wantOK: true, wantFlavor: FlavorLibreSSL, wantVersion: "3.8.2", wantPlat: "information not available",
		},
		{name: "garbage", out: "openssl: command not found\n", wantOK: false},
		{name: "empty", out: "", wantOK: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseOpenSSLVersion(tt.out)
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tt.wantOK)
			}
			if !ok {
				return
			}
			b := got.OpenSSL
			if got.Flavor != tt.wantFlavor || got.Version != tt.wantVersion || b.LibraryVersion != tt.wantLibrary || b.Platform != tt.wantPlat {
				t.Errorf("got %q %q lib %q platform %q, want %q %q lib %q platform %q", got.Flavor, got.Version, b.LibraryVersion, b.Platform, tt.wantFlavor, tt.wantVersion, tt.wantLibrary, tt.wantPlat)
			}
			if (b.HardwareAES == nil) != (tt.wantAES == nil) || (b.HardwareAES != nil && *b.HardwareAES != *tt.wantAES) {
				t.Errorf("hardware AES = %v, want %v", fmtBool(b.HardwareAES), fmtBool(tt.wantAES))
			}
			if !strings.Contains(b.Compiler, tt.wantCompil) {
				t.Errorf("compiler %q does not contain %q", b.Compiler, tt.wantCompil)
			}
			if !got.Comparable || got.ComparableReason == "" {
				t.Errorf("comparable %v %q, want true with a reason", got.Comparable, got.ComparableReason)
			}
		})
	}
}

func fmtBool(b *bool) string {
	if b == nil {
		return "null"
	}
	if *b {
		return "true"
	}
	return "false"
}

func TestFindOpenSSLOnFixture(t *testing.T) {
	h := toolsHost(t, map[string]string{"/usr/bin/openssl": elfHead},
		map[string]string{"openssl_version_-a": fixture.ReadTestdata(t, "debian12/openssl_version_-a.txt")})
	got, notes := FindOpenSSL(context.Background(), h)
	if got == nil || got.Version != "3.0.19" || got.Path != "/usr/bin/openssl" || got.RealPath != "/usr/bin/openssl" || len(notes) != 0 {
		t.Fatalf("FindOpenSSL = %+v, %+v", got, notes)
	}
	none, notes := FindOpenSSL(context.Background(), toolsHost(t, nil, nil))
	if none != nil || len(notes) != 1 || notes[0].Reason != note.NotInstalled {
		t.Errorf("empty root: %+v, %+v", none, notes)
	}
}

// TestLiveTools identifies the 7-Zip and openssl commands of this machine.
// On Debian 12 with p7zip-full and 7zip installed it checks that the /usr/bin/7z
// wrapper is recognised as a current 7-Zip and not as p7zip 16.02.
func TestLiveTools(t *testing.T) {
	h, err := host.New("/")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	all, notes := FindAllSevenZip(ctx, h)
	if len(all) == 0 {
		t.Logf("no 7-Zip command on this machine (%v); 7-Zip part skipped", notes)
	}
	for _, tool := range all {
		t.Logf("%s: %s → %s (wrapper %q) version %s flavor %q comparable %v", tool.Name, tool.Path, tool.RealPath, tool.Wrapper, tool.Version, tool.Flavor, tool.Comparable)
		if tool.Version == "" || tool.Path == "" || tool.RealPath == "" {
			t.Errorf("%s: incomplete identification %+v", tool.Name, tool)
		}
		if strings.Contains(tool.BannerLine, "p7zip Version 16.02") && !strings.Contains(tool.VersionLine, " 16.02 ") && tool.Flavor != FlavorP7zipWrapper {
			t.Errorf("%s: p7zip 16.02 banner over %q not recognised as a wrapper", tool.Name, tool.VersionLine)
		}
		if tool.Wrapper != "" && tool.RealPath == tool.Path {
			t.Errorf("%s: wrapper %q found but real path not followed", tool.Name, tool.Wrapper)
		}
	}
	if o, notes := FindOpenSSL(ctx, h); o == nil {
		t.Logf("no openssl on this machine (%v)", notes)
	} else {
		t.Logf("openssl: %s %s → %s, hardware AES %s", o.Flavor, o.Version, o.RealPath, fmtBool(o.OpenSSL.HardwareAES))
		if o.Version == "" || o.OpenSSL == nil {
			t.Errorf("incomplete openssl identification %+v", o)
		}
	}
}

func TestParseCryptsetupVersion(t *testing.T) {
	tests := []struct {
		name        string
		out         string
		wantOK      bool
		wantVersion string
		wantFlags   []string
	}{
		{"cryptsetup 2.6.1 on Debian 12", fixture.ReadTestdata(t, "debian12/cryptsetup_--version.txt"), true, "2.6.1", []string{"UDEV", "BLKID", "KEYRING", "KERNEL_CAPI"}},
		{"cryptsetup 2.3 without flags", "cryptsetup 2.3.7\n", true, "2.3.7", nil},
		{"not cryptsetup", "bash: cryptsetup: command not found\n", false, "", nil},
		{"empty", "", false, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseCryptsetupVersion(tt.out)
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tt.wantOK)
			}
			if !ok {
				return
			}
			if got.Version != tt.wantVersion || got.Flavor != FlavorCryptsetup || got.Cryptsetup == nil || strings.Join(got.Cryptsetup.Flags, " ") != strings.Join(tt.wantFlags, " ") {
				t.Errorf("got %q %q %+v, want %q flags %v", got.Version, got.Flavor, got.Cryptsetup, tt.wantVersion, tt.wantFlags)
			}
		})
	}
}

func TestFindCryptsetupOnFixture(t *testing.T) {
	h := toolsHost(t, map[string]string{"/usr/bin/cryptsetup": elfHead},
		map[string]string{"cryptsetup_--version": fixture.ReadTestdata(t, "debian12/cryptsetup_--version.txt")})
	got, notes := FindCryptsetup(context.Background(), h)
	if got == nil || got.Version != "2.6.1" || got.Path != "/usr/bin/cryptsetup" || len(notes) != 0 {
		t.Fatalf("FindCryptsetup = %+v, %+v", got, notes)
	}
	none, notes := FindCryptsetup(context.Background(), toolsHost(t, nil, nil))
	if none != nil || len(notes) != 1 || notes[0].Reason != note.NotInstalled {
		t.Errorf("empty root: %+v, %+v", none, notes)
	}
}

func TestOpenSSLBuildDirsAndOverride(t *testing.T) {
	got, ok := ParseOpenSSLVersion(fixture.ReadTestdata(t, "debian12/openssl_version_-a.txt"))
	if !ok {
		t.Fatal("not parsed")
	}
	b := got.OpenSSL
	if b.OpenSSLDir != "/usr/lib/ssl" || b.ModulesDir != "/usr/lib/x86_64-linux-gnu/ossl-modules" || b.SeedingSource != "os-specific" || b.CPUInfoEnv != "" {
		t.Errorf("build %+v", b)
	}
	got, _ = ParseOpenSSLVersion("OpenSSL 3.0.11 19 Sep 2023\nCPUINFO: OPENSSL_armcap=0x0 env:0\n")
	if got.OpenSSL.CPUInfoEnv != "0" || got.OpenSSL.HardwareAES == nil || *got.OpenSSL.HardwareAES {
		t.Errorf("override %+v", got.OpenSSL)
	}
}

// TestLiveCryptsetup identifies this machine's cryptsetup. It is skipped
// where cryptsetup is not installed, except in CI (CI set), whose image
// must have it (Debian: cryptsetup-bin).
func TestLiveCryptsetup(t *testing.T) {
	h, err := host.New("/")
	if err != nil {
		t.Fatal(err)
	}
	c, notes := FindCryptsetup(context.Background(), h)
	if c == nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("cryptsetup is missing in CI (%v): install cryptsetup-bin", notes)
		}
		t.Skipf("no cryptsetup on this machine (%v)", notes)
	}
	t.Logf("cryptsetup %s at %s, flags %v", c.Version, c.Path, c.Cryptsetup.Flags)
	if c.Version == "" || c.Path == "" || !strings.HasPrefix(c.Path, "/") {
		t.Errorf("incomplete identification %+v", c)
	}
}
