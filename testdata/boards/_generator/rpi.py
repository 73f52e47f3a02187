"""Raspberry Pi fixture roots: Zero 2 W (32-bit), 4 B (arm64 kernel, armhf userland), 5 B."""
import struct
from common import *
import cpuinfo

SYS = "/sys/devices/system/cpu"
RPI_GOVS = "conservative ondemand userspace powersave performance schedutil"


def rpi_dt(r, model, compat, serial, revision):
    devicetree(r, model, compat, serial=serial, extra={
        "system/linux,revision": struct.pack(">I", revision),
        "system/linux,serial": bytes.fromhex(serial),
        "chosen/bootargs": "coherent_pool=1M 8250.nr_uarts=0\0",
    })


def rpi_trailer(revision, serial, model):
    """The lines Raspberry Pi kernels print after the processor blocks."""
    return [("Hardware", "BCM2835"), ("Revision", "%04x" % revision), ("Serial", serial), ("Model", model)]


def vcgencmd(r, outputs):
    for k, v in outputs.items():
        r.cmd("vcgencmd_" + k, v)


# ---------------------------------------------------------------- Zero 2 W

def zero2w(base):
    r = Root(base)
    serial = "000000000badc0de"
    # 32-bit kernel 5.10: per-CPU "model name" blocks, then the Raspberry Pi trailer.
    a53 = cpuinfo.arm_core("Cortex-A53", "r0p4", cpuinfo.HWCAPS_A32_ARMV8, "64.00")
    r.wraw("/proc/cpuinfo", cpuinfo.arm32([a53] * 4, trailer=rpi_trailer(
        0x902120, serial, "Raspberry Pi Zero 2 Rev 1.0")))
    cpus = [0, 1, 2, 3]
    freqs = [600000, 700000, 800000, 900000, 1000000]
    topo = {c: arm_topology(c, c, 0, [c], cpus, n=4) for c in cpus}
    cpu_tree(r, cpus, [dict(id=0, cpus=cpus, freqs=freqs, min=600000, max=1000000, cur=600000,
                            governor="ondemand", governors=RPI_GOVS, driver="cpufreq-dt",
                            latency=355000, stats=stats_for(freqs, hot=61234, low=372110),
                            total_trans=5123)],
             kernel_max=3, online_files=False, topology=topo, capacity={c: 1024 for c in cpus})
    rpi_dt(r, "Raspberry Pi Zero 2 Rev 1.0", ["raspberrypi,model-zero-2-w", "brcm,bcm2837"], serial, 0x902120)

    thermal_zone(r, 0, "cpu-thermal", 49388, trips=[(110000, "critical")], hwmon=0)
    cooling_device(r, 0, "cpufreq-cpu0", 0, 4)
    hwmon(r, 1, "/sys/devices/platform/soc/soc:firmware/raspberrypi-hwmon", "rpi_volt",
          {"in0_lcrit_alarm": 0})

    # SD card on the sdhost controller, wireless on the second (SDIO) host.
    card = {"type": "SD", "name": "SC32G", "manfid": "0x000003", "oemid": "0x5344", "date": "03/2021",
            "hwrev": "0x8", "fwrev": "0x0", "serial": "0x1badcafe",
            "cid": "035344534333324780" + "1badcafe" + "0153c9",
            "csd": "400e00325b590000edc87f800a404000", "scr": "0235800300000000",
            "ocr": "0x00300000", "dsr": "0x404", "preferred_erase_size": 4194304, "erase_size": 512,
            "ssr": "800000000500000004009001000a391e000400000002000000000000000000000000000000000000000000000000000000000000000000000000000000000000"}
    mmc_card(r, "/sys/devices/platform/soc/3f202000.mmc", "mmc0", "aaaa", card, "mmcblk0", 62333952,
             [("mmcblk0p1", 8192, 524288), ("mmcblk0p2", 532480, 61801472)])
    sdio = mmc_card(r, "/sys/devices/platform/soc/3f300000.mmcnr", "mmc1", "0001",
                    {"type": "SDIO", "vendor": "0x02d0", "device": "0xa9a6", "ocr": "0x00200000"}, None, 0, [])
    r.w("/sys/devices/platform/soc/3f300000.mmcnr/mmc_host/mmc1/mmc1:0001/mmc1:0001:1/vendor", "0x02d0")
    r.w("/sys/devices/platform/soc/3f300000.mmcnr/mmc_host/mmc1/mmc1:0001/mmc1:0001:1/device", "0xa9a6")
    netdev(r, sdio + "/mmc1:0001:1", "wlan0", "e4:5f:01:01:02:04", operstate="up", carrier=1,
           driver="brcmfmac", driver_bus="sdio", ifindex=3, wireless=True, queues=(1, 4))
    loopback(r)

    mem = meminfo(437416, 108584, 261736, 20396, 151212, 102396, 95484, cma_total=262144, cma_free=210528,
                  shmem=1024, hugepages=False)
    os_files(r,
             os_release='PRETTY_NAME="Raspbian GNU/Linux 11 (bullseye)"\nNAME="Raspbian GNU/Linux"\n'
                        'VERSION_ID="11"\nVERSION="11 (bullseye)"\nVERSION_CODENAME=bullseye\nID=raspbian\n'
                        'ID_LIKE=debian\nHOME_URL="http://www.raspbian.org/"\n'
                        'SUPPORT_URL="http://www.raspbian.org/RaspbianForums"\n'
                        'BUG_REPORT_URL="http://www.raspbian.org/RaspbianBugs"',
             osrelease="5.10.63-v7+", kversion="#1459 SMP Wed Oct 6 16:41:10 BST 2021",
             proc_version="Linux version 5.10.63-v7+ (dom@buildbot) (arm-linux-gnueabihf-gcc-8 (Ubuntu/Linaro "
                          "8.4.0-3ubuntu1) 8.4.0, GNU ld (GNU Binutils for Ubuntu) 2.34) #1459 SMP Wed Oct 6 "
                          "16:41:10 BST 2021",
             uname_m="armv7l", hostname="raspberrypi", debian_version="11.1",
             extra_etc={"/etc/rpi-issue": "Raspberry Pi reference 2021-10-30\nGenerated using pi-gen, "
                                          "https://github.com/RPi-Distro/pi-gen, "
                                          "2d1ee6f6c3c1e4a1c7d4f1f4f8b0d0c0e4c1a6b1, stage4"},
             ldd=ldd_out("ldd (Debian GLIBC 2.31-13+rpt2+rpi1+deb11u2) 2.31"),
             gcc=gcc_out("gcc (Raspbian 10.2.1-6+rpi1) 10.2.1 20210110"), dpkg_arch="armhf",
             cmdline="coherent_pool=1M 8250.nr_uarts=0 snd_bcm2835.enable_compat_alsa=0 "
                     "snd_bcm2835.enable_hdmi=1 bcm2708_fb.fbwidth=656 bcm2708_fb.fbheight=416 "
                     "bcm2708_fb.fbswap=1 vc_mem.mem_base=0x1ec00000 vc_mem.mem_size=0x20000000  "
                     "console=ttyS0,115200 console=tty1 root=PARTUUID=8a438930-02 rootfstype=ext4 "
                     "fsck.repair=yes rootwait",
             mounts="/dev/root / ext4 rw,noatime 0 0\ndevtmpfs /dev devtmpfs rw,relatime,size=88812k,"
                    "nr_inodes=22203,mode=755 0 0\nproc /proc proc rw,relatime 0 0\nsysfs /sys sysfs "
                    "rw,nosuid,nodev,noexec,relatime 0 0\ntmpfs /run tmpfs rw,nosuid,nodev,size=87484k,"
                    "nr_inodes=4096,mode=755 0 0\n/dev/mmcblk0p1 /boot vfat rw,relatime,fmask=0022,"
                    "dmask=0022,codepage=437,iocharset=ascii,shortname=mixed,errors=remount-ro 0 0\n",
             swaps=swaps_old([("/var/swap", "file", 102396, 6912, -2)]), meminfo_text=mem,
             loadavg="1.14 1.02 0.61 2/141 1873")
    userland(r, ELF_ARMHF, merged_usr=False)
    vcgencmd(r, {
        "measure_clock_arm": "frequency(45)=600000000",
        "measure_clock_core": "frequency(1)=400000000",
        "get_throttled": "throttled=0x50000",
        "measure_volts": "volt=1.2000V",
        "measure_volts_core": "volt=1.2000V",
        "measure_temp": "temp=49.4'C",
        "get_mem_arm": "arm=448M",
        "get_mem_gpu": "gpu=64M",
        "get_config_arm_freq": "arm_freq=1000",
        "version": "Oct 29 2021 10:49:08 \nCopyright (c) 2012 Broadcom\n"
                   "version b8a114e5a9877e91ca8f26d1a5ce904b2ad3cf13 (clean) (release) (start)",
        "get_config_int": ZERO2W_CONFIG,
    })
    return r


