package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestReplayKind: a result made from a recorded root is kept as kind
// replay and left out of a query that names no kind, but found by kind
// and by id.
func TestReplayKind(t *testing.T) {
	st, _ := openTemp(t)
	ctx := context.Background()
	at := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	real := testResult("aaaa0000000000000000000000000001", "Raspberry Pi 4 Model B", "BCM2711", "6.6.51", 4000, at)
	replay := testResult("bbbb0000000000000000000000000002", "Raspberry Pi Zero 2 W", "BCM2710A1", "6.6.51", 2000, at.Add(time.Hour))
	replay.Command, replay.Replay = "sweep", true
	for _, doc := range [][]byte{mustJSON(t, real), mustJSON(t, replay)} {
		if _, _, err := st.Put(ctx, doc); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		q    Query
		want []string
	}{
		{Query{}, []string{real.ID}},
		{Query{Board: "raspberry"}, []string{real.ID}},
		{Query{Kind: KindReplay}, []string{replay.ID}},
		{Query{IDPrefix: "bbbb"}, []string{replay.ID}},
	} {
		recs, _, err := st.List(ctx, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range recs {
			got = append(got, r.ID)
			if r.ID == replay.ID && r.Kind != KindReplay {
				t.Errorf("replay stored as kind %q", r.Kind)
			}
		}
		if len(got) != len(tc.want) || got[0] != tc.want[0] {
			t.Errorf("List(%+v) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

// TestOpenExistingNeverCreates: OpenExisting refuses a SQLite store that
// is not there, and leaves no file or directory behind.
func TestOpenExistingNeverCreates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "results.db")
	if _, err := OpenExisting(context.Background(), path); !errors.Is(err, ErrNoSuchStore) {
		t.Fatalf("OpenExisting(missing) = %v, want ErrNoSuchStore", err)
	}
	if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
		t.Errorf("directory created: %v", err)
	}
	_, existing := openTemp(t)
	st, err := OpenExisting(context.Background(), existing)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
}
