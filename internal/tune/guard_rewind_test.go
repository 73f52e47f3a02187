package tune

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"boardbench/internal/testutil/fixture"
)

// TestGuardRewindKeepsGuarding: Rewind writes the saved state back and the
// Guard still accepts changes (and restores them on Close); devfreq
// governors change through the Guard too.
func TestGuardRewindKeepsGuarding(t *testing.T) {
	root, h := machine(t)
	before := fixture.Snapshot(t, root)
	g, _, err := NewGuard(context.Background(), h)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Pin(0, 816000); err != nil {
		t.Fatal(err)
	}
	if err := g.SetDevfreqGovernor("dmc", "performance"); err != nil {
		t.Fatal(err)
	}
	if got := read(t, root, "/sys/class/devfreq/dmc/governor"); got != "performance" {
		t.Errorf("dmc governor %q", got)
	}
	if err := g.Rewind(); err != nil {
		t.Fatal(err)
	}
	if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
		t.Errorf("after Rewind:\n%v\nwant\n%v", after, before)
	}
	if err := g.SetGovernor(0, "performance"); err != nil {
		t.Fatalf("SetGovernor after Rewind: %v", err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
		t.Errorf("after Close:\n%v\nwant\n%v", after, before)
	}
	if err := g.Rewind(); !errors.Is(err, ErrRestored) {
		t.Errorf("Rewind after Close = %v, want ErrRestored", err)
	}
	if err := g.SetDevfreqGovernor("dmc", "performance"); !errors.Is(err, ErrRestored) {
		t.Errorf("SetDevfreqGovernor after Close = %v, want ErrRestored", err)
	}
}
