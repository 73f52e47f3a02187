package tune

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/inventory/netif"
)

// What RestoreStateFile did, or would do, to one path.
const (
	// OutcomeRestored: the saved value was written back.
	OutcomeRestored = "restored"
	// OutcomeUnchanged: the path already held the saved value.
	OutcomeUnchanged = "unchanged"
	// OutcomeWouldWrite: a dry run found a different value.
	OutcomeWouldWrite = "would write"
	// OutcomeFailed: the saved value could not be written.
	OutcomeFailed = "failed"
)

// PathOutcome is what a restore did to one path of a state file.
type PathOutcome struct {
	Path string `json:"path"`
	// Previous is the saved value, Found the value before the restore
	// ("" when unreadable); both without surrounding white space.
	Previous string `json:"previous"`
	Found    string `json:"found"`
	Outcome  string `json:"outcome"`
	Error    string `json:"error,omitempty"`
	// Interface is set for the interrupt coalescing of a network
	// interface (Path is then "IFNAME coalescing", not a file).
	Interface string `json:"interface,omitempty"`
}

// FormatCoalesce renders interrupt coalescing settings as a restore lists
// them: "rx-usecs 3, rx-frames 0, tx-usecs 0, tx-frames 0, adaptive-rx
// off, adaptive-tx off".
func FormatCoalesce(c netif.Coalesce) string {
	onOff := func(b bool) string {
		if b {
			return "on"
		}
		return "off"
	}
	return fmt.Sprintf("rx-usecs %d, rx-frames %d, tx-usecs %d, tx-frames %d, adaptive-rx %s, adaptive-tx %s",
		c.RxUsecs, c.RxFrames, c.TxUsecs, c.TxFrames, onOff(c.AdaptiveRx), onOff(c.AdaptiveTx))
}

// coalesceOutcomes lists the saved coalescing of st with the current one
// (read on the live machine only; elsewhere it is unknown and would be
// written).
func coalesceOutcomes(h *host.Host, st State) []PathOutcome {
	var out []PathOutcome
	for _, c := range st.Coalesce {
		o := PathOutcome{Path: c.Interface + " coalescing", Interface: c.Interface,
			Previous: FormatCoalesce(c.Previous), Outcome: OutcomeWouldWrite}
		if h.Live() {
			if cur, err := (netif.Live{}).Coalesce(c.Interface); err == nil {
				o.Found = FormatCoalesce(*cur)
				if *cur == c.Previous {
					o.Outcome = OutcomeUnchanged
				}
			}
		}
		out = append(out, o)
	}
	return out
}

// ErrOtherRoot is returned by RestoreStateFile for a state file recorded for
// another root than the host's.
const ErrOtherRoot = sentinel("state file recorded for another root")

// RestoreStateFile writes the values saved in sf back through h (whose root
// must be the one sf records), in the order Restore uses, and removes the
// state file once every value is written. A state file with a path that
// could not be written is kept. With dryRun nothing is written or removed;
// the outcomes say what would be written.
func RestoreStateFile(h *host.Host, sf StateFile, dryRun bool) ([]PathOutcome, error) {
	if sf.Err != nil {
		return nil, sf.Err
	}
	if sf.Root != h.Root() {
		return nil, fmt.Errorf("%s: %w %s (use --root %s)", sf.Path, ErrOtherRoot, sf.Root, sf.Root)
	}
	values := sf.Saved.Values()
	out := make([]PathOutcome, len(values))
	for i, v := range values {
		found, err := h.ReadFile(v.Path)
		out[i] = PathOutcome{Path: v.Path, Previous: strings.TrimSpace(v.Content), Outcome: OutcomeUnchanged}
		if err == nil {
			out[i].Found = strings.TrimSpace(string(found))
		}
		if err != nil || string(found) != v.Content {
			out[i].Outcome = OutcomeWouldWrite
		}
	}
	out = append(out, coalesceOutcomes(h, sf.Saved)...)
	if dryRun {
		return out, nil
	}
	restoreErr := Restore(h, sf.Saved)
	var unmatched []error
	for _, e := range joined(restoreErr) {
		var pe *fs.PathError
		matched := false
		if errors.As(e, &pe) {
			for i := range out {
				if out[i].Path == pe.Path {
					out[i].Outcome, out[i].Error = OutcomeFailed, unwrapPath(e).Error()
					matched = true
				}
			}
		}
		for i := range out {
			if !matched && out[i].Interface != "" && strings.HasPrefix(e.Error(), "coalescing of "+out[i].Interface+":") {
				out[i].Outcome, out[i].Error = OutcomeFailed, strings.TrimPrefix(e.Error(), "coalescing of "+out[i].Interface+": ")
				matched = true
			}
		}
		if !matched {
			unmatched = append(unmatched, e)
		}
	}
	failed := 0
	for i := range out {
		switch out[i].Outcome {
		case OutcomeWouldWrite:
			out[i].Outcome = OutcomeRestored
		case OutcomeFailed:
			failed++
		}
	}
	if restoreErr != nil {
		msg := fmt.Errorf("%d value(s) could not be written back", failed)
		return out, errors.Join(append([]error{msg}, unmatched...)...)
	}
	return out, removeStateFile(sf.Path)
}

// joined returns the errors joined in err (itself when not a join).
func joined(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
