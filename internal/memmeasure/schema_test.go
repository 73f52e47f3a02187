package memmeasure

import (
	"encoding/json"
	"testing"

	"boardbench/internal/probe/memlat"
	"boardbench/internal/testutil/fill"
)

// TestConversionsKeepEveryField: the result's caches and huge-page check
// have every field of memlat's, under the same JSON names.
func TestConversionsKeepEveryField(t *testing.T) {
	var cs []memlat.SysfsCache
	var hp memlat.HugePageCheck
	fill.All(&cs)
	fill.All(&hp)
	for name, pair := range map[string][2]any{
		"caches":     {cs, sysfsCaches(cs)},
		"no caches":  {[]memlat.SysfsCache(nil), sysfsCaches(nil)},
		"huge pages": {&hp, hugePageCheck(&hp)},
		"none":       {(*memlat.HugePageCheck)(nil), hugePageCheck(nil)},
	} {
		a, _ := json.Marshal(pair[0])
		b, _ := json.Marshal(pair[1])
		if string(a) != string(b) {
			t.Errorf("%s: the conversion changes the JSON:\n%s\n%s", name, a, b)
		}
	}
}
