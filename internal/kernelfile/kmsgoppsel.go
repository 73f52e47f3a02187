package kernelfile

import (
	"strconv"
	"strings"
)

// OPPSelection is what one device's driver logged at boot about the
// silicon it runs on and the voltage table it chose, as Rockchip's vendor
// kernels print it ("cpu cpu0: pvtm=1528", "cpu cpu0: pvtm-volt-sel=5",
// "rockchip-dmc dmc: leakage=41"). A value is nil when its line is absent.
type OPPSelection struct {
	// Driver and Device are the two words before the colon: "cpu" and
	// "cpu0", "rockchip-dmc" and "dmc", "mali" and "fb000000.gpu".
	Driver string
	Device string
	// PVTM is the process-voltage-temperature monitor's reading (a ring
	// oscillator count: faster silicon counts higher) and PVTMVoltSel the
	// voltage selection the driver derived from it.
	PVTM        *int64
	PVTMVoltSel *int64
	// Leakage is the leakage figure read from the chip's eFuses and
	// LeakageVoltSel the selection derived from it.
	Leakage        *int64
	LeakageVoltSel *int64
}

// oppSelKeys are the keys of the lines ParseOPPSelection reads.
var oppSelKeys = []string{"pvtm-volt-sel", "leakage-volt-sel", "pvtm", "leakage"}

// ParseOPPSelection reads the PVTM and leakage lines of a kernel log
// (dmesg's text, with or without the "[   3.117399] " time stamps, or a
// journal's "kernel: " prefix) in the order their devices first appear.
// A device that logs a key twice keeps the last value. Lines of another
// shape, values that are not integers and absurd ones (beyond ±10^9) are
// skipped; an empty result means the log has none.
func ParseOPPSelection(log []byte) []OPPSelection {
	var out []OPPSelection
	index := map[string]int{}
	for _, line := range strings.Split(string(log), "\n") {
		drv, dev, key, v, ok := oppSelLine(line)
		if !ok {
			continue
		}
		id := drv + " " + dev
		i, seen := index[id]
		if !seen {
			i = len(out)
			index[id] = i
			out = append(out, OPPSelection{Driver: drv, Device: dev})
		}
		s := &out[i]
		switch key {
		case "pvtm":
			s.PVTM = &v
		case "pvtm-volt-sel":
			s.PVTMVoltSel = &v
		case "leakage":
			s.Leakage = &v
		case "leakage-volt-sel":
			s.LeakageVoltSel = &v
		}
	}
	return out
}

// oppSelLine splits "… DRIVER DEVICE: KEY=VALUE" into its parts.
func oppSelLine(line string) (drv, dev, key string, v int64, ok bool) {
	line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
	head, kv, found := strings.Cut(line, ": ")
	if !found {
		return "", "", "", 0, false
	}
	// The journal's "host kernel: cpu cpu0: pvtm=1528" has one more colon.
	for {
		h, rest, more := strings.Cut(kv, ": ")
		if !more {
			break
		}
		head, kv = h, rest
	}
	k, val, found := strings.Cut(strings.TrimSpace(kv), "=")
	if !found || !isOPPSelKey(k) {
		return "", "", "", 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
	if err != nil || n > 1e9 || n < -1e9 {
		return "", "", "", 0, false
	}
	// The time stamp ("[    3.117399]") may precede the two words.
	if i := strings.LastIndexByte(head, ']'); i >= 0 {
		head = head[i+1:]
	}
	words := strings.Fields(head)
	if len(words) < 2 {
		return "", "", "", 0, false
	}
	return words[len(words)-2], words[len(words)-1], k, n, true
}

func isOPPSelKey(k string) bool {
	for _, x := range oppSelKeys {
		if k == x {
			return true
		}
	}
	return false
}
