package kernelfile

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The rule (docs/architecture.md): a kernel file under /proc or /sys is
// parsed in package kernelfile only. Other packages read a file through
// host (or kernelfile's Read helpers) and hand its content to a kernelfile
// parser; they may use the content of a one-value attribute whole (trim
// it, compare it, convert it with strconv), but never split it into lines
// or fields themselves.
//
// TestKernelFilesParsedInKernelfile checks the rule on the module's
// non-test Go source with go/ast: it finds every read of a /proc or /sys
// path (a call whose name begins with "read", such as host's ReadFile,
// ReadString and ReadHead, review's Env.Read or a package's own
// readString wrapper, whose path argument is built from literals) and
// follows the variable the content lands in, through conversions, trims,
// assignments and the package's own functions. A read is a violation
// when the content is split (strings or bytes Fields, Split, Cut, Index,
// Lines, a scanner or reader over it, a regular expression, slicing; not
// a loop over its runes or bytes), and, for the kernel files kernelfile parses (ownedFiles),
// also when it never reaches a kernelfile function.

// ownedFiles are the kernel files that have a parser in kernelfile, as
// path patterns ("*" for one run-time part).
var ownedFiles = []string{
	"/proc/cpuinfo", "/proc/stat", "/proc/*/stat", "/proc/loadavg", "/proc/meminfo",
	"/proc/vmstat", "/proc/interrupts", "/proc/softirqs", "/proc/swaps", "/proc/mounts",
	"/proc/*/mountinfo", "/proc/*/maps", "/proc/*/fdinfo/*", "/proc/*/io", "/proc/*/cgroup",
	"/sys/class/block/*/stat", "/sys/devices/system/cpu/cpufreq/*/stats/time_in_state",
	"/sys/devices/system/cpu/vulnerabilities/*",
}

// allowed are the reads whose content a package may cut itself, each with
// the reason: "package|path pattern" → why. Keep it short: a file with
// structure gets a parser in kernelfile instead.
var allowed = map[string]string{
	// One value with its unit ("8.0 GT/s PCIe"): buses.ParseLinkSpeed cuts
	// the unit off a number, as strconv would read a plain one.
	"internal/inventory/buses|/sys/bus/pci/devices/*/current_link_speed": "one value with a unit",
	"internal/inventory/buses|/sys/bus/pci/devices/*/max_link_speed":     "one value with a unit",
}

// skippedDirs are not checked: kernelfile itself, host (the door, which
// reads for others), and code that never reads a machine.
var skippedDirs = []string{"internal/kernelfile", "internal/host", "internal/regfile", "internal/testutil"}

