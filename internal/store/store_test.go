package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

func TestRoundTrip(t *testing.T) {
	st, _ := openTemp(t)
	testRoundTrip(t, st)
}

// testRoundTrip puts, reads, tags and removes a result in st.
func testRoundTrip(t *testing.T, st Store) {
	ctx := context.Background()
	doc := mustJSON(t, testResult("0123456789abcdef0123456789abcdef", "Radxa ROCK 5B", "Rockchip RK3588", "6.1.0-rk", 16000, t0))
	id, created, err := st.Put(ctx, doc)
	if err != nil || !created || id != "0123456789abcdef0123456789abcdef" {
		t.Fatalf("Put = %q, %v, %v", id, created, err)
	}
	got, err := st.Get(ctx, id)
	if err != nil || !bytes.Equal(got, doc) {
		t.Fatalf("Get did not return the document verbatim (err %v)", err)
	}
	rec, err := st.Record(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := Record{ID: id, Kind: "run", Board: "Radxa ROCK 5B", SoC: "Rockchip RK3588", CoreTypes: "4×Cortex-A55 + 4×Cortex-A76",
		Kernel: "6.1.0-rk", Distro: "Debian GNU/Linux 12 (bookworm)", Arch: "arm64", Host: "bench-Radxa ROCK 5B", CreatedAt: t0,
		Status: "complete", Valid: true, Tags: []string{}, FindingIDs: []string{"throttling"},
		Tools: map[string]string{"7zip": "24.09", "openssl": "3.0.15"}}
	figs := rec.Figures
	rec.Figures = nil
	if fmt.Sprint(rec) != fmt.Sprint(want) {
		t.Errorf("Record =\n%+v\nwant\n%+v", rec, want)
	}
	for name, v := range map[string]float64{"sevenzip_multi_mips": 16000, "sevenzip_single_mips.cpu0": 1200,
		"sevenzip_single_mips.cpu4": 3100, "sevenzip_single_mips.max": 3100} {
		if figs[name] != v {
			t.Errorf("figure %s = %v, want %v (all: %v)", name, figs[name], v, figs)
		}
	}
	// The same result again changes nothing.
	if id2, created, err := st.Put(ctx, doc); err != nil || created || id2 != id {
		t.Errorf("second Put = %q, %v, %v; want the same id, not created", id2, created, err)
	}
	if err := st.Tag(ctx, id, "new-kernel"); err != nil {
		t.Fatal(err)
	}
	if err := st.Tag(ctx, id, "new-kernel"); err != nil {
		t.Fatal(err)
	}
	if rec, _ := st.Record(ctx, id); !slices.Equal(rec.Tags, []string{"new-kernel"}) {
		t.Errorf("tags = %q", rec.Tags)
	}
	if err := st.Remove(ctx, id); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"Get":    func() error { _, err := st.Get(ctx, id); return err }(),
		"Record": func() error { _, err := st.Record(ctx, id); return err }(),
		"Tag":    st.Tag(ctx, id, "x"),
		"Remove": st.Remove(ctx, id),
	} {
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("%s after Remove: %v, want ErrNotFound", name, err)
		}
	}
}

func TestPutRejectsWhatIsNotAResult(t *testing.T) {
	st, _ := openTemp(t)
	for _, doc := range []string{``, `{}`, `[1]`, `{"schema_version":"9.0","status":"complete"}`, `{"schema_version":"1.0","status":"odd"}`} {
		if _, _, err := st.Put(context.Background(), []byte(doc)); err == nil {
			t.Errorf("Put(%q) succeeded", doc)
		}
	}
}

func TestDerivedID(t *testing.T) {
	st, _ := openTemp(t)
	ctx := context.Background()
	r := testResult("", "Board", "SoC", "6.1", 100, t0)
	doc := mustJSON(t, r)
	id, created, err := st.Put(ctx, doc)
	if err != nil || !created || len(id) != 32 {
		t.Fatalf("Put = %q, %v, %v", id, created, err)
	}
	// The same document with other whitespace has the same id.
	var compact bytes.Buffer
	if err := jsonCompact(&compact, doc); err != nil {
		t.Fatal(err)
	}
	if id2, created, _ := st.Put(ctx, compact.Bytes()); id2 != id || created {
		t.Errorf("reformatted document: id %q created %v, want %q not created", id2, created, id)
	}
	other := mustJSON(t, testResult("", "Board", "SoC", "6.2", 100, t0))
	if id3, _, _ := st.Put(ctx, other); id3 == id {
		t.Errorf("different documents got the same id %q", id)
	}
}

func TestListFiltersAndSorts(t *testing.T) {
	st, _ := openTemp(t)
	testListFiltersAndSorts(t, st)
}

