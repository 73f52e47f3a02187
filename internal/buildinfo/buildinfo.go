// Package buildinfo knows boardbench's own version and build.
package buildinfo

import (
	"runtime"
	"runtime/debug"
)

// Version is set at build time with -ldflags "-X boardbench/internal/buildinfo.Version=…".
var Version = "0.1.0-dev"

// Info describes the running binary.
type Info struct {
	Name      string `json:"name"`
	Version   string `json:"version"`
	GoVersion string `json:"go_version"`
	// Arch is the architecture the binary was built for (GOARCH, with GOARM).
	Arch     string `json:"arch"`
	Revision string `json:"revision,omitempty"`
	// CGO says whether the binary was built with the C library (needed for
	// the libc memcpy/memset figures).
	CGO bool `json:"cgo"`
}

// Get returns the running binary's build information.
func Get() Info {
	in := Info{Name: "boardbench", Version: Version, GoVersion: runtime.Version(), Arch: runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				in.Revision = s.Value
			case "GOARM":
				if runtime.GOARCH == "arm" {
					in.Arch = "armv" + s.Value
				}
			case "CGO_ENABLED":
				in.CGO = s.Value == "1"
			}
		}
	}
	return in
}
