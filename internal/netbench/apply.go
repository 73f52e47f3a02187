package netbench

import (
	"fmt"
	"strings"

	"boardbench/internal/check"
	"boardbench/internal/result"
	"boardbench/internal/tune"
)

// applyPlan applies the suggested spread and coalescing, through the guard
// (restored at the end) or, with --keep, directly.
func (r *runner) applyPlan(g *tune.Guard) {
	for _, s := range check.SpreadPlan(r.facts) {
		prev, perr := r.h.ReadString(s.Path)
		prev = strings.TrimSpace(prev)
		var err error
		if g != nil {
			err = g.SetFile(s.Path, s.Value)
		} else {
			err = r.h.WriteString(s.Path, s.Value)
		}
		r.writes, r.writeErrs = append(r.writes, s), append(r.writeErrs, err)
		line := fmt.Sprintf("echo %s > %s", s.Value, s.Path)
		if err != nil {
			line += " (failed: " + err.Error() + ")"
		} else if perr == nil && prev != "" {
			r.undo = append(r.undo, fmt.Sprintf("echo %s > %s", prev, s.Path))
		}
		r.applied = append(r.applied, line)
	}
	for _, d := range r.facts.Interfaces {
		if d.Coalesce == nil || !d.Coalesce.Minimal() {
			continue
		}
		c := *d.Coalesce
		c.RxUsecs, c.RxFrames = check.SuggestedRxUsecs, check.SuggestedRxFrames
		var err error
		if g != nil {
			err = g.SetCoalesce(d.Name, c)
		} else {
			err = r.eth.SetCoalesce(d.Name, c)
		}
		line := fmt.Sprintf("ethtool -C %s rx-usecs %d rx-frames %d", d.Name, c.RxUsecs, c.RxFrames)
		if err != nil {
			line += " (failed: " + err.Error() + ")"
		} else {
			r.undo = append(r.undo, fmt.Sprintf("ethtool -C %s rx-usecs %d rx-frames %d", d.Name, d.Coalesce.RxUsecs, d.Coalesce.RxFrames))
		}
		r.applied = append(r.applied, line)
	}
}

// unmoved reads back the effective affinity of the interrupts --apply
// moved, tells on standard error which did not move, and records them so
// that they are never advised again.
func (r *runner) unmoved() []result.NetUnmoved {
	found := CheckMoved(r.h, r.writes, r.writeErrs)
	for _, u := range found {
		fmt.Fprintf(r.io.ErrOut, "boardbench net: irq %s (%s) did not move: cpu %s written, effective affinity cpu %s; it is not advised again\n",
			u.IRQ, u.Name, u.Wanted, u.Effective)
	}
	if err := SaveUnmovable(tune.StateDirFor(r.h.Root()), found); err != nil {
		fmt.Fprintf(r.io.ErrOut, "boardbench net: cannot record the interrupts that did not move: %v\n", err)
	}
	return found
}

// sayApplied tells on standard error what --apply changed.
func (r *runner) sayApplied() {
	w := r.io.ErrOut
	if len(r.applied) == 0 {
		fmt.Fprintln(w, "boardbench net: --apply: nothing to change (no interrupt, queue or coalescing to spread)")
		return
	}
	when := "for the run"
	if r.o.Keep {
		when = "and keeps it (--keep)"
	}
	fmt.Fprintf(w, "boardbench net: --apply changes %s:\n", when)
	for _, a := range r.applied {
		fmt.Fprintf(w, "  %s\n", a)
	}
}

// sayRestored tells on standard error, at the end, that --apply's changes
// were restored, or with --keep the commands that undo them.
func (r *runner) sayRestored(res *result.Result) {
	if !r.o.Apply || len(r.applied) == 0 {
		return
	}
	w := r.io.ErrOut
	switch {
	case r.o.Keep && len(r.undo) > 0:
		fmt.Fprintln(w, "boardbench net: the changes are kept (--keep); to undo them, as root:")
		for _, u := range r.undo {
			fmt.Fprintf(w, "  %s\n", u)
		}
	case r.o.Keep:
		fmt.Fprintln(w, "boardbench net: the changes are kept (--keep); their previous values could not be read")
	case res.Tuning.Restored:
		n := 0
		for _, a := range r.applied {
			if !strings.Contains(a, "(failed: ") {
				n++
			}
		}
		fmt.Fprintf(w, "boardbench net: restored the %d setting(s) --apply changed\n", n)
	}
}
