package infotext

import "testing"

func TestRenderBuses(t *testing.T) {
	text := hwSectionsText(t, "rock5b-armbian", renderBuses)
	hwWantLines(t, text,
		"Buses\n",
		"PCIe ASPM policy: powersave",
		"0000:01:00.0  144d:a808  Samsung   NVMe controller  nvme      5.0 GT/s x1  8.0 GT/s x4  downgraded",
		"0004:41:00.0  10ec:8125  Realtek   Ethernet         r8169     5.0 GT/s x1  5.0 GT/s x1  ok\n",
		"                                    controller\n",
		"usb1        1:1      1d6b:0002   480 Mbit/s  2.00  EHCI Host Controller (1 port)      hub",
		"      3-1.2   3:4      046d:c52b    12 Mbit/s  2.00  Logitech USB Receiver              usbhid\n",
		"    4-1       4:2      174c:55aa  5000 Mbit/s  3.00  ASMedia ASM1153E                   uas",
		"warning: 0000:01:00.0 (NVMe controller): PCIe link downgraded: 5.0 GT/s x1 of 8.0 GT/s x4",
	)
	pi := hwSectionsText(t, "rpi5", renderBuses)
	hwWantLines(t, pi, "limited by\n", "xHCI Host Controller (2 ports)")
}
