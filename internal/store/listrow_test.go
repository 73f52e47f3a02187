package store

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestListRowRoundTrip(t *testing.T) {
	for _, rec := range []Record{
		{Tags: []string{}, FindingIDs: []string{}, Tools: map[string]string{}, Figures: map[string]float64{}},
		{ID: "0123", Kind: "run", Board: "Board 12:3 with a colon", SoC: "RK3588", CoreTypes: "4×Cortex-A55 + 4×Cortex-A76",
			Kernel: "6.1", Distro: "Debian", Arch: "arm64", Host: "h\x00st\n", CreatedAt: time.Date(2025, 3, 1, 10, 0, 0, 123456789, time.UTC),
			Status: "complete", Valid: true, Tags: []string{"a", "5:b"}, FindingIDs: []string{"throttling", ""},
			Tools:   map[string]string{"7zip": "24.09", "": "x"},
			Figures: map[string]float64{"sevenzip_multi_mips": 16000, "tiny": 1e-300, "neg": -0.5, "max": math.MaxFloat64, "third": 1.0 / 3}},
		{ID: "before-1970", CreatedAt: time.Date(1601, 1, 1, 0, 0, 0, 1, time.UTC), Tags: []string{}, FindingIDs: []string{},
			Tools: map[string]string{}, Figures: map[string]float64{}},
		{ID: "quick", Kind: "mem", Tags: []string{}, FindingIDs: []string{}, Tools: map[string]string{}, Figures: map[string]float64{"memcpy_mb_s": 900}, Quick: true},
	} {
		row := encodeListRow(rec)
		for _, names := range []map[string]string{nil, {}} {
			got, err := decodeListRow(row, names)
			if err != nil {
				t.Fatalf("decode %q: %v", row, err)
			}
			if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", rec) {
				t.Errorf("round trip of %q:\n got %#v\nwant %#v", row, got, rec)
			}
		}
	}
}

func TestListRowRefusesDamage(t *testing.T) {
	good := encodeListRow(Record{ID: "x", Tags: []string{"t"}, Figures: map[string]float64{"f": 1}})
	for _, row := range []string{"", "garbage", "2:r2", good[:len(good)-1], good + "1:x", good + "5:quick" + "5:quick", "2:r1999999999:x",
		"2:r1" + "1:x" + "0:0:0:0:0:0:0:0:1:01:01:00:1:0" + "2:-1"} {
		if _, err := decodeListRow(row, nil); err == nil {
			t.Errorf("decodeListRow(%q) gave no error", row)
		}
	}
}

// TestMigrationFromV3: a store of schema version 3 (JSON columns, no list
// row) opens, migrates, and lists every result with its tags and figures,
// the one whose document no longer parses included (from its tables).
func TestMigrationFromV3(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v3.db")
	sqlText, err := os.ReadFile("testdata/schema-v3.sql")
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
	testMigratedV3(t, st)
}

// testMigratedV3 checks a store migrated from testdata/schema-v3.sql.
func testMigratedV3(t *testing.T, st Store) {
	t.Helper()
	ctx := context.Background()
	recs, total, err := st.List(ctx, Query{})
	if err != nil || total != 3 || len(recs) != 3 {
		t.Fatalf("List = %d records, total %d, %v; want 3", len(recs), total, err)
	}
	byID := map[string]Record{}
	for _, r := range recs {
		byID[r.ID] = r
	}
	old := byID["44444444444444444444444444444444"]
	if !slices.Equal(old.Tags, []string{"old"}) || old.Figures["sevenzip_multi_mips"] != 16000 || old.Tools["7zip"] != "24.09" ||
		!slices.Equal(old.FindingIDs, []string{"throttling"}) || !old.CreatedAt.Equal(t0) || old.Board != "Radxa ROCK 5B" {
		t.Errorf("migrated record: %+v", old)
	}
	broken := byID["66666666666666666666666666666666"]
	if !slices.Equal(broken.Tags, []string{"broken"}) || broken.Figures["memcpy_mb_s.max"] != 9000.5 || broken.Kind != "mem" ||
		!slices.Equal(broken.FindingIDs, []string{"swapping"}) || broken.Board != "Orange Pi 5" {
		t.Errorf("record of an unparseable document: %+v", broken)
	}
	// Newest first, and tags still written to the list row.
	if recs[0].ID != "55555555555555555555555555555555" && recs[0].ID != "44444444444444444444444444444444" || recs[2].ID != broken.ID {
		t.Errorf("order: %s %s %s", recs[0].ID, recs[1].ID, recs[2].ID)
	}
	if err := st.Tag(ctx, broken.ID, "kept"); err != nil {
		t.Fatal(err)
	}
	if rec, err := st.Record(ctx, broken.ID); err != nil || !slices.Equal(rec.Tags, []string{"broken", "kept"}) || rec.Figures["memcpy_mb_s.max"] != 9000.5 {
		t.Errorf("Record after Tag = %+v, %v", rec, err)
	}
	if recs, _, err := st.List(ctx, Query{Sort: "memcpy_mb_s.max", Desc: true, Limit: 1}); err != nil || len(recs) != 1 || recs[0].ID != broken.ID {
		t.Errorf("sort by a figure after migration: %v, %v", recs, err)
	}
}

// TestListFallsBackOnDamagedRow: a list row that does not decode is read
// from the record's columns and tables instead.
func TestListFallsBackOnDamagedRow(t *testing.T) {
	st, path := openTemp(t)
	ctx := context.Background()
	doc := mustJSON(t, testResult("77777777777777777777777777777777", "Radxa ROCK 5B", "RK3588", "6.1", 16000, t0))
	if _, _, err := st.Put(ctx, doc); err != nil {
		t.Fatal(err)
	}
	want, err := st.Record(ctx, "77777777777777777777777777777777")
	if err != nil {
		t.Fatal(err)
	}
	if err := execSQLite(path, `UPDATE results SET list_row = 'damaged'`); err != nil {
		t.Fatal(err)
	}
	recs, _, err := st.List(ctx, Query{})
	if err != nil || len(recs) != 1 {
		t.Fatalf("List = %v, %v", recs, err)
	}
	if fmt.Sprint(recs[0]) != fmt.Sprint(want) {
		t.Errorf("fallback record\n%+v\nwant\n%+v", recs[0], want)
	}
}
