// Package host is boardbench's only door to the machine: every read of /proc,
// /sys and /dev, every write to a tunable, every command run and every CPU
// pinning goes through a Host.
//
// A Host works relative to a root directory: "/" for the live system, or a
// fixture tree (a directory that looks like a machine's /proc and /sys, for
// example one unpacked from `boardbench capture`). Symbolic links inside the
// root are resolved by the Host itself, so absolute links in a fixture tree
// stay inside the tree. Reads are limited to an allow-list of paths known to
// be free of side effects; see allowlist.go.
//
// When a Recorder is attached, the Host remembers every file, directory
// listing, symbolic link and command output it served, so that the exact
// inputs of a description can be packed into a fixture.
package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"boardbench/internal/regfile"
)

// MaxReadBytes is the largest file ReadFile reads; a larger file is an
// error, not a silently truncated read.
const MaxReadBytes = 4 << 20

// MaxCommandBytes is the largest command output Run returns, recorded in a
// fixture root or produced on the live system.
const MaxCommandBytes = 16 << 20

// maxDirEntries bounds a directory listing.
const maxDirEntries = 1 << 18

// CommandsDir is where a fixture root keeps the recorded output of commands,
// relative to the root: one file per command line, named by CommandKey.
const CommandsDir = "/.boardbench/commands"

// constError is an error whose value is its text, so that a sentinel
// error is a constant: static data that costs nothing when boardbench
// starts (errors.New would run at init). errors.Is and == match it.
type constError string

func (e constError) Error() string { return string(e) }

// ErrNotAllowed is returned for a path outside the read or write allow-list.
const ErrNotAllowed = constError("path not on the allow-list of safe paths")

// ErrNotLive is returned for operations that need the live system (pinning,
// running commands that were not recorded) on a fixture root.
const ErrNotLive = constError("not possible on a fixture root")

// Host gives access to one machine, live or recorded, relative to a root.
type Host struct {
	root string // absolute, cleaned; "/" for the live system
	live bool
	rec  *Recorder
	// cmdTimeout bounds every command run through Run.
	cmdTimeout time.Duration
}

// Option configures a Host.
type Option func(*Host)

// WithRecorder makes the Host record everything it reads into r.
func WithRecorder(r *Recorder) Option { return func(h *Host) { h.rec = r } }

// WithCommandTimeout bounds each command run by Run (default 10 s).
func WithCommandTimeout(d time.Duration) Option { return func(h *Host) { h.cmdTimeout = d } }

// New returns a Host for root ("/" for the live system). It fails with a
// clear error when root is not a readable directory.
func New(root string, opts ...Option) (*Host, error) {
	if root == "" {
		root = "/"
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("root %q: %v", root, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("root %q: %v", root, unwrapPathError(err))
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("root %q: not a directory", root)
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, fmt.Errorf("root %q: %v", root, unwrapPathError(err))
	}
	_, err = f.Readdirnames(1)
	f.Close()
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("root %q: not readable: %v", root, unwrapPathError(err))
	}
	h := &Host{root: abs, live: abs == "/", cmdTimeout: 10 * time.Second}
	for _, o := range opts {
		o(h)
	}
	return h, nil
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Root returns the absolute root directory of this Host.
func (h *Host) Root() string { return h.root }

// Live reports whether the Host is the running system (root "/").
func (h *Host) Live() bool { return h.live }

// Recorder returns the attached recorder, or nil.
func (h *Host) Recorder() *Recorder { return h.rec }

// clean validates and normalises a machine path: it must be absolute.
func clean(p string) (string, error) {
	if !strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("%s: path must be absolute", p)
	}
	return path.Clean(p), nil
}

// maxLinkHops bounds symbolic link resolution, as the kernel does.
const maxLinkHops = 40

