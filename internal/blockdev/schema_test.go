package blockdev

import (
	"encoding/json"
	"testing"

	"boardbench/internal/testutil/fill"
)

// TestToResultKeepsEveryField: the result's device has every field of
// the identity, under the same JSON names.
func TestToResultKeepsEveryField(t *testing.T) {
	for name, id := range map[string]*Identity{"filled": new(Identity), "empty": {}} {
		if name == "filled" {
			fill.All(id)
		}
		a, _ := json.Marshal(id)
		b, _ := json.Marshal(id.ToResult())
		if string(a) != string(b) {
			t.Errorf("%s: the conversion changes the JSON:\n%s\n%s", name, a, b)
		}
	}
	if (*Identity)(nil).ToResult() != nil {
		t.Error("nil identity converts to a device")
	}
}
