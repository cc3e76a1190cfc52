#!/usr/bin/env python3
"""Random damage through a real mount, bounded: 40 trials with a fixed seed.

A first trial claims 2 GiB cores on every level; then each trial damages a
copy of a built disc at random (one bit flipped, 16
random bytes, a zeroed 4 KiB range, 512 random bytes, or the image cut
short), every other trial inside one of the WADs gcfs opens beside the
levels (global/*.wad with a folder of its own, each level's audio.wad),
which are a small part of the image, mounts it in the foreground, and reads every file in a child process
with a time limit. It checks that the daemon is alive afterwards, that no
read hangs, that every failed read is EIO with one log line naming the file,
that every file that reads returns exactly the size stat reported, and that
the daemon's peak RSS stays under its cache budget (16 MiB here) + 64 MiB. A
mount may refuse a damaged image, but only with an error message and exit
status 1, never a crash. Prints the counts.

    random_damage.py PATH/TO/gcfs [TRIALS] [SEED]
"""
import errno
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

READ_SECONDS = 30  # reading one damaged small disc takes well under a second
CACHE_MIB = 16
ALLOWANCE_MIB = 64  # what the daemon may hold beyond its cache, whatever the image says
SCENES = ("level.glb", "collision.glb")  # always built: never EIO (README, "What damage costs")


def read_everything(mnt):
    """Runs in a child: every file's stat size and what reading it gave."""
    out = []
    for root, dirs, files in os.walk(mnt):
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(root, d))]
        for name in files:
            path = os.path.join(root, name)
            if os.path.islink(path):
                continue
            rel = os.path.relpath(path, mnt)
            try:
                size = os.stat(path).st_size
                with open(path, "rb") as f:
                    data = f.read()
                out.append((rel, size, len(data), 0))
            except OSError as e:
                out.append((rel, -1, -1, e.errno))
    return out


def vm_hwm_kib(pid):
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def damage(data, rng, regions):
    kind = rng.choice(["bit", "bytes16", "zero4k", "bytes512", "truncate"])
    at = rng.randrange(0, len(data))
    if regions and rng.random() < 0.5:
        start, end = rng.choice(regions)
        at = rng.randrange(start, end)
    if kind == "bit":
        data[at] ^= 1 << rng.randrange(8)
    elif kind == "bytes16":
        data[at:at + 16] = bytes(rng.randrange(256) for _ in range(len(data[at:at + 16])))
    elif kind == "zero4k":
        data[at:at + 4096] = bytes(len(data[at:at + 4096]))
    elif kind == "bytes512":
        data[at:at + 512] = bytes(rng.randrange(256) for _ in range(len(data[at:at + 512])))
    else:  # past the table of contents (LBA 1001 on), so the levels themselves are cut
        at = rng.randrange(1030 * 2048, len(data))
        del data[at:]
    return "%s@0x%x" % (kind, at)


def opened_wads(gcfs, clean, mnt):
    """Image byte ranges of the WADs gcfs decodes beside the levels."""
    subprocess.run([gcfs, "mount", clean, mnt], check=True)
    paths = [os.path.join(mnt, "global", d + ".wad") for d in os.listdir(os.path.join(mnt, "global"))
             if os.path.isdir(os.path.join(mnt, "global", d))]
    paths += [os.path.join(mnt, l, "audio.wad") for l in os.listdir(mnt) if l.startswith("LEVEL")]
    regions = []
    for path in paths:
        sectors = os.getxattr(path, "user.gcfs.sectors").decode()
        start, end = (int(x, 16) for x in sectors.split("bytes [")[1].rstrip(")").split(", "))
        regions.append((start, end))
    subprocess.run(["fusermount3", "-u", mnt], check=True)
    return regions


def hostile_sizes(gcfs, clean, mnt):
    """Damage that claims huge sizes: every level's core header says its core
    decodes to ~2 GiB (formats.md 6.1 +0x8C). The readers must refuse before
    allocating."""
    subprocess.run([gcfs, "mount", clean, mnt], check=True)
    offsets = []
    for level in sorted(d for d in os.listdir(mnt) if d.startswith("LEVEL")):
        sectors = os.getxattr(os.path.join(mnt, level, "core_index.bin"), "user.gcfs.sectors").decode()
        offsets.append(int(sectors.split("bytes [")[1].split(",")[0], 16) + 0x8C)
    subprocess.run(["fusermount3", "-u", mnt], check=True)

    def apply(data, rng):
        for at in offsets:
            data[at:at + 4] = (0x7FFF0000).to_bytes(4, "little")
        return "core sizes of 2 GiB"
    return apply


