"""The persistent index through real mounts (tree/index/persistent_index.h): a
first mount's ls -lR saves every level folder; a second mount of the same
image lists the same tree with 0 decodes; a level whose header changed under
the same size and modification time is decoded again, not served stale; a
record that lies (a hostile name, a size of 2^63) with its CRC computed again
is refused with one log line quoting nothing raw; a damaged or truncated index
file is ignored with one log line, and every file still reads as it does
without an index.
Usage: persistent_index.py GCFS IMAGE WORK"""
import json
import os
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time
import zlib

import gcfs_mount

gcfs, image, work = sys.argv[1:]
failures = []


def check(name, ok, detail=""):
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else ": " + detail))
    if not ok:
        failures.append(name)


def Mount(image, options):
    return gcfs_mount.Mount(gcfs, image, options, work)


def listing_of(m):
    """ls -lR, the daemon's own changing counters left out."""
    out = subprocess.run(["ls", "-lR", "--time-style=+", m.mnt], capture_output=True, text=True, check=True).stdout
    return "\n".join(l for l in out.replace(m.mnt, "MNT").splitlines() if not l.endswith(" stats"))


def wait_saved(m, levels):
    for _ in range(120):
        if m.counter("level folders saved to it:") >= levels:
            return True
        time.sleep(0.25)
    return False


index = os.path.join(work, "pi-index")
options = "index_dir=" + index

m = Mount(image, options)
first = listing_of(m)
first_misses = m.counter("cache_misses")
check("a first mount's ls -lR decodes and saves every level folder to the index", first_misses > 0 and wait_saved(m, 4),
      m.stats())
m.close()
check("the index is one SQLite file in index_dir, nothing beside the image",
      os.path.exists(os.path.join(index, "index.sqlite")) and not any(f.endswith(".sqlite") for f in os.listdir(os.path.dirname(image))))

m = Mount(image, options)
second = listing_of(m)
check("a second mount's ls -lR shows the same tree with 0 decodes",
      second == first and m.counter("cache_misses") == 0 and m.counter("level folders listed from it:") == 4,
      "misses %d, same %s" % (m.counter("cache_misses"), second == first))
plain = Mount(image, "noindex")
same = all(open(os.path.join(m.mnt, p), "rb").read() == open(os.path.join(plain.mnt, p), "rb").read()
           for p in ("LEVEL01/info.json", "LEVEL01/level.glb", "LEVEL02/ties/ties.csv", "LEVEL03/tfrag/terrain.obj",
                     "LEVEL00/gameplay/mobies.csv", "LEVEL00/collision.obj"))
check("files read on the second mount are the bytes a mount without the index reads", same)
plain.close()
m.close()

# One byte of LEVEL02's container header sector changed, size and mtime kept.
changed = os.path.join(work, "pi-changed.iso")
shutil.copyfile(image, changed)
shutil.copystat(image, changed)
m = Mount(changed, "index_dir=" + os.path.join(work, "pi-index-changed"))
listing_of(m)
wait_saved(m, 4)
m.close()
# The container header's last byte (formats.md 3.1), from info.json.
info = json.loads(subprocess.run([gcfs, "cat", changed, "LEVEL02/info.json"], capture_output=True, text=True, check=True).stdout)
byte = info["container"]["offset_bytes"] + 2047
st = os.stat(changed)
with open(changed, "r+b") as f:
    f.seek(byte)
    old = f.read(1)[0]
    f.seek(byte)
    f.write(bytes([old ^ 0x5A]))
os.utime(changed, ns=(st.st_atime_ns, st.st_mtime_ns))
m = Mount(changed, "index_dir=" + os.path.join(work, "pi-index-changed"))
truth = Mount(changed, "noindex")
for level in ("LEVEL00", "LEVEL01", "LEVEL02", "LEVEL03"):
    os.listdir(os.path.join(m.mnt, level))
listed_from = m.counter("level folders listed from it:")
same_02 = subprocess.run(["diff", "-r", "-q", os.path.join(m.mnt, "LEVEL02"), os.path.join(truth.mnt, "LEVEL02")],
                         capture_output=True).returncode == 0
check("a level whose header byte changed under the same size and mtime is decoded, not served from the index; the other "
      "three come from it", listed_from == 3 and same_02, "listed from it %d, LEVEL02 as without the index: %s" % (listed_from, same_02))
truth.close()
m.close()

# Records that lie with their CRC computed again (formats/saved_index/folder_record.h):
# LEVEL00's help file named "evil\nname\x1b[31m", LEVEL01's info.json sized 2^63. Each
# record is refused with one log line that quotes nothing raw, and its folder is
# decoded: it lists and reads as without the index.
def forge(db_path, folder, change):
    db = sqlite3.connect(db_path)
    blob = db.execute("SELECT record FROM levels WHERE folder = ?", (folder,)).fetchone()[0]
    plain = change(zlib.decompress(blob[16:]))
    forged = b"GCIR" + struct.pack("<III", 1, zlib.crc32(plain), len(plain)) + zlib.compress(plain)
    db.execute("UPDATE levels SET record = ? WHERE folder = ?", (forged, folder))
    db.commit()
    db.close()


