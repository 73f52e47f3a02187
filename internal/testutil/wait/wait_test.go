package wait

import "testing"

// TestUntilWaitsForTheEvent: Until returns once the condition holds, after
// as many checks as it takes, and Return once f has returned.
func TestUntilWaitsForTheEvent(t *testing.T) {
	for _, n := range []int{1, 2, 5} {
		calls := 0
		Until(t, "the event", func() bool { calls++; return calls == n })
		if calls != n {
			t.Errorf("condition checked %d times, want %d", calls, n)
		}
	}
	ran := false
	Return(t, "f", func() { ran = true })
	if !ran {
		t.Error("Return returned before f ran")
	}
}