ZERO2W_CONFIG = get_config_int({
    "arm_freq": 1000, "arm_freq_min": 600, "core_freq": 400, "gpu_freq": 300, "sdram_freq": 450,
    "over_voltage_avs": 37500, "total_mem": 512, "init_uart_clock": "0x2dc6c00", "hdmi_force_cec_address:0": 65535})


# ---------------------------------------------------------------- Pi 4 B

PI4_CONFIG = get_config_int({
    "arm_64bit": 1, "arm_freq": 1500, "arm_freq_min": 600, "core_freq": 500, "core_freq_min": 200, "gpu_freq": 500,
    "gpu_freq_min": 250, "over_voltage_avs": -20000, "total_mem": 1024, "init_uart_clock": "0x2dc6c00",
    "hdmi_force_cec_address:0": 65535})


def pi4(base):
    r = Root(base)
    serial = "10000000feedf00d"
    a72 = cpuinfo.arm_core("Cortex-A72", "r0p3", cpuinfo.HWCAPS_ARMV8_NOCRYPTO, "108.00")
    r.wraw("/proc/cpuinfo", cpuinfo.arm64([a72] * 4, trailer=rpi_trailer(
        0xa03111, serial, "Raspberry Pi 4 Model B Rev 1.1")))
    cpus = [0, 1, 2, 3]
    freqs = [600000 + 100000 * i for i in range(10)]  # 600 … 1500 MHz
    topo = {c: arm_topology(c, c, 0, [c], cpus, n=4) for c in cpus}
    cpu_tree(r, cpus, [dict(id=0, cpus=cpus, freqs=freqs, min=600000, max=1500000, cur=600000,
                            governor="ondemand", governors=RPI_GOVS, driver="cpufreq-dt",
                            latency=355000, stats=stats_for(freqs, hot=412345, low=2012345),
                            total_trans=40211)],
             kernel_max=3, online_files=False, topology=topo, capacity={c: 1024 for c in cpus})
    rpi_dt(r, "Raspberry Pi 4 Model B Rev 1.1", ["raspberrypi,4-model-b", "brcm,bcm2711"], serial, 0xa03111)
    # The bootloader EEPROM of the Pi 4B seed (rpi-eeprom-update: CURRENT 1568112110).
    r.wraw("/sys/firmware/devicetree/base/chosen/bootloader/build-timestamp", struct.pack(">I", 1568112110))

    thermal_zone(r, 0, "cpu-thermal", 47236, trips=[(110000, "critical")], hwmon=0)
    cooling_device(r, 0, "cpufreq-cpu0", 0, 9)
    hwmon(r, 1, "/sys/devices/platform/soc/soc:firmware/raspberrypi-hwmon", "rpi_volt",
          {"in0_lcrit_alarm": 0})

    card = {"type": "SD", "name": "EB1QT", "manfid": "0x00001b", "oemid": "0x534d", "date": "07/2020",
            "hwrev": "0x3", "fwrev": "0x0", "serial": "0x2badf00d",
            "cid": "1b534d4542315154" + "30" + "2badf00d" + "0147" + "45",
            "csd": "400e00325b590000e8d77f800a400000", "scr": "0235840300000000",
            "ocr": "0x00300000", "dsr": "0x404", "preferred_erase_size": 4194304, "erase_size": 512}
    mmc_card(r, "/sys/devices/platform/emmc2bus/fe340000.mmc", "mmc0", "59b4", card, "mmcblk0", 61071360,
             [("mmcblk0p1", 8192, 524288), ("mmcblk0p2", 532480, 60538880)])
    sdio = mmc_card(r, "/sys/devices/platform/soc/fe300000.mmcnr", "mmc1", "0001",
                    {"type": "SDIO", "vendor": "0x02d0", "device": "0x4345", "ocr": "0x00200000"}, None, 0, [])

    # VL805 xHCI behind the single PCIe lane, a UAS SSD on its SuperSpeed root hub.
    rc = "/sys/devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0"
    pci_dev(r, rc, "0000:00:00.0", "0x14e4", "0x2711", "0x060400", driver="pcieport",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="5.0 GT/s PCIe", max_width=1, revision="0x20")
    xhci = rc + "/0000:01:00.0"
    pci_dev(r, xhci, "0000:01:00.0", "0x1106", "0x3483", "0x0c0330", driver="xhci_hcd",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="5.0 GT/s PCIe", max_width=1,
            subsys=("0x1106", "0x3483"), revision="0x01")
    # Its configuration space as root reads it (256 bytes); the word at 0x50 is the VL805
    # firmware version the Pi 4B seed's rpi-eeprom-update shows: 000137ab.
    cfg = bytearray(256)
    cfg[0:4] = bytes.fromhex("06118334")
    cfg[0x50:0x54] = struct.pack("<I", 0x000137ab)
    r.wraw(xhci + "/config", bytes(cfg))
    usb_dev(r, xhci + "/usb1", "usb1", {"speed": 480, "idVendor": "1d6b", "idProduct": "0002",
                                        "version": " 2.00", "bDeviceClass": "09", "busnum": 1, "devnum": 1,
                                        "manufacturer": "Linux 5.10.78-v8+ xhci-hcd",
                                        "product": "xHCI Host Controller", "maxchild": 1})
    usb_dev(r, xhci + "/usb2", "usb2", {"speed": 5000, "idVendor": "1d6b", "idProduct": "0003",
                                        "version": " 3.00", "bDeviceClass": "09", "busnum": 2, "devnum": 1,
                                        "manufacturer": "Linux 5.10.78-v8+ xhci-hcd",
                                        "product": "xHCI Host Controller", "maxchild": 4})
    ssd = xhci + "/usb2/2-2"
    usb_dev(r, ssd, "2-2", {"speed": 5000, "idVendor": "04e8", "idProduct": "61f5", "version": " 3.10",
                            "bDeviceClass": "00", "busnum": 2, "devnum": 2, "manufacturer": "Samsung",
                            "product": "Portable SSD T5", "serial": "1234567FIXTURE", "bMaxPower": "896mA",
                            "removable": "removable"})
    usb_iface(r, ssd + "/2-2:1.0", "2-2:1.0", "08", "06", "62", "uas")
    scsi_disk(r, ssd + "/2-2:1.0/host0/target0:0:0/0:0:0:0", "0:0:0:0", "Samsung", "Portable SSD T5", "0",
              "sda", 976773168, [("sda1", 2048, 976771072)])

    netdev(r, "/sys/devices/platform/scb/fd580000.ethernet", "eth0", "dc:a6:32:01:02:03", speed=1000,
           duplex="full", driver="bcmgenet", ifindex=2, queues=(5, 5))
    r.w("/sys/devices/platform/soc/fe300000.mmcnr/mmc_host/mmc1/mmc1:0001/mmc1:0001:1/vendor", "0x02d0")
    netdev(r, sdio + "/mmc1:0001:1", "wlan0", "dc:a6:32:01:02:04", operstate="down", carrier=None,
           driver="brcmfmac", driver_bus="sdio", ifindex=3, wireless=True, queues=(1, 4))
    loopback(r)

    # zram swap compressed with lz4, and zswap enabled on top of it.
    zram(r, 0, 475828224, "lzo lzo-rle [lz4] lz4hc zstd", used_orig=0)
    for k, v in {"enabled": "Y", "compressor": "lz4", "zpool": "z3fold", "max_pool_percent": 20,
                 "accept_threshold_percent": 90, "same_filled_pages_enabled": "Y"}.items():
        r.w("/sys/module/zswap/parameters/" + k, v)
    mem = meminfo(929356, 611212, 712004, 21844, 149636, 464676, 464676, cma_total=262144,
                  cma_free=240100, shmem=9216, hugepages=False)
    os_files(r,
             os_release='PRETTY_NAME="Raspbian GNU/Linux 11 (bullseye)"\nNAME="Raspbian GNU/Linux"\n'
                        'VERSION_ID="11"\nVERSION="11 (bullseye)"\nVERSION_CODENAME=bullseye\nID=raspbian\n'
                        'ID_LIKE=debian\nHOME_URL="http://www.raspbian.org/"\n'
                        'SUPPORT_URL="http://www.raspbian.org/RaspbianForums"\n'
                        'BUG_REPORT_URL="http://www.raspbian.org/RaspbianBugs"',
             osrelease="5.10.78-v8+", kversion="#1485 SMP PREEMPT Thu Nov 11 16:24:15 GMT 2021",
             proc_version="Linux version 5.10.78-v8+ (dom@buildbot) (aarch64-linux-gnu-gcc-8 (Ubuntu/Linaro "
                          "8.4.0-3ubuntu1) 8.4.0, GNU ld (GNU Binutils for Ubuntu) 2.34) #1485 SMP PREEMPT Thu "
                          "Nov 11 16:24:15 GMT 2021",
             uname_m="aarch64", hostname="twister", debian_version="11.2",
             extra_etc={"/etc/rpi-issue": "Raspberry Pi reference 2021-10-30\nGenerated using pi-gen, "
                                          "https://github.com/RPi-Distro/pi-gen, stage4",
                        "/boot/config.txt": "dtparam=audio=on\ncamera_auto_detect=1\ndisplay_auto_detect=1\n"
                                            "dtoverlay=vc4-kms-v3d\nmax_framebuffers=2\narm_64bit=1\n"
                                            "[cm4]\notg_mode=1\n[all]\n"},
             ldd=ldd_out("ldd (Debian GLIBC 2.31-13+rpt2+rpi1+deb11u2) 2.31"),
             gcc=gcc_out("gcc (Raspbian 10.2.1-6+rpi1) 10.2.1 20210110"), dpkg_arch="armhf",
             cmdline="coherent_pool=1M 8250.nr_uarts=0 snd_bcm2835.enable_compat_alsa=0 "
                     "snd_bcm2835.enable_hdmi=1  smsc95xx.macaddr=DC:A6:32:01:02:03 vc_mem.mem_base=0x3ec00000 "
                     "vc_mem.mem_size=0x40000000  console=ttyS0,115200 console=tty1 "
                     "root=PARTUUID=7d5a2870-02 rootfstype=ext4 fsck.repair=yes rootwait zswap.enabled=1 "
                     "zswap.compressor=lz4",
             mounts="/dev/mmcblk0p2 / ext4 rw,noatime 0 0\ndevtmpfs /dev devtmpfs rw,relatime,size=789376k,"
                    "nr_inodes=197344,mode=755 0 0\nproc /proc proc rw,relatime 0 0\nsysfs /sys sysfs "
                    "rw,nosuid,nodev,noexec,relatime 0 0\n/dev/mmcblk0p1 /boot vfat rw,relatime,fmask=0022,"
                    "dmask=0022,codepage=437,iocharset=ascii,shortname=mixed,errors=remount-ro 0 0\n"
                    "/dev/sda1 /srv ext4 rw,relatime 0 0\n",
             swaps=swaps_old([("/dev/zram0", "partition", 464676, 0, 100)]), meminfo_text=mem,
             loadavg="0.00 0.02 0.00 1/178 2211")
    userland(r, ELF_ARMHF, merged_usr=True)
    vcgencmd(r, {
        "measure_clock_arm": "frequency(48)=600117184",
        "measure_clock_core": "frequency(1)=200000000",
        "get_throttled": "throttled=0x0",
        "measure_volts": "volt=0.8500V",
        "measure_volts_core": "volt=0.8500V",
        "measure_temp": "temp=47.2'C",
        "get_mem_arm": "arm=948M",
        "get_mem_gpu": "gpu=76M",
        "get_config_arm_freq": "arm_freq=1500",
        "version": "Dec  1 2021 15:01:54 \nCopyright (c) 2012 Broadcom\n"
                   "version 71bd3109023a0c8575585ba87cbb374d2eeb038f (clean) (release) (start)",
        "get_config_int": PI4_CONFIG,
        "bootloader_version": "Sep 10 2019 10:41:50\nversion f626c772b15ba1b7e0532a8d50a761b3ccbdf3bb (release)\n"
                              "timestamp 1568112110\n",
    })
    return r