def size_of(plain, name, size):
    at = plain.index(struct.pack("<H", len(name)) + name) + 2 + len(name)
    return plain[:at] + struct.pack("<Q", size) + plain[at + 8:]


hostile = os.path.join(work, "pi-index-hostile")
shutil.copytree(index, hostile)
forge(os.path.join(hostile, "index.sqlite"), "LEVEL00", lambda p: p.replace(b"us_english.txt", b"evil\nname\x1b[31m"))
forge(os.path.join(hostile, "index.sqlite"), "LEVEL01", lambda p: size_of(p, b"info.json", 1 << 63))
m = Mount(image, "index_dir=" + hostile)
plain = Mount(image, "noindex")
help_same = sorted(os.listdir(os.path.join(m.mnt, "LEVEL00/gameplay/help"))) == sorted(os.listdir(os.path.join(plain.mnt, "LEVEL00/gameplay/help")))
info_same = open(os.path.join(m.mnt, "LEVEL01/info.json"), "rb").read() == open(os.path.join(plain.mnt, "LEVEL01/info.json"), "rb").read()
refused = m.counter("records refused (damaged, or without this machine's mark):")
plain.close()
log = m.close()
record_lines = [l for l in log.splitlines() if "record" in l and "persistent index" in l]
raw = [l for l in log.splitlines() if any(ord(c) < 0x20 and c != "\t" for c in l) or "\x1b" in l]
check("a record naming a file \"evil\\nname\\x1b[31m\" or sizing one 2^63 is refused, one log line each, the folders as without the index",
      help_same and info_same and refused == 2 and len(record_lines) == 2 and not raw,
      "help as without: %s, info.json as without: %s, refused %d, lines %s, raw %s" % (help_same, info_same, refused, record_lines, raw))

# An index that cannot be written (a read-only place, a full one) is read only: the
# second mount still lists with 0 decodes, one log line says so, and nothing is left
# beside the file (no empty -wal or -shm).
def place(name, size):
    path = os.path.join(work, name)
    os.makedirs(path, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%s" % size, "tmpfs", path], check=True)
    shutil.copy(os.path.join(index, "index.sqlite"), path)
    return path


for kind in ("read-only", "full"):
    where = place("pi-" + kind, "64m")
    if kind == "read-only":
        subprocess.run(["mount", "-o", "remount,ro", where], check=True)
    else:
        subprocess.run(["dd", "if=/dev/zero", "of=" + os.path.join(where, "filler"), "bs=64k"], capture_output=True)
    before = sorted(os.listdir(where))
    m = Mount(image, "index_dir=" + where)
    listing = listing_of(m)
    misses = m.counter("cache_misses")
    stats = m.stats()
    log = m.close()
    after = sorted(os.listdir(where))
    subprocess.run(["umount", where], check=True)
    lines = [l for l in log.splitlines() if "persistent index" in l]
    check("an index in a %s place is read only: the same tree with 0 decodes, one log line saying so, nothing left beside it" % kind,
          listing == first and misses == 0 and len(lines) == 1 and "reading it only" in lines[0] and "read only" in stats and after == before,
          "misses %d, lines %s, files %s -> %s" % (misses, lines, before, after))

# An index of another schema version is replaced, and the log says why, never "not an error".
db = sqlite3.connect(os.path.join(index, "index.sqlite"))
db.execute("PRAGMA user_version = 99")
db.close()
m = Mount(image, options)
listing_of(m)
log = m.close()
lines = [l for l in log.splitlines() if "persistent index" in l]
check("an index of another version is replaced with one log line naming its version",
      len(lines) == 1 and "schema version 99" in lines[0] and "not an error" not in log, "%s" % lines)

# The index file cut short, then overwritten with garbage: one log line each, and the mount as without it.
for damage in ("truncated", "garbage"):
    db = os.path.join(index, "index.sqlite")
    for suffix in ("-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    if damage == "truncated":
        os.truncate(db, os.path.getsize(db) // 2)
    else:
        open(db, "wb").write(b"not an index " * 1000)
    m = Mount(image, options)
    listing = listing_of(m)
    log = m.close()
    lines = [l for l in log.splitlines() if "persistent index" in l]
    check("a %s index file is ignored with one log line and the mount lists as before" % damage,
          listing == first and len(lines) == 1, "%d log lines: %s" % (len(lines), lines))

print("persistent index tests: %d failed" % len(failures))
sys.exit(1 if failures else 0)
