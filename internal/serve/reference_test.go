package serve

import (
	"net/http"
	"strings"
	"testing"
)

// TestReferencePages: the index lists the reference set's SoCs; a SoC's
// page draws each figure's strip and marks a stored result on it; an SoC
// the set does not hold is a 404, a malformed result id a 400.
func TestReferencePages(t *testing.T) {
	h := newTestServer(12)
	rec := get(t, h, "/reference")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `<a href="/reference/rk3588">`) {
		t.Fatalf("index: %d\n%s", rec.Code, rec.Body)
	}
	rec = get(t, h, "/reference/rk3588")
	body := rec.Body.String()
	if rec.Code != http.StatusOK || strings.Count(body, "<svg") < 6 || !strings.Contains(body, "7-Zip 16.02") || strings.Contains(body, "#cf222e") {
		t.Errorf("rk3588 page without a result: %d", rec.Code)
	}
	rec = get(t, h, "/reference/rk3588s?result=00000000000000000000000000000004")
	body = rec.Body.String()
	if rec.Code != http.StatusOK || !strings.Contains(body, `fill="#cf222e"`) || !strings.Contains(body, `href="/results/00000000000000000000000000000004"`) {
		t.Errorf("marked page: %d\n%s", rec.Code, body)
	}
	if rec := get(t, h, "/reference/zz9999"); rec.Code != http.StatusNotFound {
		t.Errorf("unknown SoC: %d", rec.Code)
	}
	if rec := get(t, h, "/reference/rk3588?result=XYZ"); rec.Code != http.StatusBadRequest {
		t.Errorf("bad id: %d", rec.Code)
	}
	if rec := get(t, h, "/reference/rk3588?result=00000000000000000000000000000fff"); rec.Code != http.StatusNotFound {
		t.Errorf("missing result: %d", rec.Code)
	}
	for _, s := range []string{"<script", "javascript:"} {
		if strings.Contains(body, s) {
			t.Errorf("page contains %q", s)
		}
	}
}
