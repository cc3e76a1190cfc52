"""A damaged core costs once (issue 42, item 4): on the full-scale disc with
4 KiB zeroed inside LEVEL11's core stream, one read of LEVEL11/level.glb,
against the same read on the clean image: the daemon's CPU time (user +
system, from /proc) and the decode failures .gcfs/stats counts. Target: the
damaged read costs at most 1.5x the clean one.
Writes its section of bench/results.md (bench/run.py keeps it).
Usage: python3 bench/damaged_core.py [--gcfs build/gcfs] [--image bench/work/full.iso] [--runs 3]"""
import os
import re
import shutil
import statistics
import sys
import tempfile
import time

from run_common import Mount, bench_arguments, read_file, stats_of, write_section

HERE = os.path.dirname(os.path.abspath(__file__))
TITLE = "A damaged core (issue 42)"
LEVEL = "LEVEL11"


def cpu_seconds(pid):
    fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def one_read(gcfs, image):
    """Daemon CPU seconds and decode failures of one cold read of level.glb (no persistent index)."""
    with Mount(gcfs, image, "noindex") as m:
        before = cpu_seconds(m.proc.pid)
        try:
            read_file(os.path.join(m.mnt, LEVEL, "level.glb"))
        except OSError:
            pass  # the damaged level's scene may read as EIO: its cost is what is measured
        time.sleep(0.2)  # the daemon's helpers settle
        return cpu_seconds(m.proc.pid) - before, int(stats_of(m.mnt)["decode_failures"])


def main():
    args = bench_arguments(__doc__, HERE)
    work = tempfile.mkdtemp(prefix="gcfs-bench-damaged-")
    damaged = os.path.join(work, "damaged.iso")
    shutil.copyfile(args.image, damaged)
    with Mount(args.gcfs, args.image, "noindex") as m:
        sectors = os.getxattr(os.path.join(m.mnt, LEVEL, "core_data.wad"), "user.gcfs.sectors").decode()
    start, end = (int(x, 16) for x in re.search(r"bytes \[0x([0-9a-f]+), 0x([0-9a-f]+)\)", sectors).groups())
    at = start + (end - start) // 2
    with open(damaged, "r+b") as f:
        f.seek(at)
        f.write(bytes(4096))
    clean = [one_read(args.gcfs, args.image) for _ in range(args.runs)]
    bad = [one_read(args.gcfs, damaged) for _ in range(args.runs)]
    shutil.rmtree(work)
    clean_cpu, bad_cpu = statistics.median(c for c, _ in clean), statistics.median(c for c, _ in bad)
    rows = [
        ("clean: one cold read of %s/level.glb, daemon CPU" % LEVEL, "%.2f s" % clean_cpu, "(baseline)",
         "decode failures %d" % clean[0][1]),
        ("4 KiB zeroed at image byte 0x%x (the middle of its core stream): the same read" % at, "%.2f s" % bad_cpu, "<= 1.5x clean",
         "%.2fx clean; decode failures %s" % (bad_cpu / clean_cpu, ", ".join(str(n) for _, n in bad))),
    ]
    write_section(args, TITLE, "damaged_core.py", "medians of %d runs" % args.runs, rows)


if __name__ == "__main__":
    sys.exit(main())
