// Package buses describes the machine's PCI(e) and USB devices from sysfs:
// identity, driver, negotiated versus possible PCIe link (with downgraded
// links flagged and explained where the upstream port is visible), the PCIe
// ASPM policy, and USB speed, version and interface drivers.
//
// It also offers the helpers other sections use to describe the bus behind a
// device they found elsewhere: USBLinkOf for USB storage and network
// adapters, PCIeLinkOf for NVMe drives and PCIe network cards.
//
// It reads only plain sysfs attributes; PCI config space, ROMs and resource
// files are never touched.
package buses

import (
	"boardbench/internal/lazyre"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/note"
	"boardbench/internal/redact"
)

// Sysfs directories this package reads.
const (
	pciDevicesDir = "/sys/bus/pci/devices"
	usbDevicesDir = "/sys/bus/usb/devices"
	aspmPolicy    = "/sys/module/pcie_aspm/parameters/policy"
)

// Info is the Buses section of a machine description.
type Info struct {
	// PCI lists the PCI(e) functions, ordered by address.
	PCI []PCIDevice `json:"pci"`
	// ASPMPolicy is the kernel's PCIe ASPM policy ("default", "performance",
	// "powersave", "powersupersave"); "" when not exposed.
	ASPMPolicy string `json:"aspm_policy"`
	// ASPMPolicies lists the policies the kernel offers.
	ASPMPolicies []string `json:"aspm_policies"`
	// USB lists USB devices (root hubs included, interfaces folded into
	// their device), ordered by bus and position.
	USB []USBDevice `json:"usb"`
	// Warnings are findings worth the user's attention, one sentence each,
	// e.g. a downgraded PCIe link.
	Warnings []string `json:"warnings,omitempty"`
	// Notes lists what could not be established and why.
	Notes note.List `json:"notes,omitempty"`
}

// PCIDevice is one PCI function.
type PCIDevice struct {
	// Address is the PCI address, e.g. "0000:01:00.0".
	Address string `json:"address"`
	// Parent is the address of the upstream bridge or port, "" when the
	// device sits directly on a host bridge or the parent is not visible.
	Parent string `json:"parent"`
	// VendorID and DeviceID are hex ids, e.g. "0x144d", "0xa808".
	VendorID string `json:"vendor_id"`
	DeviceID string `json:"device_id"`
	// Vendor names the vendor id for well-known vendors; "" otherwise.
	Vendor string `json:"vendor"`
	// Class is the 24-bit class code as hex, e.g. "0x010802".
	Class string `json:"class"`
	// ClassName names the class, e.g. "NVMe controller"; "" when unknown.
	ClassName string `json:"class_name"`
	// Driver is the bound kernel driver, "" when none is bound.
	Driver string `json:"driver"`
	// Link is the PCIe link of this function; null for conventional PCI
	// functions and where sysfs has no link attributes.
	Link *PCIeLink `json:"link"`
}

