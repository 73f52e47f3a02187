#!/usr/bin/env python3
"""Writes the storage fixture roots of testdata/storage/ (run from the repo root).

Each root holds just what `boardbench storage` reads to identify a path's
storage: /proc/self/mountinfo, the sysfs block, MMC, PCI and USB trees, and
the recorded kernel log (.boardbench/commands/dmesg).

Register values: the SD card's CID, CSD and SSR are a real SanDisk SC16G
(16 GB, made 10/2017) as published in a public test log; its serial is
replaced. The eMMC CID is built from the fields Linux printed for a real
SanDisk DG4008 eMMC (manfid 0x45, oemid 0x0100, date 04/2018); the other
values are typical of the boards they stand for.
"""
import os, shutil, sys

ROOT = "testdata/storage"

def w(root, path, text):
    p = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text if text.endswith("\n") else text + "\n")

def ln(root, path, target):
    """Symbolic link path -> target (absolute targets are rewritten relative)."""
    p = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    if target.startswith("/"):
        target = os.path.relpath(target, os.path.dirname(path))
    os.symlink(target, p)

def blockdev(root, sysdir, name, devno, sectors, parts=(), sched="[mq-deadline] none", rotational="0", discard="0"):
    d = f"{sysdir}/block/{name}"
    w(root, d + "/dev", devno)
    w(root, d + "/size", str(sectors))
    w(root, d + "/removable", "0")
    w(root, d + "/ro", "0")
    w(root, d + "/queue/rotational", rotational)
    w(root, d + "/queue/scheduler", sched)
    w(root, d + "/queue/read_ahead_kb", "128")
    w(root, d + "/queue/logical_block_size", "512")
    w(root, d + "/queue/physical_block_size", "512")
    w(root, d + "/queue/discard_max_bytes", discard)
    ln(root, f"/sys/block/{name}", d)
    ln(root, f"/sys/class/block/{name}", d)
    ln(root, f"/sys/dev/block/{devno}", d)
    maj, minor = devno.split(":")
    for i, (pname, start, size) in enumerate(parts, 1):
        pd = f"{d}/{pname}"
        pdevno = f"{maj}:{int(minor) + i}"
        w(root, pd + "/partition", str(i))
        w(root, pd + "/start", str(start))
        w(root, pd + "/size", str(size))
        w(root, pd + "/dev", pdevno)
        ln(root, f"/sys/class/block/{pname}", pd)
        ln(root, f"/sys/dev/block/{pdevno}", pd)
    return d

def mountinfo(root, lines):
    w(root, "/proc/self/mountinfo", "\n".join(lines))

def sdcard(root):
    host = "/sys/devices/platform/emmc2bus/fe340000.mmc"
    card = f"{host}/mmc_host/mmc0/mmc0:aaaa"
    d = blockdev(root, card, "mmcblk0", "179:0", 31116288,
                 [("mmcblk0p1", 8192, 524288), ("mmcblk0p2", 532480, 30583808)], discard="4194304")
    ln(root, d + "/device", card)
    for k, v in {"type": "SD", "name": "SC16G", "manfid": "0x000003", "oemid": "0x5344", "date": "10/2017",
                 "hwrev": "0x8", "fwrev": "0x0", "serial": "0x12345678",
                 "cid": "035344534331364780123456780 11a00".replace(" ", "")[:32],
                 "csd": "400e00325b59000076b27f800a404000",
                 "ssr": "0000000004000000040090000f050a00000000000001000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
                 "preferred_erase_size": "4194304", "erase_size": "512"}.items():
        w(root, f"{card}/{k}", v)
    ln(root, "/sys/class/mmc_host/mmc0", f"{host}/mmc_host/mmc0")
    ln(root, f"{host}/mmc_host/mmc0/device", host)
    dt = "/sys/firmware/devicetree/base/emmc2bus/mmc@7e340000"
    w(root, dt + "/sd-uhs-ddr50", "")
    w(root, dt + "/sd-uhs-sdr104", "")
    w(root, dt + "/compatible", "brcm,bcm2711-emmc2")
    ln(root, f"{host}/of_node", dt)
    mountinfo(root, ["25 1 179:2 / / rw,noatime shared:1 - ext4 /dev/mmcblk0p2 rw",
                     "27 25 179:1 / /boot/firmware rw,relatime shared:2 - vfat /dev/mmcblk0p1 rw,fmask=0022",
                     "30 25 0:24 / /tmp rw,nosuid,nodev shared:5 - tmpfs tmpfs rw,size=1953124k"])
    w(root, "/.boardbench/commands/dmesg",
      "[    1.912345] mmc0: SDHCI controller on fe340000.mmc [fe340000.mmc] using ADMA\n"
      "[    2.034567] mmc0: new high speed SDHC card at address aaaa\n"
      "[    2.040000] mmcblk0: mmc0:aaaa SC16G 14.8 GiB\n")

