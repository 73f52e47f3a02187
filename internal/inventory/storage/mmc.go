package storage

import (
	"boardbench/internal/lazyre"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/redact"
)

// MMC is the identity and state of an SD card or eMMC, from the card's
// registers as the kernel exposes them.
type MMC struct {
	// Type is the kernel's card type: "SD", "MMC" (eMMC) or "SDIO".
	Type string `json:"type"`
	// Host is the MMC host ("mmc0"), Controller the platform device of
	// the host controller ("fe2c0000.mmc"); "" when not in the path.
	Host       string `json:"host"`
	Controller string `json:"controller"`
	// Name is the product name stored in the card (CID), e.g. "SN64G".
	Name string `json:"name"`
	// ManfID is the manufacturer id as the kernel prints it ("0x000003").
	ManfID string `json:"manfid"`
	// Manufacturer names ManfID for well-known makers; "" otherwise.
	Manufacturer string `json:"manufacturer"`
	// OEMID is the OEM/application id ("0x5344"); OEMIDText its two ASCII
	// characters ("SD") when printable.
	OEMID     string `json:"oemid"`
	OEMIDText string `json:"oemid_text"`
	// Date is the manufacturing date as "MM/YYYY".
	Date string `json:"date"`
	// HWRev and FWRev are hardware and firmware revisions as printed.
	HWRev string `json:"hwrev"`
	FWRev string `json:"fwrev"`
	// CID is the raw card identification register (unique per card;
	// "REDACTED" with redaction on). CSD is the raw card-specific data
	// register.
	CID string `json:"cid"`
	CSD string `json:"csd"`
	// CapacityClass is "SDSC", "SDHC", "SDXC" or "SDUC" for SD cards,
	// derived from the CSD structure version and size; "" otherwise.
	CapacityClass string `json:"capacity_class"`
	// PreferredEraseBytes and EraseBytes are the erase sizes the kernel
	// derived (allocation unit and erase group); null when not exposed.
	PreferredEraseBytes *int64 `json:"preferred_erase_bytes"`
	EraseBytes          *int64 `json:"erase_bytes"`
	// SSR is the raw SD status register (SD cards, newer kernels); "" when
	// not exposed. SD holds what boardbench decoded from it.
	SSR string    `json:"ssr"`
	SD  *SDStatus `json:"sd_status"`
	// EMMCVersion is the eMMC standard version from EXT_CSD_REV (eMMC
	// only), e.g. "5.1"; "" when unknown.
	EMMCVersion string `json:"emmc_version"`
	// LifeTimeA and LifeTimeB are the eMMC's wear estimates for its two
	// memory types as used-life ranges ("0-10%", ..., "exceeded"), ""
	// when not reported. LifeTimeRaw is the raw attribute ("0x01 0x02").
	LifeTimeA   string `json:"life_time_a"`
	LifeTimeB   string `json:"life_time_b"`
	LifeTimeRaw string `json:"life_time_raw"`
	// PreEOL is the eMMC reserved-block state: "normal", "warning" (80 %
	// of reserved blocks used) or "urgent"; "" when not reported.
	PreEOL    string `json:"pre_eol"`
	PreEOLRaw string `json:"pre_eol_raw"`
}

// SDStatus holds the speed ratings an SD card declares in its status
// register. Each is null when the card reports a reserved value.
type SDStatus struct {
	// SpeedClass is 0, 2, 4, 6 or 10 ("Class 10").
	SpeedClass *int `json:"speed_class"`
	// UHSSpeedGrade is 0, 1 (U1) or 3 (U3).
	UHSSpeedGrade *int `json:"uhs_speed_grade"`
	// VideoSpeedClass is 0, 6, 10, 30, 60 or 90 (V30 ...).
	VideoSpeedClass *int `json:"video_speed_class"`
	// AppPerfClass is 0, 1 (A1) or 2 (A2).
	AppPerfClass *int `json:"app_perf_class"`
}

// The names below are switches, not map literals, so that they cost
// nothing when boardbench starts.

