"""Rockchip, Amlogic, Allwinner, Qualcomm fixture roots."""
from common import *
import cpuinfo
import struct

GOVS = "conservative ondemand userspace powersave performance schedutil"


def debian_os_release(pretty, version_id, codename, extra=""):
    return ('PRETTY_NAME="%s"\nNAME="Debian GNU/Linux"\nVERSION_ID="%s"\nVERSION="%s (%s)"\n'
            'VERSION_CODENAME=%s\nID=debian\nHOME_URL="https://www.debian.org/"\n'
            'SUPPORT_URL="https://www.debian.org/support"\nBUG_REPORT_URL="https://bugs.debian.org/"%s'
            % (pretty, version_id, version_id, codename, codename, extra))


def ticks(seconds):
    """sbc-bench prints time_in_state in seconds; the kernel counts 10 ms units."""
    return int(round(seconds * 100))


# ---------------------------------------------------------------- ROCK 5B (RK3588)

def rock5b(base):
    r = Root(base)
    # Rockchip's BSP kernel appends the SoC's serial number after the blocks.
    a55 = cpuinfo.arm_core("Cortex-A55", "r2p0", cpuinfo.HWCAPS_ARMV82, "48.00")
    a76 = cpuinfo.arm_core("Cortex-A76", "r4p0", cpuinfo.HWCAPS_ARMV82, "48.00")
    r.wraw("/proc/cpuinfo", cpuinfo.arm64([a55] * 4 + [a76] * 4, trailer=[("Serial", "abcdef0123456789")]))
    cpus = list(range(8))
    little = [408000, 600000, 816000, 1008000, 1200000, 1416000, 1608000, 1800000]
    big = little + [2016000, 2208000, 2400000]
    # Throttling statistics of the same board and kernel (seconds → 10 ms ticks).
    st0 = {1800000: 1890.67, 1608000: 0.29, 1416000: 0.36, 1200000: 0.29, 1008000: 0.51, 816000: 0.17,
           600000: 0.22, 408000: 13.49}
    st4 = {2400000: 948.77, 2208000: 1.57, 2016000: 0.79, 1800000: 0.31, 1608000: 0.13, 1416000: 0.37,
           1200000: 0.33, 1008000: 0.31, 816000: 0.68, 600000: 2.41, 408000: 950.32}
    st6 = {2400000: 901.47, 2208000: 1.30, 2016000: 0.54, 1800000: 0.32, 1608000: 0.31, 1416000: 0.23,
           1200000: 0.33, 1008000: 0.35, 816000: 0.56, 600000: 1.35, 408000: 999.22}
    pols = [
        dict(id=0, cpus=[0, 1, 2, 3], freqs=little, min=408000, max=1800000, cur=408000,
             stats={k: ticks(v) for k, v in st0.items()}, total_trans=2236),
        dict(id=4, cpus=[4, 5], freqs=big, min=408000, max=2400000, cur=408000,
             stats={k: ticks(v) for k, v in st4.items()}, total_trans=1893),
        dict(id=6, cpus=[6, 7], freqs=big, min=408000, max=2400000, cur=408000,
             stats={k: ticks(v) for k, v in st6.items()}, total_trans=1750),
    ]
    for p in pols:
        p.update(governor="schedutil", governors=GOVS, driver="cpufreq-dt", latency=40000)
    # Linux 5.10: the cpu-map clusters show up as physical packages; no cluster_id yet.
    clusters = [[0, 1, 2, 3], [4, 5], [6, 7]]
    topo = {}
    for pkg, members in enumerate(clusters):
        for i, c in enumerate(members):
            topo[c] = arm_topology(c, i, pkg, [c], members, n=8)
    caches = {}
    for c in cpus:
        if c < 4:
            caches[c] = arm_caches(32, 32, 128, [c], 3072, cpus, self_cpu=c, ways={"l2": 4, "l3": 12})
        else:
            caches[c] = arm_caches(64, 64, 512, [c], 3072, cpus, self_cpu=c, ways={"l2": 8, "l3": 12})
    cpu_tree(r, cpus, pols, kernel_max=7, topology=topo, caches=caches,
             capacity={c: (414 if c < 4 else 1024) for c in cpus})
    devicetree(r, "Radxa ROCK 5B", ["radxa,rock-5b", "rockchip,rk3588"])
    # CPU device-tree nodes with their OPP tables: clocks, voltages and opp-supported-hw as the
    # sbc-bench log of this board and kernel (5.10.66) lists them (../shared/data/opp-tables/
    # rk3588-5.10.66-Radxa_ROCK_5B.txt), as the default opp-microvolt; the BSP tree's per-level
    # opp-microvolt-L<n> voltages are not in that log and so not here.
    def mv(v):
        return struct.pack(">III", int(v * 1000), int(v * 1000), 1050000)
    ff = (0xff, 0xffff)
    fd = (0xfd, 0xffff)
    little_opps = [(408, 675, ff), (600, 675, ff), (816, 675, ff), (1008, 675, ff), (1200, 712.5, ff),
                   (1416, 762.5, ff), (1608, 850, ff), (1800, 950, fd)]
    big_opps = [(408, 675, ff), (600, 675, ff), (816, 675, ff), (1008, 675, ff), (1200, 675, ff),
                (1416, 725, ff), (1608, 762.5, ff), (1800, 850, ff), (2016, 925, ff), (2208, 987.5, fd),
                (2256, 1000, (0xfd, 0x13)), (2304, 1000, (0xfd, 0x24)), (2352, 1000, (0xfd, 0x48)),
                (2400, 1000, (0xfd, 0x80))]
    dtb = "/sys/firmware/devicetree/base"
    for ph, (name, opps) in enumerate([("cluster0-opp-table", little_opps), ("cluster1-opp-table", big_opps),
                                       ("cluster2-opp-table", big_opps)], start=0x10):
        r.wraw(dtb + "/" + name + "/phandle", struct.pack(">I", ph))
        r.wraw(dtb + "/" + name + "/compatible", "operating-points-v2\0")
        for mhz, volt, hw in opps:
            node = "%s/%s/opp-%d000000" % (dtb, name, mhz)
            r.wraw(node + "/opp-hz", struct.pack(">Q", mhz * 1000000))
            r.wraw(node + "/opp-microvolt", mv(volt))
            r.wraw(node + "/opp-supported-hw", struct.pack(">II", *hw))
    for c in cpus:
        node = "%s/cpus/cpu@%d00" % (dtb, c)
        r.wraw(node + "/operating-points-v2", struct.pack(">I", 0x10 + (0 if c < 4 else 1 if c < 6 else 2)))
        r.wraw(node + "/device_type", "cpu\0")
        r.link("/sys/devices/system/cpu/cpu%d/of_node" % c, node)
    # The BSP kernel's PVTM lines of this board (the ROCK 5B seed) with the leakage lines the
    # same kernels print (as in the sbc-bench logs).
    r.cmd("dmesg", "[    3.101000] cpu cpu0: leakage=10\n[    3.117399] cpu cpu0: pvtm=1528\n"
          "[    3.117491] cpu cpu0: pvtm-volt-sel=5\n[    3.120000] cpu cpu4: leakage=9\n"
          "[    3.124529] cpu cpu4: pvtm=1785\n[    3.128495] cpu cpu4: pvtm-volt-sel=7\n"
          "[    3.136234] cpu cpu6: pvtm=1782\n[    3.140173] cpu cpu6: pvtm-volt-sel=7\n"
          "[    3.150000] rockchip-dmc dmc: leakage=36\n[    3.150100] rockchip-dmc dmc: leakage-volt-sel=1\n")

    zones = ["soc-thermal", "bigcore0-thermal", "bigcore1-thermal", "littlecore-thermal", "center-thermal",
             "gpu-thermal", "npu-thermal"]
    temps = [38846, 38846, 37923, 38846, 37923, 37000, 37923]
    for i, (z, t) in enumerate(zip(zones, temps)):
        trips = [(75000, "passive"), (85000, "passive"), (115000, "critical")] if i == 0 else [(115000, "critical")]
        thermal_zone(r, i, z, t, trips=trips, policy="power_allocator" if i == 0 else "step_wise", hwmon=i)
    cooling_device(r, 0, "thermal-cpufreq-0", 0, 7)
    cooling_device(r, 1, "thermal-cpufreq-1", 0, 10)
    cooling_device(r, 2, "thermal-cpufreq-2", 0, 10)

    emmc = {"type": "MMC", "name": "SLD64G", "manfid": "0x000088", "oemid": "0x0103", "date": "03/2022",
            "hwrev": "0x0", "fwrev": "0x0", "rev": "0x8", "serial": "0x4badd00d",
            "cid": "88010353" + "4c4436344700" + "4badd00d" + "3651",
            "csd": "d0270132000000000000000000000000", "life_time": "0x01 0x01", "pre_eol_info": "0x01",
            "ffu_capable": 0, "firmware_version": "0x0202020000000000", "enhanced_area_offset": -22,
            "enhanced_area_size": -22, "raw_rpmb_size_mult": "0x20", "rel_sectors": "0x1",
            "preferred_erase_size": 524288, "erase_size": 524288, "ocr": "0x00000000", "dsr": "0x404"}
    cdir = mmc_card(r, "/sys/devices/platform/fe2e0000.mmc", "mmc0", "0001", emmc, "mmcblk0", 122142720,
                    [("mmcblk0p1", 32768, 614400), ("mmcblk0p2", 647168, 121495519)], dev=(179, 0))
    for j, bp in enumerate(("mmcblk0boot0", "mmcblk0boot1")):
        bd = cdir + "/block/mmcblk0/" + bp
        block_common(r, bd, 8192, ro=1)
        r.w(bd + "/dev", "179:%d" % (32 * (j + 1)))
        r.w(bd + "/force_ro", 1)
        r.link("/sys/block/" + bp, bd)
        r.link("/sys/class/block/" + bp, bd)
    sd = {"type": "SD", "name": "EC2QT", "manfid": "0x00001b", "oemid": "0x534d", "date": "01/2022",
          "hwrev": "0x3", "fwrev": "0x0", "serial": "0x5badcafe",
          "cid": "1b534d4543325154" + "30" + "5badcafe" + "0161" + "3b",
          "csd": "400e00325b590001dbd37f800a400000", "scr": "0235840300000000",
          "ocr": "0x00300000", "dsr": "0x404", "preferred_erase_size": 4194304, "erase_size": 512}
    mmc_card(r, "/sys/devices/platform/fe2c0000.mmc", "mmc1", "59b4", sd, "mmcblk1", 124702720,
             [("mmcblk1p1", 32768, 614400), ("mmcblk1p2", 647168, 124055519)], dev=(179, 96))

    rc = "/sys/devices/platform/fe150000.pcie/pci0000:00/0000:00:00.0"
    pci_dev(r, rc, "0000:00:00.0", "0x1d87", "0x3588", "0x060400", driver="pcieport",
            cur_speed="8.0 GT/s PCIe", cur_width=4, max_speed="8.0 GT/s PCIe", max_width=4, revision="0x01")
    ssd = rc + "/0000:01:00.0"
    pci_dev(r, ssd, "0000:01:00.0", "0x144d", "0xa808", "0x010802", driver="nvme",
            cur_speed="8.0 GT/s PCIe", cur_width=4, max_speed="8.0 GT/s PCIe", max_width=4,
            subsys=("0x144d", "0xa801"))
    nvme(r, ssd, "Samsung SSD 970 EVO Plus 1TB", "S4EWNX0R000FIXB", "2B2QEXM7", 1953525168,
         [("nvme0n1p1", 2048, 1953523120)], hwmon_n=7, temp=40850)
    rc2 = "/sys/devices/platform/fe190000.pcie/pci0004:40/0004:40:00.0"
    pci_dev(r, rc2, "0004:40:00.0", "0x1d87", "0x3588", "0x060400", driver="pcieport",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="5.0 GT/s PCIe", max_width=1, revision="0x01")
    nic = rc2 + "/0004:41:00.0"
    pci_dev(r, nic, "0004:41:00.0", "0x10ec", "0x8125", "0x020000", driver="r8125",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="5.0 GT/s PCIe", max_width=1,
            subsys=("0x10ec", "0x0123"), revision="0x05")
    netdev(r, nic, "enP4p65s0", "00:e0:4c:01:02:03", speed=2500, duplex="full", driver="r8125",
           driver_bus="pci", ifindex=2)
    loopback(r)

    # devfreq as the RK3588 BSP kernel registers it: memory controller, GPU
    # and NPU, the governors and clocks sbc-bench logs of ROCK 5B boards show.
    govs = "rknpu_ondemand dmc_ondemand userspace powersave performance simple_ondemand"
    gpu_npu = [300000000, 400000000, 500000000, 600000000, 700000000, 800000000, 900000000, 1000000000]
    devfreq_dev(r, "/sys/devices/platform/dmc", "dmc", "dmc_ondemand", govs,
                [528000000, 1068000000, 1560000000, 2112000000], cur=528000000,
                trans_stat="     From  :   To\n"
                           "           : 528000000106800000015600000002112000000   time(ms)\n"
                           "* 528000000:         0         0         0        37 110661386\n"
                           " 1068000000:        12         0         0         0     34776\n"
                           " 1560000000:         0         0         0         0         0\n"
                           " 2112000000:        26        12         0         0    224716\n"
                           "Total transition : 87\n")
    devfreq_dev(r, "/sys/devices/platform/fb000000.gpu", "fb000000.gpu", "simple_ondemand", govs, gpu_npu,
                cur=300000000)
    devfreq_dev(r, "/sys/devices/platform/fdab0000.npu", "fdab0000.npu", "rknpu_ondemand", govs, gpu_npu,
                cur=1000000000)

    mem = meminfo(16063108, 15621212, 15734332, 22308, 141260, 0, 0, cma_total=8192, cma_free=7944,
                  shmem=12)
    os_files(r,
             os_release='NAME="Ubuntu"\nVERSION="20.04.4 LTS (Focal Fossa)"\nID=ubuntu\nID_LIKE=debian\n'
                        'PRETTY_NAME="Ubuntu 20.04.4 LTS"\nVERSION_ID="20.04"\n'
                        'HOME_URL="https://www.ubuntu.com/"\nSUPPORT_URL="https://help.ubuntu.com/"\n'
                        'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\nVERSION_CODENAME=focal\n'
                        'UBUNTU_CODENAME=focal',
             osrelease="5.10.66-11-rockchip-geee2b32138fd", kversion="#rockchip SMP Mon Jul 4 02:04:48 UTC 2022",
             proc_version="Linux version 5.10.66-11-rockchip-geee2b32138fd (root@runner) (aarch64-linux-gnu-gcc "
                          "(Ubuntu 9.4.0-1ubuntu1~20.04.1) 9.4.0, GNU ld (GNU Binutils for Ubuntu) 2.34) "
                          "#rockchip SMP Mon Jul 4 02:04:48 UTC 2022",
             uname_m="aarch64", hostname="rock-5b", debian_version="bullseye/sid",
             ldd=ldd_out("ldd (Ubuntu GLIBC 2.31-0ubuntu9.9) 2.31"),
             gcc=gcc_out("gcc (Ubuntu 9.4.0-1ubuntu1~20.04.1) 9.4.0", "2019"), dpkg_arch="arm64",
             cmdline="storagemedia=emmc androidboot.storagemedia=emmc androidboot.mode=normal "
                     "root=UUID=3a6f0e41-5c4a-4d0b-9e43-6a1f2c0b9f11 console=ttyFIQ0,1500000n8 quiet "
                     "splash loglevel=4 rw earlycon consoleblank=0 console=tty1 coherent_pool=2M "
                     "irqchip.gicv3_pseudo_nmi=0 cgroup_enable=cpuset cgroup_memory=1 cgroup_enable=memory "
                     "swapaccount=1",
             mounts="/dev/mmcblk0p2 / ext4 rw,relatime,errors=remount-ro 0 0\nproc /proc proc rw,relatime 0 0\n"
                    "sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\n/dev/mmcblk0p1 /boot/efi vfat "
                    "rw,relatime 0 0\n/dev/nvme0n1p1 /data ext4 rw,relatime 0 0\n",
             swaps=swaps_old([]), meminfo_text=mem, loadavg="0.73 0.70 0.40 1/283 2467")
    userland(r, ELF_ARM64, merged_usr=True)
    return r


