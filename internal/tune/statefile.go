package tune

import (
	"boardbench/internal/lazyre"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
)

// DefaultStateDir is where state files are kept unless StateDirEnv names
// another directory. It is a tmpfs on most systems: a reboot resets the
// tunables and the state files together.
const DefaultStateDir = "/run/boardbench"

// StateDirEnv is the environment variable that overrides DefaultStateDir
// (tests and fixture roots use a temporary directory).
const StateDirEnv = "BOARDBENCH_STATE_DIR"

// StateFileVersion is the version of the state file's layout.
const StateFileVersion = 1

// maxStateFileBytes bounds the read of a state file: a real one holds a few
// values per cpufreq policy and devfreq device.
const maxStateFileBytes = 1 << 20

// stateFileName matches the names of state files: tune-<pid>.json.
var stateFileName = lazyre.Regexp(`^tune-([0-9]+)\.json$`)

// StateDir returns the directory of state files: $BOARDBENCH_STATE_DIR when
// set, else DefaultStateDir.
func StateDir() string {
	if d := os.Getenv(StateDirEnv); d != "" {
		return d
	}
	return DefaultStateDir
}

// RootStateDir is where, inside a fixture root, the state files of the
// runs that tuned that root are kept (unless StateDirEnv is set): the
// record travels with the tree it describes, and the live machine's state
// directory holds only the live machine's state.
const RootStateDir = "/run/boardbench"

// StateDirFor returns the directory of the state files of runs on root:
// $BOARDBENCH_STATE_DIR when set; DefaultStateDir for the live system ("/"
// or ""); else RootStateDir inside root (DIR/run/boardbench). Guards keep
// their state file there, and `boardbench restore --root DIR` looks there.
func StateDirFor(root string) string {
	if d := os.Getenv(StateDirEnv); d != "" {
		return d
	}
	if root == "" || filepath.Clean(root) == "/" {
		return DefaultStateDir
	}
	return filepath.Join(root, RootStateDir)
}

// checkInsideRoot refuses a state directory under root reached through a
// symbolic link or a non-directory: a fixture tree must not make
// boardbench write its state file elsewhere. Missing components are fine
// (they are created as directories).
func checkInsideRoot(root, dir string) error {
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return fmt.Errorf("state directory %s: not inside %s", dir, root)
	}
	p := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if part == "." {
			continue
		}
		p = filepath.Join(p, part)
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("state directory: %w", err)
		}
		if !st.IsDir() {
			return fmt.Errorf("state directory %s: %s is not a directory (a link or a file), refusing to write there", dir, p)
		}
	}
	return nil
}

// StateFile is what a boardbench process records on disk before it changes
// a tunable: who changed it and the previous value of every path it
// changed, so that `boardbench restore` can put them back after a crash or
// a SIGKILL. The paths are machine paths relative to Root.
type StateFile struct {
	Version int `json:"version"`
	// PID is the process that made the changes.
	PID int `json:"pid"`
	// ProcStart is the process's start time in clock ticks after boot
	// (/proc/PID/stat), which tells it apart from a later process that got
	// the same id; 0 when unknown.
	ProcStart uint64 `json:"proc_start_ticks,omitempty"`
	// Command is the process's command line.
	Command []string `json:"command"`
	// Started is when the process started; Updated when the file was last
	// written.
	Started time.Time `json:"started"`
	Updated time.Time `json:"updated"`
	// Root is the host's root directory: "/" for the live system.
	Root string `json:"root"`
	// Saved holds the previous values of every policy and device changed.
	Saved State `json:"saved"`

	// Path is where the file was read from (not stored).
	Path string `json:"-"`
	// Err is set by Leftovers when the file could not be read or parsed;
	// only Path is meaningful then.
	Err error `json:"-"`
}

// SavedValue is one tunable path and the content to write back to it.
type SavedValue struct {
	Path    string `json:"path"`
	Content string `json:"previous"`
}