def emmc(root):
    host = "/sys/devices/platform/fe2e0000.mmc"
    card = f"{host}/mmc_host/mmc2/mmc2:0001"
    d = blockdev(root, card, "mmcblk2", "179:0", 15269888, [("mmcblk2p1", 32768, 15237120)], discard="524288")
    ln(root, d + "/device", card)
    for k, v in {"type": "MMC", "name": "DG4008", "manfid": "0x000045", "oemid": "0x0100", "date": "04/2018",
                 "hwrev": "0x0", "fwrev": "0x3733313033353137", "rev": "0x8",
                 "cid": "45010044473430303801a1b2c3d44501", "csd": "d0270132cf5903ffffffffe7864000f0",
                 "life_time": "0x01 0x01", "pre_eol_info": "0x01"}.items():
        w(root, f"{card}/{k}", v)
    ln(root, "/sys/class/mmc_host/mmc2", f"{host}/mmc_host/mmc2")
    ln(root, f"{host}/mmc_host/mmc2/device", host)
    dt = "/sys/firmware/devicetree/base/mmc@fe2e0000"
    w(root, dt + "/mmc-hs400-1_8v", "")
    w(root, dt + "/mmc-hs200-1_8v", "")
    ln(root, f"{host}/of_node", dt)
    mountinfo(root, ["25 1 179:1 / / rw,noatime,commit=600 shared:1 - ext4 /dev/mmcblk2p1 rw,commit=600"])
    w(root, "/.boardbench/commands/dmesg", "[    2.100000] mmc2: new HS400 Enhanced strobe MMC card at address 0001\n")

def nvme(root):
    port = "/sys/devices/pci0000:00/0000:00:00.0"
    fn = f"{port}/0000:01:00.0"
    for p, speed, width in ((port, "8.0 GT/s PCIe", "4"), (fn, "8.0 GT/s PCIe", "4")):
        w(root, p + "/max_link_speed", speed)
        w(root, p + "/max_link_width", width)
    w(root, port + "/current_link_speed", "5.0 GT/s PCIe")
    w(root, port + "/current_link_width", "1")
    w(root, fn + "/current_link_speed", "5.0 GT/s PCIe")
    w(root, fn + "/current_link_width", "1")
    w(root, fn + "/vendor", "0x144d")
    w(root, fn + "/device", "0xa80a")
    w(root, fn + "/class", "0x010802")
    ln(root, "/sys/bus/pci/devices/0000:00:00.0", port)
    ln(root, "/sys/bus/pci/devices/0000:01:00.0", fn)
    ctrl = f"{fn}/nvme/nvme0"
    w(root, ctrl + "/model", "Samsung SSD 980 PRO 1TB")
    w(root, ctrl + "/firmware_rev", "5B2QGXA7")
    w(root, ctrl + "/serial", "S5GXNF0R123456")
    ln(root, "/sys/class/nvme/nvme0", ctrl)
    d = blockdev(root, ctrl, "nvme0n1", "259:0", 1953525168, [("nvme0n1p1", 2048, 1953523120)], sched="[none] mq-deadline", discard="2199023255040")
    ln(root, d + "/device", ctrl)
    mountinfo(root, ["25 1 259:1 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p1 rw"])
    w(root, "/.boardbench/commands/dmesg", "[    1.0] nvme nvme0: 4/0/0 default/read/poll queues\n")

