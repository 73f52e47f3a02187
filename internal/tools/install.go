package tools

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/proc"
)

// Kind names a tool boardbench can install.
type Kind string

// Tools boardbench installs on demand.
const (
	KindSevenZip Kind = "7-Zip"
	KindOpenSSL  Kind = "openssl"
	// KindCryptsetup is cryptsetup (its benchmark action, `run
	// --extensive`).
	KindCryptsetup Kind = "cryptsetup"
	// KindIperf3 is iperf3 (`boardbench net --peer`).
	KindIperf3 Kind = "iperf3"
	// KindFio is fio (`storage --fio`).
	KindFio Kind = "fio"
)

// DefaultInstallTimeout bounds an installation when the caller's context has
// no deadline (a package download on a slow board can take minutes).
const DefaultInstallTimeout = 15 * time.Minute

// PackageManager is a distribution's package manager and how boardbench
// drives it.
type PackageManager struct {
	// Name is the short name, e.g. "apt".
	Name string
	// Command is the program, e.g. "apt-get".
	Command string
	// install is the argument list before the package names.
	install []string
	// env holds extra environment entries for unattended installation.
	env []string
	// packages lists, per Kind, alternatives tried in order; each
	// alternative is a list of package names installed together. (A slice,
	// not a map, so that packageManagers is static data that costs nothing
	// when boardbench starts.)
	packages []kindPackages
}

// kindPackages are the alternatives of package lists for one Kind.
type kindPackages struct {
	kind Kind
	alts [][]string
}

// alternatives returns the alternatives of package lists for kind,
// preferred first; nil for an unknown kind.
func (pm *PackageManager) alternatives(kind Kind) [][]string {
	for _, p := range pm.packages {
		if p.kind == kind {
			return p.alts
		}
	}
	return nil
}

// packageManagers are probed in this order. Package names: "7zip" is 7-Zip
// from its author (7zz) where distributions carry it; the p7zip packages are
// the fallback for older releases.
var packageManagers = []PackageManager{
	{
		Name: "apt", Command: "apt-get",
		install: []string{"install", "-y", "--no-install-recommends"},
		env:     []string{"DEBIAN_FRONTEND=noninteractive"},
		packages: []kindPackages{
			{KindSevenZip, [][]string{{"7zip"}, {"p7zip-full"}}},
			{KindOpenSSL, [][]string{{"openssl"}}},
			// cryptsetup-bin has the command without the boot scripts
			// of the cryptsetup package.
			{KindCryptsetup, [][]string{{"cryptsetup-bin"}}},
			{KindIperf3, [][]string{{"iperf3"}}},
			{KindFio, [][]string{{"fio"}}},
		},
	},
	{
		Name: "dnf", Command: "dnf",
		install: []string{"install", "-y"},
		packages: []kindPackages{
			{KindSevenZip, [][]string{{"7zip"}, {"p7zip", "p7zip-plugins"}}},
			{KindOpenSSL, [][]string{{"openssl"}}},
			{KindCryptsetup, [][]string{{"cryptsetup"}}},
			{KindIperf3, [][]string{{"iperf3"}}},
			{KindFio, [][]string{{"fio"}}},
		},
	},
	{
		Name: "pacman", Command: "pacman",
		install: []string{"-S", "--noconfirm", "--needed"},
		packages: []kindPackages{
			{KindSevenZip, [][]string{{"7zip"}, {"p7zip"}}},
			{KindOpenSSL, [][]string{{"openssl"}}},
			{KindCryptsetup, [][]string{{"cryptsetup"}}},
			{KindIperf3, [][]string{{"iperf3"}}},
			{KindFio, [][]string{{"fio"}}},
		},
	},
	{
		Name: "apk", Command: "apk",
		install: []string{"add"},
		packages: []kindPackages{
			{KindSevenZip, [][]string{{"7zip"}, {"p7zip"}}},
			{KindOpenSSL, [][]string{{"openssl"}}},
			{KindCryptsetup, [][]string{{"cryptsetup"}}},
			{KindIperf3, [][]string{{"iperf3"}}},
			{KindFio, [][]string{{"fio"}}},
		},
	},
	{
		Name: "zypper", Command: "zypper",
		install: []string{"--non-interactive", "install"},
		packages: []kindPackages{
			{KindSevenZip, [][]string{{"7zip"}, {"p7zip-full"}}},
			{KindOpenSSL, [][]string{{"openssl"}}},
			{KindCryptsetup, [][]string{{"cryptsetup"}}},
			{KindIperf3, [][]string{{"iperf3"}}},
			{KindFio, [][]string{{"fio"}}},
		},
	},
}

