#!/usr/bin/env python3
"""gcfs benchmark: every figure is a median of repeated runs and, where a
target is a ratio, divided by a baseline timed in the same run.

    python3 bench/run.py [--gcfs build/gcfs] [--image bench/work/full.iso] [--runs 5]

Builds a --scale full disc once (27 levels, ~800 tfrag patches each) unless
--image names one, mounts it for real, prints one table and writes it to
bench/results.md with the machine's nproc. Needs root (drop_caches, /dev/fuse).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import edits
import issue58
import peer
from run_common import Mount, bench_arguments, drop_caches, ls_lr, make_index, read_file, read_in_parallel, stats_of, timed

HERE = os.path.dirname(os.path.abspath(__file__))


def stats_of(mnt):
    text = open(os.path.join(mnt, ".gcfs/stats")).read()
    return {k: v for k, v in (line.split(" ", 1) for line in text.splitlines() if " " in line)}


def levels_of(mnt):
    return sorted(d for d in os.listdir(mnt) if d.startswith("LEVEL"))


def measure_mount(gcfs, image, runs):
    times, misses, decoded = [], set(), set()
    for _ in range(runs):
        start = time.perf_counter()
        with Mount(gcfs, image) as m:
            os.listdir(m.mnt)
            times.append(time.perf_counter() - start)
            s = stats_of(m.mnt)
            misses.add(int(s["cache_misses"]))
            decoded.add(int(s["bytes_decoded"]))
    return statistics.median(times), max(misses), max(decoded)


def mirror_tree(src, dst):
    """The same names, sizes (sparse) and links on tmpfs: ls -lR's baseline."""
    for root, dirs, files in os.walk(src):
        here = os.path.join(dst, os.path.relpath(root, src))
        os.makedirs(here, exist_ok=True)
        for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            path = os.path.join(root, name)
            if os.path.islink(path):
                os.symlink(os.readlink(path), os.path.join(here, name))
            else:
                with open(os.path.join(here, name), "wb") as f:
                    f.truncate(os.path.getsize(path))


def measure_ls_lr_first(gcfs, image, runs, options):
    """First ls -lR of a fresh mount with mount `options`."""
    times = []
    for _ in range(runs):
        with Mount(gcfs, image, options) as m:
            times.append(ls_lr(m.mnt))
    return statistics.median(times)


def measure_ls_lr(gcfs, image, runs):
    """First ls -lR of a fresh mount and a repeat, against the same tree on tmpfs."""
    first, repeat, decodes, decoded, cores = [], [], [], [], 0
    mirror = tempfile.mkdtemp(prefix="gcfs-bench-mirror-", dir="/dev/shm")
    for i in range(runs):
        with Mount(gcfs, image) as m:
            first.append(ls_lr(m.mnt))
            repeat.append(ls_lr(m.mnt))
            s = stats_of(m.mnt)
            decodes.append(int(s["cache_misses"]))
            decoded.append(int(s["bytes_decoded"]))
            cores = sum(os.stat(os.path.join(m.mnt, l, "core_data.bin")).st_size for l in levels_of(m.mnt))
            if i == 0:
                mirror_tree(m.mnt, mirror)
    entries = sum(len(d) + len(f) for _, d, f in os.walk(mirror))
    tmpfs = statistics.median([ls_lr(mirror) for _ in range(runs)])
    subprocess.run(["rm", "-rf", mirror])
    return (statistics.median(first), statistics.median(repeat), tmpfs, entries, max(decodes), max(decoded), cores)


def measure_sequential(gcfs, image, runs, work, cold_ok):
    """Through the mount vs the same bytes in a plain file, cold and on repeat."""
    with Mount(gcfs, image) as m:
        level = levels_of(m.mnt)[3]
        names = ["core_data.bin", "data.bin"]
        for name in names:  # the baselines: the very bytes, as plain files
            subprocess.run(["cp", os.path.join(m.mnt, level, name), os.path.join(work, name)], check=True)
    result = {}
    for name in names:
        plain = os.path.join(work, name)
        size = os.path.getsize(plain)
        cold_mnt, cold_plain, hot_mnt, hot_plain = [], [], [], []
        for _ in range(runs):
            with Mount(gcfs, image) as m:
                path = os.path.join(m.mnt, level, name)
                if cold_ok:
                    drop_caches()
                cold_mnt.append(size / timed(lambda: read_file(path)))
                hot_mnt.append(size / timed(lambda: read_file(path)))
            if cold_ok:
                drop_caches()
            cold_plain.append(size / timed(lambda: read_file(plain)))
            hot_plain.append(size / timed(lambda: read_file(plain)))
        result[name] = (size, statistics.median(cold_mnt), statistics.median(cold_plain),
                        statistics.median(hot_mnt), statistics.median(hot_plain))
    return level, result