// testListFiltersAndSorts checks every filter and order of List on st.
func testListFiltersAndSorts(t *testing.T, st Store) {
	ctx := context.Background()
	boards := []struct {
		id, board, soc, kernel string
		multi                  float64
		valid                  bool
	}{
		{"a1", "Radxa ROCK 5B", "Rockchip RK3588", "6.1.0", 16000, true},
		{"a2", "Radxa ROCK 5B", "Rockchip RK3588", "6.8.0", 16500, false},
		{"b1", "Raspberry Pi 5 Model B", "BCM2712", "6.6.31", 11000, true},
		{"c1", "Orange Pi Zero3", "Allwinner H618", "6.1.0", 4000, true},
	}
	for i, b := range boards {
		r := testResult(b.id, b.board, b.soc, b.kernel, b.multi, t0.Add(time.Duration(i)*time.Hour))
		r.Summary.Valid = b.valid
		if _, _, err := st.Put(ctx, mustJSON(t, r)); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Tag(ctx, "b1", "review"); err != nil {
		t.Fatal(err)
	}
	ids := func(q Query) []string {
		t.Helper()
		recs, _, err := st.List(ctx, q)
		if err != nil {
			t.Fatalf("List(%+v): %v", q, err)
		}
		var out []string
		for _, r := range recs {
			out = append(out, r.ID)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		q    Query
		want []string
	}{
		{"default newest first", Query{}, []string{"c1", "b1", "a2", "a1"}},
		{"board", Query{Board: "Radxa ROCK 5B"}, []string{"a2", "a1"}},
		{"soc", Query{SoC: "BCM2712"}, []string{"b1"}},
		{"kernel", Query{Kernel: "6.1.0"}, []string{"c1", "a1"}},
		{"valid", Query{ValidOnly: true}, []string{"c1", "b1", "a1"}},
		{"tag", Query{Tag: "review"}, []string{"b1"}},
		{"since", Query{Since: t0.Add(90 * time.Minute)}, []string{"c1", "b1"}},
		{"text", Query{Text: "rock"}, []string{"a2", "a1"}},
		{"text is not a pattern", Query{Text: "%"}, nil},
		{"core type", Query{CoreType: "Cortex-A76"}, []string{"c1", "b1", "a2", "a1"}},
		{"board is a substring, any case", Query{Board: "raspberry"}, []string{"b1"}},
		{"board substring matching several", Query{Board: "Pi"}, []string{"c1", "b1"}},
		{"soc substring", Query{SoC: "rk3588"}, []string{"a2", "a1"}},
		{"kernel prefix", Query{Kernel: "6.6"}, []string{"b1"}},
		{"kernel substring is not a pattern", Query{Kernel: "6_1"}, nil},
		{"core type any case", Query{CoreType: "cortex-a55"}, []string{"c1", "b1", "a2", "a1"}},
		{"figure ascending", Query{Sort: "sevenzip_multi_mips"}, []string{"c1", "b1", "a1", "a2"}},
		{"figure descending", Query{Sort: "sevenzip_multi_mips", Desc: true}, []string{"a2", "a1", "b1", "c1"}},
		{"column", Query{Sort: "board"}, []string{"c1", "a1", "a2", "b1"}},
		{"page", Query{Sort: "board", Offset: 1, Limit: 2}, []string{"a1", "a2"}},
		{"offset only", Query{Sort: "board", Offset: 3}, []string{"b1"}},
		{"missing figure sorts last", Query{Sort: "no_such_figure"}, []string{"a1", "a2", "b1", "c1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ids(tc.q); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	if _, total, _ := st.List(ctx, Query{Limit: 1}); total != 4 {
		t.Errorf("total = %d, want 4", total)
	}
	for _, bad := range []Query{{Sort: "board; DROP TABLE results"}, {Sort: "r.id"[0:0] + "(select 1)"}, {Limit: -1}} {
		if _, _, err := st.List(ctx, bad); err == nil {
			t.Errorf("List(%+v) accepted", bad)
		}
	}
}

// TestMigrationFromV1 opens a store made by schema version 1 (the SQL in
// testdata, as boardbench wrote it) and checks that it migrates, keeps its
// results and tags, and indexes what version 2 added for the old results.
func TestMigrationFromV1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	sqlText, err := os.ReadFile("testdata/schema-v1.sql")
	if err != nil {
		t.Fatal(err)
	}
	if err := execSQLite(path, string(sqlText)); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if v, err := versionOf(path); err != nil || v != SchemaVersion() {
		t.Errorf("schema version after Open = %d (%v), want %d", v, err, SchemaVersion())
	}
	rec, err := st.Record(ctx, "11111111111111111111111111111111")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rec.Tags, []string{"old"}) || rec.Board != "Radxa ROCK 5B" {
		t.Errorf("old record lost its tags or columns: %+v", rec)
	}
	if rec.Tools["7zip"] != "16.02" || !slices.Equal(rec.FindingIDs, []string{"swapping"}) {
		t.Errorf("version-2 columns of an old result not indexed: tools %v findings %v", rec.Tools, rec.FindingIDs)
	}
	if _, created, err := st.Put(ctx, mustJSON(t, testResult("22222222222222222222222222222222", "B", "S", "6.1", 1, t0))); err != nil || !created {
		t.Errorf("Put into a migrated store: %v", err)
	}
	recs, _, err := st.List(ctx, Query{Tag: "old"})
	if err != nil || len(recs) != 1 {
		t.Errorf("List by tag in a migrated store: %d records, %v", len(recs), err)
	}
}

// TestNewerStoreIsRefusedUnchanged: a store whose schema is newer than this
// boardbench knows gives one clear error and is left as it was.
func TestNewerStoreIsRefusedUnchanged(t *testing.T) {
	st, path := openTemp(t)
	ctx := context.Background()
	if _, _, err := st.Put(ctx, mustJSON(t, testResult("33333333333333333333333333333333", "B", "S", "6.1", 1, t0))); err != nil {
		t.Fatal(err)
	}
	st.Close()
	future := SchemaVersion() + 1
	if err := execSQLite(path, fmt.Sprintf(`INSERT INTO schema_migrations VALUES (%d, '2030-01-01', 'future'); CREATE TABLE future_things (x TEXT);`, future)); err != nil {
		t.Fatal(err)
	}
	_, err := Open(ctx, path)
	if !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("Open of a newer store: %v, want ErrNewerSchema", err)
	}
	if msg := err.Error(); !bytes.Contains([]byte(msg), []byte(strconv.Itoa(future))) || bytes.Contains([]byte(msg), []byte("\n")) {
		t.Errorf("error %q: want one line naming version %d", msg, future)
	}
	if v, _ := versionOf(path); v != future {
		t.Errorf("version after refused Open = %d, want %d unchanged", v, future)
	}
}

func TestOpenRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	notDB := filepath.Join(dir, "notes.txt")
	os.WriteFile(notDB, []byte("hello, this is not a database at all, just some text that is long enough"), 0o644)
	other := filepath.Join(dir, "other.db")
	if err := execSQLite(other, `CREATE TABLE results (x TEXT)`); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{notDB, other, dir, "/dev/null", filepath.Join(dir, "a?b"), "http://example.invalid/x"} {
		if st, err := Open(context.Background(), p); err == nil {
			st.Close()
			t.Errorf("Open(%q) succeeded", p)
		}
	}
}

