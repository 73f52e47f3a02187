package cpu

// This file is the hand-kept part of the MIDR tables: cores the generated
// table (midr_table.go, from arm-socs-table) lacks, mostly 32-bit ARM Ltd
// cores and older vendors, and a few corrections where the data set names a
// chip rather than a core. Entries here win over the generated table.
// Sources are public facts: ARM Technical Reference Manuals (MIDR reset
// values) and the part numbers Linux uses in arch/arm*/include/asm/cputype.h.

// extraImplementers names implementer codes missing from the generated table.
var extraImplementers = []midrImplementer{
	{0x44, "DEC"},
	{0x49, "Infineon"},
	{0x4d, "Motorola/Freescale"},
	{0x54, "Texas Instruments"},
	{0x63, "Arm China"},
	{0x66, "Faraday"},
	{0x69, "Intel"},
	{0x6d, "Microsoft"},
}

// extraParts names cores missing from, or misnamed in, the generated table.
var extraParts = []midrPart{
	// ARM Ltd: ARMv4-v6 and 32-bit ARMv7/v8 cores, R and M profiles.
	{0x41, 0x920, anyField, anyField, "ARM920T"},
	{0x41, 0x922, anyField, anyField, "ARM922T"},
	{0x41, 0x926, anyField, anyField, "ARM926EJ-S"},
	{0x41, 0x940, anyField, anyField, "ARM940T"},
	{0x41, 0x946, anyField, anyField, "ARM946E-S"},
	{0x41, 0x966, anyField, anyField, "ARM966E-S"},
	{0x41, 0x968, anyField, anyField, "ARM968E-S"},
	{0x41, 0xa20, anyField, anyField, "ARM1020E"},
	{0x41, 0xa22, anyField, anyField, "ARM1022E"},
	{0x41, 0xa26, anyField, anyField, "ARM1026EJ-S"},
	{0x41, 0xb02, anyField, anyField, "ARM11 MPCore"},
	{0x41, 0xb36, anyField, anyField, "ARM1136"},
	{0x41, 0xb56, anyField, anyField, "ARM1156"},
	{0x41, 0xb76, anyField, anyField, "ARM1176"},
	{0x41, 0xc05, anyField, anyField, "Cortex-A5"},
	{0x41, 0xc07, anyField, anyField, "Cortex-A7"},
	{0x41, 0xc08, anyField, anyField, "Cortex-A8"},
	{0x41, 0xc09, anyField, anyField, "Cortex-A9"},
	{0x41, 0xc0d, anyField, anyField, "Cortex-A12"},
	{0x41, 0xc0e, anyField, anyField, "Cortex-A17"},
	{0x41, 0xc0f, anyField, anyField, "Cortex-A15"},
	{0x41, 0xc14, anyField, anyField, "Cortex-R4"},
	{0x41, 0xc15, anyField, anyField, "Cortex-R5"},
	{0x41, 0xc17, anyField, anyField, "Cortex-R7"},
	{0x41, 0xc18, anyField, anyField, "Cortex-R8"},
	{0x41, 0xc20, anyField, anyField, "Cortex-M0"},
	{0x41, 0xc21, anyField, anyField, "Cortex-M1"},
	{0x41, 0xc23, anyField, anyField, "Cortex-M3"},
	{0x41, 0xc24, anyField, anyField, "Cortex-M4"},
	{0x41, 0xc27, anyField, anyField, "Cortex-M7"},
	{0x41, 0xc60, anyField, anyField, "Cortex-M0+"},
	{0x41, 0xd01, anyField, anyField, "Cortex-A32"},
	{0x41, 0xd13, anyField, anyField, "Cortex-R52"},
	{0x41, 0xd15, anyField, anyField, "Cortex-R82"},
	{0x41, 0xd16, anyField, anyField, "Cortex-R52+"},
	{0x41, 0xd20, anyField, anyField, "Cortex-M23"},
	{0x41, 0xd21, anyField, anyField, "Cortex-M33"},
	{0x41, 0xd22, anyField, anyField, "Cortex-M55"},
	{0x41, 0xd23, anyField, anyField, "Cortex-M85"},

	// Cavium / Marvell OCTEON TX2 and ThunderX3.
	{0x43, 0x0b0, anyField, anyField, "OcteonTX2"},
	{0x43, 0x0b1, anyField, anyField, "OcteonTX2-98XX"},
	{0x43, 0x0b2, anyField, anyField, "OcteonTX2-96XX"},
	{0x43, 0x0b3, anyField, anyField, "OcteonTX2-95XX"},
	{0x43, 0x0b4, anyField, anyField, "OcteonTX2-95XXN"},
	{0x43, 0x0b5, anyField, anyField, "OcteonTX2-95XXMM"},
	{0x43, 0x0b6, anyField, anyField, "OcteonTX2-95XXO"},
	{0x43, 0x0b8, anyField, anyField, "ThunderX3-T110"},

	// DEC StrongARM.
	{0x44, 0xa10, anyField, anyField, "SA110"},
	{0x44, 0xa11, anyField, anyField, "SA1100"},

	// HiSilicon: the data set names the chip (Kunpeng 920); the core is
	// TaiShan v110.
	{0x48, 0xd01, anyField, anyField, "TaiShan v110"},

	// Applied Micro X-Gene: the data set swaps the first two. X-Gene 1
	// (e.g. the Mustang board) reports r0p1, X-Gene 2 r1p0.
	{0x50, 0x000, 0, 1, "X-Gene 1"},
	{0x50, 0x000, 1, 0, "X-Gene 2"},

	// NVIDIA.
	{0x4e, 0x010, anyField, anyField, "Olympus"},

	// QEMU's "max" CPU model; the data set calls it "Max".
	{0x00, 0x051, anyField, anyField, "QEMU max"},

	// Faraday.
	{0x66, 0x526, anyField, anyField, "FA526"},
	{0x66, 0x626, anyField, anyField, "FA626"},

	// Intel XScale and StrongARM.
	{0x69, 0x200, anyField, anyField, "XScale 80200"},
	{0x69, 0x210, anyField, anyField, "XScale PXA250A"},
	{0x69, 0x212, anyField, anyField, "XScale PXA210A"},
	{0x69, 0x242, anyField, anyField, "XScale 80321-400"},
	{0x69, 0x243, anyField, anyField, "XScale 80321-600"},
	{0x69, 0x290, anyField, anyField, "XScale PXA250B/PXA26x"},
	{0x69, 0x292, anyField, anyField, "XScale PXA210B"},
	{0x69, 0x2c2, anyField, anyField, "XScale 80321-400-B0"},
	{0x69, 0x2c3, anyField, anyField, "XScale 80321-600-B0"},
	{0x69, 0x2d0, anyField, anyField, "XScale PXA250C/PXA255/PXA26x"},
	{0x69, 0x2d2, anyField, anyField, "XScale PXA210C"},
	{0x69, 0x411, anyField, anyField, "XScale PXA27x"},
	{0x69, 0x41c, anyField, anyField, "XScale IXP425-533"},
	{0x69, 0x41d, anyField, anyField, "XScale IXP425-400"},
	{0x69, 0x41f, anyField, anyField, "XScale IXP425-266"},
	{0x69, 0x682, anyField, anyField, "XScale PXA32x"},
	{0x69, 0x683, anyField, anyField, "XScale PXA930/PXA935"},
	{0x69, 0x688, anyField, anyField, "XScale PXA30x"},
	{0x69, 0x689, anyField, anyField, "XScale PXA31x"},
	{0x69, 0xb11, anyField, anyField, "SA1110"},
	{0x69, 0xc12, anyField, anyField, "XScale IXP1200"},

	// Microsoft.
	{0x6d, 0xd49, anyField, anyField, "Azure Cobalt 100"},
}