// PCIeLink is the negotiated and possible PCIe link of a function.
type PCIeLink struct {
	// Address is the PCI address of the function the link belongs to.
	Address string `json:"address"`
	// CurrentSpeed and MaxSpeed are the kernel's strings, e.g.
	// "8.0 GT/s PCIe" or "Unknown".
	CurrentSpeed string `json:"current_speed"`
	MaxSpeed     string `json:"max_speed"`
	// CurrentGTs and MaxGTs are the rates in GT/s; null when unknown.
	CurrentGTs *float64 `json:"current_gts"`
	MaxGTs     *float64 `json:"max_gts"`
	// CurrentGen and MaxGen are the PCIe generations of those rates (1 for
	// 2.5 GT/s ... 6 for 64 GT/s); null when unknown.
	CurrentGen *int `json:"current_gen"`
	MaxGen     *int `json:"max_gen"`
	// CurrentWidth and MaxWidth are lane counts; a current width of 0 means
	// the link is down. Null when not exposed.
	CurrentWidth *int `json:"current_width"`
	MaxWidth     *int `json:"max_width"`
	// Downgraded is true when the link runs below the function's own
	// maximum speed or width. Null for bridges and ports (their link is
	// judged at the device below them), for links that are down and when a
	// value is unknown.
	Downgraded *bool `json:"downgraded"`
	// Port is the upstream port's address, "" when not visible.
	Port string `json:"port"`
	// PortMaxGTs and PortMaxWidth are the upstream port's own maximum; null
	// when not visible.
	PortMaxGTs   *float64 `json:"port_max_gts"`
	PortMaxWidth *int     `json:"port_max_width"`
	// LimitedByPort is true when a downgraded link runs exactly as fast and
	// as wide as the lesser of both ends allows (the port, not a fault,
	// limits it), false when it runs below even that. Null when the link
	// is not downgraded or the port is not visible.
	LimitedByPort *bool `json:"limited_by_port"`
	// ASPML0s and ASPML1 say whether the ASPM L0s and L1 states are
	// enabled on this link; null when the kernel does not expose them.
	ASPML0s *bool `json:"aspm_l0s"`
	ASPML1  *bool `json:"aspm_l1"`
}

// USBDevice is one USB device (root hubs included).
type USBDevice struct {
	// Name is the sysfs name: "usb1" for a root hub, "1-1.3" for a device.
	Name string `json:"name"`
	// Parent is the sysfs name of the hub it hangs off, "" for root hubs.
	Parent string `json:"parent"`
	// RootHub is true for the host controller's root hub.
	RootHub bool `json:"root_hub"`
	// Bus and Device are the bus and device numbers; null when unreadable.
	Bus    *int `json:"busnum"`
	Device *int `json:"devnum"`
	// VendorID and ProductID are 4-digit hex ids, e.g. "174c", "55aa".
	VendorID  string `json:"vendor_id"`
	ProductID string `json:"product_id"`
	// Manufacturer, Product and Serial are the device's strings; "" when
	// absent. Serial is "REDACTED" when redaction is on, except for root
	// hubs, whose serial is the host controller's bus id.
	Manufacturer string `json:"manufacturer"`
	Product      string `json:"product"`
	Serial       string `json:"serial"`
	// Class is the device class as two hex digits ("09" hub, "00" per
	// interface, "ef" miscellaneous).
	Class string `json:"class"`
	// SpeedMbps is the negotiated signalling rate in Mbit/s; null when
	// unknown.
	SpeedMbps *float64 `json:"speed_mbps"`
	// SpeedName names that rate, e.g. "High Speed", "SuperSpeed".
	SpeedName string `json:"speed_name"`
	// Version is the USB version the device declares (bcdUSB), e.g.
	// "2.10", "3.20".
	Version string `json:"version"`
	// Ports is the number of downstream ports of a hub; null for other
	// devices.
	Ports *int `json:"ports"`
	// Interfaces lists the device's interfaces with their drivers.
	Interfaces []USBInterface `json:"interfaces"`
}

// USBInterface is one interface of a USB device.
type USBInterface struct {
	// Name is the sysfs name, e.g. "2-1:1.0".
	Name string `json:"name"`
	// Class is the interface class as two hex digits ("08" mass storage,
	// "09" hub, "ff" vendor specific).
	Class string `json:"class"`
	// Driver is the bound driver, e.g. "uas", "usb-storage", "r8152"; ""
	// when none is bound.
	Driver string `json:"driver"`
}

