package serve

import "testing"

func TestKnownTableParam(t *testing.T) {
	for _, name := range []string{"q", "soc", "core", "kernel", "tag", "kind", "valid", "sort", "dir", "page", "per"} {
		if !knownTableParam(name) {
			t.Errorf("knownTableParam(%q) = false, want true", name)
		}
	}
	for _, name := range []string{"", "Q", "board", "limit", "offset", "page "} {
		if knownTableParam(name) {
			t.Errorf("knownTableParam(%q) = true, want false", name)
		}
	}
}
