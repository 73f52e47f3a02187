package tools

import (
	"boardbench/internal/lazyre"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/note"
)

// sevenZipNames are the command names 7-Zip is installed under, in order of
// preference: 7zz is 7-Zip from its author; 7z, 7za and 7zr come from p7zip
// packages (or wrappers around a current 7-Zip).
var sevenZipNames = []string{"7zz", "7z", "7za", "7zr"}

// SevenZipNames returns the command names searched for 7-Zip, preferred first.
func SevenZipNames() []string { return append([]string(nil), sevenZipNames...) }

// maxWrapperHops bounds how many wrapper scripts are followed.
const maxWrapperHops = 4

// wrapperReadBytes is how much of a file is inspected to tell a wrapper
// script from a binary; the host allows head reads of executables up to this.
const wrapperReadBytes = 4096

var (
	// "7-Zip (a) [64] 16.02 : Copyright ...", "7-Zip (z) 26.02 (x64) : ...",
	// "7-Zip (A) 9.20  Copyright ...", "7-Zip [64] 26.02 : Copyright ...".
	sevenZipVersionRE = lazyre.Regexp(`^7-Zip\b.*?\b(\d+\.\d+)\b`)
	// "p7zip Version 16.02 (locale=C,Utf16=off,HugeFiles=on,64 bits,6 CPUs LE)".
	p7zipVersionRE = lazyre.Regexp(`^p7zip Version (\d+\.\d+)\b`)
)

// SevenZipIdentity is what a 7-Zip binary says about itself.
type SevenZipIdentity struct {
	// Version is the version of the 7-Zip code that runs.
	Version string
	// VersionLine is the "7-Zip ..." line.
	VersionLine string
	// P7zipLine is the "p7zip Version ..." line, "" if there is none.
	P7zipLine string
	// P7zipVersion is the version the p7zip line claims.
	P7zipVersion string
	// Flavor follows from the two lines.
	Flavor Flavor
}

// ParseSevenZipIdentity reads the banner any 7-Zip command prints first. The
// "7-Zip NN.NN" line names the version of the code that runs; a
// "p7zip Version" line with a different version is a compatibility banner of
// a current 7-Zip packaged in p7zip's place. ok is false when out has no
// 7-Zip banner.
func ParseSevenZipIdentity(out string) (id SevenZipIdentity, ok bool) {
	for _, raw := range strings.Split(out, "\n") {
		line := strings.TrimSpace(raw)
		if id.VersionLine == "" {
			if m := sevenZipVersionRE.FindStringSubmatch(line); m != nil {
				id.VersionLine, id.Version = line, m[1]
				continue
			}
		}
		if id.P7zipLine == "" {
			if m := p7zipVersionRE.FindStringSubmatch(line); m != nil {
				id.P7zipLine, id.P7zipVersion = line, m[1]
			}
		}
	}
	switch {
	case id.VersionLine == "":
		return id, false
	case id.P7zipLine == "":
		id.Flavor = FlavorSevenZip
	case id.P7zipVersion == id.Version:
		id.Flavor = FlavorP7zip
	default:
		id.Flavor = FlavorP7zipWrapper
	}
	return id, true
}

// SevenZipComparability says whether results of 7-Zip version v can be
// compared with published results, and why.
func SevenZipComparability(v string, flavor Flavor) (bool, string) {
	if v == ComparableSevenZipVersion {
		return true, fmt.Sprintf("7-Zip %s is the version most published 7-Zip benchmark results were measured with", v)
	}
	msg := fmt.Sprintf("7-Zip %s is not %s, the version most published 7-Zip benchmark results were measured with; its scores differ on the same hardware, so compare them only with results of 7-Zip %s",
		v, ComparableSevenZipVersion, v)
	if flavor == FlavorP7zipWrapper {
		msg = fmt.Sprintf("this binary prints a p7zip %s banner but runs 7-Zip %s; ", ComparableSevenZipVersion, v) + msg
	}
	return false, msg
}

// FindSevenZip returns the preferred 7-Zip on the machine (the first of
// SevenZipNames() that is installed and identifies itself), or nil with a note
// saying why there is none.
func FindSevenZip(ctx context.Context, h *host.Host) (*Tool, note.List) {
	all, notes := FindAllSevenZip(ctx, h)
	if len(all) == 0 {
		notes.Add("7-Zip", note.NotInstalled)
		return nil, notes
	}
	t := all[0]
	return &t, notes
}