// Values lists every path a Restore of s may write, in the order it writes
// them, with the saved content. Unreadable (empty) values are left out.
func (s State) Values() []SavedValue {
	var out []SavedValue
	add := func(p, v string) {
		if v != "" {
			out = append(out, SavedValue{Path: p, Content: v})
		}
	}
	for _, p := range s.Policies {
		add(p.Dir+"/scaling_governor", p.Governor)
		add(p.Dir+"/scaling_min_freq", p.MinFreq)
		add(p.Dir+"/scaling_max_freq", p.MaxFreq)
		if strings.TrimSpace(p.Governor) == UserspaceGovernor {
			add(p.Dir+"/scaling_setspeed", p.Setspeed)
		}
	}
	for _, d := range s.Devfreq {
		add(d.Dir+"/governor", d.Governor)
		add(d.Dir+"/min_freq", d.MinFreq)
		add(d.Dir+"/max_freq", d.MaxFreq)
	}
	for i := len(s.Files) - 1; i >= 0; i-- {
		add(s.Files[i].Path, s.Files[i].Previous)
	}
	return out
}

// stateFilePath is the state file of process pid in dir.
func stateFilePath(dir string, pid int) string {
	return filepath.Join(dir, fmt.Sprintf("tune-%d.json", pid))
}

// newStateFile describes this process for a state file about root.
func newStateFile(root string) StateFile {
	pid := os.Getpid()
	sf := StateFile{Version: StateFileVersion, PID: pid, Command: os.Args, Root: root, Started: time.Now()}
	if ticks, ok := procStart(pid); ok {
		sf.ProcStart = ticks
		if boot, ok := bootTime(); ok {
			sf.Started = boot.Add(time.Duration(ticks) * time.Second / clockTicks).Round(time.Second)
		}
	}
	return sf
}

// writeStateFile stores sf atomically at path: a temporary file in the same
// directory, synced, renamed over path, then the directory synced. The
// directory is created (mode 0700) when missing. An existing path that is
// not a regular file is refused, never replaced.
func writeStateFile(path string, sf StateFile) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("state file %s: exists and is not a regular file", path)
	}
	sf.Updated = time.Now()
	data, err := json.MarshalIndent(sf, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".tune-*.tmp")
	if err != nil {
		return fmt.Errorf("state file: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		return fmt.Errorf("state file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("state file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("state file: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("state file: %w", err)
	}
	ok = true
	return syncDir(dir)
}

// removeStateFile removes a state file and syncs its directory; a file
// already gone is not an error.
func removeStateFile(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing state file: %w", err)
	}
	return syncDir(filepath.Dir(path))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	return nil
}

