// Package store keeps every result boardbench makes or imports: embedded
// SQLite by default (a pure-Go driver, so the binaries stay static),
// PostgreSQL for a lab, one schema with versioned migrations. The full
// result JSON is kept verbatim; the fields people sort and filter by are
// columns with indexes.
//
// This file is the contract the store's users (results, compare, serve,
// import and every measuring command) program against; the
// implementations live beside it.
package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// ErrNotFound is returned (wrapped) for an ID the store does not hold.
const ErrNotFound = sentinel("no such result")

// sentinel is an error value of this package that callers match with
// errors.Is; being a string constant, it costs nothing at start-up.
type sentinel string

func (e sentinel) Error() string { return string(e) }

// ErrAmbiguous is returned (wrapped, by Lookup) for a short id that is
// the start of several result ids; the error's text says how many.
const ErrAmbiguous = sentinel("ambiguous result id")

// KindReplay is the kind of a result made from a recorded root (--root):
// a replay of recorded files and command outputs, not a measurement of a
// machine. Lists leave replays out unless asked for by kind.
const KindReplay = "replay"

// Record is one stored result's indexed columns: what `results list`,
// `serve`'s table and filters show without decoding the document.
type Record struct {
	ID string `json:"id"`
	// Kind is the command that made the result ("run", "monitor", "mem",
	// "storage", "net", "sweep", "thermal", ...), "import", or
	// KindReplay for a result made from a recorded root.
	Kind      string    `json:"kind"`
	Board     string    `json:"board"`
	SoC       string    `json:"soc"`
	CoreTypes string    `json:"core_types"` // e.g. "4×Cortex-A76 + 4×Cortex-A55"
	Kernel    string    `json:"kernel"`
	Distro    string    `json:"distro"`
	Arch      string    `json:"arch"` // userland architecture, e.g. "arm64", "armhf"
	Host      string    `json:"host"`
	CreatedAt time.Time `json:"created_at"`
	Status    string    `json:"status"`
	Valid     bool      `json:"valid"`
	Tags      []string  `json:"tags"`
	// FindingIDs are the ids of the result's findings.
	FindingIDs []string `json:"finding_ids"`
	// Tools maps a wrapped tool's name to its version ("7zip": "24.09").
	Tools map[string]string `json:"tools"`
	// Figures are the headline figures by name (the published table's
	// columns and every numeric summary field of other commands), e.g.
	// "sevenzip_multi_mips", "sevenzip_single_mips", "aes256_16k",
	// "memcpy_mb_s", "memset_mb_s", "clock_mhz", "seq_read_mb_s".
	Figures map[string]float64 `json:"summary"`
	// Quick is true for a result of a quick mode (result.Result.Quick):
	// its figures are not set beside standard ones.
	Quick bool `json:"quick,omitempty"`
}

// Query selects and orders records. Zero fields do not filter.
type Query struct {
	// Board, SoC, CoreType and Kernel match any record whose field
	// contains them, ignoring case ("raspberry" selects every Raspberry
	// Pi, "6.6" every 6.6.x kernel); Kind and Tag must be equal. An
	// empty Kind selects every kind but KindReplay (unless IDPrefix is
	// set): replays are listed only with Kind "replay".
	Board, SoC, CoreType, Kernel, Kind, Tag string
	// Kinds, when Kind is empty, selects the records of any of these
	// kinds (serve's default table: "run" and "import").
	Kinds []string
	// IDPrefix selects the results whose id starts with it (the short ids
	// that lists show).
	IDPrefix string
	// Text matches board, SoC, kernel, distribution and host, case-insensitively.
	Text      string
	Since     time.Time
	ValidOnly bool
	// Sort is a column name ("created_at", "board", "soc", "kernel") or a
	// figure name ("sevenzip_multi_mips"); unknown names are an error
	// before any SQL is built. Empty means created_at, newest first.
	Sort string
	Desc bool
	// Offset and Limit page the result; Limit 0 means no limit.
	Offset, Limit int
	// CountUpTo, when above 0, bounds the work of List's total: a total
	// that would have to be counted (TotalKept is false: the query
	// filters by more than kind, SoC and validity, whose totals the store
	// keeps) is counted up to CountUpTo+1, so such a total above
	// CountUpTo means "more than CountUpTo". A kept total is exact
	// whatever CountUpTo. 0 counts exactly.
	CountUpTo int
}

