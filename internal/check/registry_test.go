package check

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRegistry lists every rule id of the registry: each id once, each
// rule with a function and a description of what it reads, the result
// rules as Rules, and each id documented in docs/verdicts.md (as `id`).
func TestRegistry(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "verdicts.md"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var undocumented []string
	for _, d := range Registry() {
		if d.ID == "" || seen[d.ID] {
			t.Errorf("id %q empty or registered twice", d.ID)
		}
		seen[d.ID] = true
		if d.Func == nil || d.Reads == "" || d.Severity.Rank() < 0 || d.Domain == "" {
			t.Errorf("%s: incomplete rule %+v", d.ID, d)
		}
		if _, ok := d.Func.(Rule); ok != (d.Domain == DomainResult) {
			t.Errorf("%s: domain %s, function %T: a result rule is a Rule, and only it", d.ID, d.Domain, d.Func)
		}
		if !strings.Contains(string(doc), "`"+d.ID+"`") {
			undocumented = append(undocumented, d.ID)
		}
	}
	if len(undocumented) > 0 {
		t.Errorf("rule ids not documented in docs/verdicts.md: %s", strings.Join(undocumented, ", "))
	}
	if len(Rules()) != 23 {
		t.Errorf("%d result rules, want the 23 functions of the registry's result domain", len(Rules()))
	}
}

// TestFindingsBuiltInCheck: no production code outside this package
// builds a finding of a measurement: a rule goes here, under the registry.
// Review (its own registry of advice, sharing the finding type), the
// import of published logs (judged as their author's tool judged them)
// and the served test pages are the exceptions.
func TestFindingsBuiltInCheck(t *testing.T) {
	allowed := []string{"check/", "review/", "sbcimport/", "serve/servetest/"}
	severity := regexp.MustCompile(`Severity:\s*finding\.(Info|Warning|Invalidates)`)
	root := filepath.Join("..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		for _, a := range allowed {
			if strings.HasPrefix(rel, a) {
				return nil
			}
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if severity.Match(data) {
			t.Errorf("internal/%s builds a finding: move the rule to internal/check/<domain>.go and register it", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
