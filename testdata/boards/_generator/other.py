"""RISC-V (VisionFive 2), x86 hybrid (Intel NUC 12 Pro), cpuinfo-only root."""
import os
from common import *
import cpuinfo

GOVS = "conservative ondemand userspace powersave performance schedutil"


def visionfive2(base):
    r = Root(base)
    # Four SiFive U74-MC harts (1-4; hart 0 is the S7 monitor core Linux does not run on).
    r.wraw("/proc/cpuinfo", cpuinfo.riscv(
        [1, 2, 3, 4], isa="rv64imafdc_zicntr_zicsr_zifencei_zihpm_zaamo_zalrsc_zca_zcd_zba_zbb", mmu="sv39",
        uarch="sifive,u74-mc", mvendorid="0x489", marchid="0x8000000000000007", mimpid="0x4210427"))
    cpus = [0, 1, 2, 3]
    freqs = [375000, 500000, 750000, 1500000]
    pols = [dict(id=0, cpus=cpus, freqs=freqs, min=375000, max=1500000, cur=1500000, governor="schedutil",
                 governors=GOVS, driver="cpufreq-dt", latency=0,
                 stats=stats_for(freqs, hot=120034, low=40312), total_trans=1823)]
    topo = {c: arm_topology(c, c, 0, [c], cpus, cluster_id=0, cluster_cpus=cpus, n=4) for c in cpus}
    caches = {c: arm_caches(32, 32, 2048, cpus, self_cpu=c, ways={"l1d": 8, "l1i": 2, "l2": 16}) for c in cpus}
    cpu_tree(r, cpus, pols, kernel_max=63, cpu0_online=False, topology=topo, caches=caches,
             capacity={c: 1024 for c in cpus})
    devicetree(r, "StarFive VisionFive 2 v1.3B", ["starfive,visionfive-2-v1.3b", "starfive,jh7110"])

    # sfctemp registers the DT thermal zone itself, so the zone has no hwmon of its own.
    thermal_zone(r, 0, "cpu-thermal", 45230, trips=[(85000, "passive"), (100000, "critical")])
    cooling_device(r, 0, "cpufreq-cpu0", 0, 3)
    hwmon(r, 0, "/sys/devices/platform/soc/120e0000.temperature-sensor", "sfctemp", {"temp1_input": 45230})

    sd = {"type": "SD", "name": "SR64G", "manfid": "0x000003", "oemid": "0x5344", "date": "02/2023",
          "hwrev": "0x8", "fwrev": "0x0", "serial": "0x9badcafe",
          "cid": "035344535236344780" + "9badcafe" + "0172" + "5d",
          "csd": "400e0032db790001dbd37f800a404000", "scr": "0245848700000000",
          "ocr": "0x00300000", "dsr": "0x404", "preferred_erase_size": 4194304, "erase_size": 512}
    mmc_card(r, "/sys/devices/platform/soc/16020000.mmc", "mmc1", "aaaa", sd, "mmcblk1", 124735488,
             [("mmcblk1p1", 4096, 4096), ("mmcblk1p2", 8192, 8192), ("mmcblk1p3", 16384, 204800),
              ("mmcblk1p4", 221184, 124514271)])

    # PCIe0 carries the VL805 USB controller, PCIe1 the M.2 slot (one Gen2 lane).
    rc0 = "/sys/devices/platform/soc/2b000000.pcie/pci0000:00/0000:00:00.0"
    pci_dev(r, rc0, "0000:00:00.0", "0x1556", "0x1111", "0x060400", driver="pcieport",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="5.0 GT/s PCIe", max_width=1, revision="0x02")
    pci_dev(r, rc0 + "/0000:01:00.0", "0000:01:00.0", "0x1106", "0x3483", "0x0c0330", driver="xhci_hcd",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="5.0 GT/s PCIe", max_width=1,
            subsys=("0x1106", "0x3483"), revision="0x01")
    rc1 = "/sys/devices/platform/soc/2c000000.pcie/pci0001:00/0001:00:00.0"
    pci_dev(r, rc1, "0001:00:00.0", "0x1556", "0x1111", "0x060400", driver="pcieport",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="5.0 GT/s PCIe", max_width=1, revision="0x02")
    ssd = rc1 + "/0001:01:00.0"
    pci_dev(r, ssd, "0001:01:00.0", "0x126f", "0x2263", "0x010802", driver="nvme",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="8.0 GT/s PCIe", max_width=4,
            subsys=("0x126f", "0x2263"), revision="0x03")
    nvme(r, ssd, "HP SSD EX900 250GB", "HBSE00000FIXV2", "S0614B0", 488397168,
         [("nvme0n1p1", 2048, 488395120)], hwmon_n=1, temp=34850)

    netdev(r, "/sys/devices/platform/soc/16030000.ethernet", "end0", "6c:cf:39:01:02:03", speed=1000,
           duplex="full", driver="starfive-dwmac", ifindex=2)
    netdev(r, "/sys/devices/platform/soc/16040000.ethernet", "end1", "6c:cf:39:01:02:05", speed=-1,
           duplex="unknown", operstate="down", carrier=0, driver="starfive-dwmac", ifindex=3)
    loopback(r)

    mem = meminfo(8061244, 7620512, 7712004, 12040, 98120, 0, 0, cma_total=524288, cma_free=520192,
                  shmem=6348)
    os_files(r,
             os_release='PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nNAME="Debian GNU/Linux"\nVERSION_ID="13"\n'
                        'VERSION="13 (trixie)"\nVERSION_CODENAME=trixie\nDEBIAN_VERSION_FULL=13.0\nID=debian\n'
                        'HOME_URL="https://www.debian.org/"\nSUPPORT_URL="https://www.debian.org/support"\n'
                        'BUG_REPORT_URL="https://bugs.debian.org/"',
             osrelease="6.12.38+deb13-riscv64", kversion="#1 SMP Debian 6.12.38-1 (2025-07-16)",
             proc_version="Linux version 6.12.38+deb13-riscv64 (debian-kernel@lists.debian.org) (riscv64-linux-gnu-gcc"
                          "-14 (Debian 14.2.0-19) 14.2.0, GNU ld (GNU Binutils for Debian) 2.44) #1 SMP Debian "
                          "6.12.38-1 (2025-07-16)",
             uname_m="riscv64", hostname="medved", debian_version="13.0",
             ldd=ldd_out("ldd (Debian GLIBC 2.41-12) 2.41", "2025"),
             gcc=gcc_out("gcc (Debian 14.2.0-19) 14.2.0", "2024"), dpkg_arch="riscv64",
             cmdline="root=/dev/mmcblk1p4 rw console=tty0 console=ttyS0,115200 earlycon rootwait",
             mounts="/dev/mmcblk1p4 / ext4 rw,relatime 0 0\nproc /proc proc rw,relatime 0 0\nsysfs /sys sysfs "
                    "rw,nosuid,nodev,noexec,relatime 0 0\n/dev/nvme0n1p1 /srv ext4 rw,relatime 0 0\n",
             swaps=swaps_new([]), meminfo_text=mem, loadavg="1.97 1.14 0.54 1/139 912")
    userland(r, ELF_RISCV64, merged_usr=True)
    return r


