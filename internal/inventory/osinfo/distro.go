package osinfo

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"boardbench/internal/host"
	"boardbench/internal/note"
)

// Distro is the distribution as os-release describes it.
type Distro struct {
	// Name is NAME, e.g. "Debian GNU/Linux".
	Name string `json:"name"`
	// PrettyName is PRETTY_NAME, e.g. "Debian GNU/Linux 12 (bookworm)".
	PrettyName string `json:"pretty_name"`
	// ID is ID, e.g. "debian".
	ID string `json:"id"`
	// IDLike is ID_LIKE split into words, e.g. ["debian"]; empty when absent.
	IDLike []string `json:"id_like"`
	// VersionID is VERSION_ID, e.g. "12".
	VersionID string `json:"version_id"`
	// Codename is VERSION_CODENAME, e.g. "bookworm".
	Codename string `json:"codename"`
	// Source is the file read: "/etc/os-release" or "/usr/lib/os-release";
	// "" when neither was readable.
	Source string `json:"source"`
}

// Armbian is what /etc/armbian-release says about an Armbian image.
type Armbian struct {
	// Board is BOARD, the build's board id, e.g. "orangepi5".
	Board string `json:"board"`
	// BoardName is BOARD_NAME, e.g. "Orange Pi 5".
	BoardName string `json:"board_name"`
	// Version is VERSION, e.g. "23.8.1".
	Version string `json:"version"`
	// Branch is BRANCH: "legacy", "vendor", "current" or "edge".
	Branch string `json:"branch"`
	// LinuxFamily is LINUXFAMILY, the kernel family, e.g. "rockchip-rk3588".
	LinuxFamily string `json:"linux_family"`
}

// RaspberryPiOS is what /etc/rpi-issue says about a Raspberry Pi OS image.
type RaspberryPiOS struct {
	// Issue is the first line, e.g. "Raspberry Pi reference 2023-12-05".
	Issue string `json:"issue"`
	// ImageDate is the reference date of the image, e.g. "2023-12-05".
	ImageDate string `json:"image_date"`
	// Stage is the image-builder stage, e.g. "stage4" (desktop) or
	// "stage2" (lite); "" when not recorded.
	Stage string `json:"stage"`
}

// ParseKeyValues parses files in the os-release format: KEY=value lines,
// values optionally in double or single quotes with backslash escapes inside
// double quotes; comments and malformed lines are ignored.
func ParseKeyValues(data string) map[string]string {
	kv := map[string]string{}
	for _, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			continue
		}
		kv[k] = printable(unquote(strings.TrimSpace(v)))
	}
	return kv
}

// unquote removes shell-style quotes from an os-release value.
func unquote(v string) string {
	if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
		return v[1 : len(v)-1]
	}
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		v = v[1 : len(v)-1]
		var b strings.Builder
		for i := 0; i < len(v); i++ {
			if v[i] == '\\' && i+1 < len(v) && strings.IndexByte("\"\\$`", v[i+1]) >= 0 {
				i++
			}
			b.WriteByte(v[i])
		}
		return b.String()
	}
	return v
}

// printable drops control characters and invalid UTF-8 from s and trims it.
func printable(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r == utf8.RuneError || unicode.IsControl(r) }) {
		return strings.TrimSpace(s)
	}
	var b strings.Builder
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) {
			continue
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

func collectDistro(h *host.Host, notes *note.List) Distro {
	var d Distro
	for _, p := range []string{"/etc/os-release", "/usr/lib/os-release"} {
		data, err := h.ReadFile(p)
		if err != nil {
			continue
		}
		kv := ParseKeyValues(string(data))
		d = Distro{
			Name: kv["NAME"], PrettyName: kv["PRETTY_NAME"], ID: kv["ID"],
			IDLike: strings.Fields(kv["ID_LIKE"]), VersionID: kv["VERSION_ID"],
			Codename: kv["VERSION_CODENAME"], Source: p,
		}
		if d.IDLike == nil {
			d.IDLike = []string{}
		}
		if d.Name == "" && d.PrettyName == "" && d.ID == "" {
			notes.Add("distribution", note.Malformed+": "+p+" has no NAME, PRETTY_NAME or ID")
		}
		return d
	}
	d.IDLike = []string{}
	notes.Add("distribution", "no /etc/os-release or /usr/lib/os-release")
	return d
}

func collectArmbian(h *host.Host) *Armbian {
	data, err := h.ReadFile("/etc/armbian-release")
	if err != nil {
		return nil
	}
	kv := ParseKeyValues(string(data))
	a := &Armbian{Board: kv["BOARD"], BoardName: kv["BOARD_NAME"], Version: kv["VERSION"],
		Branch: kv["BRANCH"], LinuxFamily: kv["LINUXFAMILY"]}
	if *a == (Armbian{}) {
		return nil
	}
	return a
}

func collectRPiIssue(h *host.Host) *RaspberryPiOS {
	data, err := h.ReadFile("/etc/rpi-issue")
	if err != nil {
		return nil
	}
	return ParseRPiIssue(string(data))
}

// ParseRPiIssue parses /etc/rpi-issue:
//
//	Raspberry Pi reference 2023-12-05
//	Generated using pi-gen, https://github.com/RPi-Distro/pi-gen, 2acf7af…, stage4
//
// It returns nil for empty content.
func ParseRPiIssue(data string) *RaspberryPiOS {
	var r RaspberryPiOS
	for i, line := range strings.Split(data, "\n") {
		line = printable(line)
		if line == "" {
			continue
		}
		if r.Issue == "" {
			r.Issue = line
			for _, f := range strings.Fields(line) {
				if isISODate(f) {
					r.ImageDate = f
				}
			}
			continue
		}
		if i > 0 && strings.Contains(line, "pi-gen") {
			parts := strings.Split(line, ",")
			if last := strings.TrimSpace(parts[len(parts)-1]); strings.HasPrefix(last, "stage") {
				r.Stage = last
			}
		}
	}
	if r.Issue == "" {
		return nil
	}
	return &r
}

// isISODate reports whether s looks like YYYY-MM-DD.
func isISODate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, r := range s {
		if i != 4 && i != 7 && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}
