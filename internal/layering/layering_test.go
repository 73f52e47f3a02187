package layering

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// module is the module path of boardbench; moduleRoot its directory.
const (
	module     = "boardbench"
	moduleRoot = "../.."
)

// imports returns, for every package directory of the module under cmd/
// and internal/, the import paths of its production (non-test) files,
// whatever their build tags.
func imports(t *testing.T) map[string]map[string][]string {
	t.Helper()
	out := map[string]map[string][]string{} // package → import → files
	fset := token.NewFileSet()
	for _, top := range []string{"cmd", "internal"} {
		err := filepath.WalkDir(filepath.Join(moduleRoot, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(moduleRoot, filepath.Dir(path))
			pkg := module + "/" + filepath.ToSlash(rel)
			if out[pkg] == nil {
				out[pkg] = map[string][]string{}
			}
			for _, im := range f.Imports {
				p, _ := strconv.Unquote(im.Path.Value)
				out[pkg][p] = append(out[pkg][p], filepath.ToSlash(path))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 20 {
		t.Fatalf("found only %d packages under %s: wrong module root?", len(out), moduleRoot)
	}
	return out
}

// testOnly reports whether pkg is a helper that only tests import
// (internal/testutil/...): it may import "testing".
func testOnly(pkg string) bool {
	return strings.HasPrefix(pkg, module+"/internal/testutil/") || pkg == module+"/internal/testutil"
}

// TestNoTestingInProduction fails when production code imports "testing"
// (e.g. to call testing.Testing() and behave differently under go test)
// or a test-only helper package: tests give production code their state
// directories and stores through configuration or the environment.
func TestNoTestingInProduction(t *testing.T) {
	for pkg, ims := range imports(t) {
		if testOnly(pkg) {
			continue
		}
		for im, files := range ims {
			if im == "testing" || strings.HasPrefix(im, "testing/") || testOnly(im) {
				t.Errorf("%s imports %q (production code must not know it runs under go test)", strings.Join(files, ", "), im)
			}
		}
	}
}

// deps returns the module's packages pkg imports, directly or not.
func deps(all map[string]map[string][]string, pkg string) []string {
	seen := map[string]bool{}
	var walk func(p string)
	walk = func(p string) {
		for im := range all[p] {
			if strings.HasPrefix(im, module+"/") && !seen[im] {
				seen[im] = true
				walk(im)
			}
		}
	}
	walk(pkg)
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// TestCmdutilIsALeaf fails when package cmdutil (flags, exit statuses,
// arguments, refusals), which every command links, comes to import the
// session engine, the results store, the result schema or the tuning
// package, directly or through another package: they belong in package
// cmdstore or the commands that measure (the tuning lock is
// tune.CommandLock, called by the commands that tune).
func TestCmdutilIsALeaf(t *testing.T) {
	all := imports(t)
	forbidden := []string{"session", "store", "result", "cmdstore", "tune"}
	for _, pkg := range []string{"cmdutil", "cmd/version"} {
		for _, d := range deps(all, module+"/internal/"+pkg) {
			for _, f := range forbidden {
				if d == module+"/internal/"+f {
					t.Errorf("internal/%s links %s", pkg, d)
				}
			}
		}
	}
}

// TestRuleSeesAViolation checks the walker on a file of its own: a
// production file importing "testing" is found.
func TestRuleSeesAViolation(t *testing.T) {
	dir := t.TempDir()
	src := "package x\n\nimport \"testing\"\n\nvar _ = testing.Testing\n"
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, "x.go"), nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Imports) != 1 || f.Imports[0].Path.Value != `"testing"` {
		t.Errorf("imports = %v, want testing", f.Imports)
	}
	all := map[string]map[string][]string{
		"boardbench/internal/a": {"boardbench/internal/b": nil},
		"boardbench/internal/b": {"boardbench/internal/session": nil},
	}
	if got := deps(all, "boardbench/internal/a"); strings.Join(got, " ") != "boardbench/internal/b boardbench/internal/session" {
		t.Errorf("deps = %v", got)
	}
}