def measure_wav(gcfs, image, runs, work, cold_ok):
    """global/audio/vendor/000.wav, the full-scale disc's ten-minute VAG
    decoded: a whole read through a fresh mount (open, stat and the decode
    included) against the same WAV as a plain file, cold and on repeat."""
    with Mount(gcfs, image) as m:
        path = os.path.join(m.mnt, "global/audio/vendor/000.wav")
        for name in ("000.wav", "000.vag"):
            subprocess.run(["cp", os.path.join(m.mnt, "global/audio/vendor", name), os.path.join(work, name)], check=True)
        subprocess.run(["cp", os.path.join(m.mnt, "global/audio/vendor/001.vag"), os.path.join(work, "short.vag")], check=True)
    plain = os.path.join(work, "000.wav")
    size = os.path.getsize(plain)
    cold_mnt, cold_plain, hot_mnt, hot_plain = [], [], [], []
    for _ in range(runs):
        with Mount(gcfs, image) as m:
            path = os.path.join(m.mnt, "global/audio/vendor/000.wav")
            if cold_ok:
                drop_caches()
            cold_mnt.append(size / timed(lambda: read_file(path)))
            hot_mnt.append(size / timed(lambda: read_file(path)))
        if cold_ok:
            drop_caches()
        cold_plain.append(size / timed(lambda: read_file(plain)))
        hot_plain.append(size / timed(lambda: read_file(plain)))
    return size, [statistics.median(x) for x in (cold_mnt, cold_plain, hot_mnt, hot_plain)]


def measure_adpcm(gcfs, work, runs):
    """PS-ADPCM decode on one core, MB/s of WAV out: gcfs's decoder in
    process against ffmpeg's (one thread) on the same VAG, ffmpeg's start-up
    (the same command on a 0.15 s VAG) taken off its time."""
    exe = os.path.join(os.path.dirname(os.path.abspath(gcfs)), "gcfs_bench")
    out = dict(line.split(" ", 1) for line in subprocess.run([exe, "adpcm", os.path.join(work, "000.vag")], check=True,
                                                             capture_output=True, text=True).stdout.splitlines())
    wav_bytes = 2 * int(out["adpcm_samples"])

    def ffmpeg(vag):
        return timed(lambda: subprocess.run(["ffmpeg", "-v", "error", "-threads", "1", "-i", vag, "-f", "s16le", "-y", "/dev/null"],
                                            check=True))
    long = statistics.median([ffmpeg(os.path.join(work, "000.vag")) for _ in range(runs)])
    short = statistics.median([ffmpeg(os.path.join(work, "short.vag")) for _ in range(runs)])
    return float(out["adpcm_wav_mb_s"]), wav_bytes / 1e6 / (long - short), wav_bytes


def measure_first_obj(gcfs, image, runs):
    times = []
    for i in range(runs):
        with Mount(gcfs, image) as m:
            level = levels_of(m.mnt)[(5 + i) % len(levels_of(m.mnt))]
            path = os.path.join(m.mnt, level, "tfrag", "patch_0123.obj")
            times.append(timed(lambda: read_file(path)))
    return statistics.median(times)


def measure_first_gameplay(gcfs, image, runs):
    """ls -l of a level's gameplay/ in a fresh mount (decodes that level's
    gameplay once for every size), then the first read of its mobies.csv."""
    listing, first_read, files = [], [], 0
    for i in range(runs):
        drop_caches()
        with Mount(gcfs, image) as m:
            folder = os.path.join(m.mnt, levels_of(m.mnt)[(3 + i) % len(levels_of(m.mnt))], "gameplay")

            def ls_l():
                return [os.lstat(os.path.join(folder, name)).st_size for name in os.listdir(folder)]

            listing.append(timed(ls_l))
            files = len(os.listdir(folder))
            first_read.append(timed(lambda: read_file(os.path.join(folder, "mobies.csv"))))
    return statistics.median(listing), statistics.median(first_read), files


