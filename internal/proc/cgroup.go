package proc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"boardbench/internal/kernelfile"
)

// cgroupPrefix starts the name of every cgroup proc creates; the creating
// boardbench's process id follows, then "-" and a random suffix.
const cgroupPrefix = "boardbench-"

// maxControlFile bounds the reads of /proc/self/{cgroup,mountinfo} and of
// cgroup.procs.
const maxControlFile = 1 << 20

// cgroup is the cgroup v2 a program is started in, a child of boardbench's
// own cgroup. It is reached directly on the live file system (/proc/self and
// the cgroup2 mount), not through internal/host: it exists only for live
// processes and needs mkdir, rmdir and writes no fixture root could serve.
type cgroup struct {
	dir string
	f   *os.File // the open directory for SysProcAttr.CgroupFD until the start
}

// newCgroup creates a cgroup for one program, or returns nil when the system
// does not allow it: no cgroup v2, no permission to create a cgroup, or a
// kernel without cgroup.kill (before 5.14).
func newCgroup() *cgroup {
	base := ownCgroupDir()
	if base == "" {
		return nil
	}
	sweepStale(base)
	dir, err := os.MkdirTemp(base, cgroupPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return nil
	}
	cg := &cgroup{dir: dir}
	if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err != nil {
		cg.remove()
		return nil
	}
	if cg.f, err = os.Open(dir); err != nil {
		cg.remove()
		return nil
	}
	return cg
}

// fd returns the descriptor to start the program into the cgroup with.
func (c *cgroup) fd() int { return int(c.f.Fd()) }

// closeFD closes the directory once the program has started; nil-safe.
func (c *cgroup) closeFD() {
	if c != nil && c.f != nil {
		c.f.Close()
		c.f = nil
	}
}

// procs returns the processes in the cgroup; exited ones are not listed.
func (c *cgroup) procs() ([]int, error) {
	data, err := readBounded(filepath.Join(c.dir, "cgroup.procs"))
	if err != nil {
		return nil, err
	}
	return kernelfile.ParseCgroupProcs(data), nil
}

// kill sends SIGKILL to every process in the cgroup, including those
// forking at that moment.
func (c *cgroup) kill() { _ = os.WriteFile(filepath.Join(c.dir, "cgroup.kill"), []byte("1"), 0) }

// remove deletes the cgroup, waiting up to a second for it to empty.
func (c *cgroup) remove() {
	c.closeFD()
	removeCgroup(c.dir, time.Second)
}

// removeCgroup removes the cgroup directory dir, retrying for up to d while
// the kernel reports it busy (processes still exiting).
func removeCgroup(dir string, d time.Duration) {
	deadline := time.Now().Add(d)
	for {
		err := syscall.Rmdir(dir)
		if err == nil || !errors.Is(err, syscall.EBUSY) || time.Now().After(deadline) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// sweepStale stops and removes the cgroups under base left by a boardbench
// that no longer runs (killed with SIGKILL): the processes its programs had
// started, which the parent-death signal does not reach.
func sweepStale(base string) {
	ents, err := os.ReadDir(base)
	if err != nil {
		return
	}
	self := os.Getpid()
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), cgroupPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		owner, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(owner)
		if err != nil || pid == self || syscall.Kill(pid, 0) != syscall.ESRCH {
			continue // not ours, or its boardbench still runs
		}
		dir := filepath.Join(base, e.Name())
		_ = os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0)
		removeCgroup(dir, 200*time.Millisecond)
	}
}

// ownCgroupDir returns the directory of this process's cgroup v2, "" when
// there is none to be found.
func ownCgroupDir() string {
	data, err := readBounded("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	path, ok := kernelfile.ParseCgroup2Path(data)
	if !ok {
		return ""
	}
	mounts, err := readBounded("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	root, point := cgroup2Mount(mounts)
	if point == "" {
		return ""
	}
	rel, ok := strings.CutPrefix(path, root)
	if !ok {
		return ""
	}
	return filepath.Join(point, rel)
}

// cgroup2Mount finds the first cgroup2 mount in mountinfo content and
// returns its root within the hierarchy and its mount point; "" when there
// is none.
func cgroup2Mount(mountinfo []byte) (root, point string) {
	for _, m := range kernelfile.ParseMountInfo(string(mountinfo)) {
		if m.FSType == "cgroup2" {
			return m.Root, m.MountPoint
		}
	}
	return "", ""
}

// readBounded reads at most maxControlFile bytes of a live kernel file.
func readBounded(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxControlFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxControlFile {
		return nil, fmt.Errorf("%s: larger than %d bytes", p, maxControlFile)
	}
	return data, nil
}