// FindAllSevenZip returns every 7-Zip command installed, in the order of
// SevenZipNames(). Commands that are present but cannot be identified are
// left out with a note.
func FindAllSevenZip(ctx context.Context, h *host.Host) ([]Tool, note.List) {
	var found []Tool
	var notes note.List
	for _, name := range sevenZipNames {
		if !h.HasCommand(name) {
			continue
		}
		t, err := IdentifySevenZip(ctx, h, name)
		if err != nil {
			notes.Add(name, err.Error())
			continue
		}
		found = append(found, t)
	}
	return found, notes
}

// PickComparableSevenZip returns the first tool whose results are comparable
// with published results, or nil.
func PickComparableSevenZip(found []Tool) *Tool {
	for i := range found {
		if found[i].Comparable {
			return &found[i]
		}
	}
	return nil
}

// IdentifySevenZip establishes path, real binary and version of the 7-Zip
// command name. It runs the command without arguments, which prints the
// banner and usage only.
func IdentifySevenZip(ctx context.Context, h *host.Host, name string) (Tool, error) {
	t := Tool{Name: name}
	t.Path = commandPath(h, name)
	t.RealPath, t.Wrapper, t.Notes = resolveWrappers(h, t.Path)
	runPath := t.Path
	if runPath == "" {
		runPath = name
	}
	out, err := h.Run(ctx, runPath)
	id, ok := ParseSevenZipIdentity(string(out))
	if !ok {
		if err != nil {
			return t, fmt.Errorf("running it failed: %v", err)
		}
		return t, errors.New(note.Malformed + ": no 7-Zip version banner in its output")
	}
	t.Version, t.VersionLine, t.BannerLine, t.Flavor = id.Version, id.VersionLine, id.P7zipLine, id.Flavor
	t.Comparable, t.ComparableReason = SevenZipComparability(t.Version, t.Flavor)
	return t, nil
}

// standardBinDirs are searched for a command's file on a fixture root, where
// PATH lookups are not possible.
var standardBinDirs = []string{"/usr/local/bin", "/usr/bin", "/bin"}

// commandPath returns the absolute path of a command: PATH lookup on the live
// system, the first standard directory holding it on a fixture root, "" when
// neither works.
func commandPath(h *host.Host, name string) string {
	if p, err := h.LookPath(name); err == nil && strings.HasPrefix(p, "/") {
		return p
	}
	if h.Live() {
		return ""
	}
	for _, dir := range standardBinDirs {
		p := path.Join(dir, name)
		if h.Exists(p) {
			return p
		}
	}
	return ""
}

// resolveWrappers follows symbolic links and small "exec /path/to/binary"
// shell scripts from p to the binary that really runs. wrapper is the last
// script met, "" if none. realPath is "" when p is "" or when a file on the
// way cannot be inspected or a script not understood; notes then say why.
func resolveWrappers(h *host.Host, p string) (realPath, wrapper string, notes note.List) {
	if p == "" {
		return "", "", nil
	}
	cur := p
	for hop := 0; hop <= maxWrapperHops; hop++ {
		if r, err := h.Resolve(cur); err == nil {
			cur = r
		}
		head, err := h.ReadHead(cur, wrapperReadBytes)
		if err != nil {
			notes.Add("real path of "+p, "cannot inspect "+cur+": "+reason(err))
			return "", wrapper, notes
		}
		if !bytes.HasPrefix(head, []byte("#!")) {
			return cur, wrapper, notes
		}
		wrapper = cur
		target := scriptExecTarget(string(head))
		if target == "" || target == cur {
			notes.Add("real path of "+p, "wrapper script "+cur+" does not name the program it runs")
			return "", wrapper, notes
		}
		cur = target
	}
	notes.Add("real path of "+p, "too many wrapper scripts")
	return "", wrapper, notes
}

// reason shortens a read error to what a user needs to know.
func reason(err error) string {
	switch {
	case errors.Is(err, host.ErrNotAllowed):
		return "outside the paths boardbench reads"
	case errors.Is(err, fs.ErrNotExist):
		return "missing"
	}
	return note.Unreadable
}

// scriptExecTarget returns the absolute program a small shell script hands
// over to, from a line such as `exec /usr/lib/p7zip/7z "$@"` or
// `/usr/lib/p7zip/7z "$@"`; "" when the script is anything else.
func scriptExecTarget(script string) string {
	lines := strings.Split(script, "\n")
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if i == 0 || line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if fields[0] == "exec" {
			fields = fields[1:]
			for len(fields) > 0 && strings.HasPrefix(fields[0], "-") {
				fields = fields[1:] // exec -a NAME is not used by such wrappers; skip flags
			}
		}
		if len(fields) == 0 {
			continue
		}
		prog := strings.Trim(fields[0], `"'`)
		if strings.HasPrefix(prog, "/") && !strings.ContainsAny(prog, "$`*?") {
			return path.Clean(prog)
		}
	}
	return ""
}