// USBLink describes the USB connection of a device found by another section
// (a disk, a network adapter).
type USBLink struct {
	// Device is the USB device's sysfs name, e.g. "2-1".
	Device string `json:"device"`
	// Interface is the USB interface the function is bound to, e.g.
	// "2-1:1.0"; "" when not part of the path.
	Interface string `json:"interface"`
	// Driver is the driver bound to that interface ("uas",
	// "usb-storage", "r8152", ...); "" when unknown.
	Driver string `json:"driver"`
	// SpeedMbps is the negotiated rate in Mbit/s; null when unknown.
	SpeedMbps *float64 `json:"speed_mbps"`
	// SpeedName names that rate, e.g. "SuperSpeed".
	SpeedName string `json:"speed_name"`
	// Version is the declared USB version (bcdUSB), e.g. "3.20".
	Version string `json:"version"`
	// VendorID and ProductID are the device's hex ids.
	VendorID  string `json:"vendor_id"`
	ProductID string `json:"product_id"`
	// Manufacturer and Product are the device's own strings (for storage,
	// usually the USB bridge's).
	Manufacturer string `json:"manufacturer"`
	Product      string `json:"product"`
}

var (
	pciAddrRE     = lazyre.Regexp(`^[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$`)
	usbDeviceRE   = lazyre.Regexp(`^(usb[0-9]+|[0-9]+-[0-9]+(\.[0-9]+)*)$`)
	usbInterfacRE = lazyre.Regexp(`^[0-9]+-[0-9]+(\.[0-9]+)*:[0-9]+\.[0-9]+$`)
)

// Collect describes the buses of the machine behind h. It never fails: what
// cannot be read is listed in Notes. With redact set, USB serial numbers are
// replaced.
func Collect(h *host.Host, redactIDs bool) Info {
	var in Info
	in.PCI = collectPCI(h, &in)
	in.USB = collectUSB(h, redactIDs, &in)
	if in.PCI == nil {
		in.PCI = []PCIDevice{}
	}
	if in.USB == nil {
		in.USB = []USBDevice{}
	}
	return in
}

func collectPCI(h *host.Host, in *Info) []PCIDevice {
	names, err := h.ReadDirNames(pciDevicesDir)
	if err != nil {
		in.Notes.Add("PCI devices", note.NotExposed)
		return nil
	}
	var devs []PCIDevice
	for _, name := range names {
		if !pciAddrRE.MatchString(name) {
			continue
		}
		devs = append(devs, readPCIDevice(h, name))
	}
	if len(devs) == 0 {
		return devs
	}
	if s, err := h.ReadString(aspmPolicy); err == nil {
		c := kernelfile.ParseChoice(s)
		in.ASPMPolicy, in.ASPMPolicies = c.SelectedOrOnly(), c.Options
	} else {
		in.Notes.Add("PCIe ASPM policy", note.NotExposed)
	}
	for _, d := range devs {
		if w := LinkWarning(d.Address, d.ClassName, d.Link); w != "" {
			in.Warnings = append(in.Warnings, w)
		}
	}
	return devs
}

// readPCIDevice reads one PCI function by address.
func readPCIDevice(h *host.Host, addr string) PCIDevice {
	dir := pciDevicesDir + "/" + addr
	d := PCIDevice{Address: addr}
	if rp, err := h.Resolve(dir); err == nil {
		d.Parent = parentPCI(rp, addr)
	}
	if id, v, ok := ParseHexID(readString(h, dir+"/vendor")); ok {
		d.VendorID = id
		d.Vendor = PCIVendorName(v)
	}
	if id, _, ok := ParseHexID(readString(h, dir+"/device")); ok {
		d.DeviceID = id
	}
	class, _, ok := ParseHexID(readString(h, dir+"/class"))
	var classValue uint64
	if ok {
		d.Class = class
		_, classValue, _ = ParseHexID(class)
		d.ClassName = PCIClassName(classValue)
	}
	d.Driver = linkBase(h, dir+"/driver")
	isBridge := ok && classValue>>8 == 0x0604
	d.Link = readLink(h, addr, d.Parent, !isBridge)
	return d
}

// parentPCI returns the PCI address that precedes addr in a resolved sysfs
// path, "" when addr hangs off a host bridge.
func parentPCI(resolved, addr string) string {
	comps := strings.Split(resolved, "/")
	prev := ""
	for _, c := range comps {
		if c == addr {
			return prev
		}
		if pciAddrRE.MatchString(c) {
			prev = c
		}
	}
	return ""
}