# ---------------------------------------------------------------- ROCK Pi 4C (RK3399)

ARMBIAN_ROCKPI4C = armbian_release("rockpi-4c", "Rockpi 4C", "rockchip64", "21.08.6", "rockchip64", "current",
                                   codename="buster")


def rk3399(base):
    r = Root(base)
    a53 = cpuinfo.arm_core("Cortex-A53", "r0p4", cpuinfo.HWCAPS_ARMV8_CRYPTO, "48.00")
    a72 = cpuinfo.arm_core("Cortex-A72", "r0p2", cpuinfo.HWCAPS_ARMV8_CRYPTO, "48.00")
    r.wraw("/proc/cpuinfo", cpuinfo.arm64([a53] * 4 + [a72] * 2))
    cpus = list(range(6))
    little = [408000, 600000, 816000, 1008000, 1200000, 1416000]
    big = little + [1608000, 1800000]
    pols = [dict(id=0, cpus=[0, 1, 2, 3], freqs=little, min=408000, max=1416000, cur=408000,
                 stats=stats_for(little, hot=4412, low=46432100), total_trans=81234),
            dict(id=4, cpus=[4, 5], freqs=big, min=408000, max=1800000, cur=408000,
                 stats=stats_for(big, hot=23411, low=46401234), total_trans=64102)]
    for p in pols:
        p.update(governor="ondemand", governors=GOVS, driver="cpufreq-dt", latency=40000)
    clusters = [[0, 1, 2, 3], [4, 5]]
    topo = {}
    for pkg, members in enumerate(clusters):
        for i, c in enumerate(members):
            topo[c] = arm_topology(c, i, pkg, [c], members, n=6)
    caches = {c: (arm_caches(32, 32, 512, [0, 1, 2, 3], self_cpu=c, ways={"l1i": 2, "l2": 16}) if c < 4 else
                  arm_caches(32, 48, 1024, [4, 5], self_cpu=c, ways={"l1d": 2, "l1i": 3, "l2": 16}))
              for c in cpus}
    cpu_tree(r, cpus, pols, kernel_max=255, topology=topo, caches=caches,
             capacity={c: (381 if c < 4 else 1024) for c in cpus})
    devicetree(r, "Radxa ROCK Pi 4C", ["radxa,rockpi4c", "radxa,rockpi4", "rockchip,rk3399"])

    thermal_zone(r, 0, "cpu-thermal", 41250, trips=[(70000, "passive"), (85000, "passive"), (95000, "critical")],
                 policy="power_allocator", hwmon=0)
    thermal_zone(r, 1, "gpu-thermal", 40625, trips=[(70000, "passive"), (95000, "critical")], hwmon=1)
    cooling_device(r, 0, "thermal-cpufreq-0", 0, 5)
    cooling_device(r, 1, "thermal-cpufreq-4", 0, 7)

    sd = {"type": "SD", "name": "EB1QT", "manfid": "0x00001b", "oemid": "0x534d", "date": "05/2019",
          "hwrev": "0x3", "fwrev": "0x0", "serial": "0x6badcafe",
          "cid": "1b534d4542315154" + "30" + "6badcafe" + "0135" + "77",
          "csd": "400e00325b590000e8d77f800a400000", "scr": "0235840300000000",
          "ocr": "0x00300000", "dsr": "0x404", "preferred_erase_size": 4194304, "erase_size": 512}
    mmc_card(r, "/sys/devices/platform/fe320000.mmc", "mmc1", "59b4", sd, "mmcblk1", 61071360,
             [("mmcblk1p1", 32768, 61038592)])
    rc = "/sys/devices/platform/f8000000.pcie/pci0000:00/0000:00:00.0"
    pci_dev(r, rc, "0000:00:00.0", "0x1d87", "0x0100", "0x060400", driver="pcieport",
            cur_speed="5.0 GT/s PCIe", cur_width=4, max_speed="5.0 GT/s PCIe", max_width=4)
    ssd = rc + "/0000:01:00.0"
    pci_dev(r, ssd, "0000:01:00.0", "0x15b7", "0x5009", "0x010802", driver="nvme",
            cur_speed="5.0 GT/s PCIe", cur_width=4, max_speed="8.0 GT/s PCIe", max_width=4,
            subsys=("0x15b7", "0x5009"), revision="0x01")
    nvme(r, ssd, "WDC WDS500G2B0C-00PXH0", "20310000FIX4", "211070WD", 976773168,
         [("nvme0n1p1", 2048, 976771120)], hwmon_n=2, temp=35850)
    netdev(r, "/sys/devices/platform/fe300000.ethernet", "eth0", "b6:2a:5c:01:02:03", speed=1000,
           duplex="full", driver="rk_gmac-dwmac", ifindex=2)
    loopback(r)

    zram(r, 0, 2025279488, "lzo [lzo-rle] lz4 lz4hc 842 zstd", used_orig=120012800, used_compr=32100100)
    zram(r, 1, 52428800, "lzo lzo-rle lz4 lz4hc 842 [zstd]", used_orig=9441280, used_compr=1802240)
    mem = meminfo(3955620, 3245112, 3354840, 41220, 158320, 1977812, 1896916, cma_total=65536, cma_free=60188,
                  shmem=12288)
    os_files(r,
             os_release='PRETTY_NAME="Armbian 21.08.6 Buster"\nNAME="Debian GNU/Linux"\nVERSION_ID="10"\n'
                        'VERSION="10 (buster)"\nVERSION_CODENAME=buster\nID=debian\n'
                        'HOME_URL="https://www.armbian.com"\nSUPPORT_URL="https://forum.armbian.com"\n'
                        'BUG_REPORT_URL="https://www.armbian.com/bugs"\nARMBIAN_PRETTY_NAME="Armbian 21.08.6 Buster"',
             osrelease="5.10.63-rockchip64", kversion="#21.08.2 SMP PREEMPT Wed Sep 8 10:53:21 UTC 2021",
             proc_version="Linux version 5.10.63-rockchip64 (root@beast) (aarch64-linux-gnu-gcc (GNU Toolchain "
                          "for the A-profile Architecture 8.3-2019.03 (arm-rel-8.36)) 8.3.0, GNU ld (GNU Toolchain "
                          "for the A-profile Architecture 8.3-2019.03 (arm-rel-8.36)) 2.32.0.20190321) "
                          "#21.08.2 SMP PREEMPT Wed Sep 8 10:53:21 UTC 2021",
             uname_m="aarch64", hostname="serv", debian_version="10.11",
             extra_etc={"/etc/armbian-release": ARMBIAN_ROCKPI4C},
             ldd=ldd_out("ldd (Debian GLIBC 2.28-10) 2.28", "2018"),
             gcc=gcc_out("gcc (Debian 8.3.0-6) 8.3.0", "2018"), dpkg_arch="arm64",
             cmdline="root=UUID=0b6e3e72-7bb4-4c5e-86a3-2f2d2d5a9c10 rootwait rootfstype=ext4 console=ttyS2,1500000 "
                     "console=tty1 consoleblank=0 loglevel=1 ubootpart=9e3d5a1c-01 usb-storage.quirks= "
                     "cgroup_enable=cpuset cgroup_memory=1 cgroup_enable=memory swapaccount=1",
             mounts="/dev/nvme0n1p1 / ext4 rw,noatime,nodiratime,errors=remount-ro,commit=600 0 0\n"
                    "proc /proc proc rw,relatime 0 0\nsysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\n"
                    "/dev/mmcblk1p1 /media/mmcboot ext4 rw,noatime,nodiratime,errors=remount-ro,commit=600 0 0\n"
                    "/dev/zram1 /var/log ext4 rw,relatime,discard 0 0\n",
             swaps=swaps_old([("/dev/zram0", "partition", 1977812, 80896, 5)]), meminfo_text=mem,
             loadavg="0.23 0.16 0.11 1/215 30123")
    userland(r, ELF_ARM64, merged_usr=False)
    return r


