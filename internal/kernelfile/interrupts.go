package kernelfile

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
)

// Interrupts is the content of /proc/interrupts: one column of counts per
// CPU that was online when the file was read, one line per interrupt.
type Interrupts struct {
	// CPUs are the CPU numbers of the count columns, from the header
	// ("CPU0 CPU1 CPU3" gives [0 1 3]).
	CPUs []int
	// Lines holds the interrupts in the order of the file.
	Lines []Interrupt
}

// Interrupt is one line of /proc/interrupts.
type Interrupt struct {
	// IRQ is the label before the colon: a number ("24") for a device
	// interrupt, a mnemonic ("NMI", "LOC", "IPI0") for an architectural one.
	IRQ string
	// Counts are the counts per CPU, parallel to Interrupts.CPUs; lines
	// that print fewer columns (ERR, MIS) have fewer counts.
	Counts []uint64
	// Desc is the text after the counts: controller, hardware interrupt,
	// trigger and the names of the handlers, space-separated as printed.
	Desc string
	// Actions are the names of the handlers registered on a numbered
	// interrupt ("eth0", "eth0-rx-0", "xhci-hcd:usb1"): the text after the
	// last run of two spaces, split at ", ". Empty for mnemonic lines.
	Actions []string
}

// Number returns the interrupt number of a device interrupt; ok is false
// for mnemonic lines.
func (i Interrupt) Number() (n int, ok bool) {
	v, err := strconv.Atoi(i.IRQ)
	if err != nil || v < 0 {
		return 0, false
	}
	return v, true
}

// Total returns the sum of the counts.
func (i Interrupt) Total() uint64 {
	var s uint64
	for _, c := range i.Counts {
		s += c
	}
	return s
}

// CountOn returns the count of the interrupt on cpu (0 when that CPU has
// no column).
func (t Interrupts) CountOn(line Interrupt, cpu int) uint64 {
	for i, c := range t.CPUs {
		if c == cpu && i < len(line.Counts) {
			return line.Counts[i]
		}
	}
	return 0
}

// maxInterruptLines bounds the lines kept from a hostile file.
const maxInterruptLines = 1 << 14

// ParseInterrupts parses /proc/interrupts. The header names the CPU
// columns; each following line is "LABEL: count... description". A line
// whose counts cannot be read is skipped. ok is false without a header
// naming at least one CPU.
func ParseInterrupts(data []byte) (Interrupts, bool) {
	var out Interrupts
	cpus, body, ok := cpuHeader(data)
	if !ok {
		return out, false
	}
	out.CPUs = cpus
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() && len(out.Lines) < maxInterruptLines {
		label, rest, found := strings.Cut(sc.Text(), ":")
		label = strings.TrimSpace(label)
		if !found || label == "" || strings.ContainsAny(label, " \t") {
			continue
		}
		counts, desc := leadingCounts(rest, len(cpus))
		if len(counts) == 0 {
			continue
		}
		line := Interrupt{IRQ: label, Counts: counts, Desc: strings.Join(strings.Fields(desc), " ")}
		if _, numbered := line.Number(); numbered {
			line.Actions = actionNames(desc)
		}
		out.Lines = append(out.Lines, line)
	}
	return out, true
}

// cpuHeader reads a "CPU0 CPU1 ..." header line (of /proc/interrupts or
// /proc/softirqs) and returns the CPU numbers and the rest of the file.
func cpuHeader(data []byte) (cpus []int, body []byte, ok bool) {
	head, body, _ := bytes.Cut(data, []byte("\n"))
	for _, f := range strings.Fields(string(head)) {
		num, found := strings.CutPrefix(f, "CPU")
		if !found {
			return nil, nil, false
		}
		n, err := strconv.Atoi(num)
		if err != nil || n < 0 || n > 1<<16 {
			return nil, nil, false
		}
		cpus = append(cpus, n)
	}
	return cpus, body, len(cpus) > 0
}

// leadingCounts reads up to n decimal counts at the start of s and returns
// them with the text that follows.
func leadingCounts(s string, n int) ([]uint64, string) {
	var counts []uint64
	rest := s
	for len(counts) < n {
		trimmed := strings.TrimLeft(rest, " \t")
		end := strings.IndexAny(trimmed, " \t")
		if end < 0 {
			end = len(trimmed)
		}
		v, err := strconv.ParseUint(trimmed[:end], 10, 64)
		if err != nil {
			break
		}
		counts = append(counts, v)
		rest = trimmed[end:]
	}
	return counts, rest
}

// actionNames returns the handler names at the end of a numbered line's
// description: the kernel prints them after two spaces, joined by ", ".
func actionNames(desc string) []string {
	desc = strings.TrimRight(desc, " \t")
	i := strings.LastIndex(desc, "  ")
	if i < 0 {
		return nil
	}
	var names []string
	for _, n := range strings.Split(desc[i+2:], ", ") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names
}
