package host

import (
	"io/fs"
	"sort"
	"sync"
)

// Recorder remembers everything a Host served: file contents, directory
// listings, symbolic links, stat'ed paths and command outputs. It is safe for
// concurrent use.
type Recorder struct {
	mu       sync.Mutex
	files    map[string][]byte
	links    map[string]string
	dirs     map[string][]DirEntry
	stats    map[string]bool // true for directories
	commands map[string][]byte
}

// NewRecorder returns an empty Recorder.
func NewRecorder() *Recorder {
	return &Recorder{
		files:    map[string][]byte{},
		links:    map[string]string{},
		dirs:     map[string][]DirEntry{},
		stats:    map[string]bool{},
		commands: map[string][]byte{},
	}
}

func (r *Recorder) addFile(p string, data []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, ok := r.files[p]; ok && len(old) >= len(data) {
		return // keep the longest read (a whole file beats its header)
	}
	r.files[p] = append([]byte(nil), data...)
}

func (r *Recorder) addLink(p, target string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.links[p] = target
}

func (r *Recorder) addDir(p string, ents []DirEntry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dirs[p] = append([]DirEntry(nil), ents...)
}

func (r *Recorder) addStat(p string, st fs.FileInfo) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stats[p] = st.IsDir()
}

func (r *Recorder) addCommand(key string, out []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.commands[key] = append([]byte(nil), out...)
}

// AddCommandOutput records a command's output under its CommandKey, for
// outputs obtained outside Run (e.g. the Host's own uname).
func (r *Recorder) AddCommandOutput(key string, out []byte) { r.addCommand(key, out) }

// Snapshot is a copy of what a Recorder holds, keyed by machine path.
type Snapshot struct {
	Files    map[string][]byte
	Links    map[string]string
	Dirs     map[string][]DirEntry
	Stats    map[string]bool
	Commands map[string][]byte
}

// Snapshot returns a copy of everything recorded so far.
func (r *Recorder) Snapshot() Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := Snapshot{
		Files: map[string][]byte{}, Links: map[string]string{},
		Dirs: map[string][]DirEntry{}, Stats: map[string]bool{}, Commands: map[string][]byte{},
	}
	for k, v := range r.files {
		s.Files[k] = v
	}
	for k, v := range r.links {
		s.Links[k] = v
	}
	for k, v := range r.dirs {
		s.Dirs[k] = v
	}
	for k, v := range r.stats {
		s.Stats[k] = v
	}
	for k, v := range r.commands {
		s.Commands[k] = v
	}
	return s
}

// SortedKeys returns the keys of a map in order.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
