"""Helpers bench/run.py and bench/peer.py share: cold caches, whole-file
reads, timing, ls -lR, and a FUSE mounter run in the foreground."""
import os
import subprocess
import tempfile
import threading
import time


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

    def __init__(self, argv):
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

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def Mount(gcfs, image, options=None):
    """gcfs mount -f IMAGE [-o OPTIONS] MOUNTPOINT."""
    return Mounted([gcfs, "mount", "-f"] + (["-o", options] if options else []) + [image])