# ---------------------------------------------------------------- Intel NUC 12 Pro (i5-1240P)

X86_FLAGS = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi mmx fxsr sse "
             "sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc art arch_perfmon pebs bts rep_good nopl "
             "xtopology nonstop_tsc cpuid aperfmperf tsc_known_freq pni pclmulqdq dtes64 monitor ds_cpl vmx smx est "
             "tm2 ssse3 sdbg fma cx16 xtpr pdcm sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx "
             "f16c rdrand lahf_lm abm 3dnowprefetch cpuid_fault epb ssbd ibrs ibpb stibp ibrs_enhanced tpr_shadow "
             "flexpriority ept vpid ept_ad fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid rdseed adx smap "
             "clflushopt clwb intel_pt sha_ni xsaveopt xsavec xgetbv1 xsaves split_lock_detect user_shstk avx_vnni "
             "dtherm ida arat pln pts hwp hwp_notify hwp_act_window hwp_epp hwp_pkg_req hfi vnmi umip pku ospke "
             "waitpkg gfni vaes vpclmulqdq rdpid movdiri movdir64b fsrm md_clear serialize arch_lbr ibt flush_l1d "
             "arch_capabilities")
X86_VMX = ("vnmi preemption_timer posted_intr invvpid ept_x_only ept_ad ept_1gb flexpriority apicv tsc_offset vtpr "
           "mtf vapic ept vpid unrestricted_guest vapic_reg vid ple shadow_vmcs ept_mode_based_exec tsc_scaling "
           "usr_wait_pause")
X86_BUGS = "spectre_v1 spectre_v2 spec_store_bypass swapgs eibrs_pbrsb rfds bhi"


