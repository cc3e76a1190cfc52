"""A gcfs mount in the foreground for the Python mount tests: its log kept,
its .gcfs/stats read, its files read with EIO told apart."""
import errno
import os
import shutil
import subprocess
import sys
import tempfile
import time


def fresh_folder(work, name):
    """WORK/NAME, emptied: a test's own folder."""
    path = os.path.join(work, name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


class Checks:
    """check(name, ok, detail): prints a line a check; finish(what) prints the tally and exits 1 if one failed."""

    def __init__(self):
        self.failures = []

    def __call__(self, name, ok, detail=""):
        print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else ": " + str(detail)[:400]))
        if not ok:
            self.failures.append(name)

    def finish(self, what):
        print("%s: %d checks failed" % (what, len(self.failures)) if self.failures else "%s: all passed" % what)
        sys.exit(1 if self.failures else 0)


class Mount:
    """gcfs mount -f IMAGE MNT -o OPTIONS..., under `work`; stderr kept in MNT.log. `options` is one
    -o list or several; `cwd` and `env` are the daemon's, `mnt` a mountpoint of the caller's (as
    given on the command line, `cwd` relative). With `required` False a mount that does not come up
    is left for the caller to see (mounted() is False) instead of ending the test. `wait`: how many
    seconds it may take to come up (a mount that replays an edits folder re-encodes its levels)."""

    def __init__(self, gcfs, image, options, work, cwd=None, env=None, mnt=None, required=True, wait=10):
        self.mnt = os.path.join(cwd or "", mnt) if mnt else tempfile.mkdtemp(dir=work, prefix="mnt-")
        self.log = open(self.mnt.rstrip("/") + ".log", "w+")
        args = [gcfs, "mount", "-f", image, mnt or self.mnt]
        for o in [options] if isinstance(options, str) else options:
            args += ["-o", o]
        self.proc = subprocess.Popen(args, stderr=self.log, cwd=cwd, env=env)
        for _ in range(int(wait / 0.05)):
            if self.mounted() or self.proc.poll() is not None:
                break
            time.sleep(0.05)
        if required and not self.mounted():
            raise SystemExit("the mount did not come up: %s -o %s" % (image, options))

    def mounted(self):
        return os.path.ismount(self.mnt)

    def path(self, rel):
        return os.path.join(self.mnt, rel)

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
        """Unmounts (when mounted); returns what the daemon logged."""
        if self.mounted():
            subprocess.run(["fusermount3", "-u", self.mnt], check=True)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.rmdir(self.mnt)
        self.log.seek(0)
        return self.log.read()
