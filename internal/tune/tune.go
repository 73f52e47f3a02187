// Package tune saves, changes and restores the frequency-scaling tunables of
// a machine: cpufreq governors and clock limits per policy, and devfreq
// governors and limits; for `boardbench net --apply` also interrupt affinity,
// receive packet steering masks and interrupt coalescing (files.go).
// Everything it writes goes through host.Host (coalescing through the
// kernel's ethtool interface), and a State taken before a change restores
// the exact previous values.
package tune

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/inventory/netif"
	"boardbench/internal/kernelfile"
)

// cpufreqDir holds one policyN directory per cpufreq policy (Linux 4.3+).
const cpufreqDir = "/sys/devices/system/cpu/cpufreq"

// devfreqDir holds one directory per devfreq device (GPU, memory, NPU...).
const devfreqDir = "/sys/class/devfreq"

// UserspaceGovernor is the cpufreq governor that obeys scaling_setspeed.
const UserspaceGovernor = "userspace"

// State is a snapshot of frequency tunables. Values are kept exactly as read
// (with their trailing newline) so that Restore writes back the same bytes.
// A value that could not be read is empty and is never written back.
type State struct {
	Policies []PolicyState  `json:"policies"`
	Devfreq  []DevfreqState `json:"devfreq,omitempty"`
	// Files are other tunable files changed (interrupt affinity, receive
	// packet steering masks), Coalesce the interrupt coalescing of network
	// interfaces; see files.go.
	Files    []FileState     `json:"files,omitempty"`
	Coalesce []CoalesceState `json:"coalesce,omitempty"`
}

// PolicyState is the saved state of one cpufreq policy.
type PolicyState struct {
	// Policy is the policy number (the N of policyN, or the CPU number on
	// kernels that only have cpuN/cpufreq).
	Policy int `json:"policy"`
	// Dir is the policy's machine directory.
	Dir      string `json:"dir"`
	Governor string `json:"governor"`
	MinFreq  string `json:"scaling_min_freq"`
	MaxFreq  string `json:"scaling_max_freq"`
	// Setspeed is saved only under the userspace governor (elsewhere the
	// file reads "<unsupported>").
	Setspeed string `json:"scaling_setspeed,omitempty"`
}

// DevfreqState is the saved state of one devfreq device.
type DevfreqState struct {
	Name     string `json:"name"`
	Dir      string `json:"dir"`
	Governor string `json:"governor"`
	MinFreq  string `json:"min_freq,omitempty"`
	MaxFreq  string `json:"max_freq,omitempty"`
}