// resolve turns a machine path into the machine path with every symbolic link
// resolved inside the root. Links met on the way are recorded. A missing final
// component is not an error: the resolved path is returned and the caller's
// open fails as it would on the machine.
func (h *Host) resolve(p string) (string, error) {
	if h.live && h.rec == nil {
		return p, nil
	}
	hops := 0
	rest := strings.Split(strings.TrimPrefix(p, "/"), "/")
	cur := "/"
	for len(rest) > 0 {
		comp := rest[0]
		rest = rest[1:]
		switch comp {
		case "", ".":
			continue
		case "..":
			cur = path.Dir(cur)
			continue
		}
		next := path.Join(cur, comp)
		st, err := os.Lstat(h.real(next))
		if err != nil {
			// Missing: keep the remaining path unresolved.
			return path.Join(append([]string{next}, rest...)...), nil
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		hops++
		if hops > maxLinkHops {
			return "", fmt.Errorf("%s: too many levels of symbolic links", p)
		}
		target, err := os.Readlink(h.real(next))
		if err != nil {
			return "", err
		}
		if h.rec != nil {
			h.rec.addLink(next, target)
		}
		var base string
		if strings.HasPrefix(target, "/") {
			base = "/"
		} else {
			base = cur
		}
		rest = append(strings.Split(strings.TrimPrefix(path.Join(base, target), "/"), "/"), rest...)
		cur = "/"
	}
	return cur, nil
}

// real maps a resolved machine path to the path on this computer.
func (h *Host) real(p string) string {
	if h.live {
		return p
	}
	return filepath.Join(h.root, filepath.FromSlash(p))
}

// ReadFile returns the content of a regular file on the allow-list, at most
// MaxReadBytes of it. Device nodes, FIFOs and sockets are refused.
func (h *Host) ReadFile(p string) ([]byte, error) {
	return h.readLimited(p, MaxReadBytes, false)
}

// ReadHead returns at most n bytes from the start of a file. Executables may be
// read this way (for their ELF header) but not whole.
func (h *Host) ReadHead(p string, n int) ([]byte, error) {
	if n > MaxReadBytes {
		n = MaxReadBytes
	}
	return h.readLimited(p, n, true)
}

func (h *Host) readLimited(p string, limit int, head bool) ([]byte, error) {
	p, err := clean(p)
	if err != nil {
		return nil, err
	}
	if !readAllowed(p) && !(limit <= 4096 && headAllowed(p)) {
		return nil, &fs.PathError{Op: "read", Path: p, Err: ErrNotAllowed}
	}
	rp, err := h.resolve(p)
	if err != nil {
		return nil, err
	}
	if deniedResolved(rp) {
		return nil, &fs.PathError{Op: "read", Path: p, Err: ErrNotAllowed}
	}
	data, err := h.readRegular(rp, int64(limit), head)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: p, Err: unwrapPathError(err)}
	}
	if h.rec != nil {
		h.rec.addFile(rp, data)
	}
	return data, nil
}

// links says how the real path of a machine path resolved by h.resolve may
// be opened: on a fixture root (and when recording) every link was already
// resolved inside the root, so a link met now is refused rather than
// followed out of it.
func (h *Host) links() regfile.Links {
	if h.live && h.rec == nil {
		return regfile.Follow
	}
	return regfile.NoFollow
}

// lstat returns the file information of a resolved machine path without
// following a final link on a fixture root.
func (h *Host) lstat(rp string) (fs.FileInfo, error) {
	if h.links() == regfile.Follow {
		return os.Stat(h.real(rp))
	}
	return os.Lstat(h.real(rp))
}

// readRegular reads the regular file at a resolved machine path, never
// opening a FIFO or device and never reading more than limit bytes (an
// error unless head).
func (h *Host) readRegular(rp string, limit int64, head bool) ([]byte, error) {
	if head {
		return regfile.Head(h.real(rp), limit, h.links())
	}
	return regfile.Read(h.real(rp), limit, h.links())
}

// ReadString returns a file's content with surrounding white space removed.
func (h *Host) ReadString(p string) (string, error) {
	b, err := h.ReadFile(p)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

// ReadInt returns a file's content parsed as a decimal integer.
func (h *Host) ReadInt(p string) (int64, error) {
	s, err := h.ReadString(p)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: not an integer: %q", p, truncate(s, 40))
	}
	return v, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// DirEntry is one name in a directory listing.
type DirEntry struct {
	Name string
	// Kind is "dir", "file", "link" or "other".
	Kind string
}

// ReadDir lists a directory on the allow-list, sorted by name.
func (h *Host) ReadDir(p string) ([]DirEntry, error) {
	p, err := clean(p)
	if err != nil {
		return nil, err
	}
	if !readAllowed(p) && !listAllowed(p) {
		return nil, &fs.PathError{Op: "readdir", Path: p, Err: ErrNotAllowed}
	}
	rp, err := h.resolve(p)
	if err != nil {
		return nil, err
	}
	ents, err := h.listDir(rp)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: p, Err: unwrapPathError(err)}
	}
	out := make([]DirEntry, 0, len(ents))
	for _, e := range ents {
		kind := "other"
		switch t := e.Type(); {
		case t&fs.ModeSymlink != 0:
			kind = "link"
		case t.IsDir():
			kind = "dir"
		case t.IsRegular():
			kind = "file"
		}
		out = append(out, DirEntry{Name: e.Name(), Kind: kind})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	if h.rec != nil {
		h.rec.addDir(rp, out)
	}
	return out, nil
}

