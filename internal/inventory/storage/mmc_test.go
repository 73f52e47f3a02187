package storage

import (
	"fmt"
	"math/big"
	"testing"
)

// ssrWith builds an SD status register as the kernel prints it, setting
// fields [hi:lo] of the 512-bit register.
func ssrWith(fields map[[2]int]uint64) string {
	v := new(big.Int)
	for pos, val := range fields {
		v.Or(v, new(big.Int).Lsh(new(big.Int).SetUint64(val), uint(pos[1])))
	}
	return fmt.Sprintf("%0128x", v)
}

func intString(p *int) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

func TestDecodeSSR(t *testing.T) {
	const (
		speedClass = 447
		uhs        = 399
		video      = 391
		app        = 339
	)
	field := func(hi int) [2]int {
		switch hi {
		case speedClass:
			return [2]int{447, 440}
		case uhs:
			return [2]int{399, 396}
		case video:
			return [2]int{391, 384}
		}
		return [2]int{339, 336}
	}
	cases := []struct {
		name    string
		fields  map[[2]int]uint64
		want    string // speed/uhs/video/app
		ratings string
	}{
		{"A2 V30 U3 C10", map[[2]int]uint64{{511, 510}: 2, field(speedClass): 4, field(uhs): 3, field(video): 30, field(app): 2}, "10/3/30/2", "Class 10, U3, V30, A2"},
		{"A1 U1 C10", map[[2]int]uint64{field(speedClass): 4, field(uhs): 1, field(app): 1}, "10/1/0/1", "Class 10, U1, A1"},
		{"class 4 only", map[[2]int]uint64{field(speedClass): 2}, "4/0/0/0", "Class 4"},
		{"reserved values", map[[2]int]uint64{field(speedClass): 9, field(uhs): 2, field(video): 7, field(app): 5}, "null/null/null/null", ""},
	}
	for _, c := range cases {
		s := DecodeSSR(ssrWith(c.fields))
		if s == nil {
			t.Errorf("%s: nil", c.name)
			continue
		}
		got := intString(s.SpeedClass) + "/" + intString(s.UHSSpeedGrade) + "/" + intString(s.VideoSpeedClass) + "/" + intString(s.AppPerfClass)
		if got != c.want || s.Ratings() != c.ratings {
			t.Errorf("%s: %s %q, want %s %q", c.name, got, s.Ratings(), c.want, c.ratings)
		}
	}
	for _, bad := range []string{"", "00", ssrWith(nil), "zz" + ssrWith(map[[2]int]uint64{{511, 510}: 2})[2:]} {
		if s := DecodeSSR(bad); s != nil {
			t.Errorf("DecodeSSR(%q) = %+v, want nil", bad, s)
		}
	}
}

func TestManufacturerAndOEM(t *testing.T) {
	cases := []struct{ typ, id, want string }{
		{"SD", "0x000003", "SanDisk"},
		{"SD", "0x00001b", "Samsung"},
		{"SD", "0x000027", "Phison"},
		{"SD", "0x0000ad", ""},
		{"MMC", "0x000015", "Samsung"},
		{"MMC", "0x000045", "SanDisk"},
		{"MMC", "0x000003", ""},
		{"SDIO", "0x000003", ""},
		{"SD", "junk", ""},
	}
	for _, c := range cases {
		if got := ManufacturerName(c.typ, c.id); got != c.want {
			t.Errorf("ManufacturerName(%s, %s) = %q, want %q", c.typ, c.id, got, c.want)
		}
	}
	oem := map[string]string{"0x5344": "SD", "0x534d": "SM", "0x0100": "", "junk": "", "0x2900": ""}
	for in, want := range oem {
		if got := oemText(in); got != want {
			t.Errorf("oemText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEMMCHealthText(t *testing.T) {
	life := map[uint64]string{0: "", 1: "0-10%", 5: "40-50%", 10: "90-100%", 11: "exceeded", 12: ""}
	for v, want := range life {
		if got := lifeTimeText(v); got != want {
			t.Errorf("lifeTimeText(%d) = %q, want %q", v, got, want)
		}
	}
	eol := map[uint64]string{0: "", 1: "normal", 2: "warning", 3: "urgent", 4: ""}
	for v, want := range eol {
		if got := preEOLText(v); got != want {
			t.Errorf("preEOLText(%d) = %q, want %q", v, got, want)
		}
	}
}

func TestSDCapacityClass(t *testing.T) {
	gib := func(n int64) *int64 { v := n << 30; return &v }
	cases := []struct {
		csd  string
		size *int64
		want string
	}{
		{"400e0032db790001dbd37f800a404000", gib(59), "SDXC"},
		{"400e00325b590000edc87f800a404000", gib(29), "SDHC"},
		{"400e0032", nil, ""},
		{"002600325f5a83c4", gib(1), "SDSC"},
		{"800e0032", gib(4096), "SDUC"},
		{"", gib(1), ""},
		{"z", gib(1), ""},
	}
	for _, c := range cases {
		if got := sdCapacityClass(c.csd, c.size); got != c.want {
			t.Errorf("sdCapacityClass(%q) = %q, want %q", c.csd, got, c.want)
		}
	}
}

func FuzzDecodeSSR(f *testing.F) {
	f.Add(ssrWith(map[[2]int]uint64{{447, 440}: 4, {339, 336}: 2}))
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		st := DecodeSSR(s)
		if st == nil {
			return
		}
		if st.AppPerfClass != nil && (*st.AppPerfClass < 0 || *st.AppPerfClass > 2) {
			t.Errorf("app class %d", *st.AppPerfClass)
		}
		_ = st.Ratings()
	})
}

func TestEMMCVersionAndBusModeLimit(t *testing.T) {
	for _, c := range []struct {
		rev  uint64
		want string
	}{{0, "4.0"}, {3, "4.3"}, {4, ""}, {5, "4.41"}, {6, "4.5/4.51"}, {7, "5.0/5.01"}, {8, "5.1"}, {9, ""}} {
		if got := emmcVersion(c.rev); got != c.want {
			t.Errorf("emmcVersion(%d) = %q, want %q", c.rev, got, c.want)
		}
	}
	for _, c := range []struct {
		mode string
		want float64
	}{
		{"HS400ES", 400}, {"HS400", 400}, {"HS200", 200}, {"DDR52", 104}, {"SDR104", 104}, {"SDR50", 50},
		{"DDR50", 50}, {"SDR25", 25}, {"SDR12", 12.5}, {"HS", 25}, {"DS", 12.5}, {"HS800", 0},
	} {
		if got := busModeLimit(c.mode); got != c.want {
			t.Errorf("busModeLimit(%q) = %v, want %v", c.mode, got, c.want)
		}
	}
	for _, c := range []struct {
		id       uint64
		sd, emmc string
	}{{0x41, "Kingston", ""}, {0x9f, "Kingston", ""}, {0x13, "", "Micron"}, {0xfe, "", "Micron"}, {0x70, "", "Kingston"}, {0x00, "", ""}} {
		if got := sdManufacturer(c.id); got != c.sd {
			t.Errorf("sdManufacturer(%#x) = %q, want %q", c.id, got, c.sd)
		}
		if got := emmcManufacturer(c.id); got != c.emmc {
			t.Errorf("emmcManufacturer(%#x) = %q, want %q", c.id, got, c.emmc)
		}
	}
}