// DetectPackageManager returns the first known package manager installed on
// the machine, or nil.
func DetectPackageManager(h *host.Host) *PackageManager {
	for i := range packageManagers {
		if h.HasCommand(packageManagers[i].Command) {
			pm := packageManagers[i]
			return &pm
		}
	}
	return nil
}

// Packages returns the alternatives of package lists for kind, preferred
// first; nil for an unknown kind.
func (pm *PackageManager) Packages(kind Kind) [][]string {
	var out [][]string
	for _, alt := range pm.alternatives(kind) {
		out = append(out, append([]string(nil), alt...))
	}
	return out
}

// InstallCommand returns the argument list that installs pkgs.
func (pm *PackageManager) InstallCommand(pkgs []string) []string {
	return append(append([]string{pm.Command}, pm.install...), pkgs...)
}

// Hint returns the one line that tells a user how to install kind by hand,
// e.g. "install it with: sudo apt-get install -y --no-install-recommends 7zip".
func (pm *PackageManager) Hint(kind Kind) string {
	alts := pm.alternatives(kind)
	if len(alts) == 0 {
		return genericHint(kind)
	}
	hint := "install it with: sudo " + strings.Join(pm.InstallCommand(alts[0]), " ")
	if len(alts) > 1 {
		hint += " (on older releases: " + strings.Join(alts[1], " ") + ")"
	}
	return hint
}

func genericHint(kind Kind) string {
	if kind == KindSevenZip {
		return "install 7-Zip (the 7zip package, command 7zz) or p7zip from your distribution's packages"
	}
	return "install " + string(kind) + " from your distribution's packages"
}

// constError is an error whose value is its text, so that a sentinel
// error is a constant: static data that costs nothing when boardbench
// starts (errors.New would run at init). errors.Is and == match it.
type constError string

func (e constError) Error() string { return string(e) }

// ErrNotInstalled is matched (errors.Is) by an InstallError.
const ErrNotInstalled = constError("tool not installed")

// InstallError says that a tool is missing and was not (or could not be)
// installed, with a hint for the user.
type InstallError struct {
	Kind Kind
	// Reason says why boardbench did not install it, e.g. "needs root".
	Reason string
	// Hint tells the user how to install it by hand.
	Hint string
	// Output is the tail of the package manager's output when it failed.
	Output string
}

// Error describes the failure in one line.
func (e *InstallError) Error() string {
	return fmt.Sprintf("%s not installed: %s; %s", e.Kind, e.Reason, e.Hint)
}

// Is makes errors.Is(err, ErrNotInstalled) true.
func (e *InstallError) Is(target error) bool { return target == ErrNotInstalled }

// Installer installs missing tools with the distribution's package manager,
// only when the user allowed it and boardbench runs as root. Installation
// runs through Executor (proc.Live on the live system) because it takes far
// longer than host.Run's timeout; tests pass a fake.
type Installer struct {
	// Host is the machine; it detects the package manager and, after an
	// installation, the installed tool.
	Host *host.Host
	// Executor runs the package manager.
	Executor proc.Executor
	// Allow is the user's permission to install packages.
	Allow bool
	// Root reports whether boardbench runs as root (Host.IsRoot()).
	Root bool
	// Say is where each installation is announced, with its exact
	// command, before it starts; nil means standard error. Installing is
	// never silent.
	Say io.Writer
}

// NewInstaller returns an Installer for h that installs only when allow is
// true. It refuses a fixture root: nothing is ever installed for a recorded
// machine.
func NewInstaller(h *host.Host, allow bool) (*Installer, error) {
	live, err := proc.NewLive(h)
	if err != nil {
		return nil, err
	}
	return &Installer{Host: h, Executor: live, Allow: allow, Root: h.IsRoot()}, nil
}

// Ensure returns kind's tool, installing it first if it is missing and
// installation is allowed. A tool that is still missing is an *InstallError
// with a hint for the user.
func (in *Installer) Ensure(ctx context.Context, kind Kind) (*Tool, error) {
	if t := in.find(ctx, kind); t != nil {
		return t, nil
	}
	if err := in.Install(ctx, kind); err != nil {
		return nil, err
	}
	if t := in.find(ctx, kind); t != nil {
		return t, nil
	}
	pm := DetectPackageManager(in.Host)
	hint := genericHint(kind)
	if pm != nil {
		hint = pm.Hint(kind)
	}
	return nil, &InstallError{Kind: kind, Reason: "the package was installed but the command is still not found", Hint: hint}
}