// TotalKept reports whether a SQL store keeps q's total (in its table of
// counts per kind, SoC and validity): List's total is then exact at any
// size and costs no count, whatever Query.CountUpTo says.
func TotalKept(q Query) bool { return countable(q) }

// Store is a results store. Implementations are safe for concurrent use,
// and concurrent writers (processes too) lose nothing.
type Store interface {
	// Put saves a result document (boardbench result JSON, kept
	// verbatim) and returns its ID; created is false when a result with
	// that ID was already stored (nothing is changed then).
	Put(ctx context.Context, doc []byte) (id string, created bool, err error)
	// Get returns the stored document of id.
	Get(ctx context.Context, id string) ([]byte, error)
	// Record returns the indexed columns of id.
	Record(ctx context.Context, id string) (Record, error)
	// List returns the records q selects, in its order, and how many
	// records it selects without Offset and Limit.
	List(ctx context.Context, q Query) (recs []Record, total int, err error)
	// Tag adds a tag to a result.
	Tag(ctx context.Context, id, tag string) error
	// Remove deletes a result.
	Remove(ctx context.Context, id string) error
	// Close releases the store.
	Close() error
}

// Lookup returns the full id of the result whose id is idOrPrefix, or
// starts with it when no id equals it: ErrNotFound when none does,
// ErrAmbiguous (its text naming the count) when several do.
func Lookup(ctx context.Context, st Store, idOrPrefix string) (string, error) {
	if idOrPrefix == "" {
		return "", fmt.Errorf("empty result id")
	}
	if _, err := st.Record(ctx, idOrPrefix); err == nil {
		return idOrPrefix, nil
	} else if !errors.Is(err, ErrNotFound) {
		return "", err
	}
	recs, total, err := st.List(ctx, Query{IDPrefix: idOrPrefix, Limit: 1})
	switch {
	case err != nil:
		return "", err
	case total == 0 && strings.ToLower(idOrPrefix) != idOrPrefix:
		// Ids are lowercase hex: "ABC123" is typed for "abc123".
		return Lookup(ctx, st, strings.ToLower(idOrPrefix))
	case total == 0:
		return "", fmt.Errorf("%s: %w", quoteID(idOrPrefix), ErrNotFound)
	case total > 1:
		return "", &ambiguousError{prefix: idOrPrefix, count: total}
	}
	return recs[0].ID, nil
}

// Heading is what names one result in a listing or a comparison: its id,
// kind, board, SoC, date, status and validity, with a Record's JSON names.
type Heading struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"`
	Board     string    `json:"board"`
	SoC       string    `json:"soc"`
	CreatedAt time.Time `json:"created_at"`
	Status    string    `json:"status"`
	Valid     bool      `json:"valid"`
	// Quick marks a result of a quick mode (absent for a standard one).
	Quick bool `json:"quick,omitempty"`
}

// Heading returns the record's Heading.
func (r Record) Heading() Heading {
	return Heading{ID: r.ID, Kind: r.Kind, Board: r.Board, SoC: r.SoC, CreatedAt: r.CreatedAt, Status: r.Status, Valid: r.Valid, Quick: r.Quick}
}

// Each calls fn with each record q selects, in q's order, without holding
// them all: a list of a million results in constant memory. A store that
// cannot stream (not a SQL store) is read with List. An error of fn stops
// the walk and is returned.
func Each(ctx context.Context, st Store, q Query, fn func(Record) error) error {
	if s, ok := st.(*sqlStore); ok {
		return s.each(ctx, q, fn)
	}
	recs, _, err := st.List(ctx, q)
	if err != nil {
		return err
	}
	for _, r := range recs {
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

// SoCs returns the SoCs of the stored results (replays left out), sorted,
// without duplicates or the empty name: serve's SoC menu. A SQL store reads
// them from its small table of counts (kept up to date by every write),
// never from the results; another store is read with List.
func SoCs(ctx context.Context, st Store) ([]string, error) {
	if s, ok := st.(*sqlStore); ok {
		return s.socs(ctx)
	}
	out := []string{}
	err := Each(ctx, st, Query{Sort: "soc"}, func(r Record) error {
		if r.SoC != "" && (len(out) == 0 || out[len(out)-1] != r.SoC) {
			out = append(out, r.SoC)
		}
		return nil
	})
	slices.Sort(out)
	return slices.Compact(out), err
}
