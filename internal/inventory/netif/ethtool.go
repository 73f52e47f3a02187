package netif

import (
	"bytes"
	"fmt"
	"strings"
	"unsafe"

	"github.com/mdlayher/ethtool"
	"golang.org/x/sys/unix"
)

// Ethtool reads (and, for coalescing, changes) what the kernel's ethtool
// interface says about an interface. Live uses the kernel; tests pass
// fakes.
type Ethtool interface {
	Link(ifname string) (*Link, error)
	EEE(ifname string) (*EEE, error)
	Coalesce(ifname string) (*Coalesce, error)
	SetCoalesce(ifname string, c Coalesce) error
	Channels(ifname string) (*Channels, error)
	DriverInfo(ifname string) (*DriverInfo, error)
}

// DriverInfo is what the driver says about itself (ETHTOOL_GDRVINFO, what
// `ethtool -i` prints).
type DriverInfo struct {
	// Driver is the driver's name ("r8169", "veth", "bcmgenet").
	Driver string `json:"driver"`
	// Version is the driver's version; often the kernel's.
	Version string `json:"version,omitempty"`
	// Firmware is the NIC's firmware version; "" when none.
	Firmware string `json:"firmware,omitempty"`
	// BusInfo is the device's bus address ("0000:01:00.0", "usb-xhci-
	// hcd.0-1"); "" for a virtual interface.
	BusInfo string `json:"bus_info,omitempty"`
}

// Live is the kernel's ethtool interface of the network namespace
// boardbench runs in. Link modes come through the ethtool netlink family
// (github.com/mdlayher/ethtool); that library does not cover EEE,
// coalescing or channels, which are read and set through the SIOCETHTOOL
// ioctl (golang.org/x/sys/unix).
type Live struct{}

// Link returns the negotiated speed and duplex, autonegotiation and the
// link modes both ends advertise.
func (Live) Link(ifname string) (*Link, error) {
	c, err := ethtool.New()
	if err != nil {
		return nil, fmt.Errorf("ethtool netlink: %w", err)
	}
	defer c.Close()
	m, err := c.LinkMode(ethtool.Interface{Name: ifname})
	if err != nil {
		return nil, err
	}
	l := &Link{Autoneg: m.Autoneg == ethtool.AutonegOn}
	if m.SpeedMegabits > 0 && m.SpeedMegabits < 1<<30 {
		s := int64(m.SpeedMegabits)
		l.SpeedMbps = &s
	}
	switch m.Duplex {
	case ethtool.Full:
		l.Duplex = "full"
	case ethtool.Half:
		l.Duplex = "half"
	}
	for _, a := range m.Ours {
		l.Advertised = append(l.Advertised, a.Name)
	}
	for _, a := range m.Peer {
		l.PeerAdvertised = append(l.PeerAdvertised, a.Name)
	}
	return l, nil
}

// ethtoolEEE is the kernel's struct ethtool_eee.
type ethtoolEEE struct {
	Cmd, Supported, Advertised, LPAdvertised, Active, Enabled, TxLPIEnabled, TxLPITimer uint32
	Reserved                                                                            [2]uint32
}

// ethtoolCoalesce is the kernel's struct ethtool_coalesce.
type ethtoolCoalesce struct {
	Cmd                                                 uint32
	RxUsecs, RxFrames, RxUsecsIRQ, RxFramesIRQ          uint32
	TxUsecs, TxFrames, TxUsecsIRQ, TxFramesIRQ          uint32
	StatsBlockUsecs, AdaptiveRx, AdaptiveTx             uint32
	PktRateLow, RxUsecsLow, RxFramesLow, TxUsecsLow     uint32
	TxFramesLow, PktRateHigh, RxUsecsHigh, RxFramesHigh uint32
	TxUsecsHigh, TxFramesHigh, RateSampleInterval       uint32
}

// ethtoolDrvinfo is the kernel's struct ethtool_drvinfo.
type ethtoolDrvinfo struct {
	Cmd                                 uint32
	Driver, Version, FwVersion, BusInfo [32]byte
	EromVersion                         [32]byte
	Reserved2                           [12]byte
	NPrivFlags, NStats, TestinfoLen     uint32
	EedumpLen, RegdumpLen               uint32
}

// ethtoolChannels is the kernel's struct ethtool_channels.
type ethtoolChannels struct {
	Cmd, MaxRx, MaxTx, MaxOther, MaxCombined, Rx, Tx, Other, Combined uint32
}