// sdManufacturer names an SD card manufacturer id that is well
// established (the SD Association does not publish the list); "" for the
// others.
func sdManufacturer(id uint64) string {
	switch id {
	case 0x01:
		return "Panasonic"
	case 0x02:
		return "Toshiba/Kioxia"
	case 0x03:
		return "SanDisk"
	case 0x1b:
		return "Samsung"
	case 0x1d:
		return "ADATA"
	case 0x27:
		return "Phison"
	case 0x28:
		return "Lexar"
	case 0x31:
		return "Silicon Power"
	case 0x41, 0x9f:
		return "Kingston"
	case 0x74:
		return "Transcend"
	case 0x76:
		return "Patriot"
	case 0x82:
		return "Sony"
	}
	return ""
}

// emmcManufacturer names an eMMC manufacturer id (JEDEC) that is well
// established; "" for the others.
func emmcManufacturer(id uint64) string {
	switch id {
	case 0x11:
		return "Toshiba/Kioxia"
	case 0x13, 0xfe:
		return "Micron"
	case 0x15:
		return "Samsung"
	case 0x45:
		return "SanDisk"
	case 0x70:
		return "Kingston"
	case 0x88:
		return "Foresee"
	case 0x90:
		return "SK hynix"
	case 0x9b:
		return "YMTC"
	}
	return ""
}

// ManufacturerName names a card manufacturer id ("0x000003") for a card
// type ("SD" or "MMC"); "" when not well known.
func ManufacturerName(cardType, manfid string) string {
	v, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(manfid)), "0x"), 16, 32)
	if err != nil {
		return ""
	}
	switch cardType {
	case "SD":
		return sdManufacturer(v)
	case "MMC":
		return emmcManufacturer(v)
	}
	return ""
}

// oemText returns the two ASCII characters of an SD OEM id ("0x5344" →
// "SD"), "" when they are not printable letters or digits.
func oemText(oemid string) string {
	v, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(oemid), "0x"), 16, 16)
	if err != nil {
		return ""
	}
	b := []byte{byte(v >> 8), byte(v)}
	for _, c := range b {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return ""
		}
	}
	return string(b)
}

// emmcVersion maps EXT_CSD_REV to the eMMC standard version; "" when
// unknown.
func emmcVersion(rev uint64) string {
	switch rev {
	case 0:
		return "4.0"
	case 1:
		return "4.1"
	case 2:
		return "4.2"
	case 3:
		return "4.3"
	case 5:
		return "4.41"
	case 6:
		return "4.5/4.51"
	case 7:
		return "5.0/5.01"
	case 8:
		return "5.1"
	}
	return ""
}

// lifeTimeText decodes one eMMC DEVICE_LIFE_TIME_EST value.
func lifeTimeText(v uint64) string {
	switch {
	case v >= 0x01 && v <= 0x0a:
		return fmt.Sprintf("%d-%d%%", (v-1)*10, v*10)
	case v == 0x0b:
		return "exceeded"
	}
	return ""
}

// preEOLText decodes the eMMC PRE_EOL_INFO value.
func preEOLText(v uint64) string {
	switch v {
	case 1:
		return "normal"
	case 2:
		return "warning"
	case 3:
		return "urgent"
	}
	return ""
}

func parseHex(s string) (uint64, bool) {
	v, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "0x"), 16, 64)
	return v, err == nil
}

// readMMC reads the card registers behind a block device's device link.
func readMMC(h *host.Host, devDir, resolved string, sizeBytes *int64, redactIDs bool) *MMC {
	card := devDir + "/device"
	m := &MMC{Type: readString(h, card+"/type")}
	comps := strings.Split(resolved, "/")
	for i, c := range comps {
		if c == "mmc_host" && i > 0 {
			m.Controller = comps[i-1]
			if i+1 < len(comps) {
				m.Host = comps[i+1]
			}
		}
	}
	m.Name = readString(h, card+"/name")
	m.ManfID = readString(h, card+"/manfid")
	m.Manufacturer = ManufacturerName(m.Type, m.ManfID)
	m.OEMID = readString(h, card+"/oemid")
	m.OEMIDText = oemText(m.OEMID)
	m.Date = readString(h, card+"/date")
	m.HWRev = readString(h, card+"/hwrev")
	m.FWRev = readString(h, card+"/fwrev")
	m.CID = readString(h, card+"/cid")
	if redactIDs {
		m.CID = redact.Serial(m.CID)
	}
	m.CSD = readString(h, card+"/csd")
	m.PreferredEraseBytes = readInt64Ptr(h, card+"/preferred_erase_size")
	m.EraseBytes = readInt64Ptr(h, card+"/erase_size")
	if m.Type == "SD" {
		m.CapacityClass = sdCapacityClass(m.CSD, sizeBytes)
		m.SSR = readString(h, card+"/ssr")
		m.SD = DecodeSSR(m.SSR)
	}
	if m.Type == "MMC" {
		if v, ok := parseHex(readString(h, card+"/rev")); ok {
			m.EMMCVersion = emmcVersion(v)
		}
		m.LifeTimeRaw = readString(h, card+"/life_time")
		a, b := kernelfile.ParseMMCLifeTime(m.LifeTimeRaw)
		if a != nil {
			m.LifeTimeA = lifeTimeText(*a)
		}
		if b != nil {
			m.LifeTimeB = lifeTimeText(*b)
		}
		m.PreEOLRaw = readString(h, card+"/pre_eol_info")
		if v, ok := parseHex(m.PreEOLRaw); ok {
			m.PreEOL = preEOLText(v)
		}
	}
	return m
}