// ReadStateFile reads and checks a state file. It refuses anything but a
// regular file (without blocking on a FIFO and without following a final
// link), reads at most 1 MiB and rejects unknown versions.
func ReadStateFile(path string) (StateFile, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return StateFile{}, fmt.Errorf("state file %s: %w", path, unwrapPath(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return StateFile{}, fmt.Errorf("state file %s: %w", path, unwrapPath(err))
	}
	if !st.Mode().IsRegular() {
		return StateFile{}, fmt.Errorf("state file %s: not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxStateFileBytes+1))
	if err != nil {
		return StateFile{}, fmt.Errorf("state file %s: %w", path, unwrapPath(err))
	}
	if len(data) > maxStateFileBytes {
		return StateFile{}, fmt.Errorf("state file %s: larger than %d bytes", path, maxStateFileBytes)
	}
	var sf StateFile
	if err := json.Unmarshal(data, &sf); err != nil {
		return StateFile{}, fmt.Errorf("state file %s: not a boardbench state file: %v", path, err)
	}
	if sf.Version != StateFileVersion {
		return StateFile{}, fmt.Errorf("state file %s: unknown version %d", path, sf.Version)
	}
	if sf.PID <= 0 || !strings.HasPrefix(sf.Root, "/") {
		return StateFile{}, fmt.Errorf("state file %s: no process id or root", path)
	}
	sf.Path = path
	return sf, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Leftovers returns the state files in dir whose process no longer runs,
// the newest first (see newestFirst):
// each is a set of tunables a boardbench process changed and did not put
// back (it crashed or was killed). A file that cannot be read or parsed is
// returned too, with Err set. A missing dir holds no leftovers.
func Leftovers(dir string) ([]StateFile, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	var out []StateFile
	for _, e := range entries {
		m := stateFileName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		path := filepath.Join(dir, e.Name())
		sf, err := ReadStateFile(path)
		if err != nil {
			out = append(out, StateFile{Path: path, Err: err})
			continue
		}
		if running(sf) {
			continue
		}
		out = append(out, sf)
	}
	slices.SortFunc(out, newestFirst)
	return out, nil
}

// newestFirst orders state files by the start of the process that wrote
// them, the newest first (start time, then start ticks, then last write),
// with unreadable files last and the path as the final tie-break. A restore
// that follows this order writes the oldest file's values last: each file
// holds the values its process found, and only the oldest one found the
// machine's own (process ids wrap, so names say nothing about age).
func newestFirst(a, b StateFile) int {
	if (a.Err != nil) != (b.Err != nil) {
		if a.Err != nil {
			return 1
		}
		return -1
	}
	if c := b.Started.Compare(a.Started); c != 0 {
		return c
	}
	if a.ProcStart != 0 && b.ProcStart != 0 && a.ProcStart != b.ProcStart {
		if a.ProcStart > b.ProcStart {
			return -1
		}
		return 1
	}
	if c := b.Updated.Compare(a.Updated); c != 0 {
		return c
	}
	return strings.Compare(a.Path, b.Path)
}

// running reports whether the process that wrote sf still runs: its id is
// alive and, when recorded, its start time is the same.
func running(sf StateFile) bool {
	ticks, ok := procStart(sf.PID)
	if !ok {
		return false
	}
	return sf.ProcStart == 0 || sf.ProcStart == ticks
}

// clockTicks is USER_HZ, the unit of start times in /proc/PID/stat; it is
// 100 on every Linux architecture boardbench supports.
const clockTicks = 100

// liveHost opens the live system for reading /proc.
func liveHost() (*host.Host, error) { return host.New("/") }

// procStart returns the start time of process pid in clock ticks after
// boot (field 22 of /proc/PID/stat); ok is false when it does not run or
// its stat line ends before the start time.
func procStart(pid int) (uint64, bool) {
	h, err := liveHost()
	if err != nil {
		return 0, false
	}
	st, err := kernelfile.ReadPIDStat(h, pid)
	if err != nil || st.StartTime == 0 {
		return 0, false
	}
	return st.StartTime, true
}

// bootTime returns when the system booted (btime of /proc/stat).
func bootTime() (time.Time, bool) {
	h, err := liveHost()
	if err != nil {
		return time.Time{}, false
	}
	t, err := kernelfile.ReadBootTime(h)
	return t, err == nil
}

// Describe returns the one line a command prints when it finds sf left
// over, naming the `boardbench restore` command that repairs it.
func (sf StateFile) Describe() string {
	if sf.Err != nil {
		return fmt.Sprintf("a previous run may have left tunables changed, but its state file is unusable (%v); inspect and remove it", sf.Err)
	}
	restore := "boardbench restore"
	if sf.Root != "/" {
		restore += " --root " + sf.Root
	}
	when := "an unknown time"
	if !sf.Started.IsZero() {
		when = sf.Started.Local().Format("2006-01-02 15:04:05")
	}
	return fmt.Sprintf("a previous run left tunables changed (state file %s from %s, pid %d); run `%s`",
		sf.Path, when, sf.PID, restore)
}

// LeftoverLine sums up leftover state files in one line (see Describe);
// "" when there are none.
func LeftoverLine(left []StateFile) string {
	if len(left) == 0 {
		return ""
	}
	line := left[0].Describe()
	if n := len(left) - 1; n > 0 {
		line += fmt.Sprintf(" (%d more state file(s) in %s)", n, filepath.Dir(left[0].Path))
	}
	return line
}