def measure_first_tie_obj(gcfs, image, runs):
    """The first read of a tie OBJ in a fresh mount, page cache dropped: lookup,
    the level's class window decoded (walked to from the core's start), every
    tie and shrub class indexed, then the OBJ rendered."""
    times = []
    for i in range(runs):
        drop_caches()
        with Mount(gcfs, image) as m:
            level = levels_of(m.mnt)[(7 + i) % len(levels_of(m.mnt))]
            path = os.path.join(m.mnt, level, "ties", "tie_500.obj")
            times.append(timed(lambda: read_file(path)))
    return statistics.median(times)


def measure_scene(gcfs, image, runs):
    """level.glb: its first stat (the scene built once without images, from
    the level's core head, tfrag region, class window and gameplay) and first
    read (built again with the images) in a fresh mount with the page cache
    dropped; then, in one mount with the default cache, every level's scene
    read in turn, and the daemon's peak RSS against its RSS after mounting."""
    stat_times, read_times, sizes = [], [], set()
    for i in range(runs):
        drop_caches()
        with Mount(gcfs, image) as m:
            path = os.path.join(m.mnt, levels_of(m.mnt)[(11 + i) % len(levels_of(m.mnt))], "level.glb")
            stat_times.append(timed(lambda: os.stat(path)))
            read_times.append(timed(lambda: read_file(path)))
            sizes.add(os.stat(path).st_size)
    drop_caches()
    with Mount(gcfs, image) as m:
        os.listdir(m.mnt)
        base = m.vm_hwm_kib() / 1024
        levels = levels_of(m.mnt)
        every = timed(lambda: [read_file(os.path.join(m.mnt, level, "level.glb")) for level in levels])
        s = stats_of(m.mnt)
        return (statistics.median(stat_times), statistics.median(read_times), min(sizes), max(sizes), every, len(levels),
                base, m.vm_hwm_kib() / 1024, int(s["cache_budget_bytes"]) / (1 << 20))


def measure_rss(gcfs, image):
    with Mount(gcfs, image, "cache_size=256M") as m:
        for level in levels_of(m.mnt):
            read_file(os.path.join(m.mnt, level, "core_data.bin"))
            read_file(os.path.join(m.mnt, level, "tfrag", "terrain.obj"))
        s = stats_of(m.mnt)
        return m.vm_hwm_kib() / 1024, int(s["cache_resident_bytes"]) / (1 << 20), int(s["cache_evictions"])


def measure_concurrency(gcfs, image, runs, readers=8):
    """Aggregate decode-bound throughput: 8 readers on 8 levels vs 1 reader doing the same 8."""
    single, parallel, total = [], [], 0
    for _ in range(runs):
        with Mount(gcfs, image) as m:
            paths = [os.path.join(m.mnt, l, "core_data.bin") for l in levels_of(m.mnt)[:readers]]
            total = sum(os.path.getsize(p) for p in paths)
            single.append(total / timed(lambda: [read_file(p) for p in paths]))
        with Mount(gcfs, image) as m:
            paths = [os.path.join(m.mnt, l, "core_data.bin") for l in levels_of(m.mnt)[:readers]]
            parallel.append(total / read_in_parallel(paths))
    return statistics.median(single), statistics.median(parallel)


PEER_TITLE = "Beside a peer mounter (one sitting)"
PEER_INTRO = ("The same decoded tree gcfs serves, extracted once with `gcfs extract`, packed by mksquashfs (zstd) and "
              "mounted with squashfuse_ll, and the same tree as plain files on ext4. Each figure measured the same way "
              "on each side (`bench/peer.py`), page cache dropped before every cold one; targets from issues 18 and 32. "
              "gcfs is measured twice: first mounts (each with an empty persistent index folder of its own) and second "
              "mounts (the index a first mount's `ls -lR` saved present).")