func TestKernelFilesParsedInKernelfile(t *testing.T) {
	root := filepath.Join("..", "..")
	reads, err := scanModule(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(reads) < 50 {
		t.Fatalf("found only %d reads of /proc and /sys: the scan is broken", len(reads))
	}
	used := map[string]bool{}
	byPkg := map[string][]string{}
	for _, r := range reads {
		byPkg[r.pkg] = append(byPkg[r.pkg], r.pattern)
		key := r.pkg + "|" + r.pattern
		if why := r.violation(); why != "" {
			if _, ok := allowed[key]; ok {
				used[key] = true
				continue
			}
			t.Errorf("%s: %s %s outside internal/kernelfile (%s); add a parser to internal/kernelfile/ and call it", r.pos, why, r.pattern, r.detail)
		}
	}
	for key := range allowed {
		if !used[key] {
			t.Errorf("allowed[%q] is not needed any more: remove it", key)
		}
	}
	// The list of kernel files each package reads (go test -v shows it).
	for _, pkg := range slices.Sorted(maps.Keys(byPkg)) {
		files := slices.Compact(slices.Sorted(slices.Values(byPkg[pkg])))
		t.Logf("%s reads %s", pkg, strings.Join(files, " "))
	}
}

// TestRuleCatchesParsers runs the scan on small packages, so that the rule
// is known to fail on each kind of violation and to pass the allowed forms.
func TestRuleCatchesParsers(t *testing.T) {
	cases := []struct {
		name, src string
		want      string // "" for no violation
	}{
		{"split by hand", `package p
func f(h H) int { s, _ := h.ReadString("/proc/mounts"); return len(strings.Fields(s)) }`, "splits"},
		{"owned file parsed by kernelfile", `package p
func f(h H) int { s, _ := h.ReadString("/proc/mounts"); return len(kernelfile.ParseMounts(s)) }`, ""},
		{"owned file not parsed by kernelfile", `package p
func f(h H) []byte { b, _ := h.ReadFile("/proc/self/mountinfo"); return other.Parse(b) }`, "does not parse"},
		{"own wrapper that splits", `package p
func f(h H, pid string) []string { b, _ := h.ReadFile("/proc/" + pid + "/environ"); return parse(string(b)) }
func parse(s string) []string { return strings.Split(s, "\x00") }`, "splits"},
		{"path wrapper that splits", `package p
func f(h H) []string { return readList(h, "/sys/devices/system/cpu/online") }
func readList(h H, p string) []string { s, _ := h.ReadString(p); return strings.Split(s, ",") }`, "splits"},
		{"format string path", `package p
func f(h H, n int) []string { s, _ := h.ReadString(fmt.Sprintf("/sys/class/hwmon/hwmon%d/name", n)); for l := range strings.Lines(s) { _ = l }; return nil }`, "splits"},
		{"one value used whole", `package p
func f(h H) int64 { s, _ := h.ReadString("/sys/class/thermal/thermal_zone0/temp"); v, _ := strconv.ParseInt(strings.TrimSpace(s), 10, 64); return v }`, ""},
		{"runes of a value", `package p
func f(h H) (n int) { s, _ := h.ReadString("/sys/class/dmi/id/board_name"); for _, r := range s { if r < ' ' { n++ } }; return n }`, ""},
		{"cut by index", `package p
func f(h H) string { s, _ := h.ReadString("/proc/version"); if i := strings.IndexByte(s, '\n'); i >= 0 { s = s[:i] }; return s }`, "splits"},
		{"alias then slice", `package p
func f(h H) string { s, _ := h.ReadString("/sys/block/sda/queue/scheduler"); t := strings.TrimSpace(s); return t[1:] }`, "splits"},
		{"bytes of a value", `package p
func f(h H) bool { s, _ := h.ReadString("/sys/devices/system/cpu/cpu0/cache/index0/type"); for i := 0; i < len(s); i++ { if s[i] < 0x20 { return false } }; return true }`, ""},
		{"directory found at run time", `package p
func f(h H) []string { dir := policyDir(h); s, _ := h.ReadString(dir + "/scaling_available_governors"); return strings.Fields(s) }`, "splits"},
		{"wrapper given a directory found at run time", `package p
func f(h H) bool { for _, p := range policies(h) { if !offers(h, p.Dir+"/scaling_available_governors", "performance") { return false } }; return true }
func offers(h H, p, name string) bool { s, _ := h.ReadString(p); return slices.Contains(strings.Fields(s), name) }`, "splits"},
		{"path from a constant", `package p
const dir = "/sys/class/power_supply/"
func f(h H, n string) []string { s, _ := h.ReadString(dir + n + "/uevent"); return strings.Split(s, "\n") }`, "splits"},
		{"not a kernel file", `package p
func f(h H) []string { s, _ := h.ReadString("/etc/os-release"); return strings.Split(s, "\n") }`, ""},
	}
	for _, c := range cases {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", c.src, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		reads := scanPackage(fset, "p", []*ast.File{f})
		got := ""
		for _, r := range reads {
			if v := r.violation(); v != "" {
				got = v
			}
		}
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%s: violation %q, want %q (reads %+v)", c.name, got, c.want, reads)
		}
	}
}

// read is one read of a kernel file found in the source.
type read struct {
	pkg, pattern string
	pos          token.Position
	// split is where the content is split ("" if nowhere); parsed says
	// whether it reaches a kernelfile function.
	split  string
	parsed bool
	// unused is true when the content is not kept in a variable.
	unused bool
	detail string
}

// violation returns what breaks the rule, "" when nothing does.
func (r read) violation() string {
	if r.split != "" {
		return "splits the content of"
	}
	if owned(r.pattern) && !r.parsed && !r.unused {
		return "does not parse with kernelfile the content of"
	}
	return ""
}