def main():
    gcfs = os.path.abspath(sys.argv[1])
    trials = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 2026)
    work = tempfile.mkdtemp(prefix="gcfs-random-damage-")
    os.environ["XDG_CACHE_HOME"] = os.path.join(work, "xdg-cache")  # the persistent index: the test's own
    clean = os.path.join(work, "clean.iso")
    subprocess.run([gcfs, "mkdisc", clean, "--levels", "2", "--seed", "5"], check=True, stdout=subprocess.DEVNULL)
    original = open(clean, "rb").read()
    mnt = os.path.join(work, "mnt")
    os.makedirs(mnt)
    counts = {"trials": 0, "refused at mount": 0, "files read": 0, "files EIO": 0, "peak RSS MiB": 0}
    problems = []
    start = time.monotonic()
    regions = opened_wads(gcfs, clean, mnt)
    plans = [hostile_sizes(gcfs, clean, mnt)] + [lambda data, rng: damage(data, rng, regions)] * trials
    for plan in plans:
        data = bytearray(original)
        what = plan(data, rng)
        image = os.path.join(work, "damaged.iso")
        open(image, "wb").write(data)
        log = open(os.path.join(work, "log.txt"), "w+")
        daemon = subprocess.Popen([gcfs, "mount", "-f", "-o", "cache_size=%dM" % CACHE_MIB, image, mnt], stderr=log,
                                  stdout=log)
        counts["trials"] += 1
        # Until it answers or exits, up to 30 s: a slow start is not a refusal.
        for _ in range(1500):
            if os.path.ismount(mnt) or daemon.poll() is not None:
                break
            time.sleep(0.02)
        if not os.path.ismount(mnt) and daemon.poll() is None:
            daemon.kill()
            daemon.wait()
            problems.append("%s: the mount neither answered nor exited in 30 s" % what)
            continue
        if not os.path.ismount(mnt):
            rc = daemon.wait()
            log.seek(0)
            text = log.read()
            if rc not in (1, 3) or "gcfs:" not in text:
                problems.append("%s: mount exited %s without a clear refusal: %r" % (what, rc, text[-300:]))
            counts["refused at mount"] += 1
            continue
        reader = subprocess.run([sys.executable, __file__, "--read", mnt], capture_output=True, text=True,
                                timeout=READ_SECONDS)
        results = eval(reader.stdout) if reader.returncode == 0 else None
        alive = daemon.poll() is None and os.path.ismount(mnt)
        peak_mib = vm_hwm_kib(daemon.pid) / 1024 if alive else 0
        counts["peak RSS MiB"] = max(counts["peak RSS MiB"], int(peak_mib))
        if peak_mib > CACHE_MIB + ALLOWANCE_MIB:
            problems.append("%s: peak RSS %.0f MiB over the %d MiB cache + %d MiB" % (what, peak_mib, CACHE_MIB, ALLOWANCE_MIB))
        subprocess.run(["fusermount3", "-u", mnt])
        rc = daemon.wait(timeout=10)
        log.seek(0)
        text = log.read()
        if results is None:
            problems.append("%s: the reader failed: %s" % (what, reader.stderr[-300:]))
            continue
        if not alive:
            problems.append("%s: the daemon died (exit %s)" % (what, rc))
        for rel, size, got, err in results:
            if err == 0:
                counts["files read"] += 1
                if size != got:
                    problems.append("%s: %s: stat said %d bytes, read gave %d" % (what, rel, size, got))
            else:
                counts["files EIO"] += 1
                if os.path.basename(rel) in SCENES:
                    problems.append("%s: %s: %s; a scene leaves out what it cannot decode" % (what, rel, os.strerror(err)))
                if err != errno.EIO:
                    problems.append("%s: %s: %s, not EIO" % (what, rel, os.strerror(err)))
                elif text.count(rel + ":") < 1:
                    problems.append("%s: %s: EIO without a log line naming it" % (what, rel))
    shutil.rmtree(work, ignore_errors=True)
    print("random damage: %s in %.0f s" % (", ".join("%d %s" % (v, k) for k, v in counts.items()),
                                            time.monotonic() - start))
    for p in problems[:20]:
        print("PROBLEM", p)
    print("random damage tests: %d passed, %d failed" % (counts["trials"] - min(len(problems), counts["trials"]),
                                                      len(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--read":
        print(repr(read_everything(sys.argv[2])))
    else:
        main()
