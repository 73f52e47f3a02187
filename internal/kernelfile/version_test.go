package kernelfile

import "testing"

func TestVersionLineAndRelease(t *testing.T) {
	cases := []struct{ in, line, release string }{
		{"Linux version 6.1.0-rpi7-rpi-v8 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP\n",
			"Linux version 6.1.0-rpi7-rpi-v8 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP", "6.1.0-rpi7-rpi-v8"},
		{"Linux version 5.10.110\nsecond line\n", "Linux version 5.10.110", "5.10.110"},
		{"Linux version", "Linux version", ""},
		{"Darwin Kernel Version 23.0.0", "Darwin Kernel Version 23.0.0", ""},
		{"", "", ""},
	}
	for _, c := range cases {
		line := VersionLine(c.in)
		if line != c.line || VersionRelease(line) != c.release {
			t.Errorf("VersionLine(%q) = %q, release %q; want %q, %q", c.in, line, VersionRelease(line), c.line, c.release)
		}
	}
}

func TestVersionCompiler(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Linux version 6.1.0-rpi7-rpi-v8 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT Debian 1:6.1.63-1+rpt1 (2023-11-24)",
			"gcc-12 (Debian 12.2.0-14) 12.2.0"},
		{"Linux version 4.9.156-14 (root@odroid) (gcc version 7.3.0 (Ubuntu/Linaro 7.3.0-27ubuntu1~18.04)) #1 SMP PREEMPT Tue Feb 19 2019",
			"gcc version 7.3.0 (Ubuntu/Linaro 7.3.0-27ubuntu1~18.04)"},
		{"Linux version 6.6.0 (builder@host) (ClangBuiltLinux clang version 17.0.6, LLD 17.0.6) #1 SMP",
			"ClangBuiltLinux clang version 17.0.6"},
		{"Linux version 5.0 ((unbalanced", ""},
		{"", ""},
	}
	for _, c := range cases {
		if got := VersionCompiler(c.in); got != c.want {
			t.Errorf("VersionCompiler(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