// sdCapacityClass derives SDSC/SDHC/SDXC/SDUC from the CSD structure
// version (bits 127:126) and, for version 2, the capacity: the kernel calls
// a card SDXC from 32 GiB on.
func sdCapacityClass(csd string, sizeBytes *int64) string {
	if len(csd) < 1 {
		return ""
	}
	v, err := strconv.ParseUint(csd[:1], 16, 8)
	if err != nil {
		return ""
	}
	switch v >> 2 {
	case 0:
		return "SDSC"
	case 1:
		if sizeBytes == nil {
			return ""
		}
		if *sizeBytes >= 32<<30 {
			return "SDXC"
		}
		return "SDHC"
	case 2:
		return "SDUC"
	}
	return ""
}

// DecodeSSR decodes the speed ratings from the SD status register as the
// kernel prints it (128 hex digits, most significant bit first). It returns
// nil for anything else and for an all-zero register (not read by the
// kernel).
func DecodeSSR(ssr string) *SDStatus {
	ssr = strings.TrimSpace(ssr)
	if len(ssr) != 128 {
		return nil
	}
	raw, err := hex.DecodeString(ssr)
	if err != nil {
		return nil
	}
	zero := true
	for _, b := range raw {
		if b != 0 {
			zero = false
			break
		}
	}
	if zero {
		return nil
	}
	// bits returns the field [hi:lo] of the 512-bit register.
	bits := func(hi, lo int) uint64 {
		var v uint64
		for b := hi; b >= lo; b-- {
			byteIdx := (511 - b) / 8
			bit := uint(b % 8)
			v = v<<1 | uint64(raw[byteIdx]>>bit&1)
		}
		return v
	}
	s := &SDStatus{}
	if c, ok := map[uint64]int{0: 0, 1: 2, 2: 4, 3: 6, 4: 10}[bits(447, 440)]; ok {
		s.SpeedClass = &c
	}
	if g := int(bits(399, 396)); g == 0 || g == 1 || g == 3 {
		s.UHSSpeedGrade = &g
	}
	if v := int(bits(391, 384)); v == 0 || v == 6 || v == 10 || v == 30 || v == 60 || v == 90 {
		s.VideoSpeedClass = &v
	}
	if a := int(bits(339, 336)); a <= 2 {
		s.AppPerfClass = &a
	}
	return s
}

// Ratings renders the declared SD ratings compactly, e.g. "Class 10, U3,
// V30, A2"; "" when nothing is declared.
func (s *SDStatus) Ratings() string {
	if s == nil {
		return ""
	}
	var parts []string
	if s.SpeedClass != nil && *s.SpeedClass > 0 {
		parts = append(parts, fmt.Sprintf("Class %d", *s.SpeedClass))
	}
	if s.UHSSpeedGrade != nil && *s.UHSSpeedGrade > 0 {
		parts = append(parts, fmt.Sprintf("U%d", *s.UHSSpeedGrade))
	}
	if s.VideoSpeedClass != nil && *s.VideoSpeedClass > 0 {
		parts = append(parts, fmt.Sprintf("V%d", *s.VideoSpeedClass))
	}
	if s.AppPerfClass != nil && *s.AppPerfClass > 0 {
		parts = append(parts, fmt.Sprintf("A%d", *s.AppPerfClass))
	}
	return strings.Join(parts, ", ")
}