def usb(root):
    usbdev = "/sys/devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0/usb2/2-1"
    iface = f"{usbdev}/2-1:1.0"
    for k, v in {"speed": "5000", "version": " 3.20", "idVendor": "152d", "idProduct": "0578",
                 "manufacturer": "JMicron", "product": "USB to ATA/ATAPI Bridge"}.items():
        w(root, f"{usbdev}/{k}", v)
    ln(root, "/sys/bus/usb/devices/2-1", usbdev)
    ln(root, "/sys/bus/usb/devices/2-1:1.0", iface)
    w(root, "/sys/bus/usb/drivers/usb-storage/module", "")
    ln(root, f"{iface}/driver", "/sys/bus/usb/drivers/usb-storage")
    sdev = f"{iface}/host0/target0:0:0/0:0:0:0"
    for k, v in {"vendor": "JMicron", "model": "Generic", "rev": "0508"}.items():
        w(root, f"{sdev}/{k}", v)
    d = blockdev(root, sdev, "sda", "8:0", 976773168, [("sda1", 2048, 976771120)], rotational="0")
    ln(root, d + "/device", sdev)
    mountinfo(root, ["25 1 179:2 / / rw,noatime shared:1 - ext4 /dev/mmcblk0p2 rw",
                     "40 25 8:1 / /mnt/usb rw,relatime shared:9 - ext4 /dev/sda1 rw"])
    w(root, "/.boardbench/commands/dmesg", "[    3.0] usb 2-1: new SuperSpeed USB device number 2 using xhci_hcd\n")

def dmcrypt(root):
    sdev = "/sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0"
    for k, v in {"vendor": "ATA", "model": "CT500MX500SSD1", "rev": "043"}.items():
        w(root, f"{sdev}/{k}", v)
    d = blockdev(root, sdev, "sda", "8:0", 976773168, [("sda1", 2048, 1048576), ("sda2", 1050624, 975722496)], discard="2147450880")
    ln(root, d + "/device", sdev)
    dm = "/sys/devices/virtual/block/dm-0"
    w(root, dm + "/dev", "254:0")
    w(root, dm + "/size", "975689728")
    w(root, dm + "/dm/name", "crypthome")
    w(root, dm + "/dm/uuid", "CRYPT-LUKS2-0f3c5d7e9a1b4c2d8e6f0a1b2c3d4e5f-crypthome")
    w(root, dm + "/queue/scheduler", "none")
    ln(root, dm + "/slaves/sda2", d + "/sda2")
    ln(root, "/sys/block/dm-0", dm)
    ln(root, "/sys/class/block/dm-0", dm)
    ln(root, "/sys/dev/block/254:0", dm)
    mountinfo(root, ["25 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw",
                     "41 25 254:0 / /home rw,relatime shared:10 - ext4 /dev/mapper/crypthome rw,commit=30",
                     "42 25 254:0 /srv-data /srv rw,relatime shared:10 - ext4 /dev/mapper/crypthome rw,commit=30",
                     "43 25 0:50 / /merged rw,relatime - overlay overlay rw,lowerdir=/lower,upperdir=/home/upper,workdir=/home/work",
                     "44 25 0:51 / /mnt/nas rw,relatime - nfs4 nas:/export rw,vers=4.2"])
    w(root, "/.boardbench/commands/dmesg", "[    1.0] ata1: SATA link up 6.0 Gbps (SStatus 133 SControl 300)\n")

def main():
    for name, fn in (("sdcard", sdcard), ("emmc", emmc), ("nvme-downgraded", nvme), ("usb-storage", usb), ("dm-crypt", dmcrypt)):
        root = os.path.join(ROOT, name)
        shutil.rmtree(root, ignore_errors=True)
        fn(root)

if __name__ == "__main__":
    main()
