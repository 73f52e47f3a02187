// Package fill sets every field of a value, for tests that check that a
// conversion between two types of the same JSON keeps every field: fill
// the source, convert, and compare the two JSON documents. Only tests
// import it.
package fill

import (
	"reflect"
	"time"
)

// All sets every exported field that v (a pointer) reaches to a value
// that is not the zero value: strings "x", numbers 1, bools true, one
// element in slices and maps, allocated pointers. A type met again on
// its own path is left zero, so recursive types end.
func All(v any) {
	set(reflect.ValueOf(v).Elem(), map[reflect.Type]bool{})
}

var timeType = reflect.TypeOf(time.Time{})

func set(v reflect.Value, seen map[reflect.Type]bool) {
	t := v.Type()
	if seen[t] {
		return
	}
	switch {
	case t == timeType:
		v.Set(reflect.ValueOf(time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)))
		return
	}
	switch t.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		set(p.Elem(), seen)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(t, 1, 1)
		set(s.Index(0), seen)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(t)
		k := reflect.New(t.Key()).Elem()
		set(k, seen)
		e := reflect.New(t.Elem()).Elem()
		set(e, seen)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		seen[t] = true
		for i := 0; i < t.NumField(); i++ {
			if t.Field(i).IsExported() {
				set(v.Field(i), seen)
			}
		}
		delete(seen, t)
	}
}