// CID is a decoded Card Identification register (SD or eMMC), as the
// 32 hex digits of the card's `cid` attribute.
type CID struct {
	// ManfID is the manufacturer id (MID), e.g. 3 for SanDisk SD cards.
	ManfID int `json:"manfid"`
	// Manufacturer names ManfID where it is known.
	Manufacturer string `json:"manufacturer"`
	// OEMID is the OEM/application id: two ASCII characters for SD, one
	// byte for eMMC.
	OEMID string `json:"oemid"`
	// Product is the product name (5 characters for SD, 6 for eMMC).
	Product string `json:"product"`
	// Revision is the product revision, "major.minor".
	Revision string `json:"revision"`
	// Serial is the product serial number in hex (redact before showing).
	Serial string `json:"serial"`
	// Year and Month are the manufacturing date. For eMMC the year field
	// is ambiguous by 16 years; DecodeCID picks the range that starts in
	// 2013 (eMMC 4.41 and later, every card on a current board).
	Year  int `json:"year"`
	Month int `json:"month"`
}

// CSD is a decoded Card Specific Data register.
type CSD struct {
	// Structure is the CSD_STRUCTURE field: for SD 0 = version 1.0
	// (SDSC), 1 = version 2.0 (SDHC/SDXC), 2 = version 3.0 (SDUC).
	Structure int `json:"structure"`
	// TransferMbps is the maximum data transfer rate per data line of
	// the default mode (TRAN_SPEED), in Mbit/s: 25 for legacy SD,
	// 50 for High Speed, 26 or 52 for eMMC.
	TransferMbps float64 `json:"transfer_mbps"`
	// CommandClasses is the CCC bit field (bit n set: class n supported).
	CommandClasses int `json:"command_classes"`
	// CapacityBytes is the user capacity from C_SIZE (SD CSD 2.0 and
	// 3.0 only; 0 otherwise).
	CapacityBytes int64 `json:"capacity_bytes"`
}

// registerBits returns bits hi..lo (hi >= lo, numbered from the least
// significant bit of the whole register) of a register given as bytes,
// most significant byte first.
func registerBits(raw []byte, hi, lo int) uint64 {
	width := len(raw) * 8
	var v uint64
	for b := hi; b >= lo; b-- {
		idx := (width - 1 - b) / 8
		v = v<<1 | uint64(raw[idx]>>(uint(b)%8)&1)
	}
	return v
}

func decodeRegister128(s string) ([]byte, bool) {
	raw, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(raw) != 16 {
		return nil, false
	}
	return raw, true
}

// DecodeCID decodes a 128-bit CID given as 32 hex digits for a card of the
// given type ("SD" or "MMC", the card's `type` attribute); nil when the
// string is not a CID or the type is neither.
func DecodeCID(cardType, cid string) *CID {
	raw, ok := decodeRegister128(cid)
	if !ok {
		return nil
	}
	c := &CID{ManfID: int(registerBits(raw, 127, 120))}
	c.Manufacturer = ManufacturerName(cardType, fmt.Sprintf("0x%06x", c.ManfID))
	text := func(hi, lo int) string {
		var b strings.Builder
		for bit := hi; bit > lo; bit -= 8 {
			ch := byte(registerBits(raw, bit, bit-7))
			if ch < 0x20 || ch > 0x7e {
				ch = '?'
			}
			b.WriteByte(ch)
		}
		return strings.TrimSpace(b.String())
	}
	switch cardType {
	case "SD":
		c.OEMID = text(119, 104)
		c.Product = text(103, 64)
		prv := registerBits(raw, 63, 56)
		c.Revision = fmt.Sprintf("%d.%d", prv>>4, prv&15)
		c.Serial = fmt.Sprintf("%08x", registerBits(raw, 55, 24))
		c.Year = 2000 + int(registerBits(raw, 19, 12))
		c.Month = int(registerBits(raw, 11, 8))
	case "MMC":
		c.OEMID = fmt.Sprintf("0x%02x", registerBits(raw, 111, 104))
		c.Product = text(103, 56)
		prv := registerBits(raw, 55, 48)
		c.Revision = fmt.Sprintf("%d.%d", prv>>4, prv&15)
		c.Serial = fmt.Sprintf("%08x", registerBits(raw, 47, 16))
		c.Month = int(registerBits(raw, 15, 12))
		c.Year = 2013 + int(registerBits(raw, 11, 8))
	default:
		return nil
	}
	return c
}

