package results

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"boardbench/internal/store"
)

// TestWriteListJSONMatchesWholeArray checks that the streamed array is byte
// for byte what encoding the whole array at once prints.
func TestWriteListJSONMatchesWholeArray(t *testing.T) {
	at := time.Date(2025, 11, 24, 10, 2, 13, 0, time.UTC)
	one := store.Record{ID: "a1", Kind: "run", Board: "Board <A> & B", SoC: "RK3588", CreatedAt: at, Status: "complete", Valid: true,
		Figures: map[string]float64{"sevenzip_multi_mips": 12345.5, "memcpy_mb_s.max": 3}}
	two := store.Record{ID: "b2", Kind: "import", CreatedAt: at.Add(time.Hour), Status: "partial"}
	three := store.Record{ID: "c3", Kind: "mem", Figures: map[string]float64{}}
	tests := []struct {
		name string
		recs []store.Record
	}{
		{"empty", nil},
		{"one", []store.Record{one}},
		{"three", []store.Record{one, two, three}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items := make([]ListItem, 0, len(tt.recs))
			for _, r := range tt.recs {
				items = append(items, ListItem{Heading: r.Heading(), Summary: r.Figures})
			}
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			if err := enc.Encode(items); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := writeListJSON(&got, tt.recs); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("streamed output differs:\ngot:\n%s\nwant:\n%s", got.String(), want.String())
			}
			if len(tt.recs) == 0 && got.String() != "[]\n" {
				t.Errorf("empty list printed %q, want \"[]\\n\"", got.String())
			}
		})
	}
}
