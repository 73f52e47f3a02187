package memory

import (
	"strings"
	"testing"

	"boardbench/internal/kernelfile"
)

func FuzzParseMountinfo(f *testing.F) {
	f.Add([]byte("21 1 179:2 / / rw,noatime shared:1 - ext4 /dev/root rw\n"))
	f.Add([]byte("1 2 3 4 5 6 - \n- - - - - - - -\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab := mountTable{mounts: kernelfile.ParseMountInfo(string(data))}
		tab.mounts = append(tab.mounts, kernelfile.ParseMounts(string(data))...)
		if m, ok := tab.holding("/var/swap"); ok && !strings.HasPrefix(m.MountPoint, "/") && m.MountPoint != "" {
			t.Errorf("holding picked a relative mount point %q", m.MountPoint)
		}
	})
}

func FuzzParseSmallFiles(f *testing.F) {
	f.Add("always [madvise] never")
	f.Add("  4096  74  12288  0  12288  0  0  0  0")
	f.Add("[")
	f.Fuzz(func(t *testing.T, s string) {
		if c, ok := choiceOf(s); ok != (c.Selected != "") {
			t.Errorf("choiceOf(%q) = %+v, %v", s, c, ok)
		}
		if st, ok := kernelfile.ParseMMStat(s); ok && (st.OrigData < 0 || st.ComprData < 0 || st.MemUsed < 0) {
			t.Errorf("ParseMMStat(%q) = %+v", s, st)
		}
		_ = trimPartition(s)
	})
}
