"""Boards whose trees the bus, network and storage tests read: an Intel N100 mini PC and a
ROCK 5B on Armbian's 6.1 vendor kernel; and a cloud-style KVM virtual machine."""
from common import *
import cpuinfo

GOVS = "conservative ondemand userspace powersave performance schedutil"


# ---------------------------------------------------------------- Intel N100 mini PC (network and buses)

def n100_minipc(base):
    """An Alder Lake-N mini PC (N100, Ubuntu 24.04 kernel 6.8): an RTL8111 and an I226-V on their own
    root ports (the I226-V without a cable), an RTL8153 USB adapter on a USB 2.0 port and a WireGuard
    tunnel. Only the PCI, USB and network trees; no CPU, memory or OS files."""
    r = Root(base)
    kernel = "Linux 6.8.0-45-generic xhci-hcd"
    pci = "/sys/devices/pci0000:00"
    pci_dev(r, pci + "/0000:00:02.0", "0000:00:02.0", "0x8086", "0x46d0", "0x030000", driver="i915")
    xhci = pci + "/0000:00:14.0"
    pci_dev(r, xhci, "0000:00:14.0", "0x8086", "0x54ed", "0x0c0330", driver="xhci_hcd")
    usb_root_hub(r, xhci, 1, 480, "2.00", 10, "0000:00:14.0", kernel)
    usb_root_hub(r, xhci, 2, 10000, "3.10", 4, "0000:00:14.0", kernel)
    # A USB 3 Gigabit adapter plugged into a USB 2.0 port: the link is faster than its connection.
    nic_usb = xhci + "/usb1/1-4"
    usb_dev(r, nic_usb, "1-4", {"speed": 480, "idVendor": "0bda", "idProduct": "8153", "version": " 2.10",
                                "bDeviceClass": "00", "busnum": 1, "devnum": 3, "manufacturer": "Realtek",
                                "product": "USB 10/100/1000 LAN", "serial": "000001", "maxchild": 0})
    usb_iface(r, nic_usb + "/1-4:1.0", "1-4:1.0", "ff", "ff", "00", "r8152")
    rp0 = pci + "/0000:00:1c.0"
    pci_dev(r, rp0, "0000:00:1c.0", "0x8086", "0x54b8", "0x060400", driver="pcieport",
            cur_speed="2.5 GT/s PCIe", cur_width=1, max_speed="8.0 GT/s PCIe", max_width=1)
    pci_dev(r, rp0 + "/0000:01:00.0", "0000:01:00.0", "0x10ec", "0x8168", "0x020000", driver="r8169",
            cur_speed="2.5 GT/s PCIe", cur_width=1, max_speed="2.5 GT/s PCIe", max_width=1, aspm=(0, 0))
    rp1 = pci + "/0000:00:1c.1"
    pci_dev(r, rp1, "0000:00:1c.1", "0x8086", "0x54b9", "0x060400", driver="pcieport",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="8.0 GT/s PCIe", max_width=1)
    pci_dev(r, rp1 + "/0000:02:00.0", "0000:02:00.0", "0x8086", "0x15f3", "0x020000", driver="igc",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="5.0 GT/s PCIe", max_width=1)

    netdev(r, rp0 + "/0000:01:00.0", "enp1s0", "00:e0:4c:01:02:03", speed=1000, duplex="full", driver="r8169",
           driver_bus="pci", ifindex=2)
    netdev(r, rp1 + "/0000:02:00.0", "enp2s0", "a8:a1:59:01:02:05", duplex="unknown", operstate="down",
           carrier=None, driver="igc", driver_bus="pci", ifindex=3, queues=(4, 4))
    # Named after its MAC address by udev (enx + the address).
    netdev(r, nic_usb + "/1-4:1.0", "enx00e04c680001", "00:e0:4c:68:00:01", speed=1000, duplex="full",
           driver="r8152", driver_bus="usb", ifindex=4)
    # WireGuard: no hardware address, no queues, type ARPHRD_NONE.
    netdev(r, None, "wg0", "", operstate="unknown", carrier=1, mtu=1420, ifindex=5, typ=65534, queues=(0, 0),
           devtype="wireguard")
    loopback(r)
    return r


# ---------------------------------------------------------------- ROCK 5B on Armbian's 6.1 vendor kernel

