package kernelfile

import "strings"

// Choice is a sysfs attribute that lists its options with the selected one
// in brackets: the I/O scheduler ("mq-deadline kyber [bfq] none"), the PCIe
// ASPM policy ("[default] performance powersave"), transparent huge pages
// ("always [madvise] never"), the zram compressor ("lzo [lz4] zstd").
type Choice struct {
	// Selected is the option written in brackets (the first, should there
	// be several); "" when no option is.
	Selected string
	// Options lists every option in the kernel's order, brackets removed;
	// nil for an empty attribute.
	Options []string
}

// ParseChoice parses a choice attribute. A word in brackets is the selected
// option; an empty pair of brackets ("[]") names no option and is dropped.
func ParseChoice(s string) Choice {
	var c Choice
	for _, f := range strings.Fields(s) {
		if len(f) >= 2 && f[0] == '[' && f[len(f)-1] == ']' {
			f = f[1 : len(f)-1]
			if f == "" {
				continue
			}
			if c.Selected == "" {
				c.Selected = f
			}
		}
		c.Options = append(c.Options, f)
	}
	return c
}

// SelectedOrOnly returns Selected, or the single option of an attribute
// that lists one option without brackets (a queue whose only I/O scheduler
// is "none" may print just that); "" otherwise.
func (c Choice) SelectedOrOnly() string {
	if c.Selected == "" && len(c.Options) == 1 {
		return c.Options[0]
	}
	return c.Selected
}
