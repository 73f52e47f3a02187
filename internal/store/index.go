package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/result"
)

// MaxDocBytes is the largest document Put accepts (result.MaxFileBytes).
const MaxDocBytes = result.MaxFileBytes

// Index decodes a result document and returns its indexed columns (tags
// empty: they are the store's, not the document's). A document without an
// id gets DeriveID's. The document must be a result this boardbench reads
// (result.Parse).
func Index(doc []byte) (Record, error) {
	if len(doc) > MaxDocBytes {
		return Record{}, fmt.Errorf("result document of %d bytes is larger than %d", len(doc), MaxDocBytes)
	}
	r, err := result.Parse(doc)
	if err != nil {
		return Record{}, err
	}
	rec := RecordOf(r)
	if rec.ID == "" {
		id, err := DeriveID(doc)
		if err != nil {
			return Record{}, err
		}
		rec.ID = id
	}
	rec.Figures = Figures(doc)
	if strings.HasSuffix(r.SchemaVersion, ".0") {
		// A 1.0 document: its headline figures as result.Parse migrated them.
		if migrated, err := json.Marshal(struct {
			Summary result.Summary `json:"summary"`
		}{r.Summary}); err == nil {
			rec.Figures = Figures(migrated)
		}
	}
	return rec, nil
}

// DeriveID returns the ID of a result written before results had one: the
// first 16 bytes, in hex, of the SHA-256 of the document with its JSON
// whitespace removed, so that the same result reformatted gets the same ID.
func DeriveID(doc []byte) (string, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, doc); err != nil {
		return "", fmt.Errorf("not a boardbench result: %v", err)
	}
	sum := sha256.Sum256(buf.Bytes())
	return hex.EncodeToString(sum[:16]), nil
}

// RecordOf returns the indexed columns of r that come from its fields
// (Figures left empty: see Figures; Tags empty).
func RecordOf(r *result.Result) Record {
	rec := Record{
		ID: r.ID, Kind: r.Command, Status: r.Status, Valid: r.Summary.Valid,
		CreatedAt: r.StartedAt.UTC(), Host: r.Host,
		Tags: []string{}, FindingIDs: []string{}, Tools: map[string]string{}, Figures: map[string]float64{},
	}
	if r.Replay {
		rec.Kind = KindReplay
	}
	rec.Quick = r.Quick
	if in := r.Info; in != nil {
		rec.Board = strings.TrimSpace(in.Board.Model)
		rec.SoC = strings.TrimSpace(in.SoC.Guess)
		rec.CoreTypes = CoreTypes(r)
		rec.Kernel = in.OS.Kernel.Release
		rec.Distro = strings.TrimSpace(in.OS.Distro.PrettyName)
		if rec.Distro == "" {
			rec.Distro = strings.TrimSpace(in.OS.Distro.Name + " " + in.OS.Distro.VersionID)
		}
		rec.Arch = in.OS.Userland.Arch
		if rec.Arch == "" {
			rec.Arch = in.OS.Kernel.Machine
		}
	}
	for _, f := range r.Findings {
		if f.ID != "" && !slices.Contains(rec.FindingIDs, f.ID) {
			rec.FindingIDs = append(rec.FindingIDs, f.ID)
		}
	}
	for _, t := range r.Tools {
		if t.Name != "" && t.Version != "" {
			rec.Tools[t.Name] = t.Version
		}
	}
	return rec
}

// CoreTypes describes the CPU's core types with their counts in cluster
// order, e.g. "4×Cortex-A55 + 4×Cortex-A76"; "" when the result has no CPU
// description. CPUs whose core type is not named (an imported log whose
// topology names no core) count as UnknownCore: "32×unknown core".
func CoreTypes(r *result.Result) string {
	if r.Info == nil {
		return ""
	}
	var order []string
	count := map[string]int{}
	for _, c := range r.Info.CPU.Clusters {
		name := strings.TrimSpace(c.Core)
		if name == "" || name == "-" {
			name = UnknownCore
		}
		if count[name] == 0 {
			order = append(order, name)
		}
		count[name] += len(c.CPUs)
	}
	parts := make([]string, 0, len(order))
	for _, n := range order {
		parts = append(parts, strconv.Itoa(count[n])+"×"+n)
	}
	return strings.Join(parts, " + ")
}