// ifreqData is struct ifreq with its union used as a data pointer.
type ifreqData struct {
	name [unix.IFNAMSIZ]byte
	data unsafe.Pointer
	_    [24 - unsafe.Sizeof(uintptr(0))]byte
}

// constError is an error whose value is its text, so that a sentinel
// error is a constant: static data that costs nothing when boardbench
// starts (errors.New would run at init). errors.Is and == match it.
type constError string

func (e constError) Error() string { return string(e) }

// ErrNotSupported is returned when the driver does not implement a query.
const ErrNotSupported = constError("not supported by the driver")

// ioctl runs one SIOCETHTOOL command on ifname with data (whose first
// field is the command).
func ioctl(ifname string, data unsafe.Pointer) error {
	if len(ifname) >= unix.IFNAMSIZ || ifname == "" {
		return fmt.Errorf("interface name %q: invalid", ifname)
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	var ifr ifreqData
	copy(ifr.name[:], ifname)
	ifr.data = data
	_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.SIOCETHTOOL, uintptr(unsafe.Pointer(&ifr)))
	switch errno {
	case 0:
		return nil
	case unix.EOPNOTSUPP, unix.EINVAL:
		return ErrNotSupported
	default:
		return errno
	}
}

// EEE returns the Energy-Efficient Ethernet state.
func (Live) EEE(ifname string) (*EEE, error) {
	v := ethtoolEEE{Cmd: unix.ETHTOOL_GEEE}
	if err := ioctl(ifname, unsafe.Pointer(&v)); err != nil {
		return nil, err
	}
	return &EEE{Supported: v.Supported != 0, Enabled: v.Enabled != 0, Active: v.Active != 0, TxLPI: v.TxLPIEnabled != 0}, nil
}

// Coalesce returns the interrupt coalescing settings.
func (Live) Coalesce(ifname string) (*Coalesce, error) {
	v := ethtoolCoalesce{Cmd: unix.ETHTOOL_GCOALESCE}
	if err := ioctl(ifname, unsafe.Pointer(&v)); err != nil {
		return nil, err
	}
	return &Coalesce{RxUsecs: v.RxUsecs, RxFrames: v.RxFrames, TxUsecs: v.TxUsecs, TxFrames: v.TxFrames,
		AdaptiveRx: v.AdaptiveRx != 0, AdaptiveTx: v.AdaptiveTx != 0}, nil
}

// SetCoalesce writes the rx/tx usecs and frames of c, leaving the driver's
// other coalescing parameters as they are.
func (Live) SetCoalesce(ifname string, c Coalesce) error {
	v := ethtoolCoalesce{Cmd: unix.ETHTOOL_GCOALESCE}
	if err := ioctl(ifname, unsafe.Pointer(&v)); err != nil {
		return err
	}
	v.Cmd = unix.ETHTOOL_SCOALESCE
	v.RxUsecs, v.RxFrames, v.TxUsecs, v.TxFrames = c.RxUsecs, c.RxFrames, c.TxUsecs, c.TxFrames
	v.AdaptiveRx, v.AdaptiveTx = b2u(c.AdaptiveRx), b2u(c.AdaptiveTx)
	return ioctl(ifname, unsafe.Pointer(&v))
}

// Channels returns the queue counts the driver uses and supports.
func (Live) Channels(ifname string) (*Channels, error) {
	v := ethtoolChannels{Cmd: unix.ETHTOOL_GCHANNELS}
	if err := ioctl(ifname, unsafe.Pointer(&v)); err != nil {
		return nil, err
	}
	return &Channels{Rx: v.Rx, Tx: v.Tx, Combined: v.Combined, MaxRx: v.MaxRx, MaxTx: v.MaxTx, MaxCombined: v.MaxCombined}, nil
}

// DriverInfo returns the driver's name and version, the firmware version
// and the bus address (the library has no driver information, so this is
// the SIOCETHTOOL ioctl).
func (Live) DriverInfo(ifname string) (*DriverInfo, error) {
	v := ethtoolDrvinfo{Cmd: unix.ETHTOOL_GDRVINFO}
	if err := ioctl(ifname, unsafe.Pointer(&v)); err != nil {
		return nil, err
	}
	return &DriverInfo{Driver: cString(v.Driver[:]), Version: cString(v.Version[:]), Firmware: cString(v.FwVersion[:]), BusInfo: cString(v.BusInfo[:])}, nil
}

// cString returns the text of a NUL-terminated kernel buffer, printable
// ASCII only.
func cString(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e {
			return -1
		}
		return r
	}, string(b))
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}
