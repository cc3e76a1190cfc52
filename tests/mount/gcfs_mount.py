"""A gcfs mount in the foreground for the Python mount tests: its log kept,
its .gcfs/stats read, its files read with EIO told apart."""
import errno
import os
import subprocess
import tempfile
import time


class Mount:
    """gcfs mount -f IMAGE MNT -o OPTIONS, under `work`; stderr kept in MNT.log."""

    def __init__(self, gcfs, image, options, work):
        self.mnt = tempfile.mkdtemp(dir=work, prefix="mnt-")
        self.log = open(self.mnt + ".log", "w+")
        self.proc = subprocess.Popen([gcfs, "mount", "-f", image, self.mnt, "-o", options], stderr=self.log)
        for _ in range(200):
            if os.path.ismount(self.mnt):
                return
            time.sleep(0.05)
        raise SystemExit("the mount did not come up: %s -o %s" % (image, options))

    def stats(self):
        return open(os.path.join(self.mnt, ".gcfs/stats")).read()

    def counter(self, name):
        """The last field of the .gcfs/stats line that starts with `name` (0 when none does)."""
        for line in self.stats().splitlines():
            if line.strip().startswith(name):
                return int(line.rsplit(None, 1)[1])
        return 0

    def read(self, rel):
        """The file's bytes, or "EIO"."""
        try:
            with open(os.path.join(self.mnt, rel), "rb") as f:
                return f.read()
        except OSError as e:
            if e.errno == errno.EIO:
                return "EIO"
            raise

    def close(self):
        """Unmounts; returns what the daemon logged."""
        subprocess.run(["fusermount3", "-u", self.mnt], check=True)
        self.proc.wait()
        os.rmdir(self.mnt)
        self.log.seek(0)
        return self.log.read()