// listDir lists the directory at a resolved machine path: a FIFO or device
// in its place is refused before it is opened, and at most maxDirEntries
// names are read.
func (h *Host) listDir(rp string) ([]fs.DirEntry, error) {
	st, err := h.lstat(rp)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, syscall.ENOTDIR
	}
	flags := os.O_RDONLY | syscall.O_DIRECTORY | syscall.O_NONBLOCK
	if h.links() == regfile.NoFollow {
		flags |= syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(h.real(rp), flags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(maxDirEntries + 1)
	if err != nil && err != io.EOF {
		return nil, err
	}
	if len(ents) > maxDirEntries {
		return nil, fmt.Errorf("more than %d entries", maxDirEntries)
	}
	return ents, nil
}

// ReadDirNames lists the names in a directory, sorted.
func (h *Host) ReadDirNames(p string) ([]string, error) {
	ents, err := h.ReadDir(p)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name
	}
	return names, nil
}

// Readlink returns the target of a symbolic link as stored in the link.
func (h *Host) Readlink(p string) (string, error) {
	p, err := clean(p)
	if err != nil {
		return "", err
	}
	if !readAllowed(p) && !listAllowed(p) {
		return "", &fs.PathError{Op: "readlink", Path: p, Err: ErrNotAllowed}
	}
	rdir, err := h.resolve(path.Dir(p))
	if err != nil {
		return "", err
	}
	lp := path.Join(rdir, path.Base(p))
	t, err := os.Readlink(h.real(lp))
	if err != nil {
		return "", &fs.PathError{Op: "readlink", Path: p, Err: unwrapPathError(err)}
	}
	if h.rec != nil {
		h.rec.addLink(lp, t)
	}
	return t, nil
}

// Resolve returns the machine path p points to once every symbolic link is
// followed, e.g. /sys/class/net/eth0 → /sys/devices/platform/.../net/eth0.
func (h *Host) Resolve(p string) (string, error) {
	p, err := clean(p)
	if err != nil {
		return "", err
	}
	if !readAllowed(p) && !listAllowed(p) {
		return "", &fs.PathError{Op: "resolve", Path: p, Err: ErrNotAllowed}
	}
	if h.live && h.rec == nil {
		r, err := filepath.EvalSymlinks(p)
		if err != nil {
			return "", err
		}
		return r, nil
	}
	rp, err := h.resolve(p)
	if err != nil {
		return "", err
	}
	if _, err := os.Lstat(h.real(rp)); err != nil {
		return "", &fs.PathError{Op: "resolve", Path: p, Err: unwrapPathError(err)}
	}
	return rp, nil
}

// Exists reports whether p exists (after following links) and is on the
// allow-list.
func (h *Host) Exists(p string) bool {
	_, err := h.Stat(p)
	return err == nil
}

// Stat returns file information for an allow-listed path.
func (h *Host) Stat(p string) (fs.FileInfo, error) {
	p, err := clean(p)
	if err != nil {
		return nil, err
	}
	if !readAllowed(p) && !listAllowed(p) && !headAllowed(p) && !statAllowed(p) {
		return nil, &fs.PathError{Op: "stat", Path: p, Err: ErrNotAllowed}
	}
	rp, err := h.resolve(p)
	if err != nil {
		return nil, err
	}
	st, err := h.lstat(rp)
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: p, Err: unwrapPathError(err)}
	}
	if h.rec != nil {
		h.rec.addStat(rp, st)
	}
	return st, nil
}

