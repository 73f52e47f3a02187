"""Rebuild the fixture roots in testdata/boards from the generator modules beside this file.

Usage: python3 testdata/boards/_generator/gen.py [board ...]
Each named root (all by default) is deleted and written again. Nothing is read
from outside this directory: /proc/cpuinfo and every other file are written from
the facts stated in the board modules (see cpuinfo.py and ../README.md).
"""
import sys, os
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(__file__))
import rpi, arm, other, extra
OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARDS = {
    "rpi-zero2w": rpi.zero2w, "rpi4b": rpi.pi4, "rpi5": rpi.pi5,
    "rock5b": arm.rock5b, "rk3399": arm.rk3399, "odroid-n2plus": arm.n2plus,
    "orangepi-zero3": arm.zero3, "qcs6490": arm.qcs6490,
    "visionfive2": other.visionfive2, "intel-hybrid": other.intel, "cpuinfo-only": other.cpuinfo_only,
    "n100-minipc": extra.n100_minipc, "rock5b-armbian": extra.rock5b_armbian,
    "cloud-vm-kvm": extra.cloud_vm_kvm,
}
os.makedirs(OUT, exist_ok=True)
for name, fn in BOARDS.items():
    if len(sys.argv) > 1 and name not in sys.argv[1:]:
        continue
    r = fn(os.path.join(OUT, name))
    from common import finalize_mounts, extras, keep_empty_dirs
    finalize_mounts(r, root_source={"rpi-zero2w": "mmcblk0p2"}.get(name))
    extras(r, name)
    keep_empty_dirs(r.base)
    print("built", name)