// Policies returns the cpufreq policies of the machine, ordered by number,
// as policy number → machine directory. Kernels without policyN directories
// are served from cpuN/cpufreq.
func Policies(h *host.Host) map[int]string {
	out := map[int]string{}
	names, _ := h.ReadDirNames(cpufreqDir)
	for _, n := range names {
		if num, ok := strings.CutPrefix(n, "policy"); ok {
			if i, err := strconv.Atoi(num); err == nil {
				out[i] = path.Join(cpufreqDir, n)
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	dirs, _ := h.Glob("/sys/devices/system/cpu/cpu[0-9]*/cpufreq")
	seen := map[string]bool{}
	for _, d := range dirs {
		num := strings.TrimPrefix(path.Base(path.Dir(d)), "cpu")
		i, err := strconv.Atoi(num)
		if err != nil {
			continue
		}
		// CPUs of one policy share a directory through links.
		key := d
		if r, err := h.Resolve(d); err == nil {
			key = r
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		out[i] = d
	}
	return out
}

// PolicyOfCPU returns the number of the cpufreq policy that governs cpu:
// the policy whose related_cpus (or affected_cpus) lists it, else the
// policy directory cpuN/cpufreq links to. ok is false without cpufreq.
func PolicyOfCPU(h *host.Host, cpu int) (policy int, ok bool) {
	pols := Policies(h)
	for _, n := range sortedKeys(pols) {
		for _, f := range []string{"related_cpus", "affected_cpus"} {
			s, err := h.ReadString(pols[n] + "/" + f)
			if err != nil {
				continue
			}
			if cpus, err := kernelfile.ParseCPUList(s); err == nil && slices.Contains(cpus, cpu) {
				return n, true
			}
			break
		}
	}
	dir, err := h.Resolve(fmt.Sprintf("/sys/devices/system/cpu/cpu%d/cpufreq", cpu))
	if err != nil {
		return 0, false
	}
	for _, n := range sortedKeys(pols) {
		if r, err := h.Resolve(pols[n]); err == nil && r == dir {
			return n, true
		}
	}
	return 0, false
}

// PolicyDir returns the machine directory of a cpufreq policy.
func PolicyDir(h *host.Host, policy int) (string, error) {
	if dir, ok := Policies(h)[policy]; ok {
		return dir, nil
	}
	return "", fmt.Errorf("cpufreq policy %d: not found", policy)
}

func sortedKeys(m map[int]string) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}

// readRaw returns a tunable's content as read, "" when unreadable.
func readRaw(h *host.Host, p string) string {
	b, err := h.ReadFile(p)
	if err != nil {
		return ""
	}
	return string(b)
}

// Snapshot saves the governor and limits of every cpufreq policy and devfreq
// device. It fails only when there is nothing to save at all.
func Snapshot(h *host.Host) (State, error) {
	var st State
	pols := Policies(h)
	for _, n := range sortedKeys(pols) {
		dir := pols[n]
		ps := PolicyState{
			Policy:   n,
			Dir:      dir,
			Governor: readRaw(h, dir+"/scaling_governor"),
			MinFreq:  readRaw(h, dir+"/scaling_min_freq"),
			MaxFreq:  readRaw(h, dir+"/scaling_max_freq"),
		}
		if strings.TrimSpace(ps.Governor) == UserspaceGovernor {
			ps.Setspeed = readRaw(h, dir+"/scaling_setspeed")
		}
		st.Policies = append(st.Policies, ps)
	}
	names, _ := h.ReadDirNames(devfreqDir)
	for _, n := range names {
		dir := path.Join(devfreqDir, n)
		ds := DevfreqState{
			Name:     n,
			Dir:      dir,
			Governor: readRaw(h, dir+"/governor"),
			MinFreq:  readRaw(h, dir+"/min_freq"),
			MaxFreq:  readRaw(h, dir+"/max_freq"),
		}
		if ds.Governor == "" && ds.MinFreq == "" && ds.MaxFreq == "" {
			continue
		}
		st.Devfreq = append(st.Devfreq, ds)
	}
	if len(st.Policies) == 0 && len(st.Devfreq) == 0 {
		return st, errNothingSaved
	}
	return st, nil
}

// SetGovernor sets the cpufreq governor of a policy.
func SetGovernor(h *host.Host, policy int, governor string) error {
	dir, err := PolicyDir(h, policy)
	if err != nil {
		return err
	}
	return h.WriteString(dir+"/scaling_governor", governor)
}

// SetDevfreqGovernor sets the governor of a devfreq device (by its name
// under /sys/class/devfreq).
func SetDevfreqGovernor(h *host.Host, device, governor string) error {
	if device == "" || strings.Contains(device, "/") {
		return fmt.Errorf("devfreq device %q: invalid name", device)
	}
	return h.WriteString(path.Join(devfreqDir, device, "governor"), governor)
}

// Pin fixes a policy's clock at khz by setting both limits to it, in an
// order the kernel accepts (upper limit first when raising, lower limit
// first when lowering). Under the userspace governor scaling_setspeed is
// written as well. The kernel picks the nearest clock it supports; read
// scaling_cur_freq to see which.
func Pin(h *host.Host, policy int, khz int64) error {
	if khz <= 0 {
		return fmt.Errorf("cpufreq policy %d: invalid clock %d kHz", policy, khz)
	}
	dir, err := PolicyDir(h, policy)
	if err != nil {
		return err
	}
	v := strconv.FormatInt(khz, 10)
	if err := writeLimits(h, dir+"/scaling_min_freq", dir+"/scaling_max_freq", v, v); err != nil {
		return err
	}
	if gov, err := h.ReadString(dir + "/scaling_governor"); err == nil && gov == UserspaceGovernor {
		return h.WriteString(dir+"/scaling_setspeed", v)
	}
	return nil
}

// AvailableKHz returns the clocks a policy offers (scaling_available_frequencies
// and, where present, scaling_boost_frequencies), highest first, without
// duplicates. It is empty when the driver lists none.
func AvailableKHz(h *host.Host, policy int) ([]int64, error) {
	dir, err := PolicyDir(h, policy)
	if err != nil {
		return nil, err
	}
	seen := map[int64]bool{}
	var out []int64
	var firstErr error
	for _, f := range []string{"scaling_available_frequencies", "scaling_boost_frequencies"} {
		s, err := h.ReadString(dir + "/" + f)
		if err != nil {
			if f == "scaling_available_frequencies" {
				firstErr = err
			}
			continue
		}
		for _, v := range kernelfile.ParseFrequencies(s) {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	if len(out) == 0 && firstErr != nil {
		return nil, firstErr
	}
	sort.Slice(out, func(i, j int) bool { return out[i] > out[j] })
	return out, nil
}

// parseKHz parses a limit as read or to be written; ok is false for
// anything but a plain non-negative integer.
func parseKHz(s string) (int64, bool) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return v, err == nil && v >= 0
}

// limitWrite is one write of a min/max pair: which limit and what value.
type limitWrite struct {
	max   bool
	value string
	// mayFail marks the first write of the min, max, min fallback, which the
	// kernel may refuse without harm.
	mayFail bool
}

// planLimits orders the writes that take a min/max pair from its current
// content (curMin, curMax; ok false when unreadable) to minVal, maxVal
// without ever asking for min > max: when the new minimum exceeds the
// current maximum the maximum goes first, otherwise the minimum does. When
// the current maximum is unknown it plans min, max, min: whichever order
// was needed, the last two writes succeed. An empty value is left alone; a
// value whose bytes equal the current content is not rewritten.
func planLimits(curMin string, minOK bool, curMax string, maxOK bool, minVal, maxVal string) []limitWrite {
	sameMin := minVal == "" || (minOK && curMin == minVal)
	sameMax := maxVal == "" || (maxOK && curMax == maxVal)
	switch {
	case sameMin && sameMax:
		return nil
	case sameMin:
		return []limitWrite{{max: true, value: maxVal}}
	case sameMax:
		return []limitWrite{{value: minVal}}
	}
	newMin, okNewMin := parseKHz(minVal)
	cm, okCurMax := parseKHz(curMax)
	switch {
	case !maxOK || !okCurMax || !okNewMin:
		return []limitWrite{{value: minVal, mayFail: true}, {max: true, value: maxVal}, {value: minVal}}
	case newMin > cm:
		return []limitWrite{{max: true, value: maxVal}, {value: minVal}}
	default:
		return []limitWrite{{value: minVal}, {max: true, value: maxVal}}
	}
}

// writeLimits sets a min/max pair in the order planLimits gives.
func writeLimits(h *host.Host, minPath, maxPath, minVal, maxVal string) error {
	curMin, minErr := h.ReadFile(minPath)
	curMax, maxErr := h.ReadFile(maxPath)
	plan := planLimits(string(curMin), minErr == nil, string(curMax), maxErr == nil, minVal, maxVal)
	for _, w := range plan {
		p := minPath
		if w.max {
			p = maxPath
		}
		err := h.WriteString(p, w.value)
		switch {
		case err == nil && w.mayFail:
			// The tentative minimum went in: only the maximum is left.
			return h.WriteString(maxPath, maxVal)
		case err != nil && !w.mayFail:
			return err
		}
	}
	return nil
}

// writeIfChanged writes value unless it is empty or the file already holds it.
func writeIfChanged(h *host.Host, p, value string) error {
	if value == "" {
		return nil
	}
	if cur, err := h.ReadFile(p); err == nil && string(cur) == value {
		return nil
	}
	return h.WriteString(p, value)
}

// Restore writes back every value of st that differs from the machine's
// current one: per policy the governor first, then the limits in a safe
// order, then scaling_setspeed under the userspace governor; then devfreq
// devices likewise; then other files and interrupt coalescing (files.go).
// Values are compared byte for byte, so files that were
// never changed are never written (no permission error without root). It
// carries on past errors and returns them all joined. Calling it again
// changes nothing.
func Restore(h *host.Host, st State) error { return restoreWith(h, st, nil) }

// restoreWith is Restore with the ethtool interface that restores
// coalescing (nil: netif.Live on the live machine).
func restoreWith(h *host.Host, st State, eth netif.Ethtool) error {
	var errs []error
	for _, p := range st.Policies {
		if err := writeIfChanged(h, p.Dir+"/scaling_governor", p.Governor); err != nil {
			errs = append(errs, err)
		}
		if err := writeLimits(h, p.Dir+"/scaling_min_freq", p.Dir+"/scaling_max_freq", p.MinFreq, p.MaxFreq); err != nil {
			errs = append(errs, err)
		}
		if strings.TrimSpace(p.Governor) == UserspaceGovernor {
			if err := writeIfChanged(h, p.Dir+"/scaling_setspeed", p.Setspeed); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for _, d := range st.Devfreq {
		if err := writeIfChanged(h, d.Dir+"/governor", d.Governor); err != nil {
			errs = append(errs, err)
		}
		if err := writeLimits(h, d.Dir+"/min_freq", d.Dir+"/max_freq", d.MinFreq, d.MaxFreq); err != nil {
			errs = append(errs, err)
		}
	}
	errs = append(errs, restoreFiles(h, st, eth)...)
	return errors.Join(errs...)
}
