package tools

import (
	"boardbench/internal/lazyre"
	"context"
	"path"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/note"
)

// FlavorCryptsetup is cryptsetup, the dm-crypt/LUKS tool whose `benchmark`
// action measures the kernel's ciphers.
const FlavorCryptsetup Flavor = "cryptsetup"

// CryptsetupBuild is what `cryptsetup --version` says about the binary.
type CryptsetupBuild struct {
	// Flags are the build flags cryptsetup 2.4 and later print after
	// "flags:", e.g. ["UDEV", "BLKID", "KEYRING", "KERNEL_CAPI"]; empty
	// when not printed.
	Flags []string `json:"flags"`
}

// cryptsetupVersionRE matches "cryptsetup 2.6.1 flags: UDEV BLKID ..." and
// "cryptsetup 2.0.6".
var cryptsetupVersionRE = lazyre.Regexp(`^cryptsetup\s+(\d[^\s]*)(?:\s+flags:\s*(.*))?$`)

// cryptsetupSbinDirs are where distributions install cryptsetup; they are
// often not on a user's PATH (Debian's su without "-"), so a live lookup
// falls back to them.
var cryptsetupSbinDirs = []string{"/usr/sbin", "/sbin", "/usr/local/sbin"}

// ParseCryptsetupVersion reads the output of `cryptsetup --version`. ok is
// false when no line names a cryptsetup version.
func ParseCryptsetupVersion(out string) (t Tool, ok bool) {
	for _, raw := range strings.Split(out, "\n") {
		line := strings.TrimSpace(raw)
		m := cryptsetupVersionRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		t.VersionLine, t.Version, t.Flavor = line, m[1], FlavorCryptsetup
		t.Cryptsetup = &CryptsetupBuild{Flags: strings.Fields(m[2])}
		t.Comparable = true
		t.ComparableReason = "cryptsetup only drives the kernel's ciphers: its figures depend on the kernel's cipher drivers and the CPU, not on the cryptsetup version"
		return t, true
	}
	return t, false
}

// FindCryptsetup returns the cryptsetup command with its version, or nil
// with a note saying why there is none. On the live system it looks on PATH
// first, then in the sbin directories.
func FindCryptsetup(ctx context.Context, h *host.Host) (*Tool, note.List) {
	var notes note.List
	name := "cryptsetup"
	if !h.HasCommand(name) {
		name = ""
		if h.Live() {
			for _, dir := range cryptsetupSbinDirs {
				if p := path.Join(dir, "cryptsetup"); h.Exists(p) {
					name = p
					break
				}
			}
		}
	}
	if name == "" {
		notes.Add("cryptsetup", note.NotInstalled)
		return nil, notes
	}
	t, err := IdentifyCryptsetup(ctx, h, name)
	if err != nil {
		notes.Add("cryptsetup", err.Error())
		return nil, notes
	}
	return &t, notes
}

// IdentifyCryptsetup runs `cryptsetup --version` for the command (a name on
// PATH or an absolute path) and parses it.
func IdentifyCryptsetup(ctx context.Context, h *host.Host, name string) (Tool, error) {
	return toolSpec{name: "cryptsetup", version: ParseCryptsetupVersion}.identify(ctx, h, name)
}
