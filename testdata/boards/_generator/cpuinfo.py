"""/proc/cpuinfo written from facts, in the layout a given kernel prints.

Nothing here reads a captured cpuinfo file: each board module states its facts
(MIDR fields per CPU, hwcaps, BogoMIPS, the Raspberry Pi or vendor trailer
lines, the RISC-V ISA string) and these functions print them the way the
kernel's c_show() does:

- arm_v3:   32-bit ARM kernels of the 3.x era on a uniprocessor: one
            "Processor" line, then BogoMIPS, Features, the MIDR fields once,
            then Hardware/Revision/Serial.
- arm32:    32-bit ARM kernels since 3.8 (also 5.x/6.x): per-CPU blocks with
            "model name : <name> rev <r> (<platform>)", Features with a trailing
            space, "CPU architecture: 7", then Hardware/Revision/Serial (and
            Model on Raspberry Pi kernels).
- arm64:    arm64 kernels 4.x-6.x read from a 64-bit process: per-CPU blocks
            without a model name, Features without a trailing space,
            "CPU architecture: 8"; vendor kernels append lines after the
            blocks (Raspberry Pi: Hardware/Revision/Serial/Model; Rockchip BSP:
            Serial).
- riscv:    riscv kernels 6.x: processor, hart, isa, mmu, uarch, mvendorid,
            marchid, mimpid, hart isa.
"""
import re

ARM = 0x41

# MIDR part numbers of ARM Ltd. cores (facts; see arm-socs-table cpu_cores.yml).
ARM_PARTS = {
    "ARM1176": 0xb76,
    "Cortex-A53": 0xd03,
    "Cortex-A55": 0xd05,
    "Cortex-A72": 0xd08,
    "Cortex-A73": 0xd09,
    "Cortex-A76": 0xd0b,
    "Cortex-A78": 0xd41,
}

# hwcaps as the kernels of these boards print them (the Features lines of the
# boards' logs): an ARMv8 core under a 32-bit kernel (Cortex-A53 on the Zero 2 W);
# arm64 ARMv8.0 cores with the crypto extensions (Cortex-A53/A72/A73); arm64 ARMv8.2
# cores (Cortex-A55/A76/A78); ARMv8.0 without crypto (Cortex-A72 in BCM2711).
HWCAPS_A32_ARMV8 = "half thumb fastmult vfp edsp neon vfpv3 tls vfpv4 idiva idivt vfpd32 lpae evtstrm crc32"
HWCAPS_ARMV8_CRYPTO = "fp asimd evtstrm aes pmull sha1 sha2 crc32 cpuid"
HWCAPS_ARMV82 = "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp"
HWCAPS_ARMV8_NOCRYPTO = "fp asimd evtstrm crc32 cpuid"


class Core:
    """One CPU's identification: MIDR fields, hwcaps and BogoMIPS."""

    def __init__(self, part, variant, revision, features, bogomips, implementer=ARM):
        self.implementer = implementer
        self.part = part
        self.variant = variant
        self.revision = revision
        self.features = features.split()
        self.bogomips = bogomips


def arm_core(name, rev, features, bogomips):
    """An ARM Ltd. core from its name and its rNpM revision, e.g. ("Cortex-A76", "r4p1")."""
    m = re.fullmatch(r"r(\d+)p(\d+)", rev)
    if not m:
        raise ValueError("revision %r is not rNpM" % rev)
    return Core(ARM_PARTS[name], int(m.group(1)), int(m.group(2)), features, bogomips)


def _midr_lines(c, arch):
    return ("CPU implementer\t: 0x%02x\nCPU architecture: %s\nCPU variant\t: 0x%x\nCPU part\t: 0x%03x\n"
            "CPU revision\t: %d\n" % (c.implementer, arch, c.variant, c.part, c.revision))


def _trailer(lines):
    """Key/value lines after the processor blocks, tab-aligned like the kernel prints them."""
    out = ""
    for key, value in lines:
        tabs = "\t\t" if len(key) < 8 else "\t"
        out += "%s%s: %s\n" % (key, tabs, value)
    return out


def arm64(cores, trailer=()):
    """arm64 kernels (4.x-6.x), read by a 64-bit process."""
    out = ""
    for i, c in enumerate(cores):
        out += "processor\t: %d\n" % i
        out += "BogoMIPS\t: %s\n" % c.bogomips
        out += "Features\t:" + "".join(" " + f for f in c.features) + "\n"
        out += _midr_lines(c, "8") + "\n"
    return out + _trailer(trailer)


def arm32(cores, cpu_name="ARMv7 Processor", platform="v7l", trailer=()):
    """32-bit ARM kernels since 3.8 (per-CPU model name, Features with trailing space)."""
    out = ""
    for i, c in enumerate(cores):
        out += "processor\t: %d\n" % i
        out += "model name\t: %s rev %d (%s)\n" % (cpu_name, c.revision, platform)
        out += "BogoMIPS\t: %s\n" % c.bogomips
        out += "Features\t: " + "".join(f + " " for f in c.features) + "\n"
        out += _midr_lines(c, "7") + "\n"
    return out + _trailer(trailer)


def arm_v3(core, cpu_name, platform, trailer=()):
    """32-bit ARM kernels of the 3.x era on a uniprocessor system."""
    out = "Processor\t: %s rev %d (%s)\n" % (cpu_name, core.revision, platform)
    out += "BogoMIPS\t: %s\n" % core.bogomips
    out += "Features\t: " + "".join(f + " " for f in core.features) + "\n"
    out += _midr_lines(core, "7") + "\n"
    return out + _trailer(trailer)


def riscv(harts, isa, mmu, uarch, mvendorid, marchid, mimpid):
    """riscv kernels 6.x; harts lists the hart id of each processor."""
    out = []
    for i, hart in enumerate(harts):
        out.append("processor\t: %d\nhart\t\t: %d\nisa\t\t: %s\nmmu\t\t: %s\nuarch\t\t: %s\nmvendorid\t: %s\n"
                   "marchid\t\t: %s\nmimpid\t\t: %s\nhart isa\t: %s\n"
                   % (i, hart, isa, mmu, uarch, mvendorid, marchid, mimpid, isa))
    return "\n".join(out) + "\n"
