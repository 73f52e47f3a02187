package memory

import (
	"boardbench/internal/kernelfile"
	"errors"
	"io/fs"
	"strings"
)

// MeminfoField returns one field of /proc/meminfo content as
// kernelfile.ParseMeminfo reads it (bytes for kB values); ok is false when
// the field is absent or malformed.
func MeminfoField(data []byte, name string) (int64, bool) {
	v, ok := kernelfile.ParseMeminfo(data)[name]
	return v, ok
}

// Choice is a sysfs setting written as its options with the selected one in
// brackets, e.g. "always [madvise] never".
type Choice struct {
	// Selected is the option in brackets, e.g. "madvise".
	Selected string `json:"selected"`
	// Options are all options in the kernel's order.
	Options []string `json:"options"`
}

// choiceOf turns a parsed sysfs choice attribute into a Choice; ok is false
// when no option is in brackets.
func choiceOf(s string) (Choice, bool) {
	c := kernelfile.ParseChoice(s)
	return Choice{Selected: c.Selected, Options: c.Options}, c.Selected != ""
}

// isNumbered reports whether name is prefix followed by decimal digits only,
// e.g. "node0" or "zram12".
func isNumbered(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok || rest == "" {
		return false
	}
	for _, r := range rest {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// unwrapPath drops the path from a *fs.PathError: notes already name the item.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
