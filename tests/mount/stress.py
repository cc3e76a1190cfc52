#!/usr/bin/env python3
"""Concurrency stress through a real mount, bounded in time.

64 processes read random (offset, length) windows of every file for at least
a fixed time and at least MIN_READS reads between them, and compare each with
the same bytes read in-process by `gcfs cat` (the tree without FUSE). The
floor is a count, not a rate: after each page cache drop the readers
themselves fault back in from the disk, so how many reads fit in the time
follows the machine's disk, not gcfs (a CI run managed 861 in 12 s with the
daemon using under 1 s of CPU). HARD_LIMIT_S bounds a daemon that stops
answering. The kernel's page cache is dropped every half second so
the daemon itself serves, with a cache budget small enough to keep evicting
and reloading. Passes when no read errs or differs and the daemon's peak RSS
stays within its cache budget plus a fixed allowance.

    stress.py PATH/TO/gcfs [SECONDS]
"""
import multiprocessing as mp
import os
import random
import subprocess
import sys
import tempfile
import time

CACHE_KIB = 256  # below the small disc's ~1 MB of decoded files: loads keep evicting
READERS = 64  # more than the daemon's 16 FUSE threads: loads queue for room in the cache
ALLOWANCE_MIB = 48  # the tree, libfuse's buffers, a load's stream, thread stacks
MIN_READS = 1000  # between all readers, however long the machine takes
HARD_LIMIT_S = 180  # past this a reader stops even below the floor, and the check fails (meson allows 300 s)


def worker(seed, mnt, files, references, seconds, total_reads, out):
    rng = random.Random(seed)
    reads = errors = 0
    first_problem = ""
    start = time.monotonic()

    def more():
        elapsed = time.monotonic() - start
        return elapsed < HARD_LIMIT_S and (elapsed < seconds or total_reads.value < MIN_READS)

    while more():
        path = rng.choice(files)
        want = references[path]
        offset = rng.randrange(0, len(want) + 1)
        length = rng.choice([1, 7, 512, 4096, 65536, 131072 + 3, 1 << 20])
        try:
            fd = os.open(os.path.join(mnt, path), os.O_RDONLY)
            try:
                got = os.pread(fd, length, offset)
            finally:
                os.close(fd)
            if got != want[offset:offset + length]:
                raise ValueError("bytes differ")
        except (OSError, ValueError) as e:
            errors += 1
            first_problem = first_problem or "%s @%d+%d: %s" % (path, offset, length, e)
        reads += 1
        with total_reads.get_lock():
            total_reads.value += 1
    out.put((reads, errors, first_problem))


def vm_kib(pid, field):
    for line in open("/proc/%d/status" % pid):
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def program_text_kib(pid, program):
    """Size and resident KiB of the daemon's mapping of its own program text."""
    size = rss = 0
    inside = False
    for line in open("/proc/%d/smaps" % pid):
        fields = line.split()
        if "-" in fields[0] and len(fields) >= 5:  # a mapping's header line
            inside = len(fields) >= 6 and fields[1] == "r-xp" and os.path.realpath(fields[5]) == program
        elif inside and fields[0] == "Size:":
            size += int(fields[1])
        elif inside and fields[0] == "Rss:":
            rss += int(fields[1])
    return size, rss


def main():
    gcfs = os.path.abspath(sys.argv[1])
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 12
    work = tempfile.mkdtemp(prefix="gcfs-stress-")
    os.environ["XDG_CACHE_HOME"] = os.path.join(work, "xdg-cache")  # the persistent index: the test's own
    image, mnt = os.path.join(work, "disc.iso"), os.path.join(work, "mnt")
    os.mkdir(mnt)
    subprocess.run([gcfs, "mkdisc", image, "--levels", "4", "--seed", "11"], check=True, stdout=subprocess.DEVNULL)

    daemon = subprocess.Popen([gcfs, "mount", "-f", image, mnt, "-o", "cache_size=%dK" % CACHE_KIB],
                              stderr=subprocess.DEVNULL)
    passed = failed = 0

    def check(name, ok, detail=""):
        nonlocal passed, failed
        passed, failed = passed + ok, failed + (not ok)
        print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok or not detail else "\n     | " + detail))

    try:
        while not os.path.ismount(mnt):
            time.sleep(0.01)
        # Mapped at mount on a thread of its own (fs/resident_program.cpp), the
        # program's text is resident before anything is asked of the mount, so
        # no first operation waits on the disk for code (nor after a page
        # cache drop: mapped pages stay).
        deadline = time.monotonic() + 5
        while True:
            size, rss = program_text_kib(daemon.pid, os.path.realpath(gcfs))
            if (size > 0 and rss >= size * 0.95) or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        check("the idle daemon's program text is mapped (%d of %d KiB resident)" % (rss, size),
              size > 0 and rss >= size * 0.95)
        files = []
        for root, _, names in os.walk(mnt):
            for n in names:
                rel = os.path.relpath(os.path.join(root, n), mnt)
                if not rel.startswith(".gcfs") and not os.path.islink(os.path.join(mnt, rel)):
                    files.append(rel)
        # In-process references: the same tree, no kernel, no daemon.
        references = {f: subprocess.run([gcfs, "cat", image, f], check=True, capture_output=True).stdout for f in files}
        check("%d files read in-process as references" % len(files), len(files) > 200)
        baseline = vm_kib(daemon.pid, "VmRSS")

        out, total_reads = mp.Queue(), mp.Value("i", 0)
        procs = [mp.Process(target=worker, args=(i, mnt, files, references, seconds, total_reads, out))
                 for i in range(READERS)]
        started = time.monotonic()
        for p in procs:
            p.start()
        results = []
        while len(results) < len(procs):  # drops go on while any reader reads
            subprocess.run(["sync"])
            with open("/proc/sys/vm/drop_caches", "w") as f:
                f.write("3\n")
            time.sleep(0.5)
            while not out.empty():
                results.append(out.get())
            if time.monotonic() - started > HARD_LIMIT_S + 60:
                raise RuntimeError("readers still running 60 s past the hard limit")
        took = time.monotonic() - started
        for p in procs:
            p.join()
        reads = sum(r[0] for r in results)
        errors = sum(r[1] for r in results)
        problem = next((r[2] for r in results if r[2]), "")
        check("%d processes, %d random reads in %.0f s: all equal the in-process bytes" % (READERS, reads, took),
              errors == 0 and reads >= MIN_READS, "%d errors; first: %s" % (errors, problem))
        stats = dict(l.split(" ", 1) for l in open(os.path.join(mnt, ".gcfs/stats")).read().splitlines() if " " in l)
        check("the daemon evicted and reloaded (%s evictions, %s misses, %s waits; %s loads waited for room, %s started after a stall)"
              % (stats["cache_evictions"], stats["cache_misses"], stats["cache_waits"], stats["cache_room_waits"],
                 stats["cache_stalled_starts"]),
              int(stats["cache_evictions"]) > 0 and stats["errors"] == "0", str(stats))
        peak = vm_kib(daemon.pid, "VmHWM") / 1024
        check("daemon peak RSS %.0f MiB within baseline %.0f + cache %.2f + %d MiB"
              % (peak, baseline / 1024, CACHE_KIB / 1024, ALLOWANCE_MIB),
              peak <= baseline / 1024 + CACHE_KIB / 1024 + ALLOWANCE_MIB)
    finally:
        subprocess.run(["fusermount3", "-u", mnt])
        daemon.wait()
        subprocess.run(["rm", "-rf", work])
    print("stress tests: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
