package benchrun

import (
	"strings"
	"time"

	"boardbench/internal/inventory"
)

// DefaultFileName returns the default result file name:
// boardbench-<soc or host name>-<YYYYmmdd-HHMMSS>.json, in local time, with
// the name lower-cased and reduced to letters, digits and dashes
// ("Rockchip RK3588" → "rockchip-rk3588"). Several SoC candidates ("A or
// B") are not a name: the host name is used then, and "machine" when there
// is none either.
func DefaultFileName(info *inventory.Info, host string, t time.Time) string {
	name := ""
	if info != nil && info.SoC.Guess != "" && !strings.Contains(info.SoC.Guess, " or ") {
		name = slug(info.SoC.Guess)
	}
	if name == "" {
		name = slug(host)
	}
	if name == "" {
		name = "machine"
	}
	return "boardbench-" + name + "-" + t.Format("20060102-150405") + ".json"
}

// slug lower-cases s and keeps letters and digits, turning every other
// run of characters into one dash; at most 40 characters.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	out := b.String()
	if len(out) > 40 {
		out = strings.TrimRight(out[:40], "-")
	}
	return out
}
