package safejson

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

type inner struct {
	W   *float64 `json:"w,omitempty"`
	Raw json.RawMessage
}

type doc struct {
	A     float64            `json:"a"`
	B     *float64           `json:"b"`
	S     []float64          `json:"s"`
	M     map[string]float64 `json:"m"`
	Any   map[string]any     `json:"any"`
	Text  string             `json:"text"`
	F32   float32            `json:"f32"`
	Skip  float64            `json:"-"`
	inner `json:"-"`
	In    inner `json:"in"`
	Ptrs  []*float64
}

func TestMarshal(t *testing.T) {
	inf, nan, one := math.Inf(1), math.NaN(), 1.5
	sentinelText := string(mustJSON(sentinel64))
	tests := []struct {
		name   string
		v      any
		want   string
		nulled []string
	}{
		{name: "finite values are encoding/json's", v: doc{A: 1, B: &one, S: []float64{2}, Text: "x"},
			want: `{"a":1,"b":1.5,"s":[2],"m":null,"any":null,"text":"x","f32":0,"in":{"Raw":null},"Ptrs":null}`},
		{name: "every place", v: &doc{A: inf, B: &nan, S: []float64{1, math.Inf(-1)}, M: map[string]float64{"x": nan, "y": 2},
			Any: map[string]any{"k": inf, "l": []any{nan, 3.0}}, Text: sentinelText, F32: float32(math.Inf(1)), Skip: inf,
			In: inner{W: &inf, Raw: json.RawMessage(`{"q":1}`)}, Ptrs: []*float64{&one, &nan}},
			want: `{"a":null,"b":null,"s":[1,null],"m":{"x":null,"y":2},"any":{"k":null,"l":[null,3]},"text":"` + sentinelText +
				`","f32":null,"in":{"Raw":{"q":1}},"Ptrs":[1.5,null]}`,
			nulled: []string{"a (+Inf)", "b (NaN)", "s[1] (-Inf)", "m.x (NaN)", "any.k (+Inf)", "any.l[0] (NaN)", "f32 (+Inf)", "in.w (+Inf)", "Ptrs[1] (NaN)"}},
		{name: "a bare float", v: nan, want: `null`, nulled: []string{"(value) (NaN)"}},
		{name: "a map of pointers", v: map[int]*float64{1: &inf, 2: &one}, want: `{"1":null,"2":1.5}`, nulled: []string{"1 (+Inf)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := snapshot(tc.v)
			got, nulled, err := Marshal(tc.v, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if !reflect.DeepEqual(nulled, tc.nulled) {
				t.Errorf("nulled %q, want %q", nulled, tc.nulled)
			}
			if !json.Valid(got) {
				t.Errorf("not valid JSON: %s", got)
			}
			if after := snapshot(tc.v); after != before {
				t.Errorf("the value changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

func TestMarshalIndentAndHTML(t *testing.T) {
	v := map[string]any{"a": math.Inf(1), "h": "<b>"}
	got, _, err := Marshal(v, Options{Indent: "  ", NoEscapeHTML: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"a\": null,\n  \"h\": \"<b>\"\n}"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// Other errors are encoding/json's.
	if _, _, err := Marshal(map[string]any{"c": make(chan int)}, Options{}); err == nil || !strings.Contains(err.Error(), "unsupported type") {
		t.Errorf("a channel: %v", err)
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// snapshot renders v (maps sorted, pointers as addresses, NaN and Inf
// spelled out), to see that Marshal left it as it was.
func snapshot(v any) string { return fmt.Sprintf("%+v", v) }

// TestControlsEscaped: no byte a terminal acts on survives in the JSON:
// encoding/json's own escapes for C0, and DEL, C1 and bidirectional
// overrides escaped here; the document decodes back to the same text.
func TestControlsEscaped(t *testing.T) {
	name := "board\x1b]0;owned\x07\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\x7f\u009b31m\u0085\u202eevil\u2066é"
	got, _, err := Marshal(map[string]string{"board": name}, Options{NoEscapeHTML: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range got {
		if b < 0x20 || b == 0x7f {
			t.Fatalf("control byte %#x in %q", b, got)
		}
	}
	for _, r := range string(got) {
		if (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Fatalf("control character %U in %q", r, got)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil || back["board"] != name {
		t.Errorf("decoded %q, %v; want %q", back["board"], err, name)
	}
	if !strings.Contains(string(got), `\u009b31m`) || !strings.Contains(string(got), `\u007f`) || !strings.Contains(string(got), "é") {
		t.Errorf("escapes missing or text lost: %s", got)
	}
}
