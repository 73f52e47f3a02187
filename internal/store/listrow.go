package store

import (
	"maps"
	"slices"
	"strconv"
	"time"
)

// The list row (column results.list_row, schema version 4) is a whole
// Record in one TEXT column, written with the record's other columns and
// read by List and Record instead of them: with the pure-Go SQLite driver
// every column of every row costs several locked calls, and decoding JSON
// columns allocated per value, which made a list of 10,000 results take
// about 0.1 s of CPU. The columns, the tag, figure, finding and tool
// tables stay the ones queries filter and sort by; the list row is only
// ever read whole.
//
// Its format is a sequence of fields, each written as its length in bytes
// in decimal, ':' and its bytes (a netstring without the trailing comma),
// so no value needs escaping and decoding slices one string without
// copying:
//
//	"r1" id kind board soc core_types kernel distro arch host
//	created_at (Unix seconds, nanoseconds) status valid ("0"/"1")
//	ntags tag... nfindings finding... ntools (name version)...
//	nfigures (name value)... ["quick"]
//
// The last field, "quick", is there only for a result of a quick mode
// (Record.Quick); a row without it is a standard result's.
// Counts are decimal; figure values are strconv's shortest 'g' form, which
// parses back to the same float64. The first field names the format, so
// that a later one can be told apart.
const listRowFormat = "r1"

// quickField is the optional last field of a quick result's list row.
const quickField = "quick"

// errListRow reports a list row that does not decode (empty, or damaged).
const errListRow = sentinel("undecodable list row")

// encodeListRow returns rec's list row. Maps are written in key order, so
// that the same record always has the same row.
func encodeListRow(rec Record) string {
	b := make([]byte, 0, 256+32*len(rec.Figures))
	str := func(s string) {
		b = strconv.AppendInt(b, int64(len(s)), 10)
		b = append(b, ':')
		b = append(b, s...)
	}
	num := func(n int64) { str(strconv.FormatInt(n, 10)) }
	str(listRowFormat)
	for _, s := range []string{rec.ID, rec.Kind, rec.Board, rec.SoC, rec.CoreTypes, rec.Kernel, rec.Distro, rec.Arch, rec.Host} {
		str(s)
	}
	num(rec.CreatedAt.Unix())
	num(int64(rec.CreatedAt.Nanosecond()))
	str(rec.Status)
	num(int64(boolInt(rec.Valid)))
	for _, list := range [][]string{rec.Tags, rec.FindingIDs} {
		num(int64(len(list)))
		for _, s := range list {
			str(s)
		}
	}
	num(int64(len(rec.Tools)))
	for _, k := range slices.Sorted(maps.Keys(rec.Tools)) {
		str(k)
		str(rec.Tools[k])
	}
	num(int64(len(rec.Figures)))
	for _, k := range slices.Sorted(maps.Keys(rec.Figures)) {
		str(k)
		str(strconv.FormatFloat(rec.Figures[k], 'g', -1, 64))
	}
	if rec.Quick {
		str(quickField)
	}
	return string(b)
}

// rowDecoder reads the fields of one list row. The strings it returns
// share the row's memory. names interns figure and tool names across the
// rows of one list (they repeat in every row), so that a row's map keys
// do not keep its whole row alive.
type rowDecoder struct {
	row   string
	err   error
	names map[string]string
}

func (d *rowDecoder) str() string {
	if d.err != nil {
		return ""
	}
	n := 0
	i := 0
	for ; i < len(d.row) && d.row[i] != ':'; i++ {
		c := d.row[i]
		if c < '0' || c > '9' || i >= 9 {
			d.err = errListRow
			return ""
		}
		n = n*10 + int(c-'0')
	}
	if i == 0 || i == len(d.row) || len(d.row)-i-1 < n {
		d.err = errListRow
		return ""
	}
	s := d.row[i+1 : i+1+n]
	d.row = d.row[i+1+n:]
	return s
}

func (d *rowDecoder) num() int64 {
	s := d.str()
	if d.err != nil {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		d.err = errListRow
	}
	return n
}

// count reads a count of following entries, each at least minBytes long,
// refusing one the rest of the row cannot hold.
func (d *rowDecoder) count(minBytes int) int {
	n := d.num()
	if d.err == nil && (n < 0 || n > int64(len(d.row)/minBytes)) {
		d.err = errListRow
	}
	return int(n)
}

// name returns the next field interned in d.names.
func (d *rowDecoder) name() string {
	s := d.str()
	if d.names == nil {
		return s
	}
	if in, ok := d.names[s]; ok {
		return in
	}
	in := string([]byte(s)) // a copy: the interned name must not keep this row alive
	d.names[in] = in
	return in
}

// decodeListRow decodes a list row; names (may be nil) interns names
// across rows.
func decodeListRow(row string, names map[string]string) (Record, error) {
	d := rowDecoder{row: row, names: names}
	if d.str() != listRowFormat {
		return Record{}, errListRow
	}
	var rec Record
	for _, p := range []*string{&rec.ID, &rec.Kind, &rec.Board, &rec.SoC, &rec.CoreTypes, &rec.Kernel, &rec.Distro, &rec.Arch, &rec.Host} {
		*p = d.str()
	}
	sec := d.num()
	rec.CreatedAt = time.Unix(sec, d.num()).UTC()
	rec.Status = d.str()
	rec.Valid = d.num() != 0
	for _, p := range []*[]string{&rec.Tags, &rec.FindingIDs} {
		n := d.count(2)
		*p = make([]string, 0, n)
		for range n {
			*p = append(*p, d.str())
		}
	}
	n := d.count(4)
	rec.Tools = make(map[string]string, n)
	for range n {
		k := d.name()
		rec.Tools[k] = d.str()
	}
	n = d.count(4)
	rec.Figures = make(map[string]float64, n)
	for range n {
		k := d.name()
		v, err := strconv.ParseFloat(d.str(), 64)
		if err != nil && d.err == nil {
			d.err = errListRow
		}
		rec.Figures[k] = v
	}
	if d.err == nil && d.row != "" {
		if d.str() != quickField {
			d.err = errListRow
		}
		rec.Quick = true
	}
	if d.err != nil || d.row != "" {
		return Record{}, errListRow
	}
	return rec, nil
}