def measure_peers(gcfs, image, runs):
    """Issues 18 and 32's figures for gcfs (a first mount, and a second one with the persistent
    index present), squashfuse_ll and plain files, with the targets' ratios."""
    peer.ensure_tools()
    tree, sqfs = peer.build_peer(gcfs, image, os.path.join(HERE, "work"))
    index = tempfile.mkdtemp(prefix="gcfs-bench-index-")
    make_index(gcfs, image, index)
    g = peer.side_figures(peer.gcfs_mounter(gcfs, image), runs, [gcfs, "--version"])
    g2 = peer.side_figures(peer.gcfs_mounter(gcfs, image, index), runs)
    q = peer.side_figures(peer.squashfuse_mounter(sqfs), runs, ["squashfuse_ll", "--help"])
    p = peer.side_figures(peer.plain_mounter(tree), runs)
    subprocess.run(["rm", "-rf", index])
    rows = []

    def ratio(a, b):
        return a / b if b else float("nan")

    def row(what, key, unit, fmt, target, ok, to_peer=True, to_plain=True, second=True):
        """`ok(first, second)` gets each gcfs column's (value, / squashfuse, / plain)."""
        cols = [(v[key], ratio(v[key], q[key]), ratio(v[key], p[key])) for v in (g, g2)]
        shown = lambda v: fmt % v + unit
        rows.append((what, shown(g[key]), shown(g2[key]) if second else "-", shown(q[key]),
                     shown(p[key]) if to_plain else "-",
                     "%.2fx" % cols[0][1] if to_peer else "-", "%.2fx" % cols[0][2] if to_plain else "-",
                     ("%.2fx" % cols[1][1] if to_peer else "-") if second else "-",
                     ("%.2fx" % cols[1][2] if to_plain else "-") if second else "-",
                     target, "met" if ok(*cols) else "MISSED"))
        print("%-50s gcfs %s / %s, squashfuse %s, plain %s" % (what, fmt % g[key], fmt % g2[key], fmt % q[key], fmt % p[key]),
              file=sys.stderr)

    row("mount -> first ls, cold", "mount_first_ls_s", " s", "%.4f", "<= 2x squashfuse (both mounts; issue 43)",
        lambda a, b: a[1] <= 2.0 and b[1] <= 2.0, True, False)
    row("mount -> first ls, warm", "mount_first_ls_warm_s", " s", "%.4f", "(no target)", lambda a, b: True, True, False)
    row("the program alone started cold and run to exit (--version / --help)", "program_start_s", " s", "%.4f",
        "(the floor under a cold mount)", lambda a, b: True, True, False, False)
    row("ls -lR of everything, first (cold)", "ls_lr_first_s", " s", "%.2f", "<= 2.5x plain (issue 43); second mount <= 1.0x plain",
        lambda a, b: a[2] <= 2.5 and b[2] <= 1.0)
    row("ls -lR of everything, repeat", "ls_lr_repeat_s", " s", "%.2f", "<= 1.0x plain", lambda a, b: a[2] <= 1.0 and b[2] <= 1.0)
    row("peak RSS after a cold ls -lR", "rss_after_ls_lr_mib", " MiB", "%.0f", "first mount <= 48 MiB, second <= 32 MiB (issue 43)",
        lambda a, b: a[0] <= 48 and b[0] <= 32, True, False)
    row("cold sequential read of LEVEL03/core_data.bin", "seq_core_mb_s", " MB/s", "%.0f", ">= 1.0x squashfuse",
        lambda a, b: a[1] >= 1.0)
    row("first read of LEVEL03/tfrag/patch_0123.obj, fresh mount, cold", "first_small_read_s", " s", "%.4f", "<= 3x squashfuse",
        lambda a, b: a[1] <= 3.0)
    row("first read of LEVEL03/ties/tie_500.obj, fresh mount, cold", "first_class_read_s", " s", "%.4f",
        "<= 3x squashfuse with the index, <= 6x without (issue 43)", lambda a, b: b[1] <= 3.0 and a[1] <= 6.0)
    row("read every file of LEVEL05, cold", "read_level_cold_s", " s", "%.2f", "(no target)", lambda a, b: True)
    row("8 readers on 8 levels' cores, cold (aggregate)", "parallel_mb_s", " MB/s", "%.0f", ">= 1.2x squashfuse",
        lambda a, b: a[1] >= 1.2)
    row("peak RSS after the 8 readers", "rss_after_parallel_mib", " MiB", "%.0f", "<= the 512 MiB default cache",
        lambda a, b: a[0] <= 512, True, False)
    return rows, {"g": g, "g2": g2, "q": q, "p": p}


