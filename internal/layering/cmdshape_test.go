package layering

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function of a command package may be
// (issue 26: a command is Options, NewCmd(f, runF) and a run function of
// at most about 150 lines; its plan lives in a domain package).
const maxFuncLines = 150

// longFuncsAllowed are the command functions still longer, each with the
// reason; an entry no longer needed is only logged (the branch that
// shortens it need not touch this file).
var longFuncsAllowed = map[string]string{}

// shapeAllowed are the measuring commands (those that link the session
// engine) not yet in the cli shape, each with the reason; an entry no
// longer needed is only logged.
var shapeAllowed = map[string]string{}

// cmdPackages parses the non-test files of every package under
// internal/cmd, by package directory (relative to the module root).
func cmdPackages(t *testing.T) (*token.FileSet, map[string][]*ast.File, map[string]bool) {
	t.Helper()
	fset := token.NewFileSet()
	files := map[string][]*ast.File{}
	hasOptionsTest := map[string]bool{}
	root := filepath.Join(moduleRoot, "internal", "cmd")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, _ := filepath.Rel(moduleRoot, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		if strings.HasSuffix(path, "_test.go") {
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if strings.Contains(string(src), "func TestNewCmdOptions(") {
				hasOptionsTest[rel] = true
			}
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files[rel] = append(files[rel], f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("found only %d command packages under %s", len(files), root)
	}
	return fset, files, hasOptionsTest
}

// longFuncs returns "package name" → lines of every function (declared
// or literal) longer than maxFuncLines.
func longFuncs(fset *token.FileSet, files map[string][]*ast.File) map[string]int {
	out := map[string]int{}
	for pkg, fs := range files {
		for _, f := range fs {
			ast.Inspect(f, func(n ast.Node) bool {
				name := "func literal"
				var body *ast.BlockStmt
				switch x := n.(type) {
				case *ast.FuncDecl:
					name, body = x.Name.Name, x.Body
				case *ast.FuncLit:
					body = x.Body
				default:
					return true
				}
				if body == nil {
					return true
				}
				if lines := fset.Position(body.End()).Line - fset.Position(n.Pos()).Line + 1; lines > maxFuncLines {
					out[pkg+" "+name] = lines
				}
				return true
			})
		}
	}
	return out
}

// TestCommandFunctionsShort fails when a function of a command package is
// longer than maxFuncLines: the steps belong in the command's plan, in a
// domain package (docs/architecture.md, "Where a new piece goes").
func TestCommandFunctionsShort(t *testing.T) {
	fset, files, _ := cmdPackages(t)
	long := longFuncs(fset, files)
	for _, key := range sortedKeys(long) {
		if _, ok := longFuncsAllowed[key]; ok {
			continue
		}
		t.Errorf("%s is %d lines, more than %d: move the plan into the command's domain package", key, long[key], maxFuncLines)
	}
	for key := range longFuncsAllowed {
		if _, ok := long[key]; !ok {
			t.Logf("longFuncsAllowed[%q] is not needed any more", key)
		}
	}
}

// measuring reports whether the package's files import the session engine.
func measuring(fs []*ast.File) bool {
	for _, f := range fs {
		for _, im := range f.Imports {
			if im.Path.Value == `"`+module+`/internal/session"` {
				return true
			}
		}
	}
	return false
}

// cliShape reports whether the package declares type Options and
// func NewCmd(f *cmdutil.Factory, runF func(*Options) error).
func cliShape(fs []*ast.File) bool {
	options, newCmd := false, false
	for _, f := range fs {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					if ts, ok := sp.(*ast.TypeSpec); ok && ts.Name.Name == "Options" {
						options = true
					}
				}
			case *ast.FuncDecl:
				if d.Recv != nil || d.Name.Name != "NewCmd" || len(d.Type.Params.List) != 2 {
					continue
				}
				ft, ok := d.Type.Params.List[1].Type.(*ast.FuncType)
				if !ok || len(ft.Params.List) != 1 {
					continue
				}
				if star, ok := ft.Params.List[0].Type.(*ast.StarExpr); ok {
					if id, ok := star.X.(*ast.Ident); ok && id.Name == "Options" {
						newCmd = true
					}
				}
			}
		}
	}
	return options && newCmd
}

// TestMeasuringCommandsHaveCLIShape fails when a command that links the
// session engine lacks Options, NewCmd(f, runF) or a TestNewCmdOptions
// that checks its flags through runF.
func TestMeasuringCommandsHaveCLIShape(t *testing.T) {
	_, files, hasTest := cmdPackages(t)
	seen := 0
	for _, pkg := range sortedKeys(files) {
		if !measuring(files[pkg]) {
			continue
		}
		seen++
		ok := cliShape(files[pkg]) && hasTest[pkg]
		_, allowed := shapeAllowed[pkg]
		switch {
		case !ok && !allowed:
			t.Errorf("%s measures but is not Options, NewCmd(f, runF) and a run function with a TestNewCmdOptions through runF (copy internal/cmd/c2c)", pkg)
		case ok && allowed:
			t.Logf("shapeAllowed[%q] is not needed any more", pkg)
		}
	}
	if seen < 8 {
		t.Fatalf("found only %d measuring commands: the scan is broken", seen)
	}
}

// TestShapeRulesSeeAViolation runs both checks on a small command
// package, so that each is known to fail.
func TestShapeRulesSeeAViolation(t *testing.T) {
	src := `package x
import "boardbench/internal/session"
func NewCmd(f *cmdutil.Factory) *cobra.Command { return nil }
func run() {` + strings.Repeat("\n\t_ = session.Config{}", maxFuncLines) + `
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]*ast.File{"internal/cmd/x": {f}}
	if !measuring(files["internal/cmd/x"]) || cliShape(files["internal/cmd/x"]) {
		t.Error("a measuring command without Options and runF passes the shape check")
	}
	if long := longFuncs(fset, files); long["internal/cmd/x run"] <= maxFuncLines {
		t.Errorf("a run function of %d lines is not reported: %v", maxFuncLines+2, long)
	}
	good := `package x
type Options struct{}
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command { return nil }`
	g, err := parser.ParseFile(fset, "y.go", good, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !cliShape([]*ast.File{g}) {
		t.Error("the cli shape is not recognised")
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
