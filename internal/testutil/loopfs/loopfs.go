// Package loopfs makes small file systems on loop devices for tests that
// need a real block device: an ext4 file system on a loop device over a
// sparse file, mounted in a temporary directory, all undone when the test
// ends.
package loopfs

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/testutil/need"
)

// Make makes an ext4 file system of size bytes (no journal, so that all
// its metadata sits at its start) on a loop device over a sparse file, and
// mounts it; everything is undone when the test ends. It returns the
// mount point and the backing file.
func Make(t testing.TB, size int64) (mnt, img string) {
	t.Helper()
	if os.Getuid() != 0 {
		t.Fatal("this test attaches a loop device and needs root (CI runs as root)")
	}
	for _, tool := range []string{"losetup", "mkfs.ext4", "mount", "umount", "fallocate"} {
		if _, err := exec.LookPath(tool); err != nil {
			need.Missing(t, "%s not found (util-linux, mount, e2fsprogs): %v", tool, err)
		}
	}
	img = filepath.Join(t.TempDir(), "disk.img")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, size); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("losetup", "-f", "--show", img).Output()
	if err != nil {
		t.Fatalf("losetup: %v", err)
	}
	dev := strings.TrimSpace(string(out))
	t.Cleanup(func() { _ = exec.Command("losetup", "-d", dev).Run() })
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", "-O", "^has_journal", "-E", "nodiscard", "-m", "0", dev).CombinedOutput(); err != nil {
		t.Fatalf("mkfs.ext4: %v: %s", err, out)
	}
	mnt = t.TempDir()
	if out, err := exec.Command("mount", dev, mnt).CombinedOutput(); err != nil {
		t.Fatalf("mount: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", mnt).Run() })
	_ = os.Remove(filepath.Join(mnt, "lost+found"))
	return mnt, img
}