def rock5b_armbian(base):
    """The RK3588 of rock5b again, on Armbian's rockchip-rk3588 6.1 kernel, with other disks attached:
    the SD card is mmc0 (mmcblk0) and the eMMC mmc1, the PCIe controllers are named after their DBI
    addresses (a40000000.pcie, a41000000.pcie), the RTL8125 is driven by r8169. The NVMe trained at
    5 GT/s x1 although it and its port do 8 GT/s x4; a SATA SSD on a UAS bridge, a USB stick on the
    EHCI port, a hub with a receiver and a serial adapter, the SPI NOR, a dm-crypt volume on the NVMe."""
    r = Root(base)
    a55 = cpuinfo.arm_core("Cortex-A55", "r2p0", cpuinfo.HWCAPS_ARMV82, "48.00")
    a76 = cpuinfo.arm_core("Cortex-A76", "r4p0", cpuinfo.HWCAPS_ARMV82, "48.00")
    r.wraw("/proc/cpuinfo", cpuinfo.arm64([a55] * 4 + [a76] * 4))
    devicetree(r, "Radxa ROCK 5B", ["radxa,rock-5b", "rockchip,rk3588"])
    kernel = "6.1.43-rockchip-rk3588"
    plat = "/sys/devices/platform"

    sd = {"type": "SD", "name": "SN64G", "manfid": "0x000003", "oemid": "0x5344", "date": "03/2022",
          "hwrev": "0x8", "fwrev": "0x0", "serial": "0x9a8b7c6d", "cid": "035344534e363447809a8b7c6d0163b9",
          "csd": "400e0032db790001dbd37f800a404000", "scr": "0245848700000000", "ocr": "0x00300000",
          "dsr": "0x404", "preferred_erase_size": 4194304, "erase_size": 512, "_discard": 2147483648,
          "ssr": "8000000000000000040090020000301e000000000002000000000000000000000000000000000000"
                 "000000000000000000000000000000000000000000000000"}
    mmc_card(r, plat + "/fe2c0000.mmc", "mmc0", "aaaa", fixup_card(sd), "mmcblk0", 124735488,
             [("mmcblk0p1", 8192, 1048576), ("mmcblk0p2", 1056768, 123678720)], dev=(179, 0))
    r.w(plat + "/fe2c0000.mmc/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0/queue/discard_max_bytes", 2147483648)
    emmc = {"type": "MMC", "name": "BJTD4R", "manfid": "0x000015", "oemid": "0x0100", "date": "07/2024",
            "hwrev": "0x0", "fwrev": "0x0300000000000000", "rev": "0x8", "prv": "0x3", "serial": "0x5f2e1a0b",
            "cid": "150100424a54443452005f2e1a0b7a00", "csd": "d02701320f5903fff6dbffef8e40400d",
            "life_time": "0x01 0x02", "pre_eol_info": "0x01", "enhanced_rpmb_supported": 0,
            "preferred_erase_size": 524288, "erase_size": 524288, "ocr": "0x00200000"}
    cdir = mmc_card(r, plat + "/fe2e0000.mmc", "mmc1", "0001", emmc, "mmcblk1", 244277248,
                    [("mmcblk1p1", 32768, 244244447)], dev=(179, 32))
    r.w(cdir + "/block/mmcblk1/queue/discard_max_bytes", 536870912)
    for j, bp in enumerate(("mmcblk1boot0", "mmcblk1boot1")):
        bd = cdir + "/block/mmcblk1/" + bp
        block_common(r, bd, 8192, ro=1)
        r.w(bd + "/dev", "179:%d" % (64 + 32 * j))
        r.w(bd + "/force_ro", 1)
        r.link(bd + "/device", cdir)
        r.link("/sys/block/" + bp, bd)
        r.link("/sys/class/block/" + bp, bd)

    # 16 MiB SPI NOR holding the boot loader.
    mtd = plat + "/fe2b0000.spi/spi_master/spi4/spi4.0/mtd/mtd0"
    for k, v in {"name": "loader", "type": "nor", "size": 16777216, "erasesize": 4096}.items():
        r.w(mtd + "/" + k, v)
    block_disk(r, "mtdblock0", mtd + "/mtdblock0", 32768, device_link=mtd, dev=(31, 0), rotational=1,
               scheduler="none")

    rc = plat + "/a40000000.pcie/pci0000:00/0000:00:00.0"
    pci_dev(r, rc, "0000:00:00.0", "0x1d87", "0x3588", "0x060400", driver="pcieport",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="8.0 GT/s PCIe", max_width=4)
    ssd = rc + "/0000:01:00.0"
    pci_dev(r, ssd, "0000:01:00.0", "0x144d", "0xa808", "0x010802", driver="nvme",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="8.0 GT/s PCIe", max_width=4,
            subsys=("0x144d", "0xa801"), aspm=(0, 0))
    nvme(r, ssd, "Samsung SSD 970 EVO Plus 500GB", "S4EVNX0R000FIXC", "2B2QEXM7", 976773168,
         [("nvme0n1p1", 2048, 409600000), ("nvme0n1p2", 409602048, 567169024)])
    rc2 = plat + "/a41000000.pcie/pci0004:40/0004:40:00.0"
    pci_dev(r, rc2, "0004:40:00.0", "0x1d87", "0x3588", "0x060400", driver="pcieport",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="5.0 GT/s PCIe", max_width=1)
    nic = rc2 + "/0004:41:00.0"
    pci_dev(r, nic, "0004:41:00.0", "0x10ec", "0x8125", "0x020000", driver="r8169",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="5.0 GT/s PCIe", max_width=1,
            subsys=("0x10ec", "0x0123"), revision="0x05", aspm=(0, 1))
    netdev(r, nic, "enP4p65s0", "00:e0:4c:01:02:03", speed=2500, duplex="full", driver="r8169",
           driver_bus="pci", ifindex=2)
    loopback(r)

    # USB 2.0 EHCI port: a USB stick through usb-storage.
    ehci = plat + "/fc800000.usb"
    usb_root_hub(r, ehci, 1, 480, "2.00", 1, "fc800000.usb", "Linux %s ehci_hcd" % kernel, "EHCI Host Controller")
    stick = ehci + "/usb1/1-1"
    usb_dev(r, stick, "1-1", {"speed": 480, "idVendor": "0781", "idProduct": "5567", "version": " 2.00",
                              "bDeviceClass": "00", "busnum": 1, "devnum": 2, "manufacturer": "SanDisk",
                              "product": "Cruzer Blade", "serial": "4C530001230518117315", "maxchild": 0})
    usb_iface(r, stick + "/1-1:1.0", "1-1:1.0", "08", "06", "50", "usb-storage")
    scsi_disk(r, stick + "/1-1:1.0/host1/target1:0:0/1:0:0:0", "1:0:0:0", "SanDisk", "Cruzer Blade", "1.00",
              "sdb", 30031872, [("sdb1", 32, 30031840)], rotational=1, removable=1)
    # USB 3 OTG port (DWC3): a hub with a keyboard receiver and a serial adapter on its USB 2.0 side,
    # a SATA SSD behind an ASM1153E bridge through UAS on the SuperSpeed side.
    xhci = plat + "/fc000000.usb/xhci-hcd.0.auto"
    usb_root_hub(r, xhci, 3, 480, "2.00", 1, "xhci-hcd.0.auto", "Linux %s xhci-hcd" % kernel)
    usb_root_hub(r, xhci, 4, 5000, "3.00", 1, "xhci-hcd.0.auto", "Linux %s xhci-hcd" % kernel)
    hub = xhci + "/usb3/3-1"
    usb_dev(r, hub, "3-1", {"speed": 480, "idVendor": "05e3", "idProduct": "0610", "version": " 2.10",
                            "bDeviceClass": "09", "busnum": 3, "devnum": 2, "manufacturer": "GenesysLogic",
                            "product": "USB2.1 Hub", "maxchild": 4})
    usb_iface(r, hub + "/3-1:1.0", "3-1:1.0", "09", "00", "00", "hub")
    recv = hub + "/3-1.2"
    usb_dev(r, recv, "3-1.2", {"speed": 12, "idVendor": "046d", "idProduct": "c52b", "version": " 2.00",
                               "bDeviceClass": "00", "busnum": 3, "devnum": 4, "manufacturer": "Logitech",
                               "product": "USB Receiver", "maxchild": 0})
    for i in range(3):
        usb_iface(r, recv + "/3-1.2:1.%d" % i, "3-1.2:1.%d" % i, "03", "01" if i < 2 else "00",
                  "01" if i == 0 else "02" if i == 1 else "00", "usbhid", number=i)
    ftdi = hub + "/3-1.10"
    usb_dev(r, ftdi, "3-1.10", {"speed": 12, "idVendor": "0403", "idProduct": "6001", "version": " 2.00",
                                "bDeviceClass": "00", "busnum": 3, "devnum": 5, "manufacturer": "FTDI",
                                "product": "FT232R USB UART", "serial": "A50285BI", "maxchild": 0})
    usb_iface(r, ftdi + "/3-1.10:1.0", "3-1.10:1.0", "ff", "ff", "ff", "ftdi_sio")
    bridge = xhci + "/usb4/4-1"
    usb_dev(r, bridge, "4-1", {"speed": 5000, "idVendor": "174c", "idProduct": "55aa", "version": " 3.00",
                               "bDeviceClass": "00", "busnum": 4, "devnum": 2, "manufacturer": "ASMedia",
                               "product": "ASM1153E", "serial": "123456789012", "maxchild": 0})
    usb_iface(r, bridge + "/4-1:1.0", "4-1:1.0", "08", "06", "62", "uas")
    scsi_disk(r, bridge + "/4-1:1.0/host0/target0:0:0/0:0:0:0", "0:0:0:0", "Samsung", "SSD 870 EVO 500G", "SVT0",
              "sda", 976773168, [("sda1", 2048, 976771087)])
    r.w(bridge + "/4-1:1.0/host0/target0:0:0/0:0:0:0/block/sda/queue/discard_max_bytes", 4294966784)

    # Virtual block devices: the dm-crypt volume on nvme0n1p2 (listed), unused loop and nbd devices
    # and zram (not listed).
    dm = "/sys/devices/virtual/block/dm-0"
    block_common(r, dm, 567136256, scheduler="none")
    r.w(dm + "/dev", "253:0")
    r.w(dm + "/dm/name", "cryptdata")
    r.w(dm + "/dm/uuid", "CRYPT-LUKS2-0123-cryptdata")
    r.w(dm + "/dm/suspended", 0)
    r.link(dm + "/slaves/nvme0n1p2", ssd + "/nvme/nvme0/nvme0n1/nvme0n1p2")
    for name, size, dev in (("loop0", 0, "7:0"), ("loop1", 131072, "7:1"), ("nbd0", 0, "43:0")):
        d = "/sys/devices/virtual/block/" + name
        block_common(r, d, size, scheduler="none")
        r.w(d + "/dev", dev)
        r.link("/sys/block/" + name, d)
        r.link("/sys/class/block/" + name, d)
    r.link("/sys/block/dm-0", dm)
    r.link("/sys/class/block/dm-0", dm)
    zram(r, 0, 8321499136, "lzo lzo-rle lz4 lz4hc 842 [zstd]")

    mem = meminfo(16125184, 14812220, 15210344, 40112, 520300, 8126460, 8126460, cma_total=131072,
                  cma_free=126976, shmem=8192)
    os_files(r,
             os_release='PRETTY_NAME="Armbian 23.8.1 bookworm"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\n'
                        'VERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n'
                        'HOME_URL="https://www.armbian.com"\nSUPPORT_URL="https://forum.armbian.com"\n'
                        'BUG_REPORT_URL="https://www.armbian.com/bugs"\nARMBIAN_PRETTY_NAME="Armbian 23.8.1 bookworm"',
             osrelease=kernel, kversion="#3 SMP Tue Aug 29 12:30:25 UTC 2023",
             proc_version="Linux version %s (build@armbian) (aarch64-linux-gnu-gcc (Ubuntu 11.4.0-1ubuntu1~22.04) "
                          "11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #3 SMP Tue Aug 29 12:30:25 UTC 2023" % kernel,
             uname_m="aarch64", hostname="rock-5b", debian_version="12.1",
             extra_etc={"/etc/armbian-release": armbian_release("rock-5b", "Rock 5B", "rockchip-rk3588", "23.8.1",
                                                               "rockchip-rk3588", "legacy")},
             ldd=ldd_out("ldd (Debian GLIBC 2.36-9+deb12u1) 2.36", "2022"), dpkg_arch="arm64",
             swaps=swaps_new([("/dev/zram0", "partition", 8126460, 0, 5)]), meminfo_text=mem,
             loadavg="0.41 0.38 0.30 1/301 4112")
    # The mount table of the storage tests: a mount point with a space, btrfs on the dm-crypt volume.
    r.w("/proc/self/mountinfo", MOUNTINFO_ROCK5B_ARMBIAN)
    userland(r, ELF_ARM64, merged_usr=True)
    return r


