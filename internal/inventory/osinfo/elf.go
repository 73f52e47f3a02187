package osinfo

import (
	"encoding/binary"
	"fmt"
)

// ELF constants boardbench needs to name a userland architecture.
const (
	elfClass32 = 1
	elfClass64 = 2
	elfDataLSB = 1
	elfDataMSB = 2

	emSPARC     = 2
	em386       = 3
	emMIPS      = 8
	emPPC       = 20
	emPPC64     = 21
	emS390      = 22
	emARM       = 40
	emSPARCV9   = 43
	emX86_64    = 62
	emAArch64   = 183
	emRISCV     = 243
	emLoongArch = 258

	// efARMABIFloatHard marks an ARM EABI executable built for the
	// hard-float calling convention (armhf); efARMABIFloatSoft the soft-float
	// one.
	efARMABIFloatHard = 0x400
	efARMABIFloatSoft = 0x200
)

// ELFArch is the architecture of one executable, read from its ELF header.
type ELFArch struct {
	// Arch is the Debian name of the architecture, e.g. "arm64", "armhf".
	Arch string
	// Bits is 32 or 64 (the ELF class).
	Bits int
	// Machine is the ELF e_machine value.
	Machine uint16
	// FloatABI is "hard" or "soft" for 32-bit ARM when the header says so,
	// "" otherwise.
	FloatABI string
}

// constError is an error whose value is its text, so that a sentinel
// error is a constant: static data that costs nothing when boardbench
// starts (errors.New would run at init). errors.Is and == match it.
type constError string

func (e constError) Error() string { return string(e) }

// ErrNotELF is returned by ParseELF for data that is not an ELF header.
const ErrNotELF = constError("not an ELF file")

// ParseELF names the architecture of an executable from the first bytes of
// the file (52 bytes suffice for 32-bit, 64 for 64-bit headers).
func ParseELF(b []byte) (ELFArch, error) {
	if len(b) < 20 || string(b[:4]) != "\x7fELF" {
		return ELFArch{}, ErrNotELF
	}
	var bo binary.ByteOrder
	switch b[5] {
	case elfDataLSB:
		bo = binary.LittleEndian
	case elfDataMSB:
		bo = binary.BigEndian
	default:
		return ELFArch{}, fmt.Errorf("ELF header: unknown byte order %d", b[5])
	}
	var a ELFArch
	flagsAt := 0
	switch b[4] {
	case elfClass32:
		a.Bits, flagsAt = 32, 0x24
	case elfClass64:
		a.Bits, flagsAt = 64, 0x30
	default:
		return ELFArch{}, fmt.Errorf("ELF header: unknown class %d", b[4])
	}
	a.Machine = bo.Uint16(b[0x12:])
	var flags uint32
	haveFlags := len(b) >= flagsAt+4
	if haveFlags {
		flags = bo.Uint32(b[flagsAt:])
	}
	little := b[5] == elfDataLSB
	switch a.Machine {
	case emAArch64:
		a.Arch = pick(little, "arm64", "arm64be")
	case emARM:
		switch {
		case !haveFlags:
		case flags&efARMABIFloatHard != 0:
			a.FloatABI = "hard"
		case flags&efARMABIFloatSoft != 0:
			a.FloatABI = "soft"
		}
		switch {
		case !little:
			a.Arch = "armeb"
		case a.FloatABI == "hard":
			a.Arch = "armhf"
		case a.FloatABI == "soft":
			a.Arch = "armel"
		default:
			a.Arch = "arm" // float ABI not recorded in the header
		}
	case emX86_64:
		a.Arch = pick(a.Bits == 64, "amd64", "x32")
	case em386:
		a.Arch = "i386"
	case emRISCV:
		a.Arch = pick(a.Bits == 64, "riscv64", "riscv32")
	case emLoongArch:
		a.Arch = pick(a.Bits == 64, "loong64", "loong32")
	case emMIPS:
		switch {
		case a.Bits == 64 && little:
			a.Arch = "mips64el"
		case a.Bits == 64:
			a.Arch = "mips64"
		case little:
			a.Arch = "mipsel"
		default:
			a.Arch = "mips"
		}
	case emPPC:
		a.Arch = "powerpc"
	case emPPC64:
		a.Arch = pick(little, "ppc64el", "ppc64")
	case emS390:
		a.Arch = pick(a.Bits == 64, "s390x", "s390")
	case emSPARC:
		a.Arch = "sparc"
	case emSPARCV9:
		a.Arch = "sparc64"
	default:
		a.Arch = fmt.Sprintf("unknown (ELF machine %d)", a.Machine)
	}
	return a, nil
}

func pick(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}
