package lazyre

import (
	"regexp"
	"slices"
	"sync"
	"testing"
)

const pkgLevel = Regexp(`^(\w+)=(\d+)$`)

// TestSameAsRegexp: each method answers as regexp's does.
func TestSameAsRegexp(t *testing.T) {
	re := regexp.MustCompile(`(a+)(b*)`)
	lz := Regexp(`(a+)(b*)`)
	for _, s := range []string{"", "aab", "xaabyab", "bbb"} {
		if lz.MatchString(s) != re.MatchString(s) || lz.FindString(s) != re.FindString(s) ||
			!slices.Equal(lz.FindStringSubmatch(s), re.FindStringSubmatch(s)) ||
			!slices.Equal(lz.FindStringIndex(s), re.FindStringIndex(s)) ||
			!slices.Equal(lz.Split(s, -1), re.Split(s, -1)) ||
			lz.ReplaceAllString(s, "<$1>") != re.ReplaceAllString(s, "<$1>") ||
			len(lz.FindAllStringSubmatch(s, -1)) != len(re.FindAllStringSubmatch(s, -1)) {
			t.Errorf("%q: lazyre and regexp differ", s)
		}
	}
	if lz.String() != re.String() || lz.NumSubexp() != 2 {
		t.Errorf("String %q NumSubexp %d", lz.String(), lz.NumSubexp())
	}
}

// TestNotCompiledBeforeUse: a package-level expression is compiled by its
// first use, once, also when used concurrently.
func TestNotCompiledBeforeUse(t *testing.T) {
	const fresh = Regexp(`x+y*z?`)
	if _, ok := compiled.Load(fresh); ok {
		t.Fatal("compiled before use")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { fresh.MatchString("xx") })
	}
	wg.Wait()
	first, ok := compiled.Load(fresh)
	if !ok || fresh.Re() != first.(*regexp.Regexp) {
		t.Error("not compiled exactly once")
	}
	if m := pkgLevel.FindStringSubmatch("a=1"); len(m) != 3 || m[2] != "1" {
		t.Errorf("package-level expression: %q", m)
	}
}

// TestBadExpressionPanicsOnUse: a bad expression panics where it is
// used, as regexp.MustCompile does.
func TestBadExpressionPanicsOnUse(t *testing.T) {
	bad := Regexp(`(`)
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	bad.MatchString("x")
}