# ---------------------------------------------------------------- ODROID-N2+ (S922X)

ARMBIAN_N2 = armbian_release("odroidn2", "Odroid N2", "meson-g12b", "23.02.2", "meson64", "current")


def n2plus(base):
    r = Root(base)
    a53 = cpuinfo.arm_core("Cortex-A53", "r0p4", cpuinfo.HWCAPS_ARMV8_CRYPTO, "48.00")
    a73 = cpuinfo.arm_core("Cortex-A73", "r0p2", cpuinfo.HWCAPS_ARMV8_CRYPTO, "48.00")
    r.wraw("/proc/cpuinfo", cpuinfo.arm64([a53] * 2 + [a73] * 4))
    cpus = list(range(6))
    a53 = [1000000, 1200000, 1398000, 1512000, 1608000, 1704000, 1800000, 1908000, 2016000]
    a73 = [1000000, 1200000, 1398000, 1512000, 1608000, 1704000, 1800000, 1908000, 2016000, 2108000, 2208000,
           2304000, 2400000]
    pols = [dict(id=0, cpus=[0, 1], freqs=a53, min=1000000, max=2016000, cur=1000000,
                 stats=stats_for(a53, hot=21234, low=341100), total_trans=4410),
            dict(id=2, cpus=[2, 3, 4, 5], freqs=a73, min=1000000, max=2400000, cur=1000000,
                 stats=stats_for(a73, hot=50321, low=312099), total_trans=6012)]
    for p in pols:
        p.update(governor="schedutil", governors=GOVS, driver="cpufreq-dt", latency=50000)
    # Linux 6.1: package is the whole SoC, the cpu-map clusters become cluster_id.
    clusters = [[0, 1], [2, 3, 4, 5]]
    topo = {}
    for cl, members in enumerate(clusters):
        for i, c in enumerate(members):
            topo[c] = arm_topology(c, i, 0, [c], cpus, cluster_id=cl, cluster_cpus=members, n=6)
    caches = {c: (arm_caches(32, 32, 256, [0, 1], self_cpu=c, ways={"l1i": 2, "l2": 16}) if c < 2 else
                  arm_caches(64, 64, 1024, [2, 3, 4, 5], self_cpu=c, ways={"l2": 16}))
              for c in cpus}
    cpu_tree(r, cpus, pols, kernel_max=255, topology=topo, caches=caches,
             capacity={c: (497 if c < 2 else 1024) for c in cpus})
    devicetree(r, "Hardkernel ODROID-N2Plus", ["hardkernel,odroid-n2-plus", "amlogic,s922x", "amlogic,g12b"])
    soc = "/sys/devices/soc0"
    r.w(soc + "/family", "Amlogic Meson")
    r.w(soc + "/soc_id", "G12B (S922X)")
    r.w(soc + "/revision", "29:c - 40:2")
    r.w(soc + "/machine", "Hardkernel ODROID-N2Plus")
    r.link("/sys/bus/soc/devices/soc0", soc)

    thermal_zone(r, 0, "cpu-thermal", 28400, trips=[(85000, "passive"), (95000, "hot"), (110000, "critical")],
                 hwmon=0)
    thermal_zone(r, 1, "ddr-thermal", 30700, trips=[(85000, "passive"), (95000, "hot"), (110000, "critical")],
                 hwmon=1)
    cooling_device(r, 0, "cpufreq-cpu0", 0, 8)
    cooling_device(r, 1, "cpufreq-cpu2", 0, 12)

    emmc = {"type": "MMC", "name": "AJTD4R", "manfid": "0x000015", "oemid": "0x0100", "date": "06/2021",
            "hwrev": "0x0", "fwrev": "0x0", "rev": "0x8", "serial": "0x7badd00d",
            "cid": "150100414a54443452" + "00" + "7badd00d" + "65" + "b1",
            "life_time": "0x01 0x01", "pre_eol_info": "0x01", "firmware_version": "0x0500000000000000",
            "preferred_erase_size": 524288, "erase_size": 524288, "ocr": "0x00000000", "dsr": "0x404",
            "raw_rpmb_size_mult": "0x20", "rel_sectors": "0x1"}
    mmc_card(r, "/sys/devices/platform/soc/ffe07000.mmc", "mmc1", "0001", emmc, "mmcblk1", 30535680,
             [("mmcblk1p1", 32768, 30502879)])
    netdev(r, "/sys/devices/platform/soc/ff3f0000.ethernet", "eth0", "00:1e:06:01:02:03", speed=1000,
           duplex="full", driver="meson8b-dwmac", ifindex=2)
    loopback(r)

    zram(r, 0, 1984557056, "lzo lzo-rle lz4 lz4hc 842 [zstd]")
    zram(r, 1, 52428800, "lzo lzo-rle lz4 lz4hc 842 [zstd]", used_orig=2379776, used_compr=412300)
    mem = meminfo(3876088, 3565320, 3600112, 20012, 110508, 1938044, 1938044, cma_total=917504, cma_free=878300,
                  shmem=5120)
    os_files(r,
             os_release='PRETTY_NAME="Armbian 23.02.2 Bullseye"\nNAME="Debian GNU/Linux"\nVERSION_ID="11"\n'
                        'VERSION="11 (bullseye)"\nVERSION_CODENAME=bullseye\nID=debian\n'
                        'HOME_URL="https://www.armbian.com"\nSUPPORT_URL="https://forum.armbian.com"\n'
                        'BUG_REPORT_URL="https://www.armbian.com/bugs"\nARMBIAN_PRETTY_NAME="Armbian 23.02.2 Bullseye"',
             osrelease="6.1.11-meson64", kversion="#23.02.2 SMP PREEMPT Sat Feb 18 00:07:55 UTC 2023",
             proc_version="Linux version 6.1.11-meson64 (root@a9a4a8b2c3d4) (aarch64-linux-gnu-gcc (Ubuntu "
                          "11.3.0-1ubuntu1~22.04) 11.3.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #23.02.2 SMP "
                          "PREEMPT Sat Feb 18 00:07:55 UTC 2023",
             uname_m="aarch64", hostname="odroidn2", debian_version="11.6",
             extra_etc={"/etc/armbian-release": ARMBIAN_N2},
             ldd=ldd_out("ldd (Debian GLIBC 2.31-13+deb11u5) 2.31"),
             gcc=gcc_out("gcc (Debian 10.2.1-6) 10.2.1 20210110"), dpkg_arch="arm64",
             cmdline="root=UUID=6a1c3b1e-2d7b-4b8e-8f2f-1c2d3e4f5a6b rootwait rootfstype=ext4 console=ttyAML0,115200 "
                     "console=tty1 consoleblank=0 coherent_pool=2M loglevel=1 ubootpart=00000000-01",
             mounts="/dev/mmcblk1p1 / ext4 rw,noatime,nodiratime,errors=remount-ro,commit=600 0 0\n"
                    "proc /proc proc rw,relatime 0 0\nsysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\n"
                    "/dev/zram1 /var/log ext4 rw,relatime,discard 0 0\n",
             swaps=swaps_new([("/dev/zram0", "partition", 1938044, 0, 5)]), meminfo_text=mem,
             loadavg="0.31 0.36 0.19 1/187 3310")
    userland(r, ELF_ARM64, merged_usr=False)
    return r