// readLink reads the link attributes of a PCI function; judge says whether
// a downgrade is judged on this function (endpoints yes, bridges no).
func readLink(h *host.Host, addr, parent string, judge bool) *PCIeLink {
	dir := pciDevicesDir + "/" + addr
	cur, errCur := h.ReadString(dir + "/current_link_speed")
	max, errMax := h.ReadString(dir + "/max_link_speed")
	if errCur != nil && errMax != nil {
		return nil
	}
	l := &PCIeLink{Address: addr, CurrentSpeed: cur, MaxSpeed: max}
	if v, ok := ParseLinkSpeed(cur); ok {
		l.CurrentGTs = &v
		if g := LinkGeneration(v); g > 0 {
			l.CurrentGen = &g
		}
	}
	if v, ok := ParseLinkSpeed(max); ok {
		l.MaxGTs = &v
		if g := LinkGeneration(v); g > 0 {
			l.MaxGen = &g
		}
	}
	l.CurrentWidth = readIntPtr(h, dir+"/current_link_width")
	l.MaxWidth = readIntPtr(h, dir+"/max_link_width")
	l.ASPML0s = readBoolPtr(h, dir+"/link/l0s_aspm")
	l.ASPML1 = readBoolPtr(h, dir+"/link/l1_aspm")
	if parent != "" {
		l.Port = parent
		pdir := pciDevicesDir + "/" + parent
		if v, ok := ParseLinkSpeed(readString(h, pdir+"/max_link_speed")); ok {
			l.PortMaxGTs = &v
		}
		l.PortMaxWidth = readIntPtr(h, pdir+"/max_link_width")
	}
	if judge {
		judgeLink(l)
	}
	return l
}

// judgeLink sets Downgraded and LimitedByPort from the link's figures.
func judgeLink(l *PCIeLink) {
	if l.CurrentGTs == nil || l.MaxGTs == nil || l.CurrentWidth == nil || l.MaxWidth == nil || *l.CurrentWidth == 0 {
		return
	}
	down := *l.CurrentGTs < *l.MaxGTs-0.01 || *l.CurrentWidth < *l.MaxWidth
	l.Downgraded = &down
	if !down || l.PortMaxGTs == nil || l.PortMaxWidth == nil {
		return
	}
	bestGTs := min(*l.MaxGTs, *l.PortMaxGTs)
	bestWidth := min(*l.MaxWidth, *l.PortMaxWidth)
	limited := *l.CurrentGTs >= bestGTs-0.01 && *l.CurrentWidth >= bestWidth
	l.LimitedByPort = &limited
}

// FormatLink renders a rate and width, e.g. "5.0 GT/s x1"; unknown parts
// read "unknown".
func FormatLink(gts *float64, width *int) string {
	s := "unknown"
	if gts != nil {
		s = FormatLinkSpeed(*gts)
	}
	if width != nil {
		s += fmt.Sprintf(" x%d", *width)
	}
	return s
}

// LinkWarning returns a one-sentence finding for a downgraded link, "" when
// there is nothing to say. who names the device (address), what its class.
func LinkWarning(who, what string, l *PCIeLink) string {
	if l == nil || l.Downgraded == nil || !*l.Downgraded {
		return ""
	}
	subject := who
	if what != "" {
		subject += " (" + what + ")"
	}
	cur := FormatLink(l.CurrentGTs, l.CurrentWidth)
	max := FormatLink(l.MaxGTs, l.MaxWidth)
	var s string
	switch {
	case l.LimitedByPort == nil:
		s = fmt.Sprintf("%s: PCIe link downgraded: %s of %s (upstream port not visible)", subject, cur, max)
	case *l.LimitedByPort:
		s = fmt.Sprintf("%s: PCIe link %s of %s, limited by upstream port %s (max %s)",
			subject, cur, max, l.Port, FormatLink(l.PortMaxGTs, l.PortMaxWidth))
	default:
		s = fmt.Sprintf("%s: PCIe link downgraded: %s of %s although upstream port %s supports %s; check seating, contacts, adapter or riser",
			subject, cur, max, l.Port, FormatLink(l.PortMaxGTs, l.PortMaxWidth))
	}
	if strings.HasPrefix(what, "VGA") || strings.HasPrefix(what, "3D") || strings.HasPrefix(what, "Display") {
		s += " (graphics devices lower their link speed when idle)"
	}
	return s
}