def intel_cpuinfo(layout):
    out = []
    for cpu, (core, apic, mhz) in enumerate(layout):
        out.append(
            "processor\t: %d\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 154\n"
            "model name\t: 12th Gen Intel(R) Core(TM) i5-1240P\nstepping\t: 3\nmicrocode\t: 0x434\n"
            "cpu MHz\t\t: %.3f\ncache size\t: 12288 KB\nphysical id\t: 0\nsiblings\t: 16\ncore id\t\t: %d\n"
            "cpu cores\t: 12\napicid\t\t: %d\ninitial apicid\t: %d\nfpu\t\t: yes\nfpu_exception\t: yes\n"
            "cpuid level\t: 32\nwp\t\t: yes\nflags\t\t: %s\nvmx flags\t: %s\nbugs\t\t: %s\n"
            "bogomips\t: 4224.00\nclflush size\t: 64\ncache_alignment\t: 64\n"
            "address sizes\t: 39 bits physical, 48 bits virtual\npower management:\n\n"
            % (cpu, mhz, core, apic, apic, X86_FLAGS, X86_VMX, X86_BUGS))
    return "".join(out)


def intel(base):
    r = Root(base)
    # CPUs 0-7: four Golden Cove cores with two threads each; 8-15: eight Gracemont cores.
    layout = []
    for i in range(4):
        for t in range(2):
            layout.append((i * 4, i * 8 + t, 400.0 + 37 * (2 * i + t)))
    for i in range(8):
        layout.append((16 + i, 32 + 2 * i, 400.0 + 11 * i))
    r.w("/proc/cpuinfo", intel_cpuinfo(layout).rstrip("\n") + "\n")
    cpus = list(range(16))
    topo = {}
    caches = {}
    for c, (core, apic, _) in enumerate(layout):
        p = c < 8
        thr = [c - c % 2, c - c % 2 + 1] if p else [c]
        l2 = thr if p else ([8, 9, 10, 11] if c < 12 else [12, 13, 14, 15])
        t = arm_topology(c, core, 0, thr, cpus, cluster_id=(apic & ~1 if p else apic & ~7), cluster_cpus=l2, n=16)
        t["die_id"] = 0
        t["die_cpus_list"] = cpulist(cpus)
        t["die_cpus"] = cpumask(cpus, 16)
        topo[c] = t
        if p:
            cl = [dict(level=1, type="Data", size="48K", ways_of_associativity=12, coherency_line_size=64,
                       number_of_sets=64, physical_line_partition=1, id=core, shared=thr),
                  dict(level=1, type="Instruction", size="32K", ways_of_associativity=8, coherency_line_size=64,
                       number_of_sets=64, physical_line_partition=1, id=core, shared=thr),
                  dict(level=2, type="Unified", size="1280K", ways_of_associativity=10, coherency_line_size=64,
                       number_of_sets=2048, physical_line_partition=1, id=core // 4, shared=l2)]
        else:
            cl = [dict(level=1, type="Data", size="32K", ways_of_associativity=8, coherency_line_size=64,
                       number_of_sets=64, physical_line_partition=1, id=core, shared=thr),
                  dict(level=1, type="Instruction", size="64K", ways_of_associativity=8, coherency_line_size=64,
                       number_of_sets=128, physical_line_partition=1, id=core, shared=thr),
                  dict(level=2, type="Unified", size="2048K", ways_of_associativity=16, coherency_line_size=64,
                       number_of_sets=2048, physical_line_partition=1, id=4 + (c - 8) // 4, shared=l2)]
        cl.append(dict(level=3, type="Unified", size="12288K", ways_of_associativity=12, coherency_line_size=64,
                       number_of_sets=16384, physical_line_partition=1, id=0, shared=cpus))
        caches[c] = cl
    pols = []
    for c in cpus:
        p = c < 8
        pols.append(dict(id=c, cpus=[c], freqs=None, min=400000, max=4400000 if p else 3300000,
                         cur=int(layout[c][2] * 1000), governor="powersave", governors="performance powersave",
                         driver="intel_pstate", latency=0,
                         extra={"base_frequency": 1700000 if p else 1200000,
                                "energy_performance_preference": "balance_performance",
                                "energy_performance_available_preferences":
                                    "default performance balance_performance balance_power power "}))
    cpu_tree(r, cpus, pols, kernel_max=8191, cpu0_online=False, topology=topo, caches=caches)
    r.w("/sys/devices/system/cpu/intel_pstate/status", "active")
    r.w("/sys/devices/system/cpu/intel_pstate/no_turbo", 0)
    r.w("/sys/devices/system/cpu/intel_pstate/max_perf_pct", 100)
    r.w("/sys/devices/system/cpu/intel_pstate/min_perf_pct", 9)
    r.w("/sys/devices/system/cpu/intel_pstate/hwp_dynamic_boost", 0)
    # Ubuntu builds zswap in but leaves it off.
    for k, v in {"enabled": "N", "compressor": "lz4", "zpool": "z3fold", "max_pool_percent": 20}.items():
        r.w("/sys/module/zswap/parameters/" + k, v)
    node = "/sys/devices/system/node"
    r.w(node + "/online", "0")
    r.w(node + "/possible", "0")
    r.w(node + "/node0/cpulist", "0-15")
    r.w("/sys/devices/cpu_core/cpus", "0-7")
    r.w("/sys/devices/cpu_core/type", 4)
    r.w("/sys/devices/cpu_atom/cpus", "8-15")
    r.w("/sys/devices/cpu_atom/type", 10)

    dmi = "/sys/devices/virtual/dmi/id"
    for k, v in {"sys_vendor": "Intel(R) Client Systems", "product_name": "NUC12WSHi5",
                 "product_version": "M46422-303", "product_family": "WS", "product_sku": "RNUC12WSHi5000",
                 "product_serial": "G6WS00000FIX", "product_uuid": "00000000-0000-4000-8000-00000000f1c5",
                 "board_vendor": "Intel Corporation", "board_name": "NUC12WSBi5", "board_version": "M46425-302",
                 "board_serial": "BTWS00000000FIX", "board_asset_tag": "",
                 "bios_vendor": "Intel Corp.", "bios_version": "WSADL357.0085.2022.0718.1739",
                 "bios_date": "07/18/2022", "bios_release": "5.26", "chassis_type": 35,
                 "chassis_vendor": "Intel Corporation", "chassis_serial": "", "modalias":
                 "dmi:bvnIntelCorp.:bvrWSADL357.0085.2022.0718.1739:bd07/18/2022:br5.26:svnIntel(R)ClientSystems:"
                 "pnNUC12WSHi5:pvrM46422-303:rvnIntelCorporation:rnNUC12WSBi5:rvrM46425-302:cvnIntelCorporation:"
                 "ct35:cvr2.0:skuRNUC12WSHi5000:"}.items():
        r.w(dmi + "/" + k, v)
    r.link("/sys/class/dmi/id", dmi)

    thermal_zone(r, 0, "acpitz", 27800, trips=[(105000, "critical")], hwmon=0)
    thermal_zone(r, 1, "INT3400 Thermal", 20000)
    thermal_zone(r, 2, "x86_pkg_temp", 41000, trips=[(0, "passive"), (0, "passive")])
    cooling_device(r, 0, "Processor", 0, 3)
    cooling_device(r, 1, "intel_powerclamp", -1, 50)
    ct = {"temp1_label": "Package id 0", "temp1_input": 41000, "temp1_max": 100000, "temp1_crit": 100000}
    for c, (core, apic, _) in enumerate(layout):
        if c < 8 and c % 2:
            continue
        n = core + 2
        ct["temp%d_label" % n] = "Core %d" % core
        ct["temp%d_input" % n] = 38000 + (core % 5) * 1000
        ct["temp%d_max" % n] = 100000
        ct["temp%d_crit" % n] = 100000
    hwmon(r, 2, "/sys/devices/platform/coretemp.0", "coretemp", ct)

    rp = "/sys/devices/pci0000:00/0000:00:06.0"
    pci_dev(r, rp, "0000:00:06.0", "0x8086", "0x464d", "0x060400", driver="pcieport",
            cur_speed="16.0 GT/s PCIe", cur_width=4, max_speed="16.0 GT/s PCIe", max_width=4, revision="0x02")
    ssd = rp + "/0000:01:00.0"
    pci_dev(r, ssd, "0000:01:00.0", "0x144d", "0xa80a", "0x010802", driver="nvme",
            cur_speed="16.0 GT/s PCIe", cur_width=4, max_speed="16.0 GT/s PCIe", max_width=4,
            subsys=("0x144d", "0xa801"))
    nvme(r, ssd, "Samsung SSD 980 PRO 1TB", "S5GXNX0T000FIX9", "5B2QGXA7", 1953525168,
         [("nvme0n1p1", 2048, 2201600), ("nvme0n1p2", 2203648, 1951319040)], hwmon_n=1, temp=36850)
    rp2 = "/sys/devices/pci0000:00/0000:00:1c.0"
    pci_dev(r, rp2, "0000:00:1c.0", "0x8086", "0x51be", "0x060400", driver="pcieport",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="8.0 GT/s PCIe", max_width=1, revision="0x01")
    nic = rp2 + "/0000:56:00.0"
    pci_dev(r, nic, "0000:56:00.0", "0x8086", "0x15f3", "0x020000", driver="igc",
            cur_speed="5.0 GT/s PCIe", cur_width=1, max_speed="5.0 GT/s PCIe", max_width=1,
            subsys=("0x8086", "0x3004"), revision="0x03")
    netdev(r, nic, "enp86s0", "48:21:0b:01:02:03", speed=2500, duplex="full", driver="igc", driver_bus="pci",
           ifindex=2, queues=(4, 4))
    wifi = "/sys/devices/pci0000:00/0000:00:14.3"
    pci_dev(r, wifi, "0000:00:14.3", "0x8086", "0x51f0", "0x028000", driver="iwlwifi",
            subsys=("0x8086", "0x0094"), revision="0x01")
    netdev(r, wifi, "wlp0s20f3", "a0:e7:0b:01:02:04", operstate="down", carrier=None, driver="iwlwifi",
           driver_bus="pci", ifindex=3, wireless=True)
    loopback(r)

    mem = meminfo(15999064, 14211320, 15012240, 81232, 1010244, 4194300, 4194300, shmem=40212)
    mem += "DirectMap4k:      300844 kB\nDirectMap2M:     8912896 kB\nDirectMap1G:     7340032 kB\n"
    os_files(r,
             os_release='PRETTY_NAME="Ubuntu 24.04.1 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\n'
                        'VERSION="24.04.1 LTS (Noble Numbat)"\nVERSION_CODENAME=noble\nID=ubuntu\nID_LIKE=debian\n'
                        'HOME_URL="https://www.ubuntu.com/"\nSUPPORT_URL="https://help.ubuntu.com/"\n'
                        'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
                        'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
                        'UBUNTU_CODENAME=noble\nLOGO=ubuntu-logo',
             osrelease="6.8.0-45-generic", kversion="#45-Ubuntu SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024",
             proc_version="Linux version 6.8.0-45-generic (buildd@lcy02-amd64-115) (x86_64-linux-gnu-gcc-13 (Ubuntu "
                          "13.2.0-23ubuntu4) 13.2.0, GNU ld (GNU Binutils for Ubuntu) 2.42) #45-Ubuntu SMP "
                          "PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024",
             uname_m="x86_64", hostname="nuc12", debian_version="trixie/sid",
             ldd=ldd_out("ldd (Ubuntu GLIBC 2.39-0ubuntu8.3) 2.39", "2024"),
             gcc=gcc_out("gcc (Ubuntu 13.2.0-23ubuntu4) 13.2.0", "2023"), dpkg_arch="amd64",
             cmdline="BOOT_IMAGE=/boot/vmlinuz-6.8.0-45-generic root=UUID=8f1d2c3b-4a5e-4f6a-9b8c-7d6e5f4a3b2c ro "
                     "quiet splash vt.handoff=7",
             mounts="/dev/nvme0n1p2 / ext4 rw,relatime 0 0\nproc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\n"
                    "sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0\n/dev/nvme0n1p1 /boot/efi vfat "
                    "rw,relatime,fmask=0077,dmask=0077 0 0\n",
             swaps=swaps_new([("/swap.img", "file", 4194300, 0, -2)]), meminfo_text=mem,
             loadavg="0.12 0.20 0.18 1/612 4410")
    userland(r, ELF_X86_64, merged_usr=True)
    return r


def cpuinfo_only(base):
    r = Root(base)
    # First-generation Pi on a 3.1 kernel: ARM1176JZF-S r0p7, uniprocessor layout, old-style revision 0002.
    arm1176 = cpuinfo.arm_core("ARM1176", "r0p7", "swp half thumb fastmult vfp edsp java tls", "697.95")
    r.wraw("/proc/cpuinfo", cpuinfo.arm_v3(arm1176, "ARMv6-compatible processor", "v6l", trailer=[
        ("Hardware", "BCM2708"), ("Revision", "0002"), ("Serial", "00000000c0ffee02")]))
    return r
