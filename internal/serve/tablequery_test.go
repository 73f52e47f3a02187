package serve

import (
	"net/url"
	"reflect"
	"testing"

	"boardbench/internal/store"
)

// TestTableQuery checks the store query a table URL asks for (what
// benchlab -explain shows the plans of) and the refusal of a bad one.
func TestTableQuery(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want store.Query
		bad  bool
	}{
		{"", store.Query{Sort: "created_at", Desc: true, Limit: DefaultPageSize, CountUpTo: CountUpTo, Kinds: DefaultKinds}, false},
		{"soc=RK3588&page=200", store.Query{SoC: "RK3588", Sort: "created_at", Desc: true, Offset: 199 * DefaultPageSize, Limit: DefaultPageSize, CountUpTo: CountUpTo, Kinds: DefaultKinds}, false},
		{"q=pi&sort=7zip-multi&dir=asc&page=3&per=10&valid=1", store.Query{Text: "pi", Sort: "sevenzip_multi_mips", ValidOnly: true, Offset: 20, Limit: 10, CountUpTo: CountUpTo, Kinds: DefaultKinds}, false},
		{"nosuch=1", store.Query{}, true},
		{"sort=nosuch", store.Query{}, true},
	} {
		v, err := url.ParseQuery(c.raw)
		if err != nil {
			t.Fatal(err)
		}
		got, err := TableQuery(v)
		if c.bad {
			if err == nil {
				t.Errorf("%q: no error", c.raw)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %+v, %v; want %+v", c.raw, got, err, c.want)
		}
	}
}
