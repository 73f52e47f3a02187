package power

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"boardbench/internal/httplite"
	"boardbench/internal/redact"

	"github.com/spf13/cobra"
)

// Special specs besides the kinds.
const (
	// SpecAuto (or an empty spec) chooses a board-level hwmon sensor when
	// there is one, else no source.
	SpecAuto = "auto"
	// SpecNone turns power reading off.
	SpecNone = "none"
)

// Spec is a parsed --power value: a Kind and its argument, e.g.
// {Kind: "shelly", Arg: "http://10.0.0.7"}. The zero Spec means auto.
type Spec struct {
	Kind string
	Arg  string
}

// ParseSpec parses a --power value: auto, none, hwmon[:NAME], rpi-pmic,
// usb-pd, shelly:URL, netio:URL[#OUTPUT] or cmd:COMMAND.
func ParseSpec(s string) (Spec, error) {
	s = strings.TrimSpace(s)
	kind, arg, hasArg := strings.Cut(s, ":")
	kind = strings.ToLower(kind)
	switch kind {
	case "", SpecAuto, SpecNone, KindRPiPMIC, KindUSBPD:
		if hasArg {
			return Spec{}, fmt.Errorf("power source %q takes no argument", kind)
		}
		if kind == SpecAuto {
			kind = ""
		}
		return Spec{Kind: kind}, nil
	case KindHwmon:
		if hasArg && arg == "" {
			return Spec{}, fmt.Errorf("hwmon: name a chip after the colon (hwmon:ina226) or leave the colon out")
		}
		return Spec{Kind: kind, Arg: arg}, nil
	case KindShelly, KindNetio:
		if arg == "" {
			return Spec{}, fmt.Errorf("%s needs the meter's address: %s:http://HOST", kind, kind)
		}
		if _, err := meterURL(arg); err != nil {
			return Spec{}, fmt.Errorf("%s: %v", kind, err)
		}
		return Spec{Kind: kind, Arg: arg}, nil
	case KindCmd:
		if strings.TrimSpace(arg) == "" {
			return Spec{}, fmt.Errorf("cmd needs a command that prints watts: cmd:'COMMAND'")
		}
		return Spec{Kind: kind, Arg: arg}, nil
	}
	return Spec{}, fmt.Errorf("unknown power source %q (auto, none, hwmon[:NAME], rpi-pmic, usb-pd, shelly:URL, netio:URL[#OUTPUT], cmd:COMMAND)", kind)
}

// meterURL turns a meter address into an http(s) URL: a bare host gets
// http://.
func meterURL(s string) (*url.URL, error) {
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("bad address: %v", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("bad address %q: only http and https", u.Redacted())
	}
	if u.Host == "" {
		return nil, fmt.Errorf("bad address %q: no host", s)
	}
	if u.Scheme == "https" && !httplite.TLS {
		return nil, fmt.Errorf("%s: %v", u.Redacted(), httplite.ErrNoTLS)
	}
	return u, nil
}

// String returns the spec as written, with any credential removed (it
// goes into results): a meter URL's password (redact.ConnString), and all
// of a cmd: command line but its program's name (CmdProgram).
func (s Spec) String() string {
	switch {
	case s.Kind == "":
		return SpecAuto
	case s.Arg == "":
		return s.Kind
	case s.Kind == KindShelly || s.Kind == KindNetio:
		if u, err := meterURL(s.Arg); err == nil {
			return s.Kind + ":" + redact.ConnString(u.String())
		}
		return s.Kind + ":" + redact.ConnString(s.Arg)
	case s.Kind == KindCmd:
		return s.Kind + ":" + CmdProgram(s.Arg)
	}
	return s.Kind + ":" + s.Arg
}

// Set parses v into s (the flag interface).
func (s *Spec) Set(v string) error {
	p, err := ParseSpec(v)
	if err != nil {
		return err
	}
	*s = p
	return nil
}

// Type names the flag's value in usage text.
func (s *Spec) Type() string { return "SPEC" }

// IsAuto reports whether the spec leaves the choice to boardbench.
func (s Spec) IsAuto() bool { return s.Kind == "" }

// IsNone reports whether power reading is turned off.
func (s Spec) IsNone() bool { return s.Kind == SpecNone }

// Options are the power flags of a measuring command.
type Options struct {
	// Spec is the power source (--power); the zero value chooses
	// automatically.
	Spec Spec
	// IdleBaseline is how long the idle power is measured before the first
	// phase (--idle-baseline); 0 for none. Only with a power source.
	IdleBaseline time.Duration
	// Clock times the meter's readings and the idle baseline; nil means
	// the system's clock (tests pass a fake one).
	Clock Clock
}

// DefaultIdleBaseline is --idle-baseline's default.
const DefaultIdleBaseline = 10 * time.Second

// AddFlags adds --power and --idle-baseline to a measuring command; pass
// o on to session.Config.Power.
func AddFlags(cmd *cobra.Command, o *Options) {
	o.IdleBaseline = DefaultIdleBaseline
	fl := cmd.Flags()
	fl.Var(&o.Spec, "power", "read power from `SPEC`: auto, none, hwmon[:NAME], rpi-pmic, usb-pd, shelly:URL, netio:URL[#OUTPUT], cmd:'COMMAND' (docs/power.md)")
	fl.Var((*idleDuration)(&o.IdleBaseline), "idle-baseline", "measure idle power for `DURATION` before the first phase (0 for none; only with a power source)")
}

// idleDuration is a duration flag that refuses negative values.
type idleDuration time.Duration

func (d *idleDuration) String() string { return time.Duration(*d).String() }

func (d *idleDuration) Set(v string) error {
	x, err := time.ParseDuration(v)
	if err != nil {
		return err
	}
	if x < 0 {
		return fmt.Errorf("must not be negative")
	}
	*d = idleDuration(x)
	return nil
}

func (d *idleDuration) Type() string { return "DURATION" }
