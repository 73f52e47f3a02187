package review

import (
	"fmt"
	"path"
	"strings"

	"boardbench/internal/inventory/buses"
	"boardbench/internal/inventory/storage"
	"boardbench/internal/kernelfile"
)

// storageInfo describes the block devices once per review.
func (e *Env) storageInfo() *storage.Info {
	if e.storage == nil {
		s := storage.Collect(e.H, true)
		e.storage = &s
	}
	return e.storage
}

func pcieLinkDowngraded(e *Env) []Finding {
	var out []Finding
	names, _ := e.H.ReadDirNames("/sys/bus/pci/devices")
	for _, n := range names {
		dir := "/sys/bus/pci/devices/" + n
		if _, ok := e.Read(AreaStorage, dir+"/current_link_speed"); !ok {
			continue
		}
		if class, _ := e.H.ReadString(dir + "/class"); strings.HasPrefix(class, "0x0604") {
			continue // a bridge or port: its link is judged at the device below it
		}
		cw, _ := e.Read(AreaStorage, dir+"/current_link_width")
		e.Read(AreaStorage, dir+"/max_link_speed")
		e.Read(AreaStorage, dir+"/max_link_width")
		rp, err := e.H.Resolve(dir)
		if err != nil {
			continue
		}
		l := buses.PCIeLinkOf(e.H, rp)
		if l == nil || l.Downgraded == nil || !*l.Downgraded || (l.LimitedByPort != nil && *l.LimitedByPort) {
			continue
		}
		evidence := []string{
			ev(dir+"/current_link_speed", l.CurrentSpeed), ev(dir+"/max_link_speed", l.MaxSpeed),
			ev(dir+"/current_link_width", cw),
		}
		if l.MaxWidth != nil {
			evidence = append(evidence, ev(dir+"/max_link_width", fmt.Sprint(*l.MaxWidth)))
		}
		if l.Port != "" && l.PortMaxGTs != nil {
			evidence = append(evidence, fmt.Sprintf("upstream port %s supports %.1f GT/s", l.Port, *l.PortMaxGTs))
		}
		out = append(out, warn(
			fmt.Sprintf("PCIe link of %s runs at %s x%s, below what both ends support", n, l.CurrentSpeed, cw),
			"reseat the card or adapter and check the cable or riser; some boards need the link speed raised in the device tree (max-link-speed) or firmware",
			"the device tree overlay or firmware setting of the PCIe controller",
			"a faster link draws a little more power", evidence...))
	}
	return out
}

// usbStorage lists USB storage devices with their USB link.
func usbStorage(e *Env) []storage.Device {
	var out []storage.Device
	for _, d := range e.storageInfo().Devices {
		if d.USB != nil {
			out = append(out, d)
		}
	}
	return out
}

func usbDesc(d storage.Device) string {
	speed := "unknown speed"
	if d.USB.SpeedMbps != nil {
		speed = fmt.Sprintf("%g Mbit/s", *d.USB.SpeedMbps)
	}
	return fmt.Sprintf("%s: USB %s device %s:%s, driver %s, link %s", d.Name, d.USB.Version, d.USB.VendorID, d.USB.ProductID, d.USB.Driver, speed)
}

