package osinfo

import (
	"errors"

	"boardbench/internal/host"
	"boardbench/internal/note"
)

// Userland is the architecture of the user-space programs, read from the ELF
// header of a core executable.
type Userland struct {
	// Arch is Debian's name for it: "arm64", "armhf", "armel", "amd64",
	// "i386", "riscv64", "loong64"...; "arm" for 32-bit ARM whose float
	// ABI cannot be told; "" when unknown.
	Arch string `json:"arch"`
	// Bits is 64 or 32 (the ELF class); nil when unknown.
	Bits *int `json:"bits"`
	// FloatABI is "hard" or "soft" for 32-bit ARM, "" elsewhere or when
	// unknown.
	FloatABI string `json:"float_abi"`
	// ELFMachine is the e_machine number of the header; nil when unknown.
	ELFMachine *int `json:"elf_machine"`
	// Source is the executable whose header was read, e.g. "/bin/sh".
	Source string `json:"source"`
}

// userlandProbes are the executables whose ELF header names the userland.
var userlandProbes = []string{"/bin/sh", "/usr/bin/env"}

func collectUserland(h *host.Host, notes *note.List) Userland {
	var u Userland
	var errs []string
	for _, p := range userlandProbes {
		b, err := h.ReadHead(p, 64)
		if err != nil {
			errs = append(errs, p+": "+unwrap(err))
			continue
		}
		a, err := ParseELF(b)
		if err != nil {
			errs = append(errs, p+": "+err.Error())
			continue
		}
		u = Userland{Arch: a.Arch, FloatABI: a.FloatABI, Source: p}
		bits, machine := a.Bits, int(a.Machine)
		u.Bits, u.ELFMachine = &bits, &machine
		break
	}
	if u.Source == "" {
		reason := "no readable ELF executable"
		for _, e := range errs {
			reason += "; " + e
		}
		notes.Add("userland architecture", reason)
		return u
	}
	if u.Arch == "arm" {
		// Old binaries do not record the float ABI; the dynamic loader's
		// name does (armhf uses its own).
		switch {
		case h.Exists("/lib/ld-linux-armhf.so.3"):
			u.Arch, u.FloatABI = "armhf", "hard"
		case h.Exists("/lib/ld-linux.so.3"):
			u.Arch, u.FloatABI = "armel", "soft"
		default:
			notes.Add("userland float ABI", "not recorded in "+u.Source+" and no ARM dynamic loader found")
		}
	}
	return u
}

// unwrap returns the innermost error text of a path error.
func unwrap(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}
