#!/usr/bin/env python3
"""Peak memory of the daemon under many concurrent readers (issue 33, item 5).

Mounts IMAGE with -o cache_size=CACHE, lets READERS processes each read whole
files of the mount in their own shuffled order for SECONDS, and prints the
daemon's peak RSS (VmHWM) beside its budget, the longest any single open or
read(2) of 128 KiB waited (issue 42, item 5: fairness), and what
.gcfs/stats counted.
Run it on a full-scale disc (gcfs mkdisc --scale full --levels 2):

    many_readers.py PATH/TO/gcfs IMAGE [CACHE=16M] [READERS=64] [SECONDS=15]
"""
import multiprocessing as mp
import os
import random
import subprocess
import sys
import tempfile
import time


def status_kib(pid, field):
    for line in open("/proc/%d/status" % pid):
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def read_shuffled(args):
    seed, files, seconds = args
    order = files[:]
    random.Random(seed).shuffle(order)
    deadline, done, served, longest = time.monotonic() + seconds, 0, 0, 0.0
    for path in order:
        if time.monotonic() > deadline:
            break
        try:
            began = time.monotonic()
            with open(path, "rb") as f:
                longest = max(longest, time.monotonic() - began)
                while True:
                    began = time.monotonic()
                    chunk = f.read(1 << 17)
                    longest = max(longest, time.monotonic() - began)
                    if not chunk:
                        break
                    served += len(chunk)
        except OSError:
            pass
        done += 1
    return done, served, longest


def read_all(files, readers, seconds):
    """`readers` processes each read `files` whole in a shuffled order of its own for at most
    `seconds`; returns the bytes they were served."""
    with mp.Pool(readers) as pool:
        return sum(served for _, served, _ in pool.map(read_shuffled, [(i, files, seconds) for i in range(readers)]))


def main():
    gcfs, image = os.path.abspath(sys.argv[1]), sys.argv[2]
    cache = sys.argv[3] if len(sys.argv) > 3 else "16M"
    readers = int(sys.argv[4]) if len(sys.argv) > 4 else 64
    seconds = float(sys.argv[5]) if len(sys.argv) > 5 else 15
    mnt = tempfile.mkdtemp(prefix="gcfs-many-")
    daemon = subprocess.Popen([gcfs, "mount", "-f", image, mnt, "-o", "cache_size=" + cache], stderr=subprocess.DEVNULL)
    try:
        while not os.path.ismount(mnt):
            time.sleep(0.01)
        files = [os.path.join(root, n) for root, _, names in os.walk(mnt) for n in names if "/.gcfs" not in root]
        baseline = status_kib(daemon.pid, "VmRSS")
        start = time.monotonic()
        with mp.Pool(readers) as pool:
            results = pool.map(read_shuffled, [(i, files, seconds) for i in range(readers)])
        read, longest = sum(done for done, _, _ in results), max(wait for _, _, wait in results)
        elapsed = time.monotonic() - start
        peak = status_kib(daemon.pid, "VmHWM")
        stats = dict(l.split(" ", 1) for l in open(os.path.join(mnt, ".gcfs/stats")).read().splitlines() if " " in l)
    finally:
        subprocess.run(["fusermount3", "-u", mnt])
        daemon.wait()
        os.rmdir(mnt)
    print("cache %s, %d readers: %d whole files read (of %d) in %.1f s; RSS at mount %d MiB, peak %d MiB; longest single open or read %.1f s"
          % (cache, readers, read, len(files), elapsed, baseline // 1024, peak // 1024, longest))
    print("  " + ", ".join("%s %s" % (k, stats.get(k, "?")) for k in
                           ("cache_misses", "cache_waits", "cache_room_waits", "cache_stalled_starts", "errors")))


if __name__ == "__main__":
    main()
