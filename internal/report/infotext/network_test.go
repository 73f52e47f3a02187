package infotext

import (
	"strings"
	"testing"
)

func TestRenderNetwork(t *testing.T) {
	pc := hwSectionsText(t, "n100-minipc", renderNetwork)
	hwWantLines(t, pc,
		"Network\n",
		"enp1s0           ether      r8169      PCIe     00:e0:4c:xx:xx:xx  up           1000  1500  1/1\n",
		"enp2s0           ether      igc        PCIe     a8:a1:59:xx:xx:xx  down            -  1500  4/4\n",
		"enx00e04c680001  ether      r8152      USB 480",
		"wg0              wireguard  (virtual)  -",
		"warning: enx00e04c680001: 1000 Mbit/s network link on a 480 Mbit/s USB connection",
	)
	pi := hwSectionsText(t, "rpi5", renderNetwork)
	hwWantLines(t, pi,
		"eth0       ether   macb       platform  2c:cf:67:xx:xx:xx  up        1000 full  1500  1/1",
		"wlan0      wlan    brcmfmac   SDIO",
		"docker0    bridge  (virtual)",
	)
	if strings.Contains(pi, " lo ") || strings.Contains(pi, "01:02:03") {
		t.Errorf("loopback or unredacted MAC in:\n%s", pi)
	}
}
