package sensors

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"boardbench/internal/host"
)

// Quantities a sensor reading measures.
const (
	QuantityTemperature = "temperature"
	QuantityVoltage     = "voltage"
	QuantityCurrent     = "current"
	QuantityPower       = "power"
	QuantityEnergy      = "energy"
	QuantityFan         = "fan"
)

// quantitySpec says how a raw sysfs integer becomes a value and which values
// are believable.
type quantitySpec struct {
	// prefix is the hwmon attribute prefix, e.g. "temp" or "in".
	prefix string
	unit   string
	// divisor turns the raw integer into unit (hwmon ABI units: m°C, mV,
	// mA, µW, µJ, RPM). Dividing keeps 45277 m°C exactly 45.277 °C.
	divisor  float64
	min, max float64
}

// quantitySpecs lists the quantities in display order. Never written. It is
// static data (no call in it, so nothing runs when boardbench starts):
// energy's "no upper limit" is math.MaxFloat64 rather than math.Inf(1); no
// reading (an int64 divided by its divisor) lies above either.
var quantitySpecs = []struct {
	quantity string
	spec     quantitySpec
}{
	{QuantityTemperature, quantitySpec{"temp", "°C", 1e3, -40, 150}},
	{QuantityVoltage, quantitySpec{"in", "V", 1e3, -500, 500}},
	{QuantityCurrent, quantitySpec{"curr", "A", 1e3, -1000, 1000}},
	{QuantityPower, quantitySpec{"power", "W", 1e6, -10000, 10000}},
	{QuantityEnergy, quantitySpec{"energy", "J", 1e6, 0, math.MaxFloat64}},
	{QuantityFan, quantitySpec{"fan", "RPM", 1, 0, 50000}},
}

// specOf returns the spec of a quantity.
func specOf(quantity string) (quantitySpec, bool) {
	for _, q := range quantitySpecs {
		if q.quantity == quantity {
			return q.spec, true
		}
	}
	return quantitySpec{}, false
}

// Unit returns the unit of a quantity ("°C", "V", "A", "W", "J", "RPM"),
// or "" for an unknown quantity.
func Unit(quantity string) string {
	s, _ := specOf(quantity)
	return s.unit
}

// RawScale returns the factor that turns a sensor file's integer into the
// quantity's unit (1e-6 for power: µW → W), or 0 for an unknown quantity.
// ReadValue and ReadCelsius apply it and also validate the value; prefer
// them, since a few old kernels report whole degrees for temperatures.
func RawScale(quantity string) float64 {
	s, ok := specOf(quantity)
	if !ok {
		return 0
	}
	return 1 / s.divisor
}

// sentinel reports the raw values drivers return instead of an error code:
// all bits set in 16 or 32 bits, or the extremes of a 32-bit integer.
func sentinel(raw int64) bool {
	switch raw {
	case 0xFFFF, 0xFFFFFFFF, math.MaxInt32, math.MinInt32:
		return true
	}
	return false
}

// ParseValue turns the content of a sysfs sensor file into a value in the
// quantity's unit (see Unit) and rejects what cannot be true: malformed
// content, sentinel values, and values outside the plausible range
// (temperatures outside -40…150 °C, for instance). note is non-empty when
// the value needed interpreting: some old kernels report whole degrees
// instead of millidegrees, and a raw temperature between 1 and 150 is read
// that way.
func ParseValue(quantity, content string) (value float64, note string, err error) {
	spec, ok := specOf(quantity)
	if !ok {
		return 0, "", fmt.Errorf("unknown quantity %q", quantity)
	}
	s := strings.TrimSpace(content)
	raw, perr := strconv.ParseInt(s, 10, 64)
	if perr != nil {
		if len(s) > 20 {
			s = s[:20] + "…"
		}
		return 0, "", fmt.Errorf("malformed content %q", s)
	}
	if quantity != QuantityEnergy && sentinel(raw) {
		return 0, "", fmt.Errorf("sentinel value %d (0x%X): the driver has no reading", raw, uint32(raw))
	}
	divisor := spec.divisor
	if quantity == QuantityTemperature {
		switch {
		case raw == 0:
			return 0, "", errors.New("reads exactly 0 °C, typical of a sensor that is not implemented")
		case raw >= 1 && raw <= 150:
			divisor, note = 1, "reported in whole °C instead of m°C"
		}
	}
	v := float64(raw) / divisor
	if v < spec.min || v > spec.max {
		return 0, "", fmt.Errorf("implausible %s %s", quantity, formatValue(v, spec.unit))
	}
	return v, note, nil
}

// parseLimit converts a limit attribute (max, crit) with the quantity's
// scale; it returns nil for anything malformed, a sentinel or far outside
// what any sensor could mean.
func parseLimit(quantity, content string) *float64 {
	spec, ok := specOf(quantity)
	if !ok {
		return nil
	}
	raw, err := strconv.ParseInt(strings.TrimSpace(content), 10, 64)
	if err != nil || sentinel(raw) {
		return nil
	}
	v := float64(raw) / spec.divisor
	span := spec.max - spec.min
	if v < spec.min-span || v > spec.max+span {
		return nil
	}
	return &v
}

// formatValue renders a value with its unit for messages.
func formatValue(v float64, unit string) string {
	switch unit {
	case "RPM":
		return fmt.Sprintf("%.0f RPM", v)
	case "°C":
		return fmt.Sprintf("%.1f °C", v)
	}
	return fmt.Sprintf("%.3g %s", v, unit)
}

// readFailure explains a failed read, naming the errno when there is one
// (sensors answer EINVAL, ENODATA or EAGAIN when they have no reading).
func readFailure(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		if name := unix.ErrnoName(errno); name != "" {
			return fmt.Sprintf("read failed: %s (%s)", errno.Error(), name)
		}
		return "read failed: " + errno.Error()
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return "read failed: " + pe.Err.Error()
	}
	return "read failed: " + err.Error()
}

// ReadValue reads one sensor file (a path from a Reading, Channel or
// Source) and returns its validated value in the quantity's unit. It does
// one file read and no directory walk, so a monitor can call it every
// second.
func ReadValue(h *host.Host, quantity, path string) (float64, error) {
	s, err := h.ReadString(path)
	if err != nil {
		return 0, errors.New(readFailure(err))
	}
	v, _, err := ParseValue(quantity, s)
	return v, err
}

// ReadCelsius reads one temperature file (e.g. SoCTemp.Path) and returns
// the validated temperature in °C.
func ReadCelsius(h *host.Host, path string) (float64, error) {
	return ReadValue(h, QuantityTemperature, path)
}
