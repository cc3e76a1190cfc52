"""Helpers the bench scripts share: cold caches, whole-file reads, timing,
ls -lR, a FUSE mounter run in the foreground, and a section of results.md."""
import os
import shutil
import subprocess
import tempfile
import threading
import time


def bench_arguments(doc, bench_dir):
    """--gcfs, --image (the full-scale disc, built once), --runs and --out, as
    every bench script takes them; the image is built when missing."""
    import argparse
    import sys
    root = os.path.dirname(bench_dir)
    p = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--gcfs", default=os.path.join(root, "build", "gcfs"))
    p.add_argument("--image", default=os.path.join(bench_dir, "work", "full.iso"))
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--out", default=os.path.join(bench_dir, "results.md"))
    args = p.parse_args()
    args.gcfs = os.path.abspath(args.gcfs)
    if not os.path.exists(args.image):
        os.makedirs(os.path.dirname(args.image), exist_ok=True)
        print("building", args.image, "(--scale full, once)", file=sys.stderr)
        subprocess.run([args.gcfs, "mkdisc", args.image, "--scale", "full"], check=True, stdout=subprocess.DEVNULL)
    return args


def drop_caches():
    """Cold figures start with an empty page cache; False where not permitted."""
    try:
        subprocess.run(["sync"], check=True)
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
        return True
    except OSError:
        return False


def read_file(path, block=1 << 20):
    n = 0
    with open(path, "rb", buffering=0) as f:
        while True:
            chunk = f.read(block)
            if not chunk:
                return n
            n += len(chunk)


def timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def ls_lr(path):
    return timed(lambda: subprocess.run(["ls", "-lR", path], stdout=subprocess.DEVNULL, check=True))


def read_in_parallel(paths):
    """Reads every path whole, one thread each; returns the seconds taken."""
    threads = [threading.Thread(target=read_file, args=(p,)) for p in paths]

    def run_all():
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    return timed(run_all)


class Mounted:
    """A FUSE mounter started in the foreground (argv, then the mount point); unmounts on exit."""

    def __init__(self, argv, scratch=None):
        self.scratch = scratch  # a folder the mount owns, removed with it
        self.mnt = tempfile.mkdtemp(prefix="gcfs-bench-")
        self.start = time.perf_counter()
        self.proc = subprocess.Popen(list(argv) + [self.mnt], stderr=subprocess.DEVNULL)
        while not os.path.ismount(self.mnt):
            if self.proc.poll() is not None:
                raise RuntimeError("%s exited with %d" % (argv[0], self.proc.returncode))
            time.sleep(0.0005)

    def vm_hwm_kib(self):
        for line in open("/proc/%d/status" % self.proc.pid):
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
        return 0

    def close(self):
        subprocess.run(["fusermount3", "-u", self.mnt], check=True)
        self.proc.wait()
        os.rmdir(self.mnt)
        if self.scratch:
            shutil.rmtree(self.scratch, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def Mount(gcfs, image, options=None, index_dir=None):
    """gcfs mount -f IMAGE -o OPTIONS MOUNTPOINT. A first mount unless `index_dir` holds a persistent
    index already: by default each mount gets an empty index folder of its own, as a user's first
    mount of an image finds none (and the user's own ~/.cache is left alone)."""
    scratch = None
    if index_dir is None:
        index_dir = scratch = tempfile.mkdtemp(prefix="gcfs-bench-index-")
    opts = ",".join(o for o in (options, "index_dir=" + index_dir) if o)
    return Mounted([gcfs, "mount", "-f", "-o", opts, image], scratch)


def stats_of(mnt):
    """.gcfs/stats as name -> last field."""
    out = {}
    for line in open(os.path.join(mnt, ".gcfs/stats")).read().splitlines():
        if " " in line.strip():
            name, value = line.strip().rsplit(" ", 1)
            out[name.rstrip(":")] = value
    return out


def make_index(gcfs, image, index_dir):
    """A first mount's ls -lR, then waits until every level folder is saved to the index in `index_dir`."""
    with Mount(gcfs, image, index_dir=index_dir) as m:
        levels = len([d for d in os.listdir(m.mnt) if d.startswith("LEVEL")])
        ls_lr(m.mnt)
        for _ in range(600):
            if int(stats_of(m.mnt).get("level folders saved to it", 0)) >= levels:
                return
            time.sleep(0.1)
    raise RuntimeError("the index was not saved for every level")


def write_section(args, title, script, notes, rows):
    """Replaces the section `title` of args.out (results.md) with a table of `rows`
    (figure, measured, target, notes) under a line saying how `script` was run."""
    section = "\n## %s\n\nOne sitting of `python3 bench/%s` on %s (%d bytes), %s, nproc %d; %s.\n\n" % (
        title, script, os.path.basename(args.image), os.path.getsize(args.image), time.strftime("%Y-%m-%d"), os.cpu_count(), notes)
    section += "| figure | measured | target | notes |\n|---|---|---|---|\n" + "".join("| %s | %s | %s | %s |\n" % r for r in rows)
    old = open(args.out).read() if os.path.exists(args.out) else "# gcfs benchmark results\n"
    parts = old.split("\n## ")
    kept = parts[0] + "".join("\n## " + s for s in parts[1:] if not s.startswith(title))
    open(args.out, "w").write(kept.rstrip("\n") + "\n" + section)
    print(section)