def measure_amplification(gcfs, image, readers=64, seconds=60):
    """Issue 32 item 6: `readers` processes read whole files of a first mount in their own shuffled
    orders for `seconds`, default cache; decoded bytes (the cache's loads and the walks to window
    starts) over bytes read."""
    import many_readers
    with Mount(gcfs, image) as m:
        files = [os.path.join(root, n) for root, _, names in os.walk(m.mnt) for n in names if "/.gcfs" not in root]
        served = many_readers.read_all(files, readers, seconds)
        stats = stats_of(m.mnt)
    # A window's walk to its start is decode work too (issue 43): counted with the loaders' output.
    return int(stats["bytes_decoded"]), int(stats["bytes_walked"]), served


def measure_texture_window(gcfs, image, level="LEVEL05", name="textures/tfrag_000.png"):
    """Issue 43: what a first read of one small texture PNG decodes on a first mount (no index, no
    restart points saved): the loaders' output and the walk to the texture's window, from .gcfs/stats."""
    with Mount(gcfs, image) as m:
        path = os.path.join(m.mnt, level, name)
        size = len(open(path, "rb").read())
        stats = stats_of(m.mnt)
    return size, int(stats["bytes_decoded"]), int(stats["bytes_walked"])


def bench_program(args):
    exe = os.path.join(os.path.dirname(os.path.abspath(args.gcfs)), "gcfs_bench")
    out = {}
    for mode in (["codec", args.image, "6"], ["terrain", args.image]):
        text = subprocess.run([exe] + mode, check=True, capture_output=True, text=True).stdout
        out.update(line.split(" ", 1) for line in text.splitlines())
    return out