// DecodeCSD decodes a 128-bit CSD given as 32 hex digits; nil when the
// string is not one. Capacity is decoded for SD cards (cardType "SD") with
// CSD version 2.0 or 3.0.
func DecodeCSD(cardType, csd string) *CSD {
	raw, ok := decodeRegister128(csd)
	if !ok {
		return nil
	}
	c := &CSD{
		Structure:      int(registerBits(raw, 127, 126)),
		CommandClasses: int(registerBits(raw, 95, 84)),
		TransferMbps:   tranSpeedMbps(registerBits(raw, 103, 96)),
	}
	if cardType == "SD" {
		switch c.Structure {
		case 1:
			c.CapacityBytes = int64(registerBits(raw, 69, 48)+1) * 512 * 1024
		case 2:
			c.CapacityBytes = int64(registerBits(raw, 75, 48)+1) * 512 * 1024
		}
	}
	return c
}

// tranSpeedMbps decodes TRAN_SPEED: a rate unit (bits 2:0) times a
// multiplier (bits 6:3); 0 when reserved.
func tranSpeedMbps(v uint64) float64 {
	units := []float64{0.1, 1, 10, 100}
	mult := []float64{0, 1.0, 1.2, 1.3, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 7.0, 8.0}
	u := v & 7
	if u >= uint64(len(units)) {
		return 0
	}
	r := units[u] * mult[(v>>3)&15]
	return float64(int64(r*10+0.5)) / 10
}

// BusMode is the transfer mode an SD card or eMMC was set up in, from the
// kernel's "mmcN: new ... card at address ..." line.
type BusMode struct {
	// Host is the controller's name in the line, e.g. "mmc0".
	Host string `json:"host"`
	// Mode is "HS400ES", "HS400", "HS200", "SDR104", "SDR50", "DDR50",
	// "SDR25", "SDR12", "DDR52", "HS" (high speed) or "DS" (default
	// speed, the legacy 25 MHz / 26 MHz mode).
	Mode string `json:"mode"`
	// MaxMBs is the mode's bus limit in MB/s (e.g. 104 for SDR104).
	MaxMBs float64 `json:"max_mb_s"`
	// Line is the kernel log line the mode comes from.
	Line string `json:"line"`
}

var newCardRE = lazyre.Regexp(`\b(mmc[0-9]+): new (.*?)(SD|SDHC|SDXC|SDUC|MMC|SDIO|SD-combo) card (on SPI|at address)`)

// busModeLimit is the bus limit in MB/s of a mode; 0 when unknown.
func busModeLimit(mode string) float64 {
	switch mode {
	case "HS400ES", "HS400":
		return 400
	case "HS200":
		return 200
	case "DDR52", "SDR104":
		return 104
	case "SDR50", "DDR50":
		return 50
	case "SDR25", "HS":
		return 25
	case "SDR12", "DS":
		return 12.5
	}
	return 0
}

// ParseBusModes returns the last bus mode the kernel log reports for each
// MMC host (keyed by host, e.g. "mmc0"); the log is dmesg's text output.
func ParseBusModes(log string) map[string]BusMode {
	out := map[string]BusMode{}
	for line := range strings.SplitSeq(log, "\n") {
		m := newCardRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		desc := m[2]
		mode := "DS"
		switch {
		case strings.Contains(desc, "HS400 Enhanced strobe"):
			mode = "HS400ES"
		case strings.Contains(desc, "HS400"):
			mode = "HS400"
		case strings.Contains(desc, "HS200"):
			mode = "HS200"
		case strings.Contains(desc, "ultra high speed"):
			mode = "SDR12"
			for _, name := range []string{"SDR104", "SDR50", "DDR50", "SDR25", "SDR12"} {
				if strings.Contains(desc, name) {
					mode = name
					break
				}
			}
		case strings.Contains(desc, "high speed DDR"):
			mode = "DDR52"
		case strings.Contains(desc, "high speed"):
			mode = "HS"
		}
		text := strings.TrimSpace(line)
		if i := strings.Index(text, m[1]+": new"); i > 0 {
			text = text[i:]
		}
		out[m[1]] = BusMode{Host: m[1], Mode: mode, MaxMBs: busModeLimit(mode), Line: text}
	}
	return out
}