// owned reports whether kernelfile has the parser of the files pattern p.
func owned(p string) bool {
	for _, o := range ownedFiles {
		if ok, _ := path.Match(o, p); ok {
			return true
		}
		// "/proc/self/..." is "/proc/*/...".
		if ok, _ := path.Match(o, strings.Replace(p, "/proc/self/", "/proc/*/", 1)); ok {
			return true
		}
	}
	return false
}

// scanModule parses the non-test Go files of every package under root's
// internal and cmd directories and returns their kernel-file reads.
func scanModule(root string) ([]read, error) {
	dirs := map[string][]string{}
	for _, top := range []string{"internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			rel, _ := filepath.Rel(root, filepath.Dir(p))
			rel = filepath.ToSlash(rel)
			for _, s := range skippedDirs {
				if rel == s || strings.HasPrefix(rel, s+"/") {
					return nil
				}
			}
			dirs[rel] = append(dirs[rel], p)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	var out []read
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		fset := token.NewFileSet()
		var files []*ast.File
		for _, p := range dirs[dir] {
			src, err := os.ReadFile(p)
			if err != nil {
				return nil, err
			}
			f, err := parser.ParseFile(fset, p, src, 0)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		}
		out = append(out, scanPackage(fset, dir, files)...)
	}
	return out, nil
}

// scanner holds one package's functions while its reads are followed.
type scanner struct {
	fset    *token.FileSet
	pkg     string
	funcs   map[string][]*ast.FuncDecl // by name (methods by method name)
	parents map[ast.Node]ast.Node
	consts  map[string]ast.Expr    // package-level string constants and variables
	env     map[*ast.Object]string // parameters bound while a callee's return is read
	reads   []read
}

// readName matches the functions that return a file's content.
var readName = regexp.MustCompile(`^(?i:read)`)

// notContent are read functions that do not return content to parse.
var notContent = map[string]bool{"ReadDir": true, "ReadDirNames": true, "Readlink": true, "ReadInt": true}

func scanPackage(fset *token.FileSet, pkg string, files []*ast.File) []read {
	s := &scanner{fset: fset, pkg: pkg, funcs: map[string][]*ast.FuncDecl{}, parents: map[ast.Node]ast.Node{}, consts: map[string]ast.Expr{}}
	for _, f := range files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if len(stack) > 0 {
				s.parents[n] = stack[len(stack)-1]
			}
			stack = append(stack, n)
			return true
		})
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				s.funcs[d.Name.Name] = append(s.funcs[d.Name.Name], d)
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok {
						for i, n := range vs.Names {
							if i < len(vs.Values) {
								s.consts[n.Name] = vs.Values[i]
							}
						}
					}
				}
			}
		}
	}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				s.scanFunc(fd)
			}
		}
	}
	return s.reads
}

// scanFunc finds the reads of kernel files in fd: direct ones, and calls
// of the package's functions that read a path given as an argument.
func (s *scanner) scanFunc(fd *ast.FuncDecl) {
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		name := calleeName(call)
		wrapped := false
		// A call of a package function whose path parameter reaches a read.
		for _, callee := range s.funcs[name] {
			for i, arg := range call.Args {
				p := s.pattern(arg, 0)
				if !kernelPath(p) && !runTimeDir(fd, arg, p) {
					continue
				}
				for _, inner := range s.paramReads(callee, i) {
					r := read{pkg: s.pkg, pattern: p, pos: s.fset.Position(call.Pos()), detail: "through " + name}
					s.follow(inner.fn, inner.call, &r, 0)
					s.follow(fd, call, &r, 0)
					s.reads = append(s.reads, r)
					wrapped = true
				}
			}
		}
		if wrapped || !readName.MatchString(name) || notContent[name] {
			return true
		}
		for _, arg := range call.Args {
			p := s.pattern(arg, 0)
			// A path built from a directory found at run time (a cpufreq
			// policy, a block device): host serves little else than /proc
			// and /sys, so it counts, unless it comes from a parameter
			// (a wrapper, judged at its callers).
			if !kernelPath(p) && !runTimeDir(fd, arg, p) {
				continue
			}
			r := read{pkg: s.pkg, pattern: p, pos: s.fset.Position(call.Pos()), detail: name}
			s.follow(fd, call, &r, 0)
			s.reads = append(s.reads, r)
			break
		}
		return true
	})
}