# ---------------------------------------------------------------- Orange Pi Zero3 (H618)

ARMBIAN_ZERO3 = armbian_release("orangepizero3", "Orange Pi Zero3", "sun50iw9", "24.2.1", "sunxi64", "current")


def zero3(base):
    r = Root(base)
    a53 = cpuinfo.arm_core("Cortex-A53", "r0p4", cpuinfo.HWCAPS_ARMV8_CRYPTO, "48.00")
    r.wraw("/proc/cpuinfo", cpuinfo.arm64([a53] * 4))
    cpus = [0, 1, 2, 3]
    freqs = [480000, 600000, 792000, 1008000, 1200000, 1344000, 1416000, 1512000]
    pols = [dict(id=0, cpus=cpus, freqs=freqs, min=480000, max=1512000, cur=480000, governor="ondemand",
                 governors=GOVS, driver="cpufreq-dt", latency=244144,
                 stats=stats_for(freqs, hot=81234, low=410023), total_trans=9810)]
    # No cpu-map in the H616/H618 device tree: cluster_id stays -1.
    topo = {c: arm_topology(c, c, 0, [c], cpus, cluster_id=-1, cluster_cpus=cpus, n=4) for c in cpus}
    cpu_tree(r, cpus, pols, kernel_max=3, topology=topo, capacity={c: 1024 for c in cpus})
    devicetree(r, "OrangePi Zero3", ["xunlong,orangepi-zero3", "allwinner,sun50i-h618"])

    thermal_zone(r, 0, "cpu-thermal", 41900, trips=[(85000, "passive"), (100000, "critical")], hwmon=0)
    thermal_zone(r, 1, "gpu-thermal", 41900, trips=[(100000, "critical")], hwmon=1)
    thermal_zone(r, 2, "ve-thermal", 41500, hwmon=2)
    thermal_zone(r, 3, "ddr-thermal", 42100, hwmon=3)
    cooling_device(r, 0, "cpufreq-cpu0", 0, 7)

    sd = {"type": "SD", "name": "SC32G", "manfid": "0x000003", "oemid": "0x5344", "date": "11/2022",
          "hwrev": "0x8", "fwrev": "0x0", "serial": "0x8badcafe",
          "cid": "035344534333324780" + "8badcafe" + "016b" + "11",
          "csd": "400e00325b590000edc87f800a404000", "scr": "0235800300000000",
          "ocr": "0x00300000", "dsr": "0x404", "preferred_erase_size": 4194304, "erase_size": 512}
    mmc_card(r, "/sys/devices/platform/soc/4020000.mmc", "mmc0", "aaaa", sd, "mmcblk0", 62333952,
             [("mmcblk0p1", 8192, 62325760)])

    # USB 2.0 host port: a USB stick through usb-storage at high speed.
    ehci = "/sys/devices/platform/soc/5200000.usb"
    usb_dev(r, ehci + "/usb3", "usb3", {"speed": 480, "idVendor": "1d6b", "idProduct": "0002",
                                        "version": " 2.00", "bDeviceClass": "09", "busnum": 3, "devnum": 1,
                                        "manufacturer": "Linux 6.6.16-current-sunxi64 ehci_hcd",
                                        "product": "EHCI Host Controller", "maxchild": 1})
    stick = ehci + "/usb3/3-1"
    usb_dev(r, stick, "3-1", {"speed": 480, "idVendor": "0781", "idProduct": "5583", "version": " 2.10",
                              "bDeviceClass": "00", "busnum": 3, "devnum": 2, "manufacturer": "SanDisk",
                              "product": "Ultra Fit", "serial": "4C530001FIXTURE0ZERO3", "bMaxPower": "224mA",
                              "removable": "unknown"})
    usb_iface(r, stick + "/3-1:1.0", "3-1:1.0", "08", "06", "50", "usb-storage")
    scsi_disk(r, stick + "/3-1:1.0/host0/target0:0:0/0:0:0:0", "0:0:0:0", "SanDisk", "Ultra Fit", "1.00",
              "sda", 60063744, [("sda1", 2048, 60061696)], removable=1)

    netdev(r, "/sys/devices/platform/soc/5020000.ethernet", "end0", "02:81:5e:01:02:03", speed=1000,
           duplex="full", driver="dwmac-sun8i", ifindex=2)
    loopback(r)

    zram(r, 0, 2060767232, "lzo lzo-rle lz4 lz4hc 842 [zstd]", used_orig=3145728, used_compr=901120)
    mem = meminfo(4021540, 3640212, 3671300, 29900, 130210, 2012468, 2009396, cma_total=65536, cma_free=61800,
                  shmem=5120)
    os_files(r,
             os_release='PRETTY_NAME="Armbian 24.2.1 bookworm"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\n'
                        'VERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n'
                        'HOME_URL="https://www.armbian.com"\nSUPPORT_URL="https://forum.armbian.com"\n'
                        'BUG_REPORT_URL="https://www.armbian.com/bugs"\nARMBIAN_PRETTY_NAME="Armbian 24.2.1 bookworm"',
             osrelease="6.6.16-current-sunxi64", kversion="#1 SMP Fri Feb 23 08:25:28 UTC 2024",
             proc_version="Linux version 6.6.16-current-sunxi64 (build@armbian) (aarch64-linux-gnu-gcc (Ubuntu "
                          "11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #1 SMP Fri Feb 23 "
                          "08:25:28 UTC 2024",
             uname_m="aarch64", hostname="orangepizero3", debian_version="12.5",
             extra_etc={"/etc/armbian-release": ARMBIAN_ZERO3},
             ldd=ldd_out("ldd (Debian GLIBC 2.36-9+deb12u4) 2.36", "2022"), dpkg_arch="arm64",
             cmdline="root=UUID=2b7e1c8a-4f3d-4e2a-9b1c-5d6e7f8a9b0c rootwait rootfstype=ext4 splash=verbose "
                     "console=ttyS0,115200 console=tty1 consoleblank=0 loglevel=1 ubootpart=1a2b3c4d-01",
             mounts="/dev/mmcblk0p1 / ext4 rw,noatime,errors=remount-ro,commit=600 0 0\nproc /proc proc "
                    "rw,relatime 0 0\nsysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\n"
                    "/dev/sda1 /mnt/usb vfat rw,relatime 0 0\n",
             swaps=swaps_new([("/dev/zram0", "partition", 2012468, 3072, 5)]), meminfo_text=mem,
             loadavg="2.05 1.71 1.51 1/156 5021")
    userland(r, ELF_ARM64, merged_usr=True)
    return r