// Glob returns the machine paths matching pattern (path.Match syntax per
// component), sorted. Components are expanded with ReadDir, so links inside
// the root are followed.
func (h *Host) Glob(pattern string) ([]string, error) {
	pattern, err := clean(pattern)
	if err != nil {
		return nil, err
	}
	comps := strings.Split(strings.TrimPrefix(pattern, "/"), "/")
	paths := []string{"/"}
	for i, comp := range comps {
		last := i == len(comps)-1
		var next []string
		for _, dir := range paths {
			if !hasMeta(comp) {
				p := path.Join(dir, comp)
				if last {
					if h.Exists(p) {
						next = append(next, p)
					}
				} else {
					next = append(next, p)
				}
				continue
			}
			ents, err := h.ReadDir(dir)
			if err != nil {
				continue
			}
			for _, e := range ents {
				if ok, _ := path.Match(comp, e.Name); ok {
					next = append(next, path.Join(dir, e.Name))
				}
			}
		}
		paths = next
	}
	sort.Strings(paths)
	return paths, nil
}

func hasMeta(s string) bool { return strings.ContainsAny(s, `*?[\`) }

// CommandKey is the file name under CommandsDir that holds the recorded
// output of a command line in a fixture root.
func CommandKey(name string, args ...string) string {
	s := strings.Join(append([]string{path.Base(name)}, args...), " ")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_', r == '=':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// HasCommand reports whether a command can be run: on the live system when it
// is on PATH, on a fixture root when any output of it was recorded.
func (h *Host) HasCommand(name string) bool {
	if h.live {
		_, err := exec.LookPath(name)
		return err == nil
	}
	rp, err := h.resolve(CommandsDir)
	if err != nil {
		return false
	}
	ents, err := h.listDir(rp)
	if err != nil {
		return false
	}
	key := CommandKey(name)
	for _, e := range ents {
		if e.Name() == key || strings.HasPrefix(e.Name(), key+"_") {
			return true
		}
	}
	return false
}

// LookPath returns the full path of a command on the live system's PATH.
func (h *Host) LookPath(name string) (string, error) {
	if !h.live {
		if h.HasCommand(name) {
			return name, nil
		}
		return "", fmt.Errorf("%s: %w", name, ErrNotLive)
	}
	return exec.LookPath(name)
}

// Run runs a short command and returns its standard output. On the live
// system the command runs with LC_ALL=C and the Host's timeout; on a fixture
// root its recorded output is returned. A command that exits non-zero returns
// its output together with an error.
func (h *Host) Run(ctx context.Context, name string, args ...string) ([]byte, error) {
	key := CommandKey(name, args...)
	line := strings.Join(append([]string{name}, args...), " ")
	if !h.live {
		data, err := h.recordedOutput(key)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: no recorded output in this root", line)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: recorded output refused: %v", line, err)
		}
		if h.rec != nil {
			h.rec.addCommand(key, data)
		}
		return data, nil
	}
	ctx, cancel := context.WithTimeout(ctx, h.cmdTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(ChildEnv(nil, false), "LC_ALL=C", "LANG=C")
	stdout := &cappedBuffer{limit: MaxCommandBytes}
	stderr := &cappedBuffer{limit: 64 << 10}
	err := runCaptured(ctx, cmd, stdout, stderr)
	out := stdout.buf.Bytes()
	if err == nil && stdout.over {
		err = fmt.Errorf("output larger than %s", regfile.Size(MaxCommandBytes))
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.buf.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg != "" {
			return out, fmt.Errorf("%s: %v: %s", name, err, msg)
		}
		return out, fmt.Errorf("%s: %v", name, err)
	}
	if h.rec != nil {
		h.rec.addCommand(key, out)
	}
	return out, nil
}

// recordedOutput reads the output of a command recorded in a fixture root,
// through the same link resolution and checks as every other read: the
// commands directory and the file may be links, but never out of the root,
// and the file must be a regular file of at most MaxCommandBytes.
func (h *Host) recordedOutput(key string) ([]byte, error) {
	if key == "" || key == "." || key == ".." {
		return nil, errors.New("not a command")
	}
	rp, err := h.resolve(path.Join(CommandsDir, key))
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if deniedResolved(rp) {
		return nil, ErrNotAllowed
	}
	data, err := h.readRegular(rp, MaxCommandBytes, false)
	if err != nil {
		return nil, unwrapPathError(err)
	}
	return data, nil
}

// cappedBuffer keeps the first limit bytes written to it and notes whether
// more came, so that a command's output is bounded.
type cappedBuffer struct {
	buf   bytes.Buffer
	limit int
	over  bool
}

// Write keeps what fits and reports every byte as written, so the command
// is not killed by a broken pipe.
func (c *cappedBuffer) Write(p []byte) (int, error) {
	if room := c.limit - c.buf.Len(); room < len(p) {
		c.over = true
		c.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return c.buf.Write(p)
}
