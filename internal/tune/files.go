package tune

import (
	"errors"
	"slices"
	"strings"
)

// FileState is the saved content of one tunable outside cpufreq policies
// and devfreq devices: an ondemand governor tunable, the PCIe ASPM policy,
// a receive-packet-steering mask (`boardbench review --apply`). Its Path
// must be on internal/host's write allow-list.
type FileState struct {
	Path    string `json:"path"`
	Content string `json:"previous"`
}

// AllowNoFrequency lets NewGuard start on a machine without cpufreq
// policies or devfreq devices, for commands that change only other
// tunables (SetFile).
func AllowNoFrequency() Option { return func(g *Guard) { g.allowEmpty = true } }

// SetFile writes value to a tunable file, recording its previous content
// in the state file first (once per path), unless the Guard has restored.
// A file whose content already equals value is not written.
func (g *Guard) SetFile(p, value string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.restored {
		return ErrRestored
	}
	if !slices.ContainsFunc(g.file.Saved.Files, func(f FileState) bool { return f.Path == p }) {
		prev, err := g.h.ReadFile(p)
		if err != nil {
			return err
		}
		fs := FileState{Path: p, Content: string(prev)}
		g.state.Files = append(g.state.Files, fs)
		if err := g.record(func(s *State) { s.Files = append(s.Files, fs) }); err != nil {
			return err
		}
	} else if err := g.ensureWritten(); err != nil {
		return err
	}
	if cur, err := g.h.ReadFile(p); err == nil && strings.TrimSpace(string(cur)) == strings.TrimSpace(value) {
		return nil
	}
	return g.h.WriteString(p, value)
}

// restoreFiles writes back saved file contents that differ from the
// machine's, last changed first. A choice attribute (ASPM policy: "default
// performance [powersave]") is written back as its selected word, since the
// kernel accepts only that.
func restoreFiles(h interface {
	ReadFile(string) ([]byte, error)
	WriteString(string, string) error
}, files []FileState) []error {
	var errs []error
	for i := len(files) - 1; i >= 0; i-- {
		f := files[i]
		if f.Content == "" {
			continue
		}
		if cur, err := h.ReadFile(f.Path); err == nil && string(cur) == f.Content {
			continue
		}
		if err := h.WriteString(f.Path, writable(f.Content)); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// writable turns a saved content into what the kernel accepts back: the
// selected word of a choice attribute, else the content itself.
func writable(content string) string {
	for _, w := range strings.Fields(content) {
		if len(w) > 2 && w[0] == '[' && w[len(w)-1] == ']' {
			return w[1 : len(w)-1]
		}
	}
	return content
}

// errNothingSaved is Snapshot's error when a machine has no frequency
// tunables at all.
var errNothingSaved = errors.New("no cpufreq policy or devfreq device found")
