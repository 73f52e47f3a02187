package infotext

import (
	"fmt"
	"strings"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/osinfo"
	"boardbench/internal/textfmt"
)

// renderOS writes the OS section: distribution, kernel, kernel and userland
// architectures (both shown, with a warning when their bitness differs), C
// library, compilers and what is unknown.
func renderOS(w *textfmt.Writer, in *inventory.Info) {
	o := in.OS
	w.Section("OS")
	pairs := [][2]string{{"distribution", osDistro(o.Distro)}}
	if o.DebianVersion != "" {
		pairs = append(pairs, [2]string{"Debian version", o.DebianVersion})
	}
	if a := o.Armbian; a != nil {
		pairs = append(pairs, [2]string{"Armbian", osArmbian(a)})
	}
	if r := o.RaspberryPiOS; r != nil {
		pairs = append(pairs, [2]string{"Raspberry Pi OS", osRPiIssue(r)})
	}
	pairs = append(pairs,
		[2]string{"kernel", o.Kernel.Release},
		[2]string{"kernel build", o.Kernel.Build},
		[2]string{"kernel support", in.KernelSummary},
		[2]string{"kernel compiler", o.Kernel.Compiler},
		[2]string{"kernel config", osKernelConfig(o.Kernel.Config)},
		[2]string{"kernel architecture", osKernelArch(o.Kernel)},
		[2]string{"userland architecture", osUserlandArch(o.Userland)},
		[2]string{"C library", osLibC(o.LibC)},
	)
	for _, c := range o.Compilers {
		pairs = append(pairs, [2]string{c.Name, osCompiler(c)})
	}
	w.KV(pairs...)
	if o.MixedArch && o.Kernel.Bits != nil && o.Userland.Bits != nil {
		w.Line("note: a %d-bit kernel runs a %d-bit userland; programs run as %s code, which changes benchmark results",
			*o.Kernel.Bits, *o.Userland.Bits, textfmt.OrUnknown(o.Userland.Arch))
	}
	for _, n := range o.Notes {
		w.Line("unknown: %s (%s)", n.Item, n.Reason)
	}
}

// osDistro is PRETTY_NAME (or NAME and VERSION_ID) with the id and codename.
func osDistro(d osinfo.Distro) string {
	name := d.PrettyName
	if name == "" {
		name = strings.TrimSpace(d.Name + " " + d.VersionID)
	}
	if name == "" {
		return ""
	}
	var extra []string
	if d.ID != "" {
		id := "id " + d.ID
		if len(d.IDLike) > 0 {
			id += ", like " + strings.Join(d.IDLike, " ")
		}
		extra = append(extra, id)
	}
	if d.Codename != "" && !strings.Contains(name, d.Codename) {
		extra = append(extra, d.Codename)
	}
	if len(extra) > 0 {
		name += " (" + strings.Join(extra, "; ") + ")"
	}
	return name
}

func osArmbian(a *osinfo.Armbian) string {
	parts := []string{textfmt.OrUnknown(a.Version)}
	if a.Branch != "" {
		parts = append(parts, "branch "+a.Branch)
	}
	if a.Board != "" {
		board := "board " + a.Board
		if a.BoardName != "" {
			board += " (" + a.BoardName + ")"
		}
		parts = append(parts, board)
	}
	if a.LinuxFamily != "" {
		parts = append(parts, "kernel family "+a.LinuxFamily)
	}
	return strings.Join(parts, ", ")
}

func osRPiIssue(r *osinfo.RaspberryPiOS) string {
	s := r.Issue
	if r.ImageDate != "" {
		s = "image of " + r.ImageDate
	}
	if r.Stage != "" {
		s += ", " + r.Stage
	}
	return s
}

// osKernelConfig says what the kernel's build configuration holds that
// reviewers read: "CONFIG_HZ=250, preemption voluntary (dynamic: preempt=
// chooses at boot), tick idle (from /proc/config.gz)"; unknown without a
// config.
func osKernelConfig(c *osinfo.KernelConfig) string {
	if c == nil {
		return "unknown"
	}
	hz := "CONFIG_HZ unknown"
	if c.HZ != nil {
		hz = fmt.Sprintf("CONFIG_HZ=%d", *c.HZ)
	}
	pre := "preemption " + textfmt.OrUnknown(c.Preempt)
	if c.PreemptDynamic {
		pre += " (dynamic: preempt= on the kernel command line chooses another)"
	}
	return fmt.Sprintf("%s, %s, tick %s (from %s)", hz, pre, textfmt.OrUnknown(c.Tick), c.Source)
}

func osKernelArch(k osinfo.Kernel) string {
	if k.Machine == "" {
		return ""
	}
	if k.Bits == nil {
		return k.Machine
	}
	return fmt.Sprintf("%s (%s, %d-bit)", k.Machine, k.Arch, *k.Bits)
}

func osUserlandArch(u osinfo.Userland) string {
	if u.Arch == "" {
		return ""
	}
	var extra []string
	if u.Bits != nil {
		extra = append(extra, fmt.Sprintf("%d-bit", *u.Bits))
	}
	if u.FloatABI != "" {
		extra = append(extra, u.FloatABI+"-float")
	}
	if u.Source != "" {
		extra = append(extra, "from "+u.Source)
	}
	if len(extra) == 0 {
		return u.Arch
	}
	return u.Arch + " (" + strings.Join(extra, ", ") + ")"
}

func osLibC(l osinfo.LibC) string {
	if l.Name == "" {
		return ""
	}
	if l.Version == "" {
		return l.Name + " (version unknown)"
	}
	return l.Name + " " + l.Version
}

func osCompiler(c osinfo.Compiler) string {
	if !c.Installed {
		return "not installed"
	}
	s := textfmt.OrUnknown(c.Version)
	if c.Target != "" {
		s += ", target " + c.Target
	}
	return s
}