// runTimeDir reports whether the path pattern p of arg, an argument in fd,
// is a file under a directory found at run time ("*/scaling_governor"),
// not one handed in through fd's parameters (a wrapper, judged at its
// callers).
func runTimeDir(fd *ast.FuncDecl, arg ast.Expr, p string) bool {
	return strings.HasPrefix(p, "*/") && !mentionsParam(fd, arg)
}

type innerRead struct {
	fn   *ast.FuncDecl
	call *ast.CallExpr
}

// paramReads returns the read calls in fn whose path is built from its
// parameter number i.
func (s *scanner) paramReads(fn *ast.FuncDecl, i int) []innerRead {
	param := paramObj(fn, i)
	if param == nil || fn.Body == nil {
		return nil
	}
	var out []innerRead
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !readName.MatchString(calleeName(call)) || notContent[calleeName(call)] {
			return true
		}
		for _, arg := range call.Args {
			if mentions(arg, param) {
				out = append(out, innerRead{fn, call})
				break
			}
		}
		return true
	})
	return out
}

// paramObj returns the object of fn's parameter number i.
func paramObj(fn *ast.FuncDecl, i int) *ast.Object {
	k := 0
	for _, f := range fn.Type.Params.List {
		for _, n := range f.Names {
			if k == i {
				return n.Obj
			}
			k++
		}
		if len(f.Names) == 0 {
			k++
		}
	}
	return nil
}

// mentions reports whether e uses obj (directly or in a path built of it).
func mentions(e ast.Expr, obj *ast.Object) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Obj == obj && obj != nil {
			found = true
		}
		return !found
	})
	return found
}

// mentionsParam reports whether e uses a parameter of fn.
func mentionsParam(fn *ast.FuncDecl, e ast.Expr) bool {
	for i := 0; ; i++ {
		obj := paramObj(fn, i)
		if obj == nil {
			return false
		}
		if mentions(e, obj) {
			return true
		}
	}
}

// calleeName is the name of the called function or method.
func calleeName(call *ast.CallExpr) string {
	switch f := call.Fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

func kernelPath(p string) bool {
	return strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "/sys/")
}

