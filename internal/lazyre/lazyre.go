// Package lazyre holds regular expressions that are compiled on first
// use, so that a package-level pattern costs nothing when boardbench
// starts: `boardbench version` must not compile the patterns of parsers it
// never runs, nor run any code at init for them. A Regexp is the
// expression's source text, so a package-level one, or a table of them, is
// static data that the program's start does not touch; it has the methods
// of *regexp.Regexp that boardbench uses, and Re returns the compiled
// expression for anything else.
//
//	const versionRe = lazyre.Regexp(`^v(\d+)`) // compiled when first matched
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on first use: its value is the
// expression's source text. It is safe for concurrent use, as
// *regexp.Regexp is.
type Regexp string

// compiled holds each expression compiled so far (source text to
// *regexp.Regexp). It is a memo of a pure function, so sharing it across
// the process changes no result; its zero value is ready, so it costs
// nothing at init.
var compiled sync.Map

// Re returns the compiled expression; a bad expression panics, as
// regexp.MustCompile does.
func (r Regexp) Re() *regexp.Regexp {
	if re, ok := compiled.Load(r); ok {
		return re.(*regexp.Regexp)
	}
	re, _ := compiled.LoadOrStore(r, regexp.MustCompile(string(r)))
	return re.(*regexp.Regexp)
}

// String returns the source text of the expression.
func (r Regexp) String() string { return string(r) }

// MatchString is regexp.Regexp.MatchString.
func (r Regexp) MatchString(s string) bool { return r.Re().MatchString(s) }

// Match is regexp.Regexp.Match.
func (r Regexp) Match(b []byte) bool { return r.Re().Match(b) }

// Find is regexp.Regexp.Find.
func (r Regexp) Find(b []byte) []byte { return r.Re().Find(b) }

// FindString is regexp.Regexp.FindString.
func (r Regexp) FindString(s string) string { return r.Re().FindString(s) }

// FindStringIndex is regexp.Regexp.FindStringIndex.
func (r Regexp) FindStringIndex(s string) []int { return r.Re().FindStringIndex(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r Regexp) FindStringSubmatch(s string) []string { return r.Re().FindStringSubmatch(s) }

// FindSubmatch is regexp.Regexp.FindSubmatch.
func (r Regexp) FindSubmatch(b []byte) [][]byte { return r.Re().FindSubmatch(b) }

// FindAllString is regexp.Regexp.FindAllString.
func (r Regexp) FindAllString(s string, n int) []string { return r.Re().FindAllString(s, n) }

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (r Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Re().FindAllStringSubmatch(s, n)
}

// FindAllStringSubmatchIndex is regexp.Regexp.FindAllStringSubmatchIndex.
func (r Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Re().FindAllStringSubmatchIndex(s, n)
}

// ReplaceAll is regexp.Regexp.ReplaceAll.
func (r Regexp) ReplaceAll(src, repl []byte) []byte { return r.Re().ReplaceAll(src, repl) }

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r Regexp) ReplaceAllString(src, repl string) string { return r.Re().ReplaceAllString(src, repl) }

// ReplaceAllStringFunc is regexp.Regexp.ReplaceAllStringFunc.
func (r Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Re().ReplaceAllStringFunc(src, repl)
}

// ReplaceAllFunc is regexp.Regexp.ReplaceAllFunc.
func (r Regexp) ReplaceAllFunc(src []byte, repl func([]byte) []byte) []byte {
	return r.Re().ReplaceAllFunc(src, repl)
}

// Split is regexp.Regexp.Split.
func (r Regexp) Split(s string, n int) []string { return r.Re().Split(s, n) }

// SubexpNames is regexp.Regexp.SubexpNames.
func (r Regexp) SubexpNames() []string { return r.Re().SubexpNames() }

// SubexpIndex is regexp.Regexp.SubexpIndex.
func (r Regexp) SubexpIndex(name string) int { return r.Re().SubexpIndex(name) }

// NumSubexp is regexp.Regexp.NumSubexp.
func (r Regexp) NumSubexp() int { return r.Re().NumSubexp() }
