package kernelfile

import (
	"errors"
	"strconv"
	"strings"
)

// DevfreqTransStat is a devfreq device's trans_stat
// (/sys/class/devfreq/<dev>/trans_stat): how long the device spent at
// each frequency since boot and how often it changed.
type DevfreqTransStat struct {
	// States are the rows in the order written (the device's frequency
	// table, lowest first on most drivers).
	States []DevfreqState
	// Total is the "Total transition" count; nil when the line is absent.
	Total *uint64
}

// DevfreqState is one row of trans_stat.
type DevfreqState struct {
	// Hz is the row's frequency.
	Hz int64
	// TimeMs is the time spent at it, the last column (time(ms)).
	TimeMs uint64
	// Current is true on the row the kernel marks with "*" (the
	// frequency last set).
	Current bool
}

// ErrNotSupported is returned for a trans_stat that says "Not Supported."
// (a governor that keeps no statistics).
const ErrNotSupported = constError("not supported")

// ParseDevfreqTransStat parses a devfreq trans_stat:
//
//	     From  :   To
//	           :  528000000 1068000000 1560000000 2112000000   time(ms)
//	*  528000000:         0         3         0         9   8405310
//	  1068000000:         2         0         0         1     40360
//	…
//	Total transition : 25
//
// The header is skipped (its %10lu columns run together when a frequency
// has ten digits); each row is read from its "frequency:" label and its
// last column. It returns ErrNotSupported for "Not Supported." and an
// error when no row can be read.
func ParseDevfreqTransStat(s string) (DevfreqTransStat, error) {
	var out DevfreqTransStat
	if strings.TrimSpace(s) == "Not Supported." {
		return out, ErrNotSupported
	}
	for _, line := range strings.Split(s, "\n") {
		label, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		label = strings.TrimSpace(label)
		if strings.HasPrefix(label, "Total transition") {
			if v, err := strconv.ParseUint(strings.TrimSpace(rest), 10, 64); err == nil {
				out.Total = &v
			}
			continue
		}
		current := strings.HasPrefix(label, "*")
		label = strings.TrimSpace(strings.TrimPrefix(label, "*"))
		hz, err := strconv.ParseInt(label, 10, 64)
		if err != nil || hz <= 0 {
			continue // the header rows
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			continue
		}
		ms, err := strconv.ParseUint(f[len(f)-1], 10, 64)
		if err != nil {
			continue
		}
		out.States = append(out.States, DevfreqState{Hz: hz, TimeMs: ms, Current: current})
	}
	if len(out.States) == 0 {
		return out, errors.New("trans_stat: no frequency row")
	}
	return out, nil
}