MOUNTINFO_ROCK5B_ARMBIAN = (
    "22 1 179:2 / / rw,noatime shared:1 - ext4 /dev/mmcblk0p2 rw,commit=600,errors=remount-ro\n"
    "23 22 0:5 / /dev rw,nosuid,relatime shared:2 - devtmpfs udev rw,size=7963512k,nr_inodes=1990878,mode=755\n"
    "24 22 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw\n"
    "25 22 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
    "30 22 179:1 / /boot/firmware rw,relatime shared:17 - vfat /dev/mmcblk0p1 rw,fmask=0022,dmask=0022,"
    "codepage=437,iocharset=ascii,shortname=mixed,errors=remount-ro\n"
    "31 22 259:1 / /mnt/nvme rw,relatime shared:18 - ext4 /dev/nvme0n1p1 rw\n"
    "32 22 8:1 / /mnt/usb\\040ssd rw,relatime shared:19 - ext4 /dev/sda1 rw\n"
    "33 22 0:35 /@data /srv rw,relatime shared:20 - btrfs /dev/mapper/cryptdata rw,ssd,space_cache=v2,"
    "subvolid=256,subvol=/@data\n"
    "34 22 0:36 / /tmp rw,nosuid,nodev shared:21 - tmpfs tmpfs rw,size=8g\n")