func TestConcurrentGoroutines(t *testing.T) {
	st, _ := openTemp(t)
	ctx := context.Background()
	const writers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				id := fmt.Sprintf("%016x%016x", w, i)
				if _, _, err := st.Put(ctx, mustJSON(t, testResult(id, "B", "S", "6.1", float64(i), t0))); err != nil {
					errs <- err
				}
				if err := st.Tag(ctx, id, "t"); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if _, total, err := st.List(ctx, Query{Tag: "t"}); err != nil || total != writers*each {
		t.Errorf("stored %d tagged results (%v), want %d", total, err, writers*each)
	}
}

// writerEnv makes the test binary a store writer (TestMain): it writes
// results into the store named by the variable, then exits.
const writerEnv = "BOARDBENCH_STORE_TEST_WRITER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(writerEnv); spec != "" {
		os.Exit(writeMany(spec, os.Getenv(writerEnv+"_NAME"), 40))
	}
	os.Exit(m.Run())
}

// writeMany puts n results with ids made of name into the store spec.
func writeMany(spec, name string, n int) int {
	ctx := context.Background()
	st, err := Open(ctx, spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer st.Close()
	for i := range n {
		r := testResult(fmt.Sprintf("%s%04d", name, i), "B", "S", "6.1", float64(i), t0)
		data, _ := jsonMarshal(r)
		if _, _, err := st.Put(ctx, data); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// runWriters starts procs processes of the test binary writing into spec
// at once and waits for them; it returns the ids' prefixes.
func runWriters(t *testing.T, spec string, procs int) {
	t.Helper()
	var cmds []*exec.Cmd
	for p := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		name := fmt.Sprintf("%028x", p+1)
		cmd.Env = append(os.Environ(), writerEnv+"="+spec, writerEnv+"_NAME="+name)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		t.Cleanup(func() {
			if t.Failed() && stderr.Len() > 0 {
				t.Logf("writer %d: %s", p, stderr.String())
			}
		})
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
}

func TestConcurrentProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.db") // not created: the writers race to create it
	const procs = 4
	runWriters(t, path, procs)
	st, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, total, err := st.List(context.Background(), Query{}); err != nil || total != procs*40 {
		t.Errorf("stored %d results (%v), want %d", total, err, procs*40)
	}
}
