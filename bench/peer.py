"""The peer of bench/run.py: the same decoded tree gcfs serves, extracted once
(gcfs extract), packed with mksquashfs (zstd) and mounted with squashfuse_ll,
measured figure by figure exactly as gcfs is, in the same sitting.

Every figure is a median of `runs`; the page cache is dropped before each
cold one. Installs squashfuse and squashfs-tools itself (Debian packages).
"""
import os
import shutil
import statistics
import subprocess
import time

from run_common import Mount, Mounted, drop_caches, ls_lr, read_file, read_in_parallel, timed

PEER_PACKAGES = ["squashfuse", "squashfs-tools"]


def ensure_tools():
    if shutil.which("squashfuse_ll") and shutil.which("mksquashfs"):
        return
    subprocess.run(["apt-get", "install", "-y", "-q"] + PEER_PACKAGES, check=True, stdout=subprocess.DEVNULL)


def build_peer(gcfs, image, work):
    """work/tree (the whole decoded tree as plain files) and work/peer.sqfs made from it,
    both rebuilt when the image is newer."""
    tree, sqfs = os.path.join(work, "tree"), os.path.join(work, "peer.sqfs")
    if not (os.path.exists(sqfs) and os.path.getmtime(sqfs) > os.path.getmtime(image) and os.path.isdir(tree)):
        shutil.rmtree(tree, ignore_errors=True)
        subprocess.run([gcfs, "extract", image, "", tree], check=True, stderr=subprocess.DEVNULL)
        subprocess.run(["mksquashfs", tree, sqfs, "-comp", "zstd", "-noappend", "-quiet", "-no-progress"], check=True,
                       stdout=subprocess.DEVNULL)
    return tree, sqfs


class Plain:
    """The extracted tree as it is: the baseline, with nothing to mount."""

    def __init__(self, tree):
        self.mnt = tree

    def vm_hwm_kib(self):
        return 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


def gcfs_mounter(gcfs, image, index_dir=None):
    """A first mount each time, or with `index_dir` (made by run_common.make_index) a second one."""
    return lambda: Mount(gcfs, image, index_dir=index_dir)


def squashfuse_mounter(sqfs):
    return lambda: Mounted(["squashfuse_ll", "-f", sqfs])


def plain_mounter(tree):
    return lambda: Plain(tree)


def program_start(argv, runs):
    """A program started cold and run to its exit (a version or usage line): the floor under
    any cold mount, set by loading the program and its libraries from disk."""
    if not argv:
        return 0.0
    times = []
    for _ in range(runs):
        drop_caches()
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def side_figures(mount, runs, start_argv=None, level="LEVEL03", patch="tfrag/patch_0123.obj", readers=8,
                 cls="ties/tie_500.obj"):
    """The figures issue #18 compares, for one mounter: a dict of name -> value."""
    out = {}
    for cold, key in ((True, "mount_first_ls_s"), (False, "mount_first_ls_warm_s")):
        first_ls = []
        for _ in range(runs):
            if cold:
                drop_caches()
            start = time.perf_counter()
            with mount() as m:
                os.listdir(m.mnt)
                first_ls.append(time.perf_counter() - start)
        out[key] = statistics.median(first_ls)
    out["program_start_s"] = program_start(start_argv, runs)

    lr_first, lr_repeat, rss = [], [], []
    for _ in range(runs):
        drop_caches()
        with mount() as m:
            lr_first.append(ls_lr(m.mnt))
            lr_repeat.append(ls_lr(m.mnt))
            rss.append(m.vm_hwm_kib() / 1024)
    out["ls_lr_first_s"], out["ls_lr_repeat_s"] = statistics.median(lr_first), statistics.median(lr_repeat)
    out["rss_after_ls_lr_mib"] = max(rss)

    seq, first_obj, first_class, level_all = [], [], [], []
    for _ in range(runs):
        with mount() as m:
            path = os.path.join(m.mnt, level, "core_data.bin")
            drop_caches()
            seq.append(os.path.getsize(path) / timed(lambda: read_file(path)))
        with mount() as m:
            drop_caches()
            first_obj.append(timed(lambda: read_file(os.path.join(m.mnt, level, patch))))
        with mount() as m:
            drop_caches()
            first_class.append(timed(lambda: read_file(os.path.join(m.mnt, level, cls))))
        with mount() as m:
            drop_caches()
            folder = os.path.join(m.mnt, "LEVEL05")

            def read_level():
                for root, _, files in os.walk(folder):
                    for name in files:
                        if not os.path.islink(os.path.join(root, name)):
                            read_file(os.path.join(root, name))

            level_all.append(timed(read_level))
    out["seq_core_mb_s"] = statistics.median(seq) / 1e6
    out["first_small_read_s"] = statistics.median(first_obj)
    out["first_class_read_s"] = statistics.median(first_class)
    out["read_level_cold_s"] = statistics.median(level_all)

    parallel, parallel_rss = [], []
    for _ in range(max(3, runs // 2)):
        with mount() as m:
            levels = sorted(d for d in os.listdir(m.mnt) if d.startswith("LEVEL"))[:readers]
            paths = [os.path.join(m.mnt, l, "core_data.bin") for l in levels]
            total = sum(os.path.getsize(p) for p in paths)
            drop_caches()
            parallel.append(total / read_in_parallel(paths) / 1e6)
            parallel_rss.append(m.vm_hwm_kib() / 1024)
    out["parallel_mb_s"] = statistics.median(parallel)
    out["rss_after_parallel_mib"] = max(parallel_rss)
    return out