# ---------------------------------------------------------------- Pi 5

PI5_CONFIG = get_config_int({
    "arm_64bit": 1, "arm_boost": 1, "arm_freq": 2400, "arm_freq_min": 1500, "core_freq": 910, "core_freq_min": 500,
    "gpu_freq_min": 500, "v3d_freq": 960, "v3d_freq_min": 500, "over_voltage_avs": "0x170c0", "total_mem": 8192,
    "init_uart_clock": "0x2dc6c00", "hdmi_force_cec_address:0": 65535})

PI5_PMIC = """ 3V7_WL_SW_A current(0)=0.00000000A
   3V3_SYS_A current(1)=0.05172000A
   1V8_SYS_A current(2)=0.18053000A
  DDR_VDD2_A current(3)=0.02732000A
  DDR_VDDQ_A current(4)=0.00000000A
   1V1_SYS_A current(5)=0.19217000A
   0V8_SYS_A current(6)=0.34648000A
  VDD_CORE_A current(7)=0.68416000A
   3V3_DAC_A current(17)=0.00048840A
   3V3_ADC_A current(18)=0.00024420A
   0V8_AON_A current(16)=0.00439560A
      HDMI_A current(22)=0.01318680A
     3V7_WL_SW_V volt(8)=3.73772600V
       3V3_SYS_V volt(9)=3.31184400V
       1V8_SYS_V volt(10)=1.80000000V
      DDR_VDD2_V volt(11)=1.11282000V
      DDR_VDDQ_V volt(12)=0.60512800V
       1V1_SYS_V volt(13)=1.10402900V
       0V8_SYS_V volt(14)=0.80073240V
      VDD_CORE_V volt(15)=0.72036250V
       3V3_DAC_V volt(20)=3.30769200V
       3V3_ADC_V volt(21)=3.30952400V
       0V8_AON_V volt(19)=0.79981680V
          HDMI_V volt(23)=5.14432200V
         EXT5V_V volt(24)=5.14296000V
          BATT_V volt(25)=0.00000000V"""