func (in *Installer) find(ctx context.Context, kind Kind) *Tool {
	switch kind {
	case KindSevenZip:
		t, _ := FindSevenZip(ctx, in.Host)
		return t
	case KindOpenSSL:
		t, _ := FindOpenSSL(ctx, in.Host)
		return t
	case KindCryptsetup:
		t, _ := FindCryptsetup(ctx, in.Host)
		return t
	case KindIperf3:
		t, _ := FindIperf3(ctx, in.Host)
		return t
	case KindFio:
		t, _ := FindFio(ctx, in.Host)
		return t
	}
	return nil
}

// Install installs kind's package with the detected package manager, trying
// the alternatives in order. It returns an *InstallError when installing is
// not allowed, not possible as this user, or failed.
func (in *Installer) Install(ctx context.Context, kind Kind) error {
	pm := DetectPackageManager(in.Host)
	if pm == nil {
		return &InstallError{Kind: kind, Reason: "no known package manager (apt-get, dnf, pacman, apk, zypper) found", Hint: genericHint(kind)}
	}
	alts := pm.alternatives(kind)
	if len(alts) == 0 {
		return &InstallError{Kind: kind, Reason: "unknown tool", Hint: genericHint(kind)}
	}
	if !in.Allow {
		return &InstallError{Kind: kind, Reason: "installing packages was not allowed", Hint: pm.Hint(kind)}
	}
	if !in.Root {
		return &InstallError{Kind: kind, Reason: "installing packages needs root", Hint: pm.Hint(kind)}
	}
	if in.Executor == nil {
		return &InstallError{Kind: kind, Reason: "no way to run the package manager", Hint: pm.Hint(kind)}
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultInstallTimeout)
		defer cancel()
	}
	var lastErr error
	var lastOut string
	updated := false
	for _, pkgs := range alts {
		res, err := in.run(ctx, pm, pkgs)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return &InstallError{Kind: kind, Reason: "installation interrupted: " + ctx.Err().Error(), Hint: pm.Hint(kind), Output: tail(res)}
		}
		// apt's package lists may be missing or stale on a fresh image:
		// refresh them once and retry the same packages.
		if pm.Name == "apt" && !updated && needsAptUpdate(res) {
			updated = true
			in.say("refreshing the package lists first: %s update", pm.Command)
			if _, uerr := in.Executor.Exec(ctx, proc.Command{Name: pm.Command, Args: []string{"update"}, Env: pm.env}); uerr == nil {
				res, err = in.run(ctx, pm, pkgs)
				if err == nil {
					return nil
				}
			}
		}
		lastErr, lastOut = err, tail(res)
	}
	return &InstallError{Kind: kind, Reason: "the package manager failed: " + lastErr.Error(), Hint: pm.Hint(kind), Output: lastOut}
}

func (in *Installer) run(ctx context.Context, pm *PackageManager, pkgs []string) (proc.Result, error) {
	argv := pm.InstallCommand(pkgs)
	in.say("installing %s: %s (--no-install never installs)", strings.Join(pkgs, " "), strings.Join(argv, " "))
	return in.Executor.Exec(ctx, proc.Command{Name: argv[0], Args: argv[1:], Env: pm.env})
}

// say announces a step of an installation on Say (standard error when
// nil), before it happens.
func (in *Installer) say(format string, args ...any) {
	w := in.Say
	if w == nil {
		w = os.Stderr
	}
	fmt.Fprintf(w, "boardbench: "+format+"\n", args...)
}

// needsAptUpdate recognises apt's complaints about missing package lists.
func needsAptUpdate(res proc.Result) bool {
	s := string(res.Stdout) + string(res.Stderr)
	return strings.Contains(s, "Unable to locate package") || strings.Contains(s, "has no installation candidate")
}

// tail returns the last lines of a result's output, for error reports.
func tail(res proc.Result) string {
	s := strings.TrimSpace(string(res.Stdout) + "\n" + string(res.Stderr))
	lines := strings.Split(s, "\n")
	if len(lines) > 10 {
		lines = lines[len(lines)-10:]
	}
	return strings.Join(lines, "\n")
}