# ---------------------------------------------------------------- KVM guest (cloud-style virtual machine)

# The flags a Linux 6.1 guest prints for QEMU's EPYC-Milan CPU model under KVM: `hypervisor` set,
# no `svm` (nested virtualisation off), no frequency or power-management features.
VM_FLAGS = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 "
            "syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm rep_good nopl cpuid extd_apicid tsc_known_freq pni "
            "pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx f16c "
            "rdrand hypervisor lahf_lm cmp_legacy cr8_legacy abm sse4a misalignsse 3dnowprefetch osvw topoext "
            "perfctr_core invpcid_single ssbd ibrs ibpb stibp vmmcall fsgsbase tsc_adjust bmi1 avx2 smep bmi2 "
            "erms invpcid rdseed adx smap clflushopt clwb sha_ni xsaveopt xsavec xgetbv1 xsaves clzero "
            "xsaveerptr wbnoinvd arat umip pku ospke rdpid fsrm arch_capabilities")
VM_BUGS = "sysret_ss_attrs null_seg spectre_v1 spectre_v2 spec_store_bypass srso"

# SMBIOS as QEMU 7.2 (Debian 12) fills it for a q35 machine booted by SeaBIOS: type 0, 1 and 3 only
# (QEMU builds no type-2 baseboard table unless told to, so there are no board_* files); empty
# strings for what QEMU leaves unset.
VM_DMI = {
    "bios_vendor": "SeaBIOS", "bios_version": "1.16.2-debian-1.16.2-1", "bios_date": "04/01/2014",
    "bios_release": "0.0", "sys_vendor": "QEMU", "product_name": "Standard PC (Q35 + ICH9, 2009)",
    "product_version": "pc-q35-7.2", "product_serial": "", "product_sku": "", "product_family": "",
    "product_uuid": "0c1d2e3f-4a5b-4c6d-8e7f-00000000f1c6", "chassis_vendor": "QEMU", "chassis_type": 1,
    "chassis_version": "pc-q35-7.2", "chassis_serial": "", "chassis_asset_tag": "",
    "modalias": "dmi:bvnSeaBIOS:bvr1.16.2-debian-1.16.2-1:bd04/01/2014:br0.0:svnQEMU:"
                "pnStandardPC(Q35+ICH9,2009):pvrpc-q35-7.2:cvnQEMU:ct1:cvrpc-q35-7.2:sku:",
}


