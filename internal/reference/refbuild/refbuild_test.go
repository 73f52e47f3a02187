package refbuild

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"boardbench/internal/reference"
	"boardbench/internal/sbcimport"
	"boardbench/internal/testutil/shareddata"
)

// TestReproducesShippedSet: the generator, run on the shared logs, gives
// the set shipped in the binary (decoded, and byte for byte where the
// compressor is the same).
func TestReproducesShippedSet(t *testing.T) {
	dir := shareddata.Dir(t, "sbc-bench-logs")
	built, err := Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	shipped, err := reference.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(built, shipped) {
		t.Fatalf("the shipped set differs from one built from %s: run scripts/build-reference.sh (built %d entries of %d files, shipped %d of %d)",
			dir, len(built.Entries), built.Files, len(shipped.Entries), shipped.Files)
	}
	var buf bytes.Buffer
	if err := built.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != reference.EmbeddedSize() {
		t.Logf("same set, other compressed size (%d vs %d bytes): another Go version's compressor", buf.Len(), reference.EmbeddedSize())
	}
	if len(built.Entries) < 100 {
		t.Errorf("only %d entries from %d files", len(built.Entries), built.Files)
	}
}

// TestFromLog: a log reduced to an entry keeps its SoC, cores, figures and
// conditions; its validation says whether it was disturbed; a file that
// is not a log gives none.
func TestFromLog(t *testing.T) {
	dir := shareddata.Dir(t, "sbc-bench-logs")
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Skip(err)
		}
		return b
	}
	// a clean RK3588 log with tuned governors
	e, ok := FromLog("1Xuf1O1", read("1Xuf1O1.txt"))
	if !ok {
		t.Fatal("no entry")
	}
	if reference.SoCKey(e.SoC) != "rk3588" || e.Cores != "4×Cortex-A55 + 4×Cortex-A76" || e.SevenZip != "16.02" || e.Bits != 64 ||
		e.Clean == nil || !*e.Clean || len(e.Disturbed) != 0 || e.KernelKind != "vendor" {
		t.Errorf("entry = %+v", e)
	}
	for _, k := range []string{reference.KeyClock, reference.KeyMulti, reference.KeySingle, reference.KeyAES, reference.KeyMemcpy, reference.KeyMemset} {
		if e.Figures[k] <= 0 {
			t.Errorf("figure %s missing: %v", k, e.Figures)
		}
	}
	// a log whose validation reports throttling
	e, ok = FromLog("4pzf", read("4pzf.txt"))
	if !ok || e.Usable() || e.Clean == nil || *e.Clean || !contains(e.Disturbed, "throttling") {
		t.Errorf("throttled log: %+v", e)
	}
	// the log's own judgement decides, not boardbench's stricter one: a
	// log without a validation section whose monitor lines boardbench
	// finds disturbed is not valid as an imported result, yet its own log
	// judged nothing, so it stays in the set
	data := read("3Nzx.txt")
	l, err := sbcimport.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if r := l.Result("3Nzx.txt"); r.Summary.Valid {
		t.Errorf("3Nzx is valid by boardbench's rules: %s", r.Summary.Verdict)
	}
	if e, ok = FromLog("3Nzx", data); !ok || !e.Usable() || e.Clean != nil {
		t.Errorf("3Nzx: %+v", e)
	}
	if _, ok := FromLog("x", []byte("hello\n")); ok {
		t.Error("a text that is not a log gave an entry")
	}
}

func TestDisturbance(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"Throttling occured -> https://example", "throttling"},
		{"Throttling might have occured", "throttling"},
		{"Too much other background activity: 12% avg, 40% max", "background activity"},
		{"Too much background activity (%system): 3% avg, 9% max", "background activity"},
		{"Swapping (ZRAM) occured", "swapping"},
		{"No swapping", ""},
		{"Background activity (%system) OK", ""},
		{"Advertised vs. measured max CPU clockspeed: -5% before, -5% after", ""},
	} {
		if got := disturbance(c.line); got != c.want {
			t.Errorf("disturbance(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}
