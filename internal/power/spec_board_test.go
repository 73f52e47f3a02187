//go:build board

package power

import (
	"strings"
	"testing"
)

// TestBoardBuildRefusesHTTPSMeters: a board build has no TLS, so an
// https meter is bad input before anything runs.
func TestBoardBuildRefusesHTTPSMeters(t *testing.T) {
	for _, s := range []string{"shelly:https://admin:pw@10.0.0.5", "netio:https://pdu/netio.json#1"} {
		_, err := ParseSpec(s)
		if err == nil || !strings.Contains(err.Error(), "https needs the full build") || strings.Contains(err.Error(), "pw") {
			t.Errorf("%s: %v", s, err)
		}
	}
	if _, err := ParseSpec("shelly:http://10.0.0.5"); err != nil {
		t.Errorf("plain http: %v", err)
	}
}