def vm_cpuinfo(ncpu):
    out = []
    for c in range(ncpu):
        out.append(
            "processor\t: %d\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\n"
            "model name\t: AMD EPYC-Milan Processor\nstepping\t: 1\nmicrocode\t: 0x1000065\n"
            "cpu MHz\t\t: 2445.406\ncache size\t: 512 KB\nphysical id\t: 0\nsiblings\t: %d\ncore id\t\t: %d\n"
            "cpu cores\t: %d\napicid\t\t: %d\ninitial apicid\t: %d\nfpu\t\t: yes\nfpu_exception\t: yes\n"
            "cpuid level\t: 13\nwp\t\t: yes\nflags\t\t: %s\nbugs\t\t: %s\nbogomips\t: 4890.81\n"
            "TLB size\t: 1024 4K pages\nclflush size\t: 64\ncache_alignment\t: 64\n"
            "address sizes\t: 40 bits physical, 48 bits virtual\npower management:\n\n"
            % (c, ncpu, c, ncpu, c, c, VM_FLAGS, VM_BUGS))
    return "".join(out)


def vm_proc_stat(ncpu):
    """/proc/stat of a guest whose host is busy: the 8th column (steal) is non-zero on every cpu line."""
    per = [(181234 + 977 * c, 412 + c, 60210 + 311 * c, 4012345 - 1234 * c, 8123 + 17 * c, 0, 3012 + 29 * c,
            24567 + 1301 * c, 0, 0) for c in range(ncpu)]
    total = [sum(col) for col in zip(*per)]
    lines = ["cpu  " + " ".join(str(v) for v in total)]
    lines += ["cpu%d %s" % (c, " ".join(str(v) for v in row)) for c, row in enumerate(per)]
    lines += ["intr 91234567 0 9 0 0 0 0 0 0 0 0 0 0 144 0 0 0", "ctxt 203456789", "btime 1718000000",
              "processes 123456", "procs_running 1", "procs_blocked 0", "softirq 45678901 0 12345678 2 3456789 "
              "1234567 0 23456 12345678 0 4567890"]
    return "\n".join(lines)


