package capture

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"boardbench/internal/host"
)

// maxExtractBytes bounds the content of all members of one archive.
const maxExtractBytes = 256 << 20

// Extract unpacks a capture archive into dir, refusing members that would
// land outside it (absolute names, "..", or a path below a link the archive
// made), members larger than host.MaxCommandBytes or together larger than
// 256 MiB, duplicate members, and anything but files, directories and
// symbolic links. Links are created as they are: a Host on dir resolves them
// inside dir.
func Extract(r io.Reader, dir string) error {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return fmt.Errorf("not a capture archive: %v", err)
	}
	tr := tar.NewReader(gz)
	var total int64
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("corrupt capture archive: %v", err)
		}
		name := filepath.Clean(filepath.FromSlash(hdr.Name))
		if filepath.IsAbs(name) || name == ".." || strings.HasPrefix(name, ".."+string(filepath.Separator)) {
			return fmt.Errorf("capture archive member %q escapes the target directory", hdr.Name)
		}
		if name == "." {
			continue
		}
		if err := noLinkAbove(dir, name); err != nil {
			return fmt.Errorf("capture archive member %q: %v", hdr.Name, err)
		}
		target := filepath.Join(dir, name)
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if hdr.Size > host.MaxCommandBytes || total+hdr.Size > maxExtractBytes {
				return fmt.Errorf("capture archive member %q is too large (%d bytes)", hdr.Name, hdr.Size)
			}
			total += hdr.Size
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(target, os.O_CREATE|os.O_EXCL|os.O_WRONLY|syscall.O_NOFOLLOW, 0o644)
			if err != nil {
				return fmt.Errorf("capture archive member %q: %v", hdr.Name, unwrapPath(err))
			}
			_, err = io.Copy(f, io.LimitReader(tr, hdr.Size))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		case tar.TypeSymlink:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			if err := os.Symlink(hdr.Linkname, target); err != nil {
				return fmt.Errorf("capture archive member %q: %v", hdr.Name, unwrapPath(err))
			}
		default:
			return fmt.Errorf("capture archive member %q has an unsupported type", hdr.Name)
		}
	}
}

// noLinkAbove fails when a directory on the way from dir to name (both
// excluded) is a symbolic link or not a directory: writing through it would
// leave dir.
func noLinkAbove(dir, name string) error {
	parts := strings.Split(filepath.Dir(name), string(filepath.Separator))
	cur := dir
	for _, p := range parts {
		if p == "." {
			break
		}
		cur = filepath.Join(cur, p)
		st, err := os.Lstat(cur)
		if err != nil {
			return nil // missing: MkdirAll creates real directories from here
		}
		if st.Mode()&fs.ModeSymlink != 0 || !st.IsDir() {
			return fmt.Errorf("lies below %s, which is not a directory", p)
		}
	}
	return nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}
