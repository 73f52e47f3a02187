// Package osinfo describes the operating system: the distribution (os-release,
// Armbian, Raspberry Pi OS), the kernel (release, build, architecture), the
// userland's architecture read from the ELF header of its shell (which may
// differ from the kernel's: a 64-bit kernel under a 32-bit armhf userland),
// the C library and the compilers installed.
package osinfo

import (
	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/note"
)

// Info is the OS section of a machine description.
type Info struct {
	// Distro is the distribution from os-release.
	Distro Distro `json:"distro"`
	// DebianVersion is /etc/debian_version on Debian and derivatives, "" elsewhere.
	DebianVersion string `json:"debian_version"`
	// Armbian is set on Armbian images (/etc/armbian-release); nil elsewhere.
	Armbian *Armbian `json:"armbian"`
	// RaspberryPiOS is set on Raspberry Pi OS images (/etc/rpi-issue); nil elsewhere.
	RaspberryPiOS *RaspberryPiOS `json:"raspberry_pi_os"`
	// Kernel describes the running kernel.
	Kernel Kernel `json:"kernel"`
	// Userland is the architecture of the user-space programs.
	Userland Userland `json:"userland"`
	// MixedArch is true when kernel and userland differ in bitness (e.g. a
	// 64-bit kernel running a 32-bit userland).
	MixedArch bool `json:"mixed_arch"`
	// LibC is the C library.
	LibC LibC `json:"libc"`
	// Compilers lists gcc and clang, installed or not.
	Compilers []Compiler `json:"compilers"`
	// Notes lists what could not be established and why.
	Notes note.List `json:"notes,omitempty"`
}

// Collect describes the operating system of the machine behind h. It never
// fails: what cannot be read is listed in Notes.
func Collect(h *host.Host) Info {
	return CollectConfig(h, nil)
}

// CollectConfig is Collect with the kernel config already read (kc,
// holding at least the symbols kernelfile.ConfigFactsSymbol chooses);
// nil: read it here.
func CollectConfig(h *host.Host, kc *kernelfile.KernelConfig) Info {
	var in Info
	in.Distro = collectDistro(h, &in.Notes)
	if v, err := h.ReadString("/etc/debian_version"); err == nil {
		in.DebianVersion = printable(v)
	}
	in.Armbian = collectArmbian(h)
	in.RaspberryPiOS = collectRPiIssue(h)
	in.Kernel = collectKernel(h, kc, &in.Notes)
	in.Userland = collectUserland(h, &in.Notes)
	in.MixedArch = in.Kernel.Bits != nil && in.Userland.Bits != nil && *in.Kernel.Bits != *in.Userland.Bits
	in.LibC = collectLibC(h, &in.Notes)
	in.Compilers = collectCompilers(h, &in.Notes)
	return in
}
