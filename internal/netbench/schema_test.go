package netbench

import (
	"encoding/json"
	"testing"

	"boardbench/internal/inventory/netif"
	"boardbench/internal/testutil/fill"
)

// TestNetInterfacesKeepEveryField: the result's interfaces have every
// field of netif's descriptions, under the same JSON names.
func TestNetInterfacesKeepEveryField(t *testing.T) {
	var ds []netif.Details
	fill.All(&ds)
	for name, in := range map[string][]netif.Details{"filled": ds, "empty": {{}}, "none": nil} {
		a, _ := json.Marshal(in)
		b, _ := json.Marshal(netInterfaces(in))
		if string(a) != string(b) {
			t.Errorf("%s: the conversion changes the JSON:\n%s\n%s", name, a, b)
		}
	}
}