// UnknownCore is the core-types label of CPUs whose core type is not named.
const UnknownCore = "unknown core"

// Figures flattens the numeric fields of a result document's summary into
// named figures, so that the headline figures of every command (including
// commands added later) are indexed without the store knowing them:
//
//   - a number is named by its JSON path ("sevenzip_multi_mips",
//     "storage.seq_read_mb_s" for a nested object);
//   - a per-CPU value ({cpu, core, value}) is named PATH.cpuN, and the
//     largest of an array of them PATH.max;
//   - other arrays of objects are named by each element's "name", "label",
//     "device" or "core" field, else its index;
//   - arrays of plain numbers (individual runs) are not figures; nor are
//     booleans, strings or nulls, nor the figures the summary left out of
//     the headline (excluded_figures). NaN and infinities are left out.
func Figures(doc []byte) map[string]float64 {
	var top struct {
		Summary json.RawMessage `json:"summary"`
	}
	out := map[string]float64{}
	if json.Unmarshal(doc, &top) != nil || len(top.Summary) == 0 {
		return out
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(top.Summary))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return out
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return out
	}
	flattenObject("", obj, out)
	return out
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// notFigure reports whether the summary member named member holds no
// headline figure: the figures left out of the headline as disturbed, and
// why a headline is null.
func notFigure(member string) bool {
	return member == "excluded_figures" || member == "headline_notes"
}

func flattenObject(prefix string, obj map[string]any, out map[string]float64) {
	for k, v := range obj {
		if prefix == "" && notFigure(k) {
			continue
		}
		flattenValue(join(prefix, k), v, out)
	}
}

func flattenValue(name string, v any, out map[string]float64) {
	switch x := v.(type) {
	case json.Number:
		if f, err := x.Float64(); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			out[name] = f
		}
	case map[string]any:
		flattenObject(name, x, out)
	case []any:
		maxSet, maxV := false, 0.0
		for i, e := range x {
			obj, ok := e.(map[string]any)
			if !ok {
				continue
			}
			if val, ok := perCPUValue(obj); ok {
				out[name+".cpu"+strconv.Itoa(perCPUIndex(obj))] = val
				if !maxSet || val > maxV {
					maxSet, maxV = true, val
				}
				continue
			}
			flattenObject(join(name, elementLabel(obj, i)), obj, out)
		}
		if maxSet {
			out[name+".max"] = maxV
		}
	}
}

// perCPUValue recognises a result.Value: {cpu, value} with a number value.
func perCPUValue(obj map[string]any) (float64, bool) {
	if _, ok := obj["cpu"].(json.Number); !ok {
		return 0, false
	}
	n, ok := obj["value"].(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
}

func perCPUIndex(obj map[string]any) int {
	n, _ := obj["cpu"].(json.Number)
	i, _ := n.Int64()
	return int(i)
}

// elementLabel names an array element by a naming field, else its index.
func elementLabel(obj map[string]any, i int) string {
	for _, k := range []string{"name", "label", "device", "core"} {
		if s, ok := obj[k].(string); ok && s != "" {
			return strings.ReplaceAll(s, ".", "_")
		}
	}
	return strconv.Itoa(i)
}

// timeFormat is how times are stored: fixed width, UTC, so that text order
// is time order.
const timeFormat = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeFormat) }

func parseTime(s string) time.Time {
	t, _ := time.Parse(timeFormat, s)
	return t
}

// LoadResult returns the result st holds under the full id, both decoded
// and as the stored document; a result without an id of its own is given
// the id it is stored under.
func LoadResult(ctx context.Context, st Store, id string) (*result.Result, []byte, error) {
	doc, err := st.Get(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	r, err := result.Parse(doc)
	if err != nil {
		return nil, nil, fmt.Errorf("stored result %s: %v", id, err)
	}
	if r.ID == "" {
		r.ID = id
	}
	return r, doc, nil
}