// verb matches a formatting verb of fmt.Sprintf.
var verb = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]`)

// pattern returns the path expression e builds, with "*" for parts known
// only at run time.
func (s *scanner) pattern(e ast.Expr, depth int) string {
	if depth > 8 {
		return "*"
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			if v, err := strconv.Unquote(e.Value); err == nil {
				return v
			}
		}
	case *ast.ParenExpr:
		return s.pattern(e.X, depth+1)
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			return glob(s.pattern(e.X, depth+1) + s.pattern(e.Y, depth+1))
		}
	case *ast.Ident:
		if v, ok := s.env[e.Obj]; ok && e.Obj != nil {
			return v
		}
		if e.Obj != nil {
			switch d := e.Obj.Decl.(type) {
			case *ast.ValueSpec:
				for i, n := range d.Names {
					if n.Obj == e.Obj && i < len(d.Values) {
						return s.pattern(d.Values[i], depth+1)
					}
				}
			case *ast.AssignStmt:
				for i, l := range d.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Obj == e.Obj && len(d.Lhs) == len(d.Rhs) {
						return s.pattern(d.Rhs[i], depth+1)
					}
				}
				// The value of "for _, p := range []string{...}": the first
				// kernel path of the list.
				if u, ok := d.Rhs[0].(*ast.UnaryExpr); ok && u.Op == token.RANGE && len(d.Lhs) == 2 {
					if id, ok := d.Lhs[1].(*ast.Ident); ok && id.Obj == e.Obj {
						if lit, ok := u.X.(*ast.CompositeLit); ok {
							for _, el := range lit.Elts {
								if p := s.pattern(el, depth+1); kernelPath(p) {
									return p
								}
							}
						}
					}
				}
			}
		} else if v, ok := s.consts[e.Name]; ok {
			return s.pattern(v, depth+1)
		}
	case *ast.CallExpr:
		if p, ok := s.returned(e, depth); ok {
			return p
		}
		sel, ok := e.Fun.(*ast.SelectorExpr)
		if !ok {
			break
		}
		pkg, _ := sel.X.(*ast.Ident)
		switch {
		case pkg != nil && pkg.Name == "fmt" && sel.Sel.Name == "Sprintf" && len(e.Args) > 0:
			return glob(verb.ReplaceAllString(s.pattern(e.Args[0], depth+1), "*"))
		case pkg != nil && (pkg.Name == "path" || pkg.Name == "filepath") && sel.Sel.Name == "Join":
			var parts []string
			for _, a := range e.Args {
				parts = append(parts, s.pattern(a, depth+1))
			}
			return glob(strings.Join(parts, "/"))
		}
	}
	return "*"
}

// returned gives the path a call of the package's own function returns
// (cpuPath(id, "online")), its parameters bound to the call's arguments;
// ok is false unless the function has one return statement.
func (s *scanner) returned(call *ast.CallExpr, depth int) (string, bool) {
	id, ok := call.Fun.(*ast.Ident)
	if !ok || len(s.funcs[id.Name]) != 1 {
		return "", false
	}
	fn := s.funcs[id.Name][0]
	if fn.Body == nil {
		return "", false
	}
	var ret []*ast.ReturnStmt
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		if r, ok := n.(*ast.ReturnStmt); ok {
			ret = append(ret, r)
		}
		return true
	})
	if len(ret) != 1 || len(ret[0].Results) == 0 {
		return "", false
	}
	env := map[*ast.Object]string{}
	for i, a := range call.Args {
		if obj := paramObj(fn, i); obj != nil {
			env[obj] = s.pattern(a, depth+1)
		}
	}
	saved := s.env
	s.env = env
	defer func() { s.env = saved }()
	return s.pattern(ret[0].Results[0], depth+1), true
}

// glob tidies a pattern: one "*" per run-time part, single slashes.
func glob(p string) string {
	for strings.Contains(p, "**") {
		p = strings.ReplaceAll(p, "**", "*")
	}
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	return p
}

// splitters are the functions that take content apart.
var splitters = map[string]map[string]bool{
	"strings": set("Fields", "FieldsFunc", "FieldsSeq", "FieldsFuncSeq", "Split", "SplitN", "SplitAfter",
		"SplitAfterN", "SplitSeq", "SplitAfterSeq", "Lines", "Cut", "CutPrefix", "CutSuffix", "Index", "IndexByte",
		"IndexAny", "IndexRune", "IndexFunc", "LastIndex", "LastIndexByte", "LastIndexAny", "NewReader"),
	"bytes": set("Fields", "FieldsFunc", "FieldsSeq", "FieldsFuncSeq", "Split", "SplitN", "SplitAfter",
		"SplitAfterN", "SplitSeq", "SplitAfterSeq", "Lines", "Cut", "CutPrefix", "CutSuffix", "Index", "IndexByte",
		"IndexAny", "IndexRune", "IndexFunc", "LastIndex", "LastIndexByte", "LastIndexAny", "NewReader"),
	"bufio": set("NewScanner", "NewReader"),
	"fmt":   set("Sscanf", "Sscan", "Sscanln"),
}

// keepers return their content argument cleaned but whole.
var keepers = map[string]map[string]bool{
	"strings": set("TrimSpace", "TrimRight", "TrimLeft", "TrimSuffix", "TrimPrefix", "Trim", "ToLower", "ToUpper"),
	"bytes":   set("TrimSpace", "TrimRight", "TrimLeft", "TrimSuffix", "TrimPrefix", "Trim"),
}

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// joined reports whether call's result is joined back at once by
// strings.Join.
func (s *scanner) joined(call *ast.CallExpr) bool {
	p, ok := s.parents[call].(*ast.CallExpr)
	if !ok || len(p.Args) == 0 || p.Args[0] != call {
		return false
	}
	sel, ok := p.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "strings" && sel.Sel.Name == "Join"
}

// follow classifies what happens to the content a read call returns in
// fn: the variable it is assigned to, then every use of it.
func (s *scanner) follow(fn *ast.FuncDecl, call ast.Expr, r *read, depth int) {
	obj := s.assigned(call)
	if obj == nil {
		// Used in place: classify the expression itself.
		if !s.use(fn, call, r, depth) {
			r.unused = true
		}
		return
	}
	s.followObj(fn, obj, r, depth)
}

// assigned returns the variable the value of e (the first result of a
// call) is assigned to, nil when none.
func (s *scanner) assigned(e ast.Expr) *ast.Object {
	switch p := s.parents[e].(type) {
	case *ast.AssignStmt:
		for i, rhs := range p.Rhs {
			if rhs == e && i < len(p.Lhs) {
				if id, ok := p.Lhs[i].(*ast.Ident); ok && id.Name != "_" {
					return id.Obj
				}
			}
		}
	case *ast.ValueSpec:
		for i, v := range p.Values {
			if v == e && i < len(p.Names) && p.Names[i].Name != "_" {
				return p.Names[i].Obj
			}
		}
	}
	return nil
}

// followObj classifies every use of the variable obj in fn.
func (s *scanner) followObj(fn *ast.FuncDecl, obj *ast.Object, r *read, depth int) {
	if obj == nil || depth > 4 {
		return
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || id.Obj != obj {
			return true
		}
		if as, ok := s.parents[id].(*ast.AssignStmt); ok && slices.Contains(as.Lhs, ast.Expr(id)) {
			return true // the assignment itself
		}
		s.use(fn, id, r, depth)
		return true
	})
}

// use classifies one use of the content e in fn; false when e is not used
// at all (an expression statement or blank assignment).
func (s *scanner) use(fn *ast.FuncDecl, e ast.Expr, r *read, depth int) bool {
	switch p := s.parents[e].(type) {
	case *ast.ParenExpr:
		return s.use(fn, p, r, depth)
	case *ast.CallExpr:
		if p.Fun == e {
			return true
		}
		argIndex := slices.Index(p.Args, e)
		// Conversions and trims keep the content whole.
		if id, ok := p.Fun.(*ast.Ident); ok && (id.Name == "string" || id.Name == "[]byte") {
			return s.use(fn, p, r, depth)
		}
		if _, ok := p.Fun.(*ast.ArrayType); ok {
			return s.use(fn, p, r, depth)
		}
		if sel, ok := p.Fun.(*ast.SelectorExpr); ok {
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Obj == nil {
				switch {
				case pkg.Name == "kernelfile":
					r.parsed = true
					return true
				case pkg.Name == "strings" && sel.Sel.Name == "Fields" && s.joined(p):
					// strings.Join(strings.Fields(v), " ") only folds white
					// space (to show a value on one line).
					return true
				case splitters[pkg.Name][sel.Sel.Name]:
					r.split = fmt.Sprintf("%s.%s at %s", pkg.Name, sel.Sel.Name, s.fset.Position(p.Pos()))
					r.detail = r.split
					return true
				case keepers[pkg.Name][sel.Sel.Name] && argIndex == 0:
					if s.assigned(p) != nil {
						s.followObj(fn, s.assigned(p), r, depth+1)
						return true
					}
					return s.use(fn, p, r, depth)
				}
			}
			if strings.HasPrefix(sel.Sel.Name, "Find") || strings.HasPrefix(sel.Sel.Name, "Match") ||
				strings.HasPrefix(sel.Sel.Name, "ReplaceAll") {
				// A regular expression run over the content.
				r.split = fmt.Sprintf("regexp %s at %s", sel.Sel.Name, s.fset.Position(p.Pos()))
				r.detail = r.split
				return true
			}
		}
		// The package's own functions: follow the parameter.
		if argIndex >= 0 {
			for _, callee := range s.funcs[calleeName(p)] {
				if param := paramObj(callee, argIndex); param != nil && callee.Body != nil && callee != fn {
					s.followObj(callee, param, r, depth+1)
				}
			}
		}
		return true
	case *ast.RangeStmt:
		// Ranging over a string goes rune by rune (dropping control
		// characters, say); it does not split lines or fields.
		return true
	case *ast.SliceExpr:
		if p.X == e {
			r.split = "slice at " + s.fset.Position(p.Pos()).String()
			r.detail = r.split
		}
		return true
	case *ast.AssignStmt:
		if obj := s.assigned(e); obj != nil {
			s.followObj(fn, obj, r, depth+1)
			return true
		}
		return !slices.ContainsFunc(p.Lhs, func(l ast.Expr) bool { id, ok := l.(*ast.Ident); return ok && id.Name == "_" })
	case *ast.ExprStmt:
		return false
	}
	return true
}
