package memory

import (
	"path"
	"strconv"
	"strings"

	"boardbench/internal/host"
)

// Controller is one devfreq device that scales the memory clock (Rockchip
// dmc, Allwinner dram, Amlogic ddr...).
type Controller struct {
	// Name is the devfreq device's name ("dmc").
	Name string `json:"name"`
	// Governor is its devfreq governor ("dmc_ondemand", "performance"),
	// "" when unreadable.
	Governor string `json:"governor"`
	// CurMHz and MaxMHz are cur_freq and max_freq in MHz; nil when
	// unreadable.
	CurMHz *float64 `json:"cur_mhz"`
	MaxMHz *float64 `json:"max_mhz"`
}

// devfreqDir holds one directory per devfreq device.
const devfreqDir = "/sys/class/devfreq"

// maxControllers bounds the devices read on a hostile root.
const maxControllers = 16

// IsMemoryDevfreq reports whether a devfreq device's name is one of a
// memory controller's: a slow governor there lowers memory bandwidth.
func IsMemoryDevfreq(name string) bool {
	n := strings.ToLower(name)
	for _, s := range []string{"dmc", "ddr", "dram", "memory"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// collectControllers reads the memory devfreq devices; nil when there are
// none.
func collectControllers(h *host.Host) []Controller {
	names, _ := h.ReadDirNames(devfreqDir)
	var out []Controller
	for _, n := range names {
		if !IsMemoryDevfreq(n) || len(out) >= maxControllers {
			continue
		}
		dir := path.Join(devfreqDir, n)
		c := Controller{Name: n}
		if g, err := h.ReadString(dir + "/governor"); err == nil {
			c.Governor = strings.TrimSpace(g)
		}
		c.CurMHz = hzToMHz(h, dir+"/cur_freq")
		c.MaxMHz = hzToMHz(h, dir+"/max_freq")
		out = append(out, c)
	}
	return out
}

// hzToMHz reads a devfreq frequency (Hz) as MHz.
func hzToMHz(h *host.Host, p string) *float64 {
	s, err := h.ReadString(p)
	if err != nil {
		return nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v <= 0 || v > 1e12 {
		return nil
	}
	mhz := v / 1e6
	return &mhz
}
