// Package note describes a fact boardbench could not establish and why, so
// that results say "needs root" or "not exposed" instead of inventing values.
package note

// Common reasons. Use these strings where they fit so that views and tests
// can recognise them; any other clear reason is fine too.
const (
	NeedsRoot    = "needs root"
	NotExposed   = "not exposed by this system"
	NotInstalled = "tool not installed"
	Unreadable   = "unreadable"
	Malformed    = "malformed content"
	NotLive      = "not available from a recorded root"
)

// Note says that an item is unknown and why.
type Note struct {
	// Item names what is missing, e.g. "cpu0 cpuinfo_cur_freq".
	Item string `json:"item"`
	// Reason is why it is missing, e.g. "needs root".
	Reason string `json:"reason"`
}

// List collects notes; the zero value is ready to use.
type List []Note

// Add appends a note.
func (l *List) Add(item, reason string) { *l = append(*l, Note{Item: item, Reason: reason}) }
