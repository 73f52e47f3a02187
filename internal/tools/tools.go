// Package tools finds the external benchmark programs boardbench wraps
// (7-Zip, openssl and, for `run --extensive`, cryptsetup), establishes which version each binary really is, and
// installs a missing one through the distribution's package manager when the
// user allows it.
//
// The version recorded is the one the binary's own code reports, not a
// package name or a compatibility banner: Debian's p7zip-full package, for
// example, ships a current 7-Zip behind a /usr/bin/7z shell wrapper that still
// prints "p7zip Version 16.02".
package tools

import "boardbench/internal/note"

// Flavor names which program family a binary belongs to.
type Flavor string

// Flavors of the tools boardbench knows.
const (
	// FlavorSevenZip is 7-Zip from its author (7zz, or 7z built from 7-Zip
	// sources).
	FlavorSevenZip Flavor = "7-Zip"
	// FlavorP7zip is the p7zip port (last release 16.02, forks up to 17.x).
	FlavorP7zip Flavor = "p7zip"
	// FlavorP7zipWrapper is a current 7-Zip packaged in place of p7zip that
	// prints a p7zip banner with a version it is not.
	FlavorP7zipWrapper Flavor = "7-Zip (p7zip wrapper)"
	// FlavorOpenSSL is OpenSSL.
	FlavorOpenSSL Flavor = "OpenSSL"
	// FlavorLibreSSL is LibreSSL, whose openssl command accepts the same
	// speed options.
	FlavorLibreSSL Flavor = "LibreSSL"
)

// ComparableSevenZipVersion is the 7-Zip version most published 7-Zip
// benchmark results were measured with (p7zip 16.02). Other versions score
// differently on the same machine.
const ComparableSevenZipVersion = "16.02"

// Tool is one external program found on the machine.
type Tool struct {
	// Name is the command name found on PATH, e.g. "7zz" or "openssl".
	Name string `json:"name"`
	// Path is where PATH found it, e.g. "/usr/bin/7z".
	Path string `json:"path"`
	// RealPath is the binary that really runs once symbolic links and
	// wrapper shell scripts are followed, e.g. "/usr/lib/p7zip/7z". Empty
	// when it could not be established.
	RealPath string `json:"real_path"`
	// Wrapper is the shell script between Path and RealPath, if any.
	Wrapper string `json:"wrapper,omitempty"`
	// Version is the version of the code that runs, e.g. "26.02" or "3.0.19".
	Version string `json:"version"`
	// VersionLine is the tool's own line that Version was taken from.
	VersionLine string `json:"version_line"`
	// BannerLine is a second identification line, such as p7zip's
	// "p7zip Version 16.02 (...)", kept as printed.
	BannerLine string `json:"banner_line,omitempty"`
	// Flavor names the program family.
	Flavor Flavor `json:"flavor"`
	// Comparable reports whether results of this binary can be compared with
	// the bulk of published results for the same benchmark.
	Comparable bool `json:"comparable"`
	// ComparableReason explains Comparable in one sentence.
	ComparableReason string `json:"comparable_reason"`
	// OpenSSL holds the build details of an openssl binary, nil otherwise.
	OpenSSL *OpenSSLBuild `json:"openssl,omitempty"`
	// Cryptsetup holds the build flags of a cryptsetup binary, nil
	// otherwise.
	Cryptsetup *CryptsetupBuild `json:"cryptsetup,omitempty"`
	// Notes say what could not be established (e.g. the real path).
	Notes note.List `json:"notes,omitempty"`
}

// Command is what to run: the path PATH found, else the bare name; "" when
// the tool names neither.
func (t Tool) Command() string {
	if t.Path != "" {
		return t.Path
	}
	return t.Name
}