func usbStorageNotUAS(e *Env) []Finding {
	var out []Finding
	cmdline, _ := e.Read(AreaStorage, "/proc/cmdline")
	quirks, _ := e.Read(AreaStorage, "/sys/module/usb_storage/parameters/quirks")
	for _, d := range usbStorage(e) {
		u := d.USB
		fast := u.SpeedMbps != nil && *u.SpeedMbps >= 5000
		e.Note(AreaStorage, "usb storage "+d.Name, usbDesc(d))
		if u.Driver == "usb-storage" && fast {
			id := strings.ToLower(u.VendorID + ":" + u.ProductID + ":")
			evidence := []string{"usb storage " + d.Name + ": " + usbDesc(d)}
			advice := "make sure the uas module is available (modprobe uas); a SuperSpeed bridge on usb-storage either lacks UAS or has it disabled by a quirk"
			for _, src := range []struct{ name, v string }{{"/proc/cmdline", cmdline}, {"/sys/module/usb_storage/parameters/quirks", quirks}} {
				if strings.Contains(strings.ToLower(src.v), id) {
					evidence = append(evidence, ev(src.name, src.v))
					advice = fmt.Sprintf("a quirk (%su) disables UAS for this bridge: remove it unless it was added against a known fault", id)
				}
			}
			out = append(out, warn(
				fmt.Sprintf("%s uses usb-storage on a SuperSpeed link instead of UAS", d.Name),
				advice, "usb-storage.quirks= on the kernel command line, or /etc/modprobe.d", "none; UAS queues commands and is faster", evidence...))
		}
		if strings.HasPrefix(u.Version, "3") && u.SpeedMbps != nil && *u.SpeedMbps <= 480 {
			out = append(out, warn(
				fmt.Sprintf("%s is a USB %s device running on a USB 2 link (%g Mbit/s)", d.Name, u.Version, *u.SpeedMbps),
				"plug it into a USB 3 port (usually blue) with a USB 3 cable; check that the port's SuperSpeed lanes work",
				"", "none", "usb storage "+d.Name+": "+usbDesc(d)))
		}
	}
	return out
}

func coherentPoolSmall(e *Env) []Finding {
	machine := e.H.Uname().Machine
	if machine != "aarch64" && !strings.HasPrefix(machine, "armv") {
		return nil
	}
	e.Note(AreaStorage, "uname -m", machine)
	var fast []storage.Device
	for _, d := range usbStorage(e) {
		if d.USB.Driver == "uas" || (d.USB.SpeedMbps != nil && *d.USB.SpeedMbps >= 5000) {
			fast = append(fast, d)
		}
	}
	if len(fast) == 0 {
		return nil
	}
	cmdline, ok := e.Read(AreaStorage, "/proc/cmdline")
	if !ok || strings.Contains(cmdline, "coherent_pool=") {
		return nil
	}
	evidence := []string{ev("/proc/cmdline", cmdline), "uname -m: " + machine}
	for _, d := range fast {
		evidence = append(evidence, "usb storage "+d.Name+": "+usbDesc(d))
	}
	return []Finding{warn(
		"UAS or USB 3 storage without coherent_pool= on the kernel command line: the default 256 KiB DMA pool runs out under load (I/O errors, resets)",
		"add coherent_pool=2M to the kernel command line",
		"the APPEND line of /boot/extlinux/extlinux.conf, extraargs= in /boot/armbianEnv.txt, or /boot/firmware/cmdline.txt; takes effect at the next boot",
		"2 MiB of RAM reserved for DMA", evidence...)}
}

func ext4Commit(e *Env) []Finding {
	mounts, ok := e.Read(AreaStorage, "/proc/mounts")
	if !ok {
		return nil
	}
	var out []Finding
	for _, m := range kernelfile.ParseMounts(mounts) {
		if len(m.Options) == 0 || m.FSType != "ext4" || !strings.HasPrefix(path.Base(m.Source), "mmcblk") {
			continue
		}
		hasCommit, hasAtime := false, false
		for _, o := range m.Options {
			switch {
			case strings.HasPrefix(o, "commit="):
				hasCommit = true
			case o == "noatime" || o == "relatime" || o == "lazytime":
				hasAtime = true
			}
		}
		if hasCommit && hasAtime {
			continue
		}
		var what []string
		if !hasCommit {
			what = append(what, "the default 5 s commit interval")
		}
		if !hasAtime {
			what = append(what, "an access-time write on every read")
		}
		out = append(out, warn(
			fmt.Sprintf("ext4 on flash at %s with %s", m.MountPoint, strings.Join(what, " and ")),
			fmt.Sprintf("mount -o remount,noatime,commit=600 %s", m.MountPoint),
			"add noatime,commit=600 to the options of "+m.MountPoint+" in /etc/fstab",
			"up to 10 minutes of writes lost on a power cut (the file system itself stays consistent)",
			ev("/proc/mounts", m.Line)))
	}
	return out
}
