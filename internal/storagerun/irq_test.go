package storagerun

import (
	"os"
	"slices"
	"testing"

	"boardbench/internal/kernelfile"
)

// TestBusiestIRQ uses /proc/interrupts recorded on a 2-CPU virtual machine
// before and after 64 MiB of O_DIRECT writes to its virtio disk.
func TestBusiestIRQ(t *testing.T) {
	read := func(name string) kernelfile.Interrupts {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		in, ok := kernelfile.ParseInterrupts(data)
		if !ok {
			t.Fatalf("%s not parsed", name)
		}
		return in
	}
	before, after := read("interrupts-before.txt"), read("interrupts-after.txt")
	irq, cpus := busiestIRQ(before, after)
	if irq != "36 virtio1-req.0" || !slices.Equal(cpus, []int{1}) {
		t.Errorf("busiestIRQ = %q on %v, want the virtio disk's 36 on cpu1", irq, cpus)
	}
	if irq, cpus := busiestIRQ(after, after); irq != "" || cpus != nil {
		t.Errorf("no growth gave %q %v", irq, cpus)
	}
	if irq, _ := busiestIRQ(kernelfile.Interrupts{}, kernelfile.Interrupts{}); irq != "" {
		t.Errorf("empty files gave %q", irq)
	}
}