def pi5(base):
    r = Root(base)
    serial = "5f5f5f5f00c0ffee"
    a76 = cpuinfo.arm_core("Cortex-A76", "r4p1", cpuinfo.HWCAPS_ARMV82, "108.00")
    r.wraw("/proc/cpuinfo", cpuinfo.arm64([a76] * 4, trailer=rpi_trailer(
        0xd04170, serial, "Raspberry Pi 5 Model B Rev 1.0")))
    cpus = [0, 1, 2, 3]
    freqs = [1500000 + 100000 * i for i in range(10)]  # 1.5 … 2.4 GHz
    # No cpu-map in the device tree: the kernel leaves cluster_id at -1.
    topo = {c: arm_topology(c, c, 0, [c], cpus, cluster_id=-1, cluster_cpus=cpus, n=4) for c in cpus}
    caches = {c: arm_caches(64, 64, 512, [c], 2048, cpus, self_cpu=c, ways={"l1d": 4, "l1i": 4, "l2": 8, "l3": 16})
              for c in cpus}
    cpu_tree(r, cpus, [dict(id=0, cpus=cpus, freqs=freqs, min=1500000, max=2400000, cur=1500000,
                            governor="ondemand", governors=RPI_GOVS, driver="cpufreq-dt",
                            latency=355000, stats=stats_for(freqs, hot=98765, low=265432), total_trans=3310)],
             online_files=True, topology=topo, caches=caches, capacity={c: 1024 for c in cpus})
    rpi_dt(r, "Raspberry Pi 5 Model B Rev 1.0", ["raspberrypi,5-model-b", "brcm,bcm2712"], serial, 0xd04170)

    thermal_zone(r, 0, "cpu-thermal", 51650,
                 trips=[(110000, "critical"), (50000, "active"), (60000, "active"), (67500, "active"),
                        (75000, "active")], hwmon=0)
    cooling_device(r, 0, "pwm-fan", 1, 4)
    rp1 = "/sys/devices/platform/axi/1000120000.pcie/pci0001:00/0001:00:00.0/0001:01:00.0"
    # RP1's peripherals are platform devices beside its PCI function, under the PCIe controller's node.
    rp1_periph = "/sys/devices/platform/axi/1000120000.pcie"
    hwmon(r, 1, rp1_periph + "/1f000c8000.adc", "rp1_adc",
          {"in1_input": 946, "in2_input": 2530, "in3_input": 1380, "in4_input": 1450, "temp1_input": 34600})
    hwmon(r, 2, "/sys/devices/platform/cooling_fan", "pwmfan", {"fan1_input": 2654, "pwm1": 75})

    card = {"type": "SD", "name": "SR128", "manfid": "0x000003", "oemid": "0x5344", "date": "10/2019",
            "hwrev": "0x8", "fwrev": "0x0", "serial": "0x3badbeef",
            "cid": "035344535231323880" + "3badbeef" + "013a" + "d3",
            "csd": "400e0032db790003b8ab7f800a404000", "scr": "0245848700000000",
            "ocr": "0x00300000", "dsr": "0x404", "preferred_erase_size": 4194304, "erase_size": 512}
    mmc_card(r, "/sys/devices/platform/axi/1000fff000.mmc", "mmc0", "aaaa", card, "mmcblk0", 249737216,
             [("mmcblk0p1", 8192, 1048576), ("mmcblk0p2", 1056768, 248680448)])
    sdio = mmc_card(r, "/sys/devices/platform/axi/1001100000.mmc", "mmc1", "0001",
                    {"type": "SDIO", "vendor": "0x02d0", "device": "0xa9bf", "ocr": "0x00200000"}, None, 0, [])

    # External PCIe (FPC) with an NVMe: link trained at Gen2 x1 although the SSD does Gen3 x4.
    rc = "/sys/devices/platform/axi/1000110000.pcie/pci0000:00/0000:00:00.0"
    pci_dev(r, rc, "0000:00:00.0", "0x14e4", "0x2712", "0x060400", driver="pcieport",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="5.0 GT/s PCIe", max_width=1, revision="0x21")
    ssd = rc + "/0000:01:00.0"
    pci_dev(r, ssd, "0000:01:00.0", "0x144d", "0xa809", "0x010802", driver="nvme",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="8.0 GT/s PCIe", max_width=4,
            subsys=("0x144d", "0xa801"), aspm=(0, 1))
    nvme(r, ssd, "Samsung SSD 980 500GB", "S64DNF0R000FIX5", "1B4QFXO7", 976773168,
         [("nvme0n1p1", 2048, 1048576), ("nvme0n1p2", 1050624, 975722544)], hwmon_n=3, temp=38850)
    # RP1 south bridge on the internal x4 link; the Ethernet MAC is a platform device under it.
    rc1 = "/sys/devices/platform/axi/1000120000.pcie/pci0001:00/0001:00:00.0"
    pci_dev(r, rc1, "0001:00:00.0", "0x14e4", "0x2712", "0x060400", driver="pcieport",
            cur_speed="5.0 GT/s PCIe", cur_width=4, max_speed="5.0 GT/s PCIe", max_width=4, revision="0x21")
    pci_dev(r, rp1, "0001:01:00.0", "0x1de4", "0x0001", "0x020000", driver="rp1",
            cur_speed="5.0 GT/s PCIe", cur_width=4, max_speed="5.0 GT/s PCIe", max_width=4,
            subsys=("0x1de4", "0x0001"), revision="0x02")
    netdev(r, rp1_periph + "/1f00100000.ethernet", "eth0", "2c:cf:67:01:02:03", speed=1000, duplex="full",
           driver="macb", ifindex=2)
    r.w(sdio + "/mmc1:0001:1/vendor", "0x02d0")
    r.w(sdio + "/mmc1:0001:1/device", "0xa9bf")
    r.w(sdio + "/mmc1:0001:1/class", "0x00")
    netdev(r, sdio + "/mmc1:0001:1", "wlan0", "2c:cf:67:01:02:04", operstate="up", carrier=1,
           driver="brcmfmac", driver_bus="sdio", ifindex=3, wireless=True, queues=(1, 4))
    # Docker's bridge, down while no container runs.
    netdev(r, None, "docker0", "02:42:1f:01:02:06", operstate="down", carrier=None, ifindex=4,
           addr_assign_type=3, devtype="bridge")
    loopback(r)
    # RP1's two xHCI controllers, each with a USB 2.0 and a USB 3.0 root hub.
    for i, (hc, bus) in enumerate((("1f00200000.usb", 1), ("1f00300000.usb", 3))):
        hcd = "%s/%s/xhci-hcd.%d" % (rp1_periph, hc, i)
        usb_root_hub(r, hcd, bus, 480, "2.00", 2, "xhci-hcd.%d" % i, "Linux 6.6.20+rpt-rpi-2712 xhci-hcd")
        usb_root_hub(r, hcd, bus + 1, 5000, "3.00", 1, "xhci-hcd.%d" % i, "Linux 6.6.20+rpt-rpi-2712 xhci-hcd")

    mem = meminfo(8245632, 7890432, 8001264, 23040, 197488, 102384, 102384, cma_total=65536, cma_free=52224,
                  shmem=4608, hugepages=False)
    os_files(r,
             os_release='PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\n'
                        'VERSION_ID="12"\nVERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n'
                        'HOME_URL="https://www.debian.org/"\nSUPPORT_URL="https://www.debian.org/support"\n'
                        'BUG_REPORT_URL="https://bugs.debian.org/"',
             osrelease="6.6.20+rpt-rpi-2712",
             kversion="#1 SMP PREEMPT Debian 1:6.6.20-1+rpt1 (2024-03-07)",
             proc_version="Linux version 6.6.20+rpt-rpi-2712 (serge@raspberrypi.com) (gcc-12 (Debian "
                          "12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT Debian "
                          "1:6.6.20-1+rpt1 (2024-03-07)",
             uname_m="aarch64", hostname="rpi5", debian_version="12.5",
             extra_etc={"/etc/rpi-issue": "Raspberry Pi reference 2024-03-12\nGenerated using pi-gen, "
                                          "https://github.com/RPi-Distro/pi-gen, stage4",
                        "/boot/firmware/config.txt": "dtparam=audio=on\ncamera_auto_detect=1\n"
                                                     "display_auto_detect=1\nauto_initramfs=1\n"
                                                     "dtoverlay=vc4-kms-v3d\nmax_framebuffers=2\n"
                                                     "disable_fw_kms_setup=1\narm_64bit=1\n"
                                                     "disable_overscan=1\narm_boost=1\ndtparam=pciex1\n"},
             ldd=ldd_out("ldd (Debian GLIBC 2.36-9+rpt2+deb12u4) 2.36", "2022"),
             gcc=gcc_out("gcc (Debian 12.2.0-14) 12.2.0", "2022"), dpkg_arch="arm64",
             cmdline="reboot=w coherent_pool=1M 8250.nr_uarts=1 pci=pcie_bus_safe snd_bcm2835.enable_compat_alsa=0 "
                     "snd_bcm2835.enable_hdmi=1  smsc95xx.macaddr=2C:CF:67:01:02:03 vc_mem.mem_base=0x3fc00000 "
                     "vc_mem.mem_size=0x40000000  console=ttyAMA10,115200 console=tty1 "
                     "root=PARTUUID=5e6f7a8b-02 rootfstype=ext4 fsck.repair=yes rootwait",
             mounts="/dev/nvme0n1p2 / ext4 rw,noatime 0 0\ndevtmpfs /dev devtmpfs rw,relatime,size=1935232k,"
                    "nr_inodes=120952,mode=755 0 0\nproc /proc proc rw,relatime 0 0\nsysfs /sys sysfs "
                    "rw,nosuid,nodev,noexec,relatime 0 0\n/dev/nvme0n1p1 /boot/firmware vfat rw,relatime,"
                    "fmask=0022,dmask=0022,codepage=437,iocharset=ascii,shortname=mixed,errors=remount-ro 0 0\n",
             swaps=swaps_new([("/var/swap", "file", 102384, 0, -2)]), meminfo_text=mem,
             loadavg="0.00 0.02 0.24 1/201 3102")
    userland(r, ELF_ARM64, merged_usr=True)
    vcgencmd(r, {
        "measure_clock_arm": "frequency(0)=1500005376",
        "measure_clock_core": "frequency(0)=910007424",
        "get_throttled": "throttled=0x0",
        "measure_volts": "volt=0.7204V",
        "measure_volts_core": "volt=0.7204V",
        "measure_temp": "temp=51.6'C",
        "get_mem_arm": "arm=1020M",
        "get_mem_gpu": "gpu=4M",
        "get_config_arm_freq": "arm_freq=2400",
        "pmic_read_adc": PI5_PMIC,
        "version": "2024/03/14 15:23:42 \nCopyright (c) 2012 Broadcom\nversion 4d574a2e (release) (embedded)",
        "get_config_int": PI5_CONFIG,
    })
    return r
