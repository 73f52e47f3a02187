// Package capture packs what a Host served into a gzip-compressed tar archive
// that, unpacked, is a root directory boardbench can read back with --root:
// files at their machine paths, symbolic links as links, listed directories
// with their entries, and command outputs under host.CommandsDir.
package capture

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/redact"
)

// Options control what goes into the archive.
type Options struct {
	// Redact replaces serial numbers and MAC addresses (the default).
	Redact bool
	// ModTime is stamped on every entry; zero means now.
	ModTime time.Time
}

// entry is one archive member, keyed by its machine path.
type entry struct {
	kind   byte // tar.TypeReg, TypeDir or TypeSymlink
	data   []byte
	target string
}

// Write packs snap into w as tar.gz.
func Write(w io.Writer, snap host.Snapshot, opts Options) error {
	if opts.ModTime.IsZero() {
		opts.ModTime = time.Now()
	}
	entries := map[string]entry{}
	for p, data := range snap.Files {
		if opts.Redact {
			data = redact.File(p, data)
		}
		entries[p] = entry{kind: tar.TypeReg, data: data}
	}
	for p, t := range snap.Links {
		entries[p] = entry{kind: tar.TypeSymlink, target: t}
	}
	for dir, ents := range snap.Dirs {
		if _, ok := entries[dir]; !ok {
			entries[dir] = entry{kind: tar.TypeDir}
		}
		for _, e := range ents {
			p := path.Join(dir, e.Name)
			if _, ok := entries[p]; ok {
				continue
			}
			if e.Kind == "file" {
				// Listed but never read: an empty file keeps the name.
				entries[p] = entry{kind: tar.TypeReg}
			} else {
				// Directories, and links whose targets were never needed.
				entries[p] = entry{kind: tar.TypeDir}
			}
		}
	}
	for p, isDir := range snap.Stats {
		if _, ok := entries[p]; !ok {
			if isDir {
				entries[p] = entry{kind: tar.TypeDir}
			} else {
				entries[p] = entry{kind: tar.TypeReg}
			}
		}
	}
	for key, out := range snap.Commands {
		p := path.Join(host.CommandsDir, key)
		if opts.Redact {
			out = redact.File(p, out)
		}
		entries[p] = entry{kind: tar.TypeReg, data: out}
	}
	// A path that is a file or link cannot also hold children; parents of
	// every entry must be directories.
	parents := map[string]bool{}
	for p := range entries {
		for d := path.Dir(p); d != "/" && d != "."; d = path.Dir(d) {
			parents[d] = true
		}
	}
	for d := range parents {
		if e, ok := entries[d]; ok && e.kind != tar.TypeDir {
			if e.kind == tar.TypeSymlink {
				return fmt.Errorf("capture: %s is both a link and a directory", d)
			}
			delete(entries, d) // a directory read as a file cannot happen; keep the children
		}
		if _, ok := entries[d]; !ok {
			entries[d] = entry{kind: tar.TypeDir}
		}
	}
	paths := make([]string, 0, len(entries))
	for p := range entries {
		paths = append(paths, p)
	}
	sort.Strings(paths)

	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	for _, p := range paths {
		e := entries[p]
		name := strings.TrimPrefix(p, "/")
		hdr := &tar.Header{Name: name, ModTime: opts.ModTime, Typeflag: e.kind, Format: tar.FormatPAX}
		switch e.kind {
		case tar.TypeDir:
			hdr.Name += "/"
			hdr.Mode = 0o755
		case tar.TypeSymlink:
			hdr.Linkname = e.target
			hdr.Mode = 0o777
		default:
			hdr.Mode = 0o644
			hdr.Size = int64(len(e.data))
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return fmt.Errorf("capture: %s: %v", p, err)
		}
		if e.kind == tar.TypeReg {
			if _, err := tw.Write(e.data); err != nil {
				return fmt.Errorf("capture: %s: %v", p, err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}