def virtio_pci(r, pcidir, bdf, pci_device, cls, index, virtio_id, driver=None):
    """A modern virtio PCI function (vendor 1af4) and the virtioN device under it; returns virtioN's path.
    virtio_id is the virtio device type (1 network, 2 block); driver, when given, binds virtioN
    (virtio_net binds through netdev)."""
    pci_dev(r, pcidir, bdf, "0x1af4", pci_device, cls, driver="virtio-pci", subsys=("0x1af4", "0x1100"),
            revision="0x01")
    vdev = pcidir + "/virtio%d" % index
    r.w(vdev + "/device", "0x%04x" % virtio_id)
    r.w(vdev + "/vendor", "0x1af4")
    if driver:
        r.link(vdev + "/driver", "/sys/bus/virtio/drivers/" + driver)
        r.mkdir("/sys/bus/virtio/drivers/" + driver)
    r.link(vdev + "/subsystem", "/sys/bus/virtio")
    r.link("/sys/bus/virtio/devices/virtio%d" % index, vdev)
    return vdev


def cloud_vm_kvm(base):
    """A 2-vCPU KVM guest like a cloud VM: QEMU q35 machine, EPYC-Milan CPU model, virtio-blk disk and
    virtio-net NIC behind PCIe root ports, Debian 12 with the cloud kernel. No cpufreq, no thermal zones,
    no hwmon, no /sys/hypervisor (only Xen fills it)."""
    r = Root(base)
    ncpu = 2
    r.w("/proc/cpuinfo", vm_cpuinfo(ncpu).rstrip("\n") + "\n")
    r.w("/proc/stat", vm_proc_stat(ncpu))
    cpus = list(range(ncpu))
    topo = {}
    caches = {}
    for c in cpus:
        t = arm_topology(c, c, 0, [c], cpus, cluster_id=c, cluster_cpus=[c], n=ncpu)
        t["die_id"] = 0
        t["die_cpus_list"] = cpulist(cpus)
        t["die_cpus"] = cpumask(cpus, ncpu)
        topo[c] = t
        caches[c] = [dict(level=1, type="Data", size="32K", ways_of_associativity=8, coherency_line_size=64,
                          number_of_sets=64, physical_line_partition=1, id=c, shared=[c]),
                     dict(level=1, type="Instruction", size="32K", ways_of_associativity=8, coherency_line_size=64,
                          number_of_sets=64, physical_line_partition=1, id=c, shared=[c]),
                     dict(level=2, type="Unified", size="512K", ways_of_associativity=8, coherency_line_size=64,
                          number_of_sets=1024, physical_line_partition=1, id=c, shared=[c]),
                     dict(level=3, type="Unified", size="32768K", ways_of_associativity=16, coherency_line_size=64,
                          number_of_sets=32768, physical_line_partition=1, id=0, shared=cpus)]
    cpu_tree(r, cpus, [], kernel_max=8191, cpu0_online=False, topology=topo, caches=caches)
    node = "/sys/devices/system/node"
    r.w(node + "/online", "0")
    r.w(node + "/possible", "0")
    r.w(node + "/node0/cpulist", cpulist(cpus))
    dmi = "/sys/devices/virtual/dmi/id"
    for k, v in VM_DMI.items():
        r.w(dmi + "/" + k, v)
    r.link("/sys/class/dmi/id", dmi)

    # q35: the host bridge, virtio devices each behind a pcie-root-port (1b36:000c).
    pci = "/sys/devices/pci0000:00"
    pci_dev(r, pci + "/0000:00:00.0", "0000:00:00.0", "0x8086", "0x29c0", "0x060000",
            subsys=("0x1af4", "0x1100"))
    for fn in (0, 3):
        rp = pci + "/0000:00:02.%d" % fn
        pci_dev(r, rp, "0000:00:02.%d" % fn, "0x1b36", "0x000c", "0x060400", driver="pcieport",
                subsys=("0x1b36", "0x0000"))
    vnet = virtio_pci(r, pci + "/0000:00:02.0/0000:01:00.0", "0000:01:00.0", "0x1041", "0x020000", 0, 1)
    netdev(r, vnet, "enp1s0", "52:54:00:01:02:03", speed=-1, duplex="unknown", driver="virtio_net",
           driver_bus="virtio", ifindex=2)
    vblk = virtio_pci(r, pci + "/0000:00:02.3/0000:04:00.0", "0000:04:00.0", "0x1042", "0x010000", 3, 2,
                      driver="virtio_blk")
    block_disk(r, "vda", vblk + "/block/vda", 83886080,
               [("vda1", 262144, 83622879), ("vda14", 2048, 6144), ("vda15", 8192, 253952)],
               device_link=vblk, dev=(254, 0), scheduler="[none] mq-deadline", discard=2147483136)
    r.w(vblk + "/block/vda/serial", "")
    for n in (14, 15):  # Debian cloud images: vda14 BIOS boot, vda15 EFI system partition
        r.w(vblk + "/block/vda/vda%d/partition" % n, n)
        r.w(vblk + "/block/vda/vda%d/dev" % n, "254:%d" % n)
    loopback(r)

    mem = meminfo(4010044, 2981236, 3512440, 61232, 612340, 0, 0, shmem=1024)
    mem += "DirectMap4k:      126836 kB\nDirectMap2M:     4065280 kB\nDirectMap1G:     2097152 kB\n"
    os_files(r,
             os_release='PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\n'
                        'VERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n'
                        'HOME_URL="https://www.debian.org/"\nSUPPORT_URL="https://www.debian.org/support"\n'
                        'BUG_REPORT_URL="https://bugs.debian.org/"',
             osrelease="6.1.0-23-cloud-amd64", kversion="#1 SMP PREEMPT_DYNAMIC Debian 6.1.99-1 (2024-07-15)",
             proc_version="Linux version 6.1.0-23-cloud-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian "
                          "12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian "
                          "6.1.99-1 (2024-07-15)",
             uname_m="x86_64", hostname="vm-bench-1", debian_version="12.6",
             ldd=ldd_out("ldd (Debian GLIBC 2.36-9+deb12u7) 2.36", "2022"),
             gcc=gcc_out("gcc (Debian 12.2.0-14) 12.2.0", "2022"), dpkg_arch="amd64",
             cmdline="BOOT_IMAGE=/boot/vmlinuz-6.1.0-23-cloud-amd64 root=PARTUUID=6d1c2f3e-4b5a-4c6d-9e8f-0a1b2c3d4e5f "
                     "ro console=tty0 console=ttyS0,115200 earlyprintk=ttyS0,115200 consoleblank=0",
             mounts="/dev/vda1 / ext4 rw,relatime,discard,errors=remount-ro 0 0\nproc /proc proc "
                    "rw,nosuid,nodev,noexec,relatime 0 0\nsysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\n"
                    "/dev/vda15 /boot/efi vfat rw,relatime,fmask=0022,dmask=0022,codepage=437,iocharset=ascii,"
                    "shortname=mixed,utf8,errors=remount-ro 0 0\n",
             swaps=swaps_new([]), meminfo_text=mem, loadavg="0.52 0.31 0.18 2/128 2210")
    userland(r, ELF_X86_64, merged_usr=True)
    return r
