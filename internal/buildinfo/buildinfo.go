// Package buildinfo knows boardbench's own version and build: the version,
// the commit it was built from and when, the Go version, the architecture
// and whether the C library is linked in.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// Values a release build sets with the linker, e.g.
//
//	go build -ldflags "-X boardbench/internal/buildinfo.Version=v1.2.0
//	  -X boardbench/internal/buildinfo.Commit=$(git rev-parse HEAD)
//	  -X boardbench/internal/buildinfo.Date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
//
// Commit and Date override what the Go toolchain stamps into the binary
// (vcs.revision and vcs.time), which is absent with -buildvcs=false or
// when building outside a git checkout.
var (
	// Version is boardbench's version.
	Version = "0.1.0-dev"
	// Commit is the git commit the binary was built from ("" when unknown).
	Commit = ""
	// Date is when the binary was built, RFC 3339 ("" when unknown).
	Date = ""
)

// Info describes the running binary.
type Info struct {
	Name      string `json:"name"`
	Version   string `json:"version"`
	GoVersion string `json:"go_version"`
	// Arch is the architecture the binary was built for (GOARCH, with GOARM).
	Arch string `json:"arch"`
	// Revision is the commit the binary was built from ("" when unknown).
	Revision string `json:"revision,omitempty"`
	// RevisionTime is the time of that commit, RFC 3339 (from the Go
	// toolchain's vcs.time; "" when unknown).
	RevisionTime string `json:"revision_time,omitempty"`
	// Modified says the working tree had uncommitted changes at build time.
	Modified bool `json:"modified,omitempty"`
	// BuildTime is when the binary was built, RFC 3339 ("" when the build
	// did not record it).
	BuildTime string `json:"build_time,omitempty"`
	// CGO says whether the binary was built with the C library (needed for
	// the libc memcpy/memset figures).
	CGO bool `json:"cgo"`
}

// Get returns the running binary's build information.
func Get() Info {
	var settings []debug.BuildSetting
	if bi, ok := debug.ReadBuildInfo(); ok {
		settings = bi.Settings
	}
	return fromSettings(settings, Commit, Date)
}

// fromSettings builds the Info from the toolchain's build settings and the
// linker-set commit and date (which win when set).
func fromSettings(settings []debug.BuildSetting, commit, date string) Info {
	in := Info{Name: "boardbench", Version: Version, GoVersion: runtime.Version(), Arch: runtime.GOARCH}
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.RevisionTime = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		case "GOARM":
			if runtime.GOARCH == "arm" {
				in.Arch = "armv" + s.Value
			}
		case "CGO_ENABLED":
			in.CGO = s.Value == "1"
		}
	}
	if commit = strings.TrimSpace(commit); commit != "" {
		// A commit named by the build script may carry git describe's
		// "-dirty" mark.
		in.Revision, in.Modified = strings.TrimSuffix(commit, "-dirty"), in.Modified || strings.HasSuffix(commit, "-dirty")
		in.RevisionTime = "" // the toolchain's time belongs to its own revision
	}
	in.BuildTime = strings.TrimSpace(date)
	return in
}

// ShortRevision is the first 12 characters of the revision ("" when unknown).
func (in Info) ShortRevision() string {
	if len(in.Revision) > 12 {
		return in.Revision[:12]
	}
	return in.Revision
}

// String is the one-line description `boardbench version` and
// `boardbench --version` print, e.g.
// "boardbench 0.1.0-dev (commit 2f6e0d1c4a5b, committed 2026-03-04 10:00 UTC,
// build date unknown, amd64, go1.26.0, with C library)".
func (in Info) String() string {
	var parts []string
	if rev := in.ShortRevision(); rev != "" {
		if in.Modified {
			rev += " with uncommitted changes"
		}
		parts = append(parts, "commit "+rev)
		if in.RevisionTime != "" {
			parts = append(parts, "committed "+day(in.RevisionTime))
		}
	} else {
		parts = append(parts, "commit unknown")
	}
	if in.BuildTime != "" {
		parts = append(parts, "built "+day(in.BuildTime))
	} else {
		parts = append(parts, "build date unknown")
	}
	cgo := "without C library"
	if in.CGO {
		cgo = "with C library"
	}
	parts = append(parts, in.Arch, in.GoVersion, cgo)
	if Board {
		parts = append(parts, "board build")
	}
	return fmt.Sprintf("%s %s (%s)", in.Name, in.Version, strings.Join(parts, ", "))
}

// day shortens an RFC 3339 time to its UTC date and minute; other text is
// kept as it is.
func day(s string) string {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return s
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}