# ---------------------------------------------------------------- Qualcomm QCS6490 (Rubik Pi 3)

def qcs6490(base):
    r = Root(base)
    # Timer at 19.2 MHz: BogoMIPS 38.40. CPUs 4-7 are all Cortex-A78 r1p1 (the prime core is the same core type).
    a55 = cpuinfo.arm_core("Cortex-A55", "r2p0", cpuinfo.HWCAPS_ARMV82, "38.40")
    a78 = cpuinfo.arm_core("Cortex-A78", "r1p1", cpuinfo.HWCAPS_ARMV82, "38.40")
    r.wraw("/proc/cpuinfo", cpuinfo.arm64([a55] * 4 + [a78] * 4))
    cpus = list(range(8))
    p0 = [300000, 691200, 806400, 940800, 1152000, 1324800, 1516800, 1651200, 1804800, 1958400]
    p4 = [691200, 940800, 1228800, 1344000, 1516800, 1651200, 1900800, 2054400, 2131200, 2400000]
    p7 = [806400, 1056000, 1324800, 1516800, 1766400, 1862400, 2035200, 2208000, 2380800, 2515200, 2707200]
    pols = [dict(id=0, cpus=[0, 1, 2, 3], freqs=p0, min=300000, max=1958400, cur=300000,
                 stats=stats_for(p0, hot=41234, low=80012), total_trans=20311),
            dict(id=4, cpus=[4, 5, 6], freqs=p4, min=691200, max=2400000, cur=691200,
                 stats=stats_for(p4, hot=30123, low=90412), total_trans=14210),
            dict(id=7, cpus=[7], freqs=p7, min=806400, max=2707200, cur=806400,
                 stats=stats_for(p7, hot=20456, low=100345), total_trans=9021)]
    for p in pols:
        p.update(governor="schedutil", governors=GOVS, driver="qcom-cpufreq-hw", latency=0)
    # One DSU cluster in the device tree's cpu-map.
    topo = {c: arm_topology(c, c, 0, [c], cpus, cluster_id=0, cluster_cpus=cpus, n=8) for c in cpus}
    cpu_tree(r, cpus, pols, kernel_max=7, topology=topo,
             capacity={c: (382 if c < 4 else 889 if c < 7 else 1024) for c in cpus})
    devicetree(r, "Thundercomm, Inc. Rubik Pi C6490P", ["qcom,qcm6490-addons-idp", "qcom,sc7280"])
    soc = "/sys/devices/soc0"
    r.w(soc + "/family", "Snapdragon")
    r.w(soc + "/machine", "QCS6490")
    r.w(soc + "/soc_id", "498")
    r.w(soc + "/revision", "1.0")
    r.w(soc + "/serial_number", "3735928559")
    r.link("/sys/bus/soc/devices/soc0", soc)

    zones = ["aoss0-thermal", "cpuss0-thermal", "cpuss1-thermal", "cpu0-thermal", "cpu1-thermal",
             "cpu2-thermal", "cpu3-thermal", "cpu4-thermal", "cpu5-thermal", "cpu6-thermal", "cpu7-thermal",
             "gpuss0-thermal", "pm7325-thermal", "sdm-skin-thermal", "xo-thermal"]
    temps = [35600, 37200, 37200, 36800, 36800, 36400, 36400, 37200, 35600, 36000, 36400, 35500, 37000, 34600,
             34000]
    for i, (z, t) in enumerate(zip(zones, temps)):
        if z.startswith("cpu"):
            trips = [(90000, "passive"), (95000, "passive"), (110000, "critical")]
        elif z == "pm7325-thermal":
            trips = [(95000, "passive"), (115000, "passive"), (145000, "critical")]
        else:
            trips = [(90000, "hot")]
        thermal_zone(r, i, z, t, trips=trips, hwmon=i)

    ufs = "/sys/devices/platform/soc@0/1d84000.ufs"
    r.link(ufs + "/driver", "/sys/bus/platform/drivers/ufshcd-qcom")
    r.mkdir("/sys/bus/platform/drivers/ufshcd-qcom")
    scsi_disk(r, ufs + "/host0/target0:0:0/0:0:0:0", "0:0:0:0", "SAMSUNG", "KLUDG4UHGC-B0E1", "0500",
              "sda", 247717888, [("sda1", 48, 2048), ("sda2", 2096, 247715712)],
              scheduler="[mq-deadline] kyber bfq none")
    r.w(ufs + "/host0/target0:0:0/0:0:0:0/block/sda/queue/logical_block_size", 4096)
    r.w(ufs + "/host0/target0:0:0/0:0:0:0/block/sda/queue/physical_block_size", 4096)
    r.w(ufs + "/host0/target0:0:0/0:0:0:0/block/sda/queue/hw_sector_size", 4096)
    r.w(ufs + "/device_descriptor/specification_version", "0x0310")
    r.w(ufs + "/device_descriptor/manufacturer_id", "0x01ce")

    rc = "/sys/devices/platform/soc@0/1c08000.pcie/pci0001:00/0001:00:00.0"
    pci_dev(r, rc, "0001:00:00.0", "0x17cb", "0x010b", "0x060400", driver="pcieport",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="8.0 GT/s PCIe", max_width=2)
    nic = rc + "/0001:01:00.0"
    pci_dev(r, nic, "0001:01:00.0", "0x10ec", "0x8168", "0x020000", driver="r8169",
            cur_speed="2.5 GT/s PCIe", cur_width=1, max_speed="2.5 GT/s PCIe", max_width=1,
            subsys=("0x10ec", "0x0123"), revision="0x2e")
    netdev(r, nic, "enP1p1s0", "00:e0:4c:01:02:03", speed=1000, duplex="full", driver="r8169",
           driver_bus="pci", ifindex=2)
    loopback(r)

    zram(r, 0, 5665333248, "lzo lzo-rle lz4 lz4hc 842 [zstd]")
    mem = meminfo(7575060, 6920840, 7025100, 10412, 140088, 5532552, 5532552, cma_total=524288,
                  cma_free=501236, shmem=2970)
    os_files(r,
             os_release='PRETTY_NAME="Debian GNU/Linux trixie/sid"\nNAME="Debian GNU/Linux"\n'
                        'VERSION_CODENAME=trixie\nID=debian\nHOME_URL="https://www.debian.org/"\n'
                        'SUPPORT_URL="https://www.debian.org/support"\nBUG_REPORT_URL="https://bugs.debian.org/"',
             osrelease="6.6.38", kversion="#1 SMP PREEMPT Wed Mar 26 11:40:28 UTC 2025",
             proc_version="Linux version 6.6.38 (oe-user@oe-host) (aarch64-qcom-linux-gcc (GCC) 13.3.0, GNU ld "
                          "(GNU Binutils) 2.42.0.20240716) #1 SMP PREEMPT Wed Mar 26 11:40:28 UTC 2025",
             uname_m="aarch64", hostname="RUBIKPi", debian_version="trixie/sid",
             ldd=ldd_out("ldd (Debian GLIBC 2.41-7) 2.41", "2025"),
             gcc=gcc_out("gcc (Debian 14.2.0-19) 14.2.0", "2024"), dpkg_arch="arm64",
             cmdline="root=/dev/disk/by-partlabel/system rw rootwait console=ttyMSM0,115200n8 pcie_pme=nomsi "
                     "earlycon swiotlb=128",
             mounts="/dev/sda2 / ext4 rw,relatime 0 0\nproc /proc proc rw,relatime 0 0\nsysfs /sys sysfs "
                    "rw,nosuid,nodev,noexec,relatime 0 0\n",
             swaps=swaps_new([("/dev/zram0", "partition", 5532552, 0, 32758)]), meminfo_text=mem,
             loadavg="0.02 0.05 0.09 1/301 1402")
    userland(r, ELF_ARM64, merged_usr=True)
    return r
