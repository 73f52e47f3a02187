"""Helpers that write fixture roots shaped like real /proc and /sys trees."""
import os
import shutil
import struct


class Root:
    def __init__(self, base):
        self.base = base
        if os.path.isdir(base):
            shutil.rmtree(base)
        os.makedirs(base)

    def p(self, path):
        return os.path.join(self.base, path.lstrip("/"))

    def w(self, path, content):
        """Write a file; str content gets a trailing newline unless it ends in one or is bytes."""
        full = self.p(path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        if isinstance(content, (int, float)):
            content = str(content)
        if isinstance(content, str):
            if not content.endswith("\n"):
                content += "\n"
            content = content.encode()
        with open(full, "wb") as f:
            f.write(content)

    def wraw(self, path, content):
        """Write exactly these bytes/str (no newline added)."""
        if isinstance(content, str):
            content = content.encode()
        full = self.p(path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(content)

    def mkdir(self, path):
        os.makedirs(self.p(path), exist_ok=True)

    def link(self, path, target, absolute=False):
        """Symlink machine path -> machine target, stored relative like sysfs does."""
        full = self.p(path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        if absolute:
            t = target
        else:
            t = os.path.relpath(target, os.path.dirname(path))
        if os.path.lexists(full):
            os.remove(full)
        os.symlink(t, full)

    def cmd(self, key, out):
        self.w("/.boardbench/commands/" + key, out)


def cpulist(cpus):
    """Kernel cpu list format: 0-3,6."""
    cpus = sorted(cpus)
    out = []
    i = 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        out.append(str(cpus[i]) if i == j else "%d-%d" % (cpus[i], cpus[j]))
        i = j + 1
    return ",".join(out)


def cpumask(cpus, ncpu):
    v = 0
    for c in cpus:
        v |= 1 << c
    width = max(1, (ncpu + 3) // 4)
    width = ((width + 7) // 8) * 8 if ncpu > 32 else width
    return ("%0*x" % (width, v))


# ---------------------------------------------------------------- CPU trees

def cpu_tree(r, cpus, policies, *, kernel_max=None, online_files=True, cpu0_online=True,
             topology=None, caches=None, capacity=None, extra_policy_files=None):
    """cpus: list of ids. policies: list of dicts with keys
    id, cpus, freqs (kHz list, ascending) or None, min, max, cur, governor, governors, driver,
    stats (dict freq->ticks) optional, extra (dict file->content).
    topology: dict cpu -> dict of files. caches: dict cpu -> list of dicts. capacity: dict cpu->int."""
    base = "/sys/devices/system/cpu"
    n = len(cpus)
    r.w(base + "/online", cpulist(cpus))
    r.w(base + "/possible", cpulist(cpus))
    r.w(base + "/present", cpulist(cpus))
    r.w(base + "/offline", "")
    if kernel_max is not None:
        r.w(base + "/kernel_max", kernel_max)
    for c in cpus:
        d = "%s/cpu%d" % (base, c)
        r.mkdir(d)
        if online_files and (c != 0 or cpu0_online):
            r.w(d + "/online", "1")
        if topology and c in topology:
            for k, v in topology[c].items():
                r.w(d + "/topology/" + k, v)
        if capacity and c in capacity:
            r.w(d + "/cpu_capacity", capacity[c])
        if caches and c in caches:
            for i, cache in enumerate(caches[c]):
                cd = "%s/cache/index%d" % (d, i)
                for k, v in cache.items():
                    if k == "shared":
                        r.w(cd + "/shared_cpu_list", cpulist(v))
                        r.w(cd + "/shared_cpu_map", cpumask(v, n))
                    else:
                        r.w(cd + "/" + k, v)
    for pol in policies:
        pd = "%s/cpufreq/policy%d" % (base, pol["id"])
        pc = pol["cpus"]
        r.w(pd + "/affected_cpus", " ".join(str(c) for c in pc))
        r.w(pd + "/related_cpus", " ".join(str(c) for c in pol.get("related", pc)))
        r.w(pd + "/cpuinfo_min_freq", pol["min"])
        r.w(pd + "/cpuinfo_max_freq", pol["max"])
        r.w(pd + "/cpuinfo_transition_latency", pol.get("latency", 0))
        r.w(pd + "/scaling_min_freq", pol.get("smin", pol["min"]))
        r.w(pd + "/scaling_max_freq", pol.get("smax", pol["max"]))
        r.w(pd + "/scaling_cur_freq", pol["cur"])
        r.w(pd + "/scaling_driver", pol["driver"])
        r.w(pd + "/scaling_governor", pol["governor"])
        r.w(pd + "/scaling_available_governors", pol["governors"] + " ")
        if pol.get("freqs"):
            r.w(pd + "/scaling_available_frequencies", " ".join(str(f) for f in pol["freqs"]) + " ")
            stats = pol.get("stats")
            if stats is not None:
                lines = "".join("%d %d\n" % (f, stats.get(f, 0)) for f in pol["freqs"])
                r.w(pd + "/stats/time_in_state", lines)
                r.w(pd + "/stats/total_trans", pol.get("total_trans", 0))
        for k, v in pol.get("extra", {}).items():
            r.w(pd + "/" + k, v)
        for c in pc:
            r.link("%s/cpu%d/cpufreq" % (base, c), pd)


def arm_topology(cpu, core_id, package_id, core_cpus, package_cpus, cluster_id=None, cluster_cpus=None,
                 n=8):
    t = {
        "core_id": core_id,
        "physical_package_id": package_id,
        "core_cpus_list": cpulist(core_cpus),
        "core_cpus": cpumask(core_cpus, n),
        "thread_siblings_list": cpulist(core_cpus),
        "thread_siblings": cpumask(core_cpus, n),
        "package_cpus_list": cpulist(package_cpus),
        "package_cpus": cpumask(package_cpus, n),
        "core_siblings_list": cpulist(package_cpus),
        "core_siblings": cpumask(package_cpus, n),
    }
    if cluster_id is not None:
        t["cluster_id"] = cluster_id
        t["cluster_cpus_list"] = cpulist(cluster_cpus)
        t["cluster_cpus"] = cpumask(cluster_cpus, n)
    return t


def arm_caches(l1d, l1i, l2, l2_shared, l3=None, l3_shared=None, self_cpu=None, line=64,
               ways=None, sizes=True):
    """Sizes in KiB. Returns list of index dicts."""
    ways = ways or {}
    def idx(level, typ, size, shared, w):
        d = {"level": level, "type": typ, "shared": shared}
        if sizes:
            d["size"] = "%dK" % size
            d["coherency_line_size"] = line
            d["ways_of_associativity"] = w
            d["number_of_sets"] = size * 1024 // (line * w)
        return d
    out = [idx(1, "Data", l1d, [self_cpu], ways.get("l1d", 4)),
           idx(1, "Instruction", l1i, [self_cpu], ways.get("l1i", 4)),
           idx(2, "Unified", l2, l2_shared, ways.get("l2", 8))]
    if l3:
        out.append(idx(3, "Unified", l3, l3_shared, ways.get("l3", 16)))
    return out


def stats_for(freqs, hot=None, low=None):
    """Plausible time_in_state: most time at the lowest and the highest OPP (10 ms ticks)."""
    s = {}
    for i, f in enumerate(freqs):
        s[f] = 1000 + 37 * i
    s[freqs[0]] = low if low is not None else 912345
    s[freqs[-1]] = hot if hot is not None else 154321
    return s


# ------------------------------------------------------- device tree

def devicetree(r, model, compatible, serial=None, extra=None):
    b = "/sys/firmware/devicetree/base"
    r.wraw(b + "/model", model + "\0")
    r.wraw(b + "/compatible", "".join(c + "\0" for c in compatible))
    r.wraw(b + "/name", "\0")
    if serial is not None:
        r.wraw(b + "/serial-number", serial + "\0")
    for k, v in (extra or {}).items():
        r.wraw(b + "/" + k, v)
    r.link("/proc/device-tree", "/sys/firmware/devicetree/base", absolute=True)


# ------------------------------------------------------- thermal / hwmon

def thermal_zone(r, n, typ, temp, trips=(), policy="step_wise", hwmon=None, mode="enabled"):
    """trips: list of (temp, type). hwmon: hwmon index to register under the zone."""
    d = "/sys/devices/virtual/thermal/thermal_zone%d" % n
    r.w(d + "/type", typ)
    if temp is not None:
        r.w(d + "/temp", temp)
    r.w(d + "/mode", mode)
    r.w(d + "/policy", policy)
    r.w(d + "/available_policies", "fair_share bang_bang step_wise user_space power_allocator")
    for i, (t, tt) in enumerate(trips):
        r.w(d + "/trip_point_%d_temp" % i, t)
        r.w(d + "/trip_point_%d_type" % i, tt)
    r.link("/sys/class/thermal/thermal_zone%d" % n, d)
    if hwmon is not None:
        hd = d + "/hwmon%d" % hwmon
        r.w(hd + "/name", typ.replace("-", "_"))
        if temp is not None:
            r.w(hd + "/temp1_input", temp)
        crit = [t for t, tt in trips if tt == "critical"]
        if crit:
            r.w(hd + "/temp1_crit", crit[0])
        r.link(hd + "/device", d)
        r.link("/sys/class/hwmon/hwmon%d" % hwmon, hd)


def devfreq_dev(r, devdir, name, governor, governors, freqs, cur, trans_stat="Not Supported."):
    """A devfreq device under devdir/devfreq/name, linked from /sys/class/devfreq (frequencies in Hz)."""
    d = devdir + "/devfreq/" + name
    r.w(d + "/governor", governor)
    r.w(d + "/available_governors", governors)
    r.w(d + "/available_frequencies", " ".join(str(f) for f in freqs))
    r.w(d + "/cur_freq", cur)
    r.w(d + "/min_freq", min(freqs))
    r.w(d + "/max_freq", max(freqs))
    r.w(d + "/target_freq", cur)
    r.w(d + "/polling_interval", 0)
    r.wraw(d + "/trans_stat", trans_stat if trans_stat.endswith("\n") else trans_stat + "\n")
    r.link(d + "/device", devdir)
    r.link("/sys/class/devfreq/" + name, d)


def cooling_device(r, n, typ, cur, mx):
    d = "/sys/devices/virtual/thermal/cooling_device%d" % n
    r.w(d + "/type", typ)
    r.w(d + "/cur_state", cur)
    r.w(d + "/max_state", mx)
    r.link("/sys/class/thermal/cooling_device%d" % n, d)


def hwmon(r, n, devpath, name, files, device_link=True):
    """A hwmon under a device: devpath/hwmon/hwmonN (platform style)."""
    hd = devpath + "/hwmon/hwmon%d" % n
    r.w(hd + "/name", name)
    if devpath.startswith("/sys/devices/platform/") and not os.path.lexists(r.p(devpath + "/subsystem")):
        r.link(devpath + "/subsystem", "/sys/bus/platform")
        r.mkdir("/sys/bus/platform")
    for k, v in files.items():
        r.w(hd + "/" + k, v)
    if device_link:
        r.link(hd + "/device", devpath)
    r.link("/sys/class/hwmon/hwmon%d" % n, hd)


# ------------------------------------------------------- block devices

def block_common(r, d, sectors, rotational=0, removable=0, ro=0, scheduler="[mq-deadline] kyber bfq none",
                 lbs=512, pbs=512, discard=0, nr_requests=None):
    r.w(d + "/size", sectors)
    r.w(d + "/ro", ro)
    r.w(d + "/removable", removable)
    r.w(d + "/queue/rotational", rotational)
    r.w(d + "/queue/logical_block_size", lbs)
    r.w(d + "/queue/physical_block_size", pbs)
    r.w(d + "/queue/hw_sector_size", lbs)
    r.w(d + "/queue/scheduler", scheduler)
    r.w(d + "/queue/discard_max_bytes", discard)
    r.w(d + "/queue/read_ahead_kb", 128)
    r.link(d + "/subsystem", "/sys/class/block")
    r.mkdir("/sys/class/block")
    if nr_requests:
        r.w(d + "/queue/nr_requests", nr_requests)


def block_disk(r, name, devdir, sectors, parts=(), device_link=None, dev=None, **kw):
    """devdir is the full machine path of the disk's directory (…/block/name)."""
    block_common(r, devdir, sectors, **kw)
    if dev:
        r.w(devdir + "/dev", "%d:%d" % dev)
    if device_link:
        r.link(devdir + "/device", device_link)
    r.link("/sys/block/" + name, devdir)
    r.link("/sys/class/block/" + name, devdir)
    for i, (pname, start, size) in enumerate(parts, 1):
        pd = devdir + "/" + pname
        r.w(pd + "/partition", i)
        r.w(pd + "/start", start)
        r.w(pd + "/size", size)
        r.w(pd + "/ro", 0)
        if dev:
            r.w(pd + "/dev", "%d:%d" % (dev[0], dev[1] + i))
        r.link("/sys/class/block/" + pname, pd)


def mmc_card(r, hostdir, host, rca, card, blockname, sectors, parts, driver_link=True, dev=None):
    """hostdir: …/xxx.mmc (the platform device). card: dict of sysfs attrs (type, name, ...)."""
    hpath = hostdir + "/mmc_host/" + host
    if not os.path.lexists(r.p(hostdir + "/subsystem")):
        r.link(hostdir + "/subsystem", "/sys/bus/platform")
        r.mkdir("/sys/bus/platform")
    r.link("/sys/class/mmc_host/" + host, hpath)
    cdir = hpath + "/%s:%s" % (host, rca)
    for k, v in card.items():
        r.w(cdir + "/" + k, v)
    if card.get("type") == "SDIO":
        pass
    else:
        r.link(cdir + "/driver", "/sys/bus/mmc/drivers/mmcblk")
        r.mkdir("/sys/bus/mmc/drivers/mmcblk")
    r.link(cdir + "/subsystem", "/sys/bus/mmc")
    r.link("/sys/bus/mmc/devices/%s:%s" % (host, rca), cdir)
    if blockname:
        bdir = cdir + "/block/" + blockname
        if dev is None:
            dev = (179, int(blockname[len("mmcblk"):]) * 8)
        block_disk(r, blockname, bdir, sectors, parts, device_link=cdir, dev=dev,
                   scheduler="[mq-deadline] kyber bfq none", discard=card.get("_discard", 0))
    return cdir


def fixup_card(card):
    return {k: v for k, v in card.items() if not k.startswith("_")}


# ------------------------------------------------------- PCI

def pci_dev(r, devdir, bdf, vendor, device, cls, driver=None, cur_speed=None, cur_width=None,
            max_speed=None, max_width=None, subsys=("0x0000", "0x0000"), revision="0x00", aspm=None):
    """aspm: (l0s, l1) enabled states of the link's ASPM attributes (link/l0s_aspm, link/l1_aspm)."""
    r.w(devdir + "/vendor", vendor)
    r.w(devdir + "/device", device)
    r.w(devdir + "/class", cls)
    r.w(devdir + "/revision", revision)
    r.w(devdir + "/subsystem_vendor", subsys[0])
    r.w(devdir + "/subsystem_device", subsys[1])
    if cur_speed:
        r.w(devdir + "/current_link_speed", cur_speed)
        r.w(devdir + "/current_link_width", cur_width)
        r.w(devdir + "/max_link_speed", max_speed)
        r.w(devdir + "/max_link_width", max_width)
    r.w(devdir + "/enable", 1)
    if aspm is not None:
        r.w(devdir + "/link/l0s_aspm", aspm[0])
        r.w(devdir + "/link/l1_aspm", aspm[1])
    if driver:
        r.link(devdir + "/driver", "/sys/bus/pci/drivers/" + driver)
        r.mkdir("/sys/bus/pci/drivers/" + driver)
    r.link(devdir + "/subsystem", "/sys/bus/pci")
    r.link("/sys/bus/pci/devices/" + bdf, devdir)


def nvme(r, pcidir, model, serial, fw, sectors, parts, ctrl="nvme0", hwmon_n=None, temp=None):
    cd = pcidir + "/nvme/" + ctrl
    r.w(cd + "/model", model.ljust(40))
    r.w(cd + "/serial", serial.ljust(20))
    r.w(cd + "/firmware_rev", fw.ljust(8))
    r.w(cd + "/transport", "pcie")
    r.w(cd + "/state", "live")
    r.w(cd + "/address", os.path.basename(pcidir))
    r.w(cd + "/cntlid", 1)
    r.w(cd + "/queue_count", 5)
    r.link(cd + "/device", pcidir)
    r.link("/sys/class/nvme/" + ctrl, cd)
    bdir = cd + "/" + ctrl + "n1"
    block_disk(r, ctrl + "n1", bdir, sectors, parts, device_link=cd, scheduler="[none] mq-deadline",
               dev=(259, 0),
               discard=2199023255040, nr_requests=1023)
    r.w(bdir + "/wwid", "eui.%s" % ("00" * 8))
    r.w(bdir + "/nsid", 1)
    if hwmon_n is not None:
        hd = cd + "/hwmon%d" % hwmon_n
        r.w(hd + "/name", "nvme")
        r.w(hd + "/temp1_input", temp)
        r.w(hd + "/temp1_label", "Composite")
        r.w(hd + "/temp1_crit", 84850)
        r.w(hd + "/temp1_max", 81850)
        r.link(hd + "/device", cd)
        r.link("/sys/class/hwmon/hwmon%d" % hwmon_n, hd)


# ------------------------------------------------------- USB / SCSI

def usb_dev(r, devdir, busdev, attrs):
    for k, v in attrs.items():
        r.w(devdir + "/" + k, v)
    r.link(devdir + "/subsystem", "/sys/bus/usb")
    r.w(devdir + "/uevent", "DEVTYPE=usb_device\nDRIVER=usb\nBUSNUM=%03d\nDEVNUM=%03d" % (
        attrs.get("busnum", 0), attrs.get("devnum", 0)))
    r.link(devdir + "/driver", "/sys/bus/usb/drivers/usb")
    r.mkdir("/sys/bus/usb/drivers/usb")
    r.link("/sys/bus/usb/devices/" + busdev, devdir)


def usb_root_hub(r, hcdir, bus, speed, version, maxchild, serial, manufacturer, product="xHCI Host Controller"):
    """The root hub usbN of a host controller (platform or PCI device at hcdir) with its hub interface."""
    name = "usb%d" % bus
    usb_dev(r, hcdir + "/" + name, name, {
        "speed": speed, "idVendor": "1d6b", "idProduct": "0003" if speed >= 5000 else "0002",
        "version": " " + version, "bDeviceClass": "09", "busnum": bus, "devnum": 1, "manufacturer": manufacturer,
        "product": product, "serial": serial, "maxchild": maxchild})
    usb_iface(r, hcdir + "/%s/%d-0:1.0" % (name, bus), "%d-0:1.0" % bus, "09", "00", "00", "hub")
    return hcdir + "/" + name


def usb_iface(r, ifdir, name, cls, sub, proto, driver, number=0):
    r.w(ifdir + "/bInterfaceClass", cls)
    r.w(ifdir + "/bInterfaceSubClass", sub)
    r.w(ifdir + "/bInterfaceProtocol", proto)
    r.w(ifdir + "/bInterfaceNumber", "%02x" % number)
    r.w(ifdir + "/bNumEndpoints", "04" if driver == "uas" else "02")
    r.link(ifdir + "/subsystem", "/sys/bus/usb")
    r.w(ifdir + "/uevent", "DEVTYPE=usb_interface\nDRIVER=%s" % driver)
    r.link(ifdir + "/driver", "/sys/bus/usb/drivers/" + driver)
    r.mkdir("/sys/bus/usb/drivers/" + driver)
    r.link("/sys/bus/usb/devices/" + name, ifdir)


def scsi_disk(r, sdev_dir, hctl, vendor, model, rev, blockname, sectors, parts, rotational=0,
              removable=0, scheduler="[mq-deadline] kyber bfq none"):
    r.w(sdev_dir + "/vendor", vendor.ljust(8))
    r.w(sdev_dir + "/model", model.ljust(16))
    r.w(sdev_dir + "/rev", rev.ljust(4))
    r.w(sdev_dir + "/type", 0)
    r.w(sdev_dir + "/state", "running")
    r.w(sdev_dir + "/scsi_level", 7)
    r.link(sdev_dir + "/driver", "/sys/bus/scsi/drivers/sd")
    r.mkdir("/sys/bus/scsi/drivers/sd")
    r.link(sdev_dir + "/subsystem", "/sys/bus/scsi")
    r.link("/sys/bus/scsi/devices/" + hctl, sdev_dir)
    bdir = sdev_dir + "/block/" + blockname
    block_disk(r, blockname, bdir, sectors, parts, device_link=sdev_dir, rotational=rotational,
               dev=(8, 16 * (ord(blockname[2]) - ord("a"))),
               removable=removable, scheduler=scheduler)


# ------------------------------------------------------- network

def netdev(r, devdir, ifname, mac, *, speed=None, duplex=None, operstate="up", carrier=1, mtu=1500,
           driver=None, driver_bus="platform", ifindex=2, typ=1, wireless=False, queues=(1, 1),
           addr_assign_type=0, devtype=None):
    """devdir: the device directory (…/net/<if> is created under it). devdir None → virtual.
    devtype: the DEVTYPE of the interface's uevent ("wlan" for wireless ones, "bridge", "wireguard")."""
    if devdir is None:
        nd = "/sys/devices/virtual/net/" + ifname
    else:
        nd = devdir + "/net/" + ifname
    if wireless and devtype is None:
        devtype = "wlan"
    r.w(nd + "/uevent", ("DEVTYPE=%s\n" % devtype if devtype else "") + "INTERFACE=%s\nIFINDEX=%d" % (ifname, ifindex))
    if devtype == "bridge":
        r.w(nd + "/bridge/stp_state", 0)
    r.w(nd + "/address", mac)
    r.w(nd + "/addr_len", 6 if mac else 0)
    r.w(nd + "/operstate", operstate)
    r.w(nd + "/mtu", mtu)
    r.w(nd + "/type", typ)
    r.w(nd + "/ifindex", ifindex)
    r.w(nd + "/tx_queue_len", 1000)
    r.w(nd + "/addr_assign_type", addr_assign_type)
    r.link(nd + "/subsystem", "/sys/class/net")
    r.mkdir("/sys/class/net")
    rx, tx = queues
    for q in range(rx):
        r.w(nd + "/queues/rx-%d/rps_cpus" % q, "0")
    for q in range(tx):
        r.w(nd + "/queues/tx-%d/xps_cpus" % q, "0")
    if carrier is not None:
        r.w(nd + "/carrier", carrier)
    if speed is not None:
        r.w(nd + "/speed", speed)
    if duplex is not None:
        r.w(nd + "/duplex", duplex)
    if wireless:
        r.w(nd + "/wireless/status", "0x0000")
        if devdir is None:
            r.mkdir(nd + "/phy80211")
        else:
            r.w(devdir + "/ieee80211/phy0/name", "phy0")
            r.link(nd + "/phy80211", devdir + "/ieee80211/phy0")
    if devdir is not None:
        r.link(nd + "/device", devdir)
        if driver:
            r.link(devdir + "/driver", "/sys/bus/%s/drivers/%s" % (driver_bus, driver))
            r.mkdir("/sys/bus/%s/drivers/%s" % (driver_bus, driver))
            if not os.path.exists(r.p(devdir + "/uevent")):
                r.w(devdir + "/uevent", "DRIVER=%s" % driver)
        if not os.path.lexists(r.p(devdir + "/subsystem")):
            r.link(devdir + "/subsystem", "/sys/bus/" + driver_bus)
            r.mkdir("/sys/bus/" + driver_bus)
    r.link("/sys/class/net/" + ifname, nd)


def loopback(r):
    netdev(r, None, "lo", "00:00:00:00:00:00", operstate="unknown", mtu=65536, ifindex=1, typ=772)


# ------------------------------------------------------- zram / swap

def zram(r, n, disksize, algos, used_orig=0, used_compr=0):
    d = "/sys/devices/virtual/block/zram%d" % n
    block_common(r, d, disksize // 512, scheduler="none")
    r.w(d + "/disksize", disksize)
    r.w(d + "/comp_algorithm", algos)
    r.w(d + "/max_comp_streams", 4)
    r.w(d + "/mm_stat", "%8d %8d %8d %8d %8d %8d %8d %8d %8d" % (
        used_orig, used_compr, used_compr + 4096 if used_compr else 0, 0, used_compr + 8192 if used_compr else 0,
        0, 0, 0, 0))
    r.w(d + "/dev", "254:%d" % n)
    r.w(d + "/initstate", 1 if disksize else 0)
    r.link("/sys/block/zram%d" % n, d)
    r.link("/sys/class/block/zram%d" % n, d)


def swaps_old(entries):
    """Kernel < 5.12 layout. entries: (path, type, kib, used, prio)."""
    out = "Filename\t\t\t\tType\t\tSize\tUsed\tPriority\n"
    for path, typ, size, used, prio in entries:
        t = "partition" if typ == "partition" else "file    "
        out += "%s\t%s\t%d\t%d\t%d\n" % (path.ljust(39), t, size, used, prio)
    return out


def swaps_new(entries):
    out = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
    for path, typ, size, used, prio in entries:
        pad = 40 - len(path) if len(path) < 40 else 1
        t = "partition" if typ == "partition" else "file\t"
        out += "%s%s%s\t%d\t%s%d\t%s%d\n" % (path, " " * pad, t, size, "\t" if size < 10000000 else "",
                                            used, "\t" if used < 10000000 else "", prio)
    return out


def meminfo(total, free, avail, buffers, cached, swap_total, swap_free, cma_total=None, cma_free=None,
            shmem=5000, hugepages=True, extra_after_swap=None):
    """All values in kB. Produces the field list of a 5.x/6.x arm64 kernel."""
    active = (total - free) // 3
    inactive = (total - free) // 4
    fields = [
        ("MemTotal", total), ("MemFree", free), ("MemAvailable", avail), ("Buffers", buffers),
        ("Cached", cached), ("SwapCached", 0), ("Active", active), ("Inactive", inactive),
        ("Active(anon)", active // 8), ("Inactive(anon)", inactive // 3), ("Active(file)", active - active // 8),
        ("Inactive(file)", inactive - inactive // 3), ("Unevictable", 16), ("Mlocked", 16),
        ("SwapTotal", swap_total), ("SwapFree", swap_free), ("Dirty", 44), ("Writeback", 0),
        ("AnonPages", 61234), ("Mapped", 48720), ("Shmem", shmem), ("KReclaimable", 21356),
        ("Slab", 45012), ("SReclaimable", 21356), ("SUnreclaim", 23656), ("KernelStack", 3120),
        ("PageTables", 2144), ("NFS_Unstable", 0), ("Bounce", 0), ("WritebackTmp", 0),
        ("CommitLimit", total // 2 + swap_total), ("Committed_AS", 412340), ("VmallocTotal", 259653632),
        ("VmallocUsed", 11264), ("VmallocChunk", 0), ("Percpu", 1472),
    ]
    if cma_total is not None:
        fields += [("CmaTotal", cma_total), ("CmaFree", cma_free)]
    out = "".join("%-16s%8d kB\n" % (k + ":", v) for k, v in fields)
    if hugepages:
        out += ("HugePages_Total:       0\nHugePages_Free:        0\nHugePages_Rsvd:        0\n"
                "HugePages_Surp:        0\nHugepagesize:       2048 kB\nHugetlb:               0 kB\n")
    return out


# ------------------------------------------------------- ELF headers

def elf_header(cls64, machine, flags, interp):
    """A small, valid ELF executable header (ET_DYN) with PT_PHDR and PT_INTERP."""
    interp_b = interp.encode() + b"\0"
    if cls64:
        ehsize, phentsize = 64, 56
        phoff = ehsize
        interp_off = phoff + 2 * phentsize
        ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + b"\0" * 8
        hdr = ident + struct.pack("<HHIQQQIHHHHHH", 3, machine, 1, 0x1000, phoff, 0, flags, ehsize,
                                  phentsize, 2, 64, 0, 0)
        ph = struct.pack("<IIQQQQQQ", 6, 4, phoff, phoff, phoff, 2 * phentsize, 2 * phentsize, 8)
        ph += struct.pack("<IIQQQQQQ", 3, 4, interp_off, interp_off, interp_off, len(interp_b), len(interp_b), 1)
    else:
        ehsize, phentsize = 52, 32
        phoff = ehsize
        interp_off = phoff + 2 * phentsize
        ident = b"\x7fELF" + bytes([1, 1, 1, 0]) + b"\0" * 8
        hdr = ident + struct.pack("<HHIIIIIHHHHHH", 3, machine, 1, 0x1000, phoff, 0, flags, ehsize,
                                  phentsize, 2, 40, 0, 0)
        ph = struct.pack("<IIIIIIII", 6, phoff, phoff, phoff, 2 * phentsize, 2 * phentsize, 4, 4)
        ph += struct.pack("<IIIIIIII", 3, interp_off, interp_off, interp_off, len(interp_b), len(interp_b), 4, 1)
    assert len(hdr) == ehsize
    return hdr + ph + interp_b


ELF_ARMHF = dict(cls64=False, machine=40, flags=0x05000400, interp="/lib/ld-linux-armhf.so.3")
ELF_ARM64 = dict(cls64=True, machine=183, flags=0, interp="/lib/ld-linux-aarch64.so.1")
ELF_RISCV64 = dict(cls64=True, machine=243, flags=0x5, interp="/lib/ld-linux-riscv64-lp64d.so.1")
ELF_X86_64 = dict(cls64=True, machine=62, flags=0, interp="/lib64/ld-linux-x86-64.so.2")


def userland(r, elf, merged_usr=True):
    """/bin/sh -> dash, with dash holding a real ELF header of the userland's architecture."""
    blob = elf_header(**elf)
    if merged_usr:
        r.link("/bin", "/usr/bin", absolute=False)
        r.wraw("/usr/bin/dash", blob)
        r.link("/usr/bin/sh", "/usr/bin/dash")
    else:
        r.wraw("/bin/dash", blob)
        r.link("/bin/sh", "/bin/dash")


# ------------------------------------------------------- OS

def os_files(r, *, os_release, osrelease, kversion, proc_version, uname_m, hostname="localhost",
             debian_version=None, extra_etc=None, ldd=None, gcc=None, dpkg_arch=None, cmdline=None,
             mounts=None, swaps=None, meminfo_text=None, loadavg="0.08 0.12 0.10 1/160 1234",
             uptime="3921.77 15012.40"):
    r.w("/etc/os-release", os_release)
    r.w("/proc/sys/kernel/osrelease", osrelease)
    r.w("/proc/sys/kernel/version", kversion)
    r.w("/proc/sys/kernel/ostype", "Linux")
    r.w("/proc/sys/kernel/hostname", hostname)
    r.w("/etc/hostname", hostname)
    r.w("/proc/version", proc_version)
    r.cmd("uname_-m", uname_m)
    if debian_version:
        r.w("/etc/debian_version", debian_version)
    for k, v in (extra_etc or {}).items():
        r.w(k, v)
    if ldd:
        r.cmd("ldd_--version", ldd)
    if gcc:
        r.cmd("gcc_--version", gcc)
    if dpkg_arch:
        r.cmd("dpkg_--print-architecture", dpkg_arch)
    if cmdline:
        r.w("/proc/cmdline", cmdline)
    if mounts:
        r.w("/proc/mounts", mounts)
    if swaps is not None:
        r.w("/proc/swaps", swaps)
    if meminfo_text:
        r.w("/proc/meminfo", meminfo_text)
    r.w("/proc/loadavg", loadavg)
    r.w("/proc/uptime", uptime)


def armbian_release(board, board_name, board_family, version, linux_family, branch, codename=None):
    """/etc/armbian-release with the facts boardbench reads (KEY=value lines, no build metadata)."""
    kv = [("BOARD", board), ("BOARD_NAME", '"%s"' % board_name), ("BOARDFAMILY", board_family)]
    if codename:
        kv.append(("DISTRIBUTION_CODENAME", codename))
    kv += [("VERSION", version), ("LINUXFAMILY", linux_family), ("ARCH", "arm64"), ("BRANCH", branch)]
    return "".join("%s=%s\n" % (k, v) for k, v in kv)


def get_config_int(settings):
    """`vcgencmd get_config int` output: plain keys sorted, then indexed keys (name:index)."""
    plain = sorted(k for k in settings if ":" not in k)
    indexed = sorted(k for k in settings if ":" in k)
    return "\n".join("%s=%s" % (k, settings[k]) for k in plain + indexed)


GPL_NOTE = ("Copyright (C) 2020 Free Software Foundation, Inc.\n"
            "This is free software; see the source for copying conditions.  There is NO\n"
            "warranty; not even for MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.\n")


def ldd_out(first, year="2020"):
    return (first + "\nCopyright (C) %s Free Software Foundation, Inc.\n" % year +
            "This is free software; see the source for copying conditions.  There is NO\n"
            "warranty; not even for MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.\n"
            "Written by Roland McGrath and Ulrich Drepper.\n")


def gcc_out(first, year="2020"):
    return (first + "\nCopyright (C) %s Free Software Foundation, Inc.\n" % year +
            "This is free software; see the source for copying conditions.  There is NO\n"
            "warranty; not even for MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.\n\n")


def finalize_mounts(r, root_source=None):
    """Write /proc/self/mountinfo from /proc/mounts, with device numbers from the tree."""
    path = r.p("/proc/mounts")
    if not os.path.exists(path) or os.path.exists(r.p("/proc/self/mountinfo")):
        return  # no mount table, or the board states its mountinfo itself
    lines = open(path).read().splitlines()
    out = []
    anon = 20
    for i, line in enumerate(lines):
        src, mp, fstype, opts = line.split()[:4]
        name = src
        if src == "/dev/root" and root_source:
            name = "/dev/" + root_source
        majmin = None
        if name.startswith("/dev/"):
            devf = r.p("/sys/class/block/%s/dev" % name[5:])
            if os.path.exists(devf):
                majmin = open(devf).read().strip()
        if majmin is None:
            majmin = "0:%d" % anon
            anon += 1
        mid = 22 + i
        parent = 1 if mp == "/" else 22
        vfs_opts = ",".join(o for o in opts.split(",") if o in ("rw", "ro", "noatime", "relatime", "nosuid",
                                                               "nodev", "noexec", "nodiratime"))
        out.append("%d %d %s / %s %s shared:%d - %s %s %s" % (mid, parent, majmin, mp, vfs_opts, i + 1, fstype,
                                                              src, opts))
    r.w("/proc/self/mountinfo", "\n".join(out))


# vm.swappiness, transparent huge pages and the PCIe ASPM policy as each image ships them.
SWAPPINESS = {"rpi-zero2w": 60, "rpi4b": 60, "rpi5": 60, "rock5b": 60, "rk3399": 100, "odroid-n2plus": 100,
              "orangepi-zero3": 100, "qcs6490": 60, "visionfive2": 60, "intel-hybrid": 60, "rock5b-armbian": 100,
              "n100-minipc": 60, "cloud-vm-kvm": 60}
THP = {"rock5b", "rk3399", "odroid-n2plus", "orangepi-zero3", "qcs6490", "visionfive2", "intel-hybrid",
       "rock5b-armbian", "n100-minipc", "cloud-vm-kvm"}
ASPM = {"rpi4b": "[default] performance powersave powersupersave",
        "rpi5": "default performance [powersave] powersupersave",
        "rock5b": "default performance [powersave] powersupersave",
        "rock5b-armbian": "default performance [powersave] powersupersave",
        "n100-minipc": "[default] performance powersave powersupersave",
        "cloud-vm-kvm": "[default] performance powersave powersupersave",
        "rk3399": "[default] performance powersave powersupersave",
        "qcs6490": "[default] performance powersave powersupersave",
        "visionfive2": "[default] performance powersave powersupersave",
        "intel-hybrid": "[default] performance powersave powersupersave"}


def extras(r, name):
    if name in SWAPPINESS:
        r.w("/proc/sys/vm/swappiness", SWAPPINESS[name])
    if name in THP:
        r.w("/sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never")
        r.w("/sys/kernel/mm/transparent_hugepage/defrag", "always defer defer+madvise [madvise] never")
    if name in ASPM:
        r.w("/sys/module/pcie_aspm/parameters/policy", ASPM[name])


def keep_empty_dirs(base):
    """Put an empty .keep file in every empty directory: git stores no empty
    directories, and real sysfs has many (driver directories that links point
    to, marker directories such as net/wlan0/wireless)."""
    for dirpath, dirnames, filenames in os.walk(base):
        if not dirnames and not filenames:
            open(os.path.join(dirpath, ".keep"), "wb").close()