def main():
    args = bench_arguments(__doc__, HERE)
    work = tempfile.mkdtemp(prefix="gcfs-bench-work-")
    cold_ok = drop_caches()
    runs = args.runs

    rows = []

    def row(what, value, target, ok, note=""):
        rows.append((what, value, target, "met" if ok else "MISSED", note))
        print("%-58s %-26s %-16s %s" % (what, value, target, rows[-1][3]), file=sys.stderr)

    codec = bench_program(args)
    lz_tfrag, lz_core = float(codec["lz_tfrag_mb_s"]), float(codec["lz_core_mb_s"])
    row("WAD LZ decode, tfrag geometry (MB/s out; / memcpy)",
        "%.0f MB/s; %.3f" % (lz_tfrag, float(codec["lz_tfrag_over_copy"])), ">= 1000 MB/s", lz_tfrag >= 1000,
        "%s levels, %s bytes" % (codec["levels"], codec["tfrag_bytes"]))
    row("WAD LZ decode, whole cores (MB/s out; / memcpy)",
        "%.0f MB/s; %.3f" % (lz_core, float(codec["lz_over_memcpy"])), "(geometry target)", True,
        "memcpy %s MB/s; texel-heavy data, short packets" % codec["memcpy_mb_s"])

    gcfs = args.gcfs
    t, misses, decoded = measure_mount(gcfs, args.image, runs)
    row("mount -> first ls of the root", "%.1f ms" % (t * 1e3), "<= 50 ms", t <= 0.05 and misses == 0,
        "%d cache loads, %d bytes decoded at mount" % (misses, decoded))

    first, repeat, tmpfs, entries, decodes, decoded, cores = measure_ls_lr(gcfs, args.image, runs)
    row("ls -lR of the whole mount, first (/ same tree on tmpfs)", "%.0f ms (%.2fx), %d decodes"
        % (first * 1e3, first / tmpfs, decodes), "<= 100 ms, 0 decodes", first <= 0.1 and decodes == 0,
        "%d entries; tmpfs %.0f ms; decodes = per level the tfrag region, the core's occlusion, "
        "sky and collision regions (info.json, collision.obj), the gameplay stream (gameplay/, info.json) and the class window "
        "(ties/, shrubs/: the core up to its last class), %.1f%% of %d core bytes kept"
        % (entries, tmpfs * 1e3, 100.0 * decoded / cores, cores))
    row("ls -lR of the whole mount, repeat (/ tmpfs)", "%.0f ms (%.2fx)" % (repeat * 1e3, repeat / tmpfs),
        "<= 100 ms", repeat <= 0.1, "no decodes; attributes and POSIX ACLs cached by the kernel")
    plain = measure_ls_lr_first(gcfs, args.image, runs, "noxattr")
    row("ls -lR of the whole mount, first, -o noxattr (/ tmpfs)", "%.0f ms (%.2fx)" % (plain * 1e3, plain / tmpfs),
        "<= 100 ms", plain <= 0.1,
        "without user.gcfs.* the kernel stops asking for xattrs; with them ls -l's POSIX ACL query costs one "
        "round trip per file the first time (%.0f us each here)" % ((first - plain) / entries * 1e6))

    level, seq = measure_sequential(gcfs, args.image, runs, work, cold_ok)
    for name, (size, cold_m, cold_p, hot_m, hot_p) in seq.items():
        row("sequential read %s/%s cold (mount / plain)" % (level, name), "%.2f" % (cold_m / cold_p), ">= 0.5",
            cold_m / cold_p >= 0.5, "%.0f / %.0f MB/s, %d bytes%s" % (cold_m / 1e6, cold_p / 1e6, size,
                                                                     "" if cold_ok else ", caches NOT dropped"))
        row("sequential read %s/%s repeat (mount / plain)" % (level, name), "%.2f" % (hot_m / hot_p), ">= 0.9",
            hot_m / hot_p >= 0.9, "%.0f / %.0f MB/s; served from the kernel's page cache (keep_cache), no request reaches "
            "the daemon" % (hot_m / 1e6, hot_p / 1e6))

    size, (cold_m, cold_p, hot_m, hot_p) = measure_wav(gcfs, args.image, runs, work, cold_ok)
    size_wav, cold_wav, plain_wav = size, cold_m, cold_p
    row("stream global/audio/vendor/000.wav (10 min) cold: mount / plain", "%.2f" % (cold_m / cold_p), ">= 0.5",
        cold_m / cold_p >= 0.5, "%.0f / %.0f MB/s, %d bytes: open, stat (the frame flags read) and the PS-ADPCM decode "
        "included%s" % (cold_m / 1e6, cold_p / 1e6, size, "" if cold_ok else ", caches NOT dropped"))
    row("stream the same WAV again: mount / plain", "%.2f" % (hot_m / hot_p), "(no target)", True,
        "%.0f / %.0f MB/s, the WAV kept in the cache" % (hot_m / 1e6, hot_p / 1e6))
    ours, theirs, wav_bytes = measure_adpcm(gcfs, work, runs)
    row("PS-ADPCM decode on one core, MB/s of WAV (/ ffmpeg adpcm_psx)", "%.0f MB/s; %.1fx" % (ours, ours / theirs), ">= 1x",
        ours >= theirs, "ffmpeg %.0f MB/s (its start-up taken off), the same %d-byte WAV" % (theirs, wav_bytes))

    t = measure_first_obj(gcfs, args.image, runs)
    row("first read of one tfrag/patch_NNNN.obj, cold", "%.1f ms" % (t * 1e3), "<= 20 ms", t <= 0.02,
        "lookup + tfrag region decode + %s-patch index + render" % (int(codec["terrain_patches"]) // 27))

    listing, first_read, files = measure_first_gameplay(gcfs, args.image, runs)
    row("first ls -l of a level's gameplay/, cold", "%.1f ms" % (listing * 1e3), "< 50 ms", listing < 0.05,
        "%d entries; decodes the level's gameplay stream and every block once for the sizes" % files)
    row("first read of gameplay/mobies.csv after that listing", "%.1f ms" % (first_read * 1e3), "(no target)", True,
        "renders the folder's files again from the cached stream")

    t = measure_first_tie_obj(gcfs, args.image, runs)
    row("first read of one ties/tie_500.obj, cold", "%.1f ms" % (t * 1e3), "(no target)", True,
        "a first mount: lookup + the level's class window (walked to from the core's start, no restart point saved yet) + "
        "class index + render")

    rss, resident, evictions = measure_rss(gcfs, args.image)
    row("peak RSS, every core_data.bin + terrain.obj, cache 256M", "%.0f MiB" % rss, "<= 288 MiB", rss <= 288,
        "cache resident at end %.0f MiB, %d evictions" % (resident, evictions))

    stat_t, read_t, smallest, largest, every, levels, base, peak, budget = measure_scene(gcfs, args.image, runs)
    row("first stat + read of one LEVELnn/level.glb, cold", "%.0f ms" % ((stat_t + read_t) * 1e3), "< 1 s", stat_t + read_t < 1,
        "stat %.0f ms (the scene built without images: that level's core head, tfrag region, class window and gameplay "
        "decoded, meshes and JSON made), then read %.0f ms (built again with its images); %d-%d bytes per level"
        % (stat_t * 1e3, read_t * 1e3, smallest, largest))
    row("peak RSS reading every level's level.glb, default cache", "%.0f MiB" % peak, "(no target)", True,
        "%d scenes in %.1f s; RSS after mounting %.0f MiB, cache budget %.0f MiB: the rest is one level's decode in flight "
        "(a core prefix and the scene being built) beside a full cache" % (levels, every, base, budget))

    one, eight = measure_concurrency(gcfs, args.image, max(3, runs // 2))
    row("8 readers on 8 levels vs 1 reader (aggregate MB/s)", "%.2fx" % (eight / one), ">= 1.6x", eight / one >= 1.6,
        "%.0f vs %.0f MB/s, decode-bound, %d cores" % (eight / 1e6, one / 1e6, os.cpu_count()))

    decoded, walked, served = measure_amplification(gcfs, args.image)
    row("decode amplification: 64 readers, every file in shuffled orders, 60 s, default cache", "%.2fx" % ((decoded + walked) / served),
        "<= 2x", decoded + walked <= 2 * served, "%d bytes decoded and %d walked to window starts to serve %d; restart points "
        "each 2 MiB of a core's output" % (decoded, walked, served))

    size, decoded, walked = measure_texture_window(gcfs, args.image)
    row("a small LEVEL05/textures/tfrag_000.png, first mount: bytes decoded", "%d" % (decoded + walked), "<= 4 MiB",
        decoded + walked <= 4 << 20, "a %d-byte PNG: %d bytes of its window decoded, %d walked from the core's start "
        "(no restart point saved yet)" % (size, decoded, walked))

    peer_rows, peer_figures = measure_peers(gcfs, args.image, runs)
    issue58_rows = issue58.rows(codec, peer_figures, (size_wav, cold_wav, plain_wav), edits.round_trip(gcfs, args.image, runs))

    # Sections written by hand (the long fuzz runs) are kept; the tables are written anew.
    kept = ""
    if os.path.exists(args.out):
        old = open(args.out).read()
        sections = old.split("\n## ")[1:]
        kept = "".join("\n## " + sec for sec in sections if not sec.startswith((PEER_TITLE, issue58.TITLE)))
    with open(args.out, "w") as f:
        f.write("# gcfs benchmark results\n\n")
        f.write("Machine: nproc %d, %s. Image: %s (%d bytes). Medians of %d runs; ratios against a baseline "
                "timed in the same run. Produced by `python3 bench/run.py`.\n\n"
                % (os.cpu_count(), time.strftime("%Y-%m-%d"), os.path.basename(args.image),
                   os.path.getsize(args.image), runs))
        f.write("| figure | measured | target | | notes |\n|---|---|---|---|---|\n")
        for r in rows:
            f.write("| %s | %s | %s | %s | %s |\n" % r)
        f.write("\n## %s\n\n%s\n\n" % (PEER_TITLE, PEER_INTRO))
        f.write("| figure | gcfs, first mount | gcfs, second mount (index present) | squashfuse_ll (zstd) | plain (ext4) "
                "| first / squashfuse | first / plain | second / squashfuse | second / plain | target | |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|\n")
        for r in peer_rows:
            f.write("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n" % r)
        issue58.write(f, issue58_rows)
        f.write(kept)
    print(open(args.out).read())
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
