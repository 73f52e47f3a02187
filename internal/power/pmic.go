package power

import (
	"boardbench/internal/lazyre"
	"context"
	"fmt"
	"sort"
	"strconv"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/vcmailbox"
)

// PMICInterval is how often the Raspberry Pi 5 PMIC is read (one question
// to the firmware each time: through its mailbox, or one vcgencmd run
// where the mailbox cannot be opened).
const PMICInterval = time.Second

// PMICRail is one rail of the Raspberry Pi 5 PMIC with both its current and
// its voltage.
type PMICRail struct {
	Name  string
	Amps  float64
	Volts float64
}

// pmicLine matches one line of `vcgencmd pmic_read_adc`:
// "   VDD_CORE_A current(7)=2.45000000A" or "  VDD_CORE_V volt(15)=0.85000000V".
var pmicLine = lazyre.Regexp(`^\s*(\S+)_([AV])\s+(current|volt)\(\d+\)=([-+0-9.eE]+)([AV])\s*$`)

// ParsePMICADC parses the output of `vcgencmd pmic_read_adc` and returns
// the rails that have both a current and a voltage (EXT5V and BATT have a
// voltage only), sorted by name. Lines it does not know are ignored.
func ParsePMICADC(out string) []PMICRail {
	amps, volts := map[string]float64{}, map[string]float64{}
	for _, line := range splitLines(out) {
		m := pmicLine.FindStringSubmatch(line)
		if m == nil || m[2] != m[5] {
			continue
		}
		v, err := strconv.ParseFloat(m[4], 64)
		if err != nil || v < 0 || v > 1000 {
			continue
		}
		if m[2] == "A" {
			amps[m[1]] = v
		} else {
			volts[m[1]] = v
		}
	}
	var rails []PMICRail
	for name, a := range amps {
		if v, ok := volts[name]; ok {
			rails = append(rails, PMICRail{Name: name, Amps: a, Volts: v})
		}
	}
	sort.Slice(rails, func(i, j int) bool { return rails[i].Name < rails[j].Name })
	return rails
}

// PMICWatts sums volts × amps over the rails.
func PMICWatts(rails []PMICRail) float64 {
	var w float64
	for _, r := range rails {
		w += r.Amps * r.Volts
	}
	return w
}

// pmicQuestion is the firmware's general command that reads the PMIC.
const pmicQuestion = "pmic_read_adc"

// pmicSource reads the PMIC through the firmware mailbox (mb; the device
// is opened on the first read and closed when the meter stops), or through
// vcgencmd when mb is nil. Both give the same text: vcgencmd sends the same
// general command through the mailbox.
type pmicSource struct {
	h  *host.Host
	mb *vcmailbox.Client
}

// ask returns the firmware's answer to pmic_read_adc.
func (s pmicSource) ask(ctx context.Context) (string, error) {
	if s.mb != nil {
		return s.mb.Gencmd(pmicQuestion)
	}
	out, err := s.h.Run(ctx, "vcgencmd", pmicQuestion)
	return string(out), err
}

// Close closes the mailbox, if any (Polled's Run calls it when it stops).
func (s pmicSource) Close() error {
	if s.mb != nil {
		return s.mb.Close()
	}
	return nil
}

func openPMIC(ctx context.Context, h *host.Host) (Source, error) {
	return openPMICVia(ctx, h, h.FirmwareMailboxOpener())
}

// openPMICVia reads the PMIC through the mailbox that open opens when it
// answers pmic_read_adc with rails, else through vcgencmd.
func openPMICVia(ctx context.Context, h *host.Host, open vcmailbox.Opener) (Source, error) {
	src, via := pmicSource{h: h}, "the firmware mailbox"
	mb := vcmailbox.NewClient(open)
	out, err := mb.Gencmd(pmicQuestion)
	mb.Close()
	if err == nil && len(ParsePMICADC(out)) > 0 {
		src.mb = mb
	} else {
		via = "vcgencmd"
		out, err = src.ask(ctx)
		if err != nil {
			return nil, fmt.Errorf("rpi-pmic: %v (the PMIC is read through the firmware mailbox or vcgencmd on a Raspberry Pi 5)", err)
		}
	}
	rails := ParsePMICADC(out)
	if len(rails) == 0 {
		return nil, fmt.Errorf("rpi-pmic: vcgencmd pmic_read_adc gave no rail with current and voltage (a Raspberry Pi 5 is needed)")
	}
	inf := Info{Kind: KindRPiPMIC, Spec: KindRPiPMIC, Measures: MeasuresSoC, Interval: PMICInterval,
		Description: fmt.Sprintf("Raspberry Pi 5 PMIC, volts × amps summed over %d rails, read through %s", len(rails), via),
		Notes:       []string{"the PMIC's rails are the SoC side, not the wall: the 5 V input, USB devices and the power supply's losses are not included"}}
	return Polled(inf, src, 0), nil
}

func (s pmicSource) Read(ctx context.Context) (Reading, error) {
	out, err := s.ask(ctx)
	t := time.Now()
	if err != nil {
		return Reading{}, err
	}
	rails := ParsePMICADC(out)
	if len(rails) == 0 {
		return Reading{}, fmt.Errorf("%s: no rail in the output", pmicQuestion)
	}
	return checked(KindRPiPMIC, Reading{Time: t, W: ptr(PMICWatts(rails))})
}
