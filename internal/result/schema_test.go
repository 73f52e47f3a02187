package result_test

import (
	"bufio"
	"bytes"
	"encoding"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"boardbench/internal/benchtool/wrapped"
	"boardbench/internal/result"
	"boardbench/internal/schema"
)

var update = flag.Bool("update", false, "rewrite docs/schema/result.txt (after bumping internal/schema)")

// goldenSchema is the description of the result JSON the test compares
// with (docs/schema.md, "The schema golden file").
const goldenSchema = "../../docs/schema/result.txt"

// schemaRoots are the documents of the result schema: the result itself
// and every figure type a phase's figures may hold (result.Phase.Figures
// is raw JSON, so reflection does not reach them from the root).
var schemaRoots = []struct {
	name string
	v    any
}{
	{"result", result.Result{}},
	{"figures ClockFigures", result.ClockFigures{}},
	{"figures MemFigures", result.MemFigures{}},
	{"figures MemAllCoresFigures", result.MemAllCoresFigures{}},
	{"figures MemLoadFigures", result.MemLoadFigures{}},
	{"figures C2CFigures", result.C2CFigures{}},
	{"figures OpenSSLFigures", result.OpenSSLFigures{}},
	{"figures CryptsetupFigures", result.CryptsetupFigures{}},
	{"figures SevenZipFigures", result.SevenZipFigures{}},
	{"figures ImportedFigures", result.ImportedFigures{}},
	{"figures NetFigures", result.NetFigures{}},
	{"figures NetInterfaceFigures", result.NetInterfaceFigures{}},
	{"figures StorageFigures", result.StorageFigures{}},
	{"figures StorageFioFigures", result.StorageFioFigures{}},
	{"figures WritesFigures", result.WritesFigures{}},
	{"figures SweepFigures", result.SweepFigures{}},
	{"figures ThermalHeatFigures", result.ThermalHeatFigures{}},
	{"figures ThermalCoolFigures", result.ThermalCoolFigures{}},
	{"figures wrapped.Figures", wrapped.Figures{}},
}

