package cpu

import (
	"slices"
	"testing"

	"boardbench/internal/testutil/fixture"
)

func TestReadCPUCaches(t *testing.T) {
	const dir = "/sys/devices/system/cpu/cpu2/cache/"
	h := fixture.Host(t, map[string]string{
		dir + "index0/level": "1\n", dir + "index0/type": "Data\n", dir + "index0/size": "32K\n",
		dir + "index0/shared_cpu_list": "2\n", dir + "index0/coherency_line_size": "64\n", dir + "index0/ways_of_associativity": "0\n",
		dir + "index1/level": "2\n", dir + "index1/type": "Unified\n", dir + "index1/size": "lots\n", dir + "index1/shared_cpu_list": "0-3\n",
		dir + "index2/level": "x\n", dir + "index2/type": "Unified\n", dir + "index2/size": "1M\n",
		dir + "index3/level": "3\n", dir + "index3/size": "4M\n",
		dir + "uevent": "",
	})
	got, notes, ok := ReadCPUCaches(h, 2)
	if !ok || len(got) != 3 {
		t.Fatalf("ReadCPUCaches = %+v, %v, %v; want three caches", got, notes, ok)
	}
	l1, l2, l3 := got[0], got[1], got[2]
	if l1.Level != 1 || l1.Type != "Data" || l1.SizeBytes == nil || *l1.SizeBytes != 32<<10 ||
		l1.LineBytes == nil || *l1.LineBytes != 64 || l1.Ways != nil || l1.SharedCPUList != "2" || !slices.Equal(l1.CPUs, []int{2}) {
		t.Errorf("L1 = %+v", l1)
	}
	if l2.SizeBytes != nil || !slices.Equal(l2.CPUs, []int{0, 1, 2, 3}) || l2.Dir != dir+"index1" {
		t.Errorf("L2 = %+v", l2)
	}
	if l3.Type != "" || l3.SharedCPUList != "" || !slices.Equal(l3.CPUs, []int{2}) {
		t.Errorf("L3 = %+v", l3)
	}
	// index1/size malformed, index2/level unreadable, index3/type absent.
	if len(notes) != 3 {
		t.Errorf("notes = %v, want three", notes)
	}
	if _, _, ok := ReadCPUCaches(h, 7); ok {
		t.Error("a CPU without a cache directory reads as ok")
	}
}
