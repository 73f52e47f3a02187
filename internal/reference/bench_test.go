package reference

import (
	"io"
	"testing"

	"boardbench/internal/textfmt"
)

// BenchmarkReportPlacement is what placing a result adds to `report`:
// decoding the embedded set, placing the figures and writing the section.
// docs/reference.md records the time (the budget is 20 ms).
func BenchmarkReportPlacement(b *testing.B) {
	r := rk3588Result("Rockchip RK3588", 1800, 12300, 10700)
	for i := 0; i < b.N; i++ {
		s, err := Embedded()
		if err != nil {
			b.Fatal(err)
		}
		RenderPlacement(textfmt.New(io.Discard, false), s.Place(r))
	}
}