// PCIeLinkOf returns the PCIe link of the PCI function closest to the end of
// a resolved sysfs path (e.g. the NVMe controller above
// /sys/devices/.../0000:01:00.0/nvme/nvme0/nvme0n1), or nil when the path
// holds no PCI function or the function has no link attributes.
func PCIeLinkOf(h *host.Host, resolved string) *PCIeLink {
	addr, parent := "", ""
	for _, c := range strings.Split(resolved, "/") {
		if pciAddrRE.MatchString(c) {
			parent, addr = addr, c
		}
	}
	if addr == "" {
		return nil
	}
	return readLink(h, addr, parent, true)
}

// USBLinkOf describes the USB device closest to the end of a resolved sysfs
// path (e.g. .../usb2/2-1/2-1:1.0/host0/.../block/sda), with the driver of
// the interface on the path; nil when the path holds no USB device.
func USBLinkOf(h *host.Host, resolved string) *USBLink {
	comps := strings.Split(resolved, "/")
	dev, iface := "", ""
	for i := len(comps) - 1; i >= 0; i-- {
		c := comps[i]
		if iface == "" && usbInterfacRE.MatchString(c) {
			iface = c
			continue
		}
		if usbDeviceRE.MatchString(c) {
			dev = c
			break
		}
	}
	if dev == "" {
		return nil
	}
	dir := usbDevicesDir + "/" + dev
	l := &USBLink{Device: dev, Interface: iface}
	if iface != "" {
		l.Driver = linkBase(h, usbDevicesDir+"/"+iface+"/driver")
	}
	if v, ok := ParseUSBSpeed(readString(h, dir+"/speed")); ok {
		l.SpeedMbps = &v
		l.SpeedName = USBSpeedName(v)
	}
	l.Version = readString(h, dir+"/version")
	l.VendorID = readString(h, dir+"/idVendor")
	l.ProductID = readString(h, dir+"/idProduct")
	l.Manufacturer = readString(h, dir+"/manufacturer")
	l.Product = readString(h, dir+"/product")
	return l
}

func collectUSB(h *host.Host, redactIDs bool, in *Info) []USBDevice {
	names, err := h.ReadDirNames(usbDevicesDir)
	if err != nil {
		in.Notes.Add("USB devices", note.NotExposed)
		return nil
	}
	ifaces := map[string][]string{}
	var devNames []string
	for _, n := range names {
		switch {
		case strings.Contains(n, ":"):
			dev := n[:strings.IndexByte(n, ':')]
			ifaces[dev] = append(ifaces[dev], n)
		case usbDeviceRE.MatchString(n):
			devNames = append(devNames, n)
		}
	}
	devs := make([]USBDevice, 0, len(devNames))
	for _, n := range devNames {
		devs = append(devs, readUSBDevice(h, n, ifaces, redactIDs))
	}
	sort.SliceStable(devs, func(i, j int) bool {
		bi, bj := usbBusOf(devs[i]), usbBusOf(devs[j])
		if bi != bj {
			return bi < bj
		}
		if devs[i].RootHub != devs[j].RootHub {
			return devs[i].RootHub
		}
		return usbPathLess(devs[i].Name, devs[j].Name)
	})
	return devs
}