// TestSchemaGolden fails when the JSON shape of a result (every field's
// path, JSON name, kind and omitempty, as reflection sees it from the
// roots) differs from docs/schema/result.txt while the schema version is
// the one the golden file was made for. A change of the JSON needs a bump
// of internal/schema, then `go test ./internal/result -run
// TestSchemaGolden -update` to record it.
func TestSchemaGolden(t *testing.T) {
	got := describeSchema()
	if *update {
		if err := os.WriteFile(goldenSchema, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	raw, err := os.ReadFile(goldenSchema)
	if err != nil {
		t.Fatalf("%v (make it with: go test ./internal/result -run TestSchemaGolden -update)", err)
	}
	want := string(raw)
	wantVersion := goldenVersion(want)
	switch {
	case got == want:
	case wantVersion == schema.Version:
		t.Errorf("the result JSON changed but the schema version is still %s, the version %s was made for: "+
			"bump internal/schema (docs/schema.md), then run go test ./internal/result -run TestSchemaGolden -update\n%s",
			schema.Version, goldenSchema, lineDiff(want, got))
	default:
		t.Errorf("%s was made for schema %s, the schema is now %s: run go test ./internal/result -run TestSchemaGolden -update\n%s",
			goldenSchema, wantVersion, schema.Version, lineDiff(want, got))
	}
}

// TestSchemaGoldenRule checks the rule itself on a changed description: a
// difference under the same version is told apart from a bumped version.
func TestSchemaGoldenRule(t *testing.T) {
	desc := describeSchema()
	if goldenVersion(desc) != schema.Version {
		t.Fatalf("the description's version line = %q, want %s", goldenVersion(desc), schema.Version)
	}
	for _, path := range []string{"phases[].samples[]", "device.", "summary.", "info.", "tool."} {
		if !strings.Contains(desc, "\n"+path) {
			t.Errorf("the description has no line under %q", path)
		}
	}
	if d := lineDiff(desc, desc+"x.y  string\n"); !strings.Contains(d, "+ x.y  string") {
		t.Errorf("lineDiff misses an added line: %q", d)
	}
}

// goldenVersion returns the version a description records on its first
// line ("schema_version 1.1").
func goldenVersion(desc string) string {
	first, _, _ := strings.Cut(desc, "\n")
	return strings.TrimPrefix(first, "schema_version ")
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		sc := bufio.NewScanner(strings.NewReader(s))
		for sc.Scan() {
			m[sc.Text()] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if l != "" && !g[l] {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if l != "" && !w[l] {
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	return b.String()
}

// describeSchema describes the JSON of every root, one line a field:
// its path (arrays as [], maps as {}), its kind, "nullable" for a
// pointer, "omitempty" when absent at its zero value.
func describeSchema() string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "schema_version %s\n", schema.Version)
	b.WriteString("# The JSON of a boardbench result, generated by internal/result's TestSchemaGolden.\n")
	b.WriteString("# path  kind[, nullable][, omitempty]; [] is an array's element, {} a map's value.\n")
	for _, r := range schemaRoots {
		fmt.Fprintf(&b, "\n[%s]\n", r.name)
		describeType(&b, "", reflect.TypeOf(r.v), map[reflect.Type]bool{})
	}
	return b.String()
}

var (
	timeType          = reflect.TypeOf(time.Time{})
	rawType           = reflect.TypeOf(json.RawMessage{})
	jsonMarshaler     = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	textMarshalerType = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()
)

// kind names the JSON kind of t; for an object or array whose members are
// described on lines of their own, it says so.
func kind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == timeType:
		return "string (time)"
	case t == rawType:
		return "raw JSON"
	case t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler):
		return "custom JSON (" + t.String() + ")"
	case t.Implements(textMarshalerType) || reflect.PointerTo(t).Implements(textMarshalerType):
		return "string (text of " + t.String() + ")"
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "bool"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "string (base64)"
		}
		return "array"
	case reflect.Map:
		return "object (map)"
	case reflect.Struct:
		return "object"
	case reflect.Interface:
		return "any"
	}
	return "unsupported " + t.String()
}

// describeType writes the members of t (a struct, array or map) under
// path; seen cuts a type that contains itself.
func describeType(b *bytes.Buffer, path string, t reflect.Type, seen map[reflect.Type]bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if !strings.HasPrefix(kind(t), "object") && kind(t) != "array" {
		return
	}
	if seen[t] {
		fmt.Fprintf(b, "%s  (recursive: as above)\n", path)
		return
	}
	seen[t] = true
	defer delete(seen, t)
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		line(b, path+"[]", t.Elem(), "")
		describeType(b, path+"[]", t.Elem(), seen)
	case reflect.Map:
		line(b, path+"{}", t.Elem(), "")
		describeType(b, path+"{}", t.Elem(), seen)
	case reflect.Struct:
		for _, f := range fields(t) {
			p := f.name
			if path != "" {
				p = path + "." + f.name
			}
			line(b, p, f.t, f.opts)
			describeType(b, p, f.t, seen)
		}
	}
}

// line writes one field's line.
func line(b *bytes.Buffer, path string, t reflect.Type, opts string) {
	k := kind(t)
	if t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map || t.Kind() == reflect.Interface {
		if t != rawType && k != "string (base64)" {
			k += ", nullable"
		}
	}
	if opts != "" {
		k += ", " + opts
	}
	fmt.Fprintf(b, "%s  %s\n", path, k)
}

type jsonField struct {
	name string
	t    reflect.Type
	opts string
}

// fields lists the JSON members of struct t as encoding/json writes them:
// exported fields under their JSON names, embedded structs without a name
// flattened, "-" left out.
func fields(t reflect.Type) []jsonField {
	var out []jsonField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			et := ft
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				out = append(out, fields(et)...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{name: name, t: ft, opts: opts})
	}
	return out
}