// readUSBDevice reads one USB device; ifaces maps a device name (as it
// appears before ":" in interface names; "1-0" for root hub usb1) to its
// interface names.
func readUSBDevice(h *host.Host, name string, ifaces map[string][]string, redactIDs bool) USBDevice {
	dir := usbDevicesDir + "/" + name
	d := USBDevice{Name: name, RootHub: strings.HasPrefix(name, "usb")}
	d.Parent = usbParent(name)
	d.Bus = readIntPtr(h, dir+"/busnum")
	d.Device = readIntPtr(h, dir+"/devnum")
	d.VendorID = readString(h, dir+"/idVendor")
	d.ProductID = readString(h, dir+"/idProduct")
	d.Manufacturer = readString(h, dir+"/manufacturer")
	d.Product = readString(h, dir+"/product")
	d.Serial = readString(h, dir+"/serial")
	if redactIDs && !d.RootHub {
		d.Serial = redact.Serial(d.Serial)
	}
	d.Class = readString(h, dir+"/bDeviceClass")
	if v, ok := ParseUSBSpeed(readString(h, dir+"/speed")); ok {
		d.SpeedMbps = &v
		d.SpeedName = USBSpeedName(v)
	}
	d.Version = readString(h, dir+"/version")
	if p := readIntPtr(h, dir+"/maxchild"); p != nil && *p > 0 {
		d.Ports = p
	}
	key := name
	if d.RootHub {
		key = strings.TrimPrefix(name, "usb") + "-0"
	}
	for _, in := range ifaces[key] {
		d.Interfaces = append(d.Interfaces, USBInterface{
			Name:   in,
			Class:  readString(h, usbDevicesDir+"/"+in+"/bInterfaceClass"),
			Driver: linkBase(h, usbDevicesDir+"/"+in+"/driver"),
		})
	}
	if d.Interfaces == nil {
		d.Interfaces = []USBInterface{}
	}
	return d
}

// usbParent returns the hub a device hangs off: "usb2" for "2-1", "2-1" for
// "2-1.4"; "" for root hubs and malformed names.
func usbParent(name string) string {
	if strings.HasPrefix(name, "usb") {
		return ""
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		return name[:i]
	}
	if i := strings.IndexByte(name, '-'); i > 0 {
		return "usb" + name[:i]
	}
	return ""
}

// usbBusOf returns the bus number of a device, from busnum or its name.
func usbBusOf(d USBDevice) int {
	if d.Bus != nil {
		return *d.Bus
	}
	s := strings.TrimPrefix(d.Name, "usb")
	if i := strings.IndexByte(s, '-'); i >= 0 {
		s = s[:i]
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 1 << 30
	}
	return n
}

// usbPathLess orders "2-1.2" before "2-1.10" by comparing port numbers.
func usbPathLess(a, b string) bool {
	pa := strings.FieldsFunc(a, func(r rune) bool { return r == '-' || r == '.' })
	pb := strings.FieldsFunc(b, func(r rune) bool { return r == '-' || r == '.' })
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		if ea == nil && eb == nil && na != nb {
			return na < nb
		}
		if pa[i] != pb[i] {
			return pa[i] < pb[i]
		}
	}
	return len(pa) < len(pb)
}

// readString returns a trimmed attribute, "" on any error.
func readString(h *host.Host, p string) string {
	s, err := h.ReadString(p)
	if err != nil {
		return ""
	}
	return s
}

// readIntPtr returns a decimal attribute, nil on any error.
func readIntPtr(h *host.Host, p string) *int {
	v, err := h.ReadInt(p)
	if err != nil || v < -1<<31 || v > 1<<31-1 {
		return nil
	}
	n := int(v)
	return &n
}

// readBoolPtr returns a "0"/"1" attribute, nil on any error.
func readBoolPtr(h *host.Host, p string) *bool {
	s, err := h.ReadString(p)
	if err != nil {
		return nil
	}
	var b bool
	switch s {
	case "1":
		b = true
	case "0":
		b = false
	default:
		return nil
	}
	return &b
}

// linkBase returns the last path element of a symbolic link's target (the
// driver or subsystem name), "" when the link is missing.
func linkBase(h *host.Host, p string) string {
	t, err := h.Readlink(p)
	if err != nil || t == "" {
		return ""
	}
	return path.Base(t)
}
