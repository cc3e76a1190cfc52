"""A hostile persistent index through real mounts (issue 42): every field of
every table of the index file (cache/index_store.cpp) and of a level record
(formats/saved_index/folder_record.h) shifted by one, a bit flipped, zeroed
and maxed, with its checksum left stale and computed again. Every case
mounts; every file of the level lists as a mount without the index lists it,
or reads as EIO (a name forged to pass every rule stands in the true one's
place and reads EIO: names are checked against the image when read); the files a forged restart point or record would change
(level.glb, the class tables, the sky, the help texts, a texture) read
exactly as without the index or as EIO, and each EIO is counted in
.gcfs/stats. Wrong bytes are never served, whatever the file holds.
Usage: hostile_index.py GCFS IMAGE WORK (IMAGE: full-scale levels, whose cores keep restart points)"""
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
LEVEL = "LEVEL01"
SAMPLES = ["level.glb", "mobies/mobies.csv", "ties/ties.csv", "shrubs/shrubs.csv", "sky/sky.obj", "textures/moby_000.png",
           "gameplay/help/us_english.txt", "gameplay/help/french.txt", "info.json"]


def listing(m):
    """path -> size (None for a folder) under the level, as the kernel lists it."""
    out = {}
    for root, dirs, files in os.walk(os.path.join(m.mnt, LEVEL)):
        for d in dirs:
            out[os.path.relpath(os.path.join(root, d), m.mnt)] = None
        for f in files:
            out[os.path.relpath(os.path.join(root, f), m.mnt)] = os.stat(os.path.join(root, f)).st_size
    return out


def Mount(options):
    return gcfs_mount.Mount(gcfs, image, options, work)


# The truth, and a whole index for the image (a first mount's ls -lR and level.glb reads save both).
truth = Mount("noindex")
truth_listing = listing(truth)
truth_bytes = {rel: truth.read(os.path.join(LEVEL, rel)) for rel in SAMPLES if os.path.exists(os.path.join(truth.mnt, LEVEL, rel))}
core = truth.read(os.path.join(LEVEL, "core_data.bin"))
truth.close()
clean = os.path.join(work, "hi-clean")
first = Mount("index_dir=" + clean)
listing(first)
for rel in ("level.glb", "textures/moby_000.png"):
    first.read(os.path.join(LEVEL, rel))
levels = len([d for d in os.listdir(first.mnt) if d.startswith("LEVEL")])
for _ in range(240):
    saved = [l for l in open(os.path.join(first.mnt, ".gcfs/stats")) if "level folders saved to it:" in l]
    if saved and int(saved[0].split()[-1]) >= levels:
        break
    time.sleep(0.25)
first.close()


def restart_check(p, pos, output):
    """wad_lz's public check of a restart point (wad_lz_decode.cpp restart_check): CRC-32 and Adler-32 of the
    cursor and position (little-endian u64s) then the bytes it decodes to. Anyone can compute it from
    `gcfs cat`'s bytes: only the row's HMAC (cache/index_key.h), whose key the forger lacks, tells."""
    where = struct.pack("<QQ", p & (2**64 - 1), pos & (2**64 - 1))
    return (zlib.crc32(output, zlib.crc32(where)) << 32 | (zlib.adler32(output, zlib.adler32(where)) & 0xffffffff)) & (2**63 - 1)


def record_fields(plain):
    """(name, offset, width) of the level record's fields (folder_record.cpp's layout): its version,
    the file count, the first file's path length, a path byte and its size, the run count, the
    first run's folder length, ordinal, name count, a name's length, a name byte and its size."""
    fields = [("version", 0, 4), ("file count", 4, 4), ("a path's length", 8, 2)]
    path_len = struct.unpack_from("<H", plain, 8)[0]
    fields += [("a path byte", 10, 1), ("a file's size", 10 + path_len, 8)]
    at, files = 8, struct.unpack_from("<I", plain, 4)[0]
    for _ in range(files):
        at += 2 + struct.unpack_from("<H", plain, at)[0] + 8
    fields.append(("run count", at, 4))
    runs = struct.unpack_from("<I", plain, at)[0]
    at += 4
    for _ in range(runs):
        dir_len = struct.unpack_from("<H", plain, at)[0]
        names = struct.unpack_from("<I", plain, at + 2 + dir_len + 4)[0]
        if names:
            fields += [("a run folder's length", at, 2), ("a run's ordinal", at + 2 + dir_len, 4), ("a run's name count", at + 2 + dir_len + 4, 4)]
            name_at = at + 2 + dir_len + 8
            name_len = struct.unpack_from("<H", plain, name_at)[0]
            fields += [("a name's length", name_at, 2), ("a name byte", name_at + 2, 1), ("a name's size", name_at + 2 + name_len, 8)]
            break
        at += 2 + dir_len + 8
    return fields


def mutate(data, offset, width, how):
    value = int.from_bytes(data[offset:offset + width], "little")
    top = 2 ** (8 * width) - 1
    new = {"shifted": (value + 1) & top, "flipped": value ^ (1 << (8 * width - 1)), "zeroed": 0, "maxed": top}[how]
    return data[:offset] + new.to_bytes(width, "little") + data[offset + width:]


MUTATIONS = ("shifted", "flipped", "zeroed", "maxed")
cases = []  # (name, change(db))


def record_case(field, offset, width, how, recompute):
    def change(db):
        blob = db.execute("SELECT record FROM levels WHERE folder = ?", (LEVEL,)).fetchone()[0]
        plain = mutate(zlib.decompress(blob[16:]), offset, width, how)
        crc = zlib.crc32(plain) if recompute else struct.unpack_from("<I", blob, 8)[0]
        db.execute("UPDATE levels SET record = ? WHERE folder = ?",
                   (b"GCIR" + struct.pack("<III", 1, crc, len(plain)) + zlib.compress(plain), LEVEL))
    cases.append(("record: %s %s, CRC %s" % (field, how, "computed again" if recompute else "stale"), change))


def header_case(field, offset, width, how):
    def change(db):
        blob = db.execute("SELECT record FROM levels WHERE folder = ?", (LEVEL,)).fetchone()[0]
        db.execute("UPDATE levels SET record = ? WHERE folder = ?", (mutate(blob, offset, width, how), LEVEL))
    cases.append(("record header: %s %s" % (field, how), change))


def point_case(column, how, recompute):
    def change(db):
        pos, p, check, mac, history = db.execute("SELECT pos, p, check_digest, mac, history FROM restarts WHERE folder = ? ORDER BY pos DESC LIMIT 1",
                                                 (LEVEL,)).fetchone()
        values = {"pos": pos, "p": p, "check_digest": check}
        if column == "history":
            history = mutate(history, 0x8000, 1, how)
        elif column == "mac":
            mac = mutate(mac, 0, 32, how)
        else:
            values[column] = {"shifted": values[column] + 1, "flipped": values[column] ^ (1 << 40), "zeroed": 0, "maxed": 2**63 - 1}[how]
        if recompute:  # the public check made again from the true bytes at the point's (new) place
            at = values["pos"]
            if 0 <= at <= len(core):
                values["check_digest"] = restart_check(values["p"], at, core[at:at + 0xC000])
        db.execute("UPDATE restarts SET pos = ?, p = ?, check_digest = ?, mac = ?, history = ? WHERE folder = ? AND pos = ?",
                   (values["pos"], values["p"], values["check_digest"], mac, history, LEVEL, pos))
    cases.append(("restart point: %s %s%s" % (column, how, "" if column == "mac" else ", check " + ("computed again" if recompute else "stale")),
                  change))


def moved_points_case(delta):
    """Issue 52 item 11: every point of the level moved by `delta` decoded bytes, its history and its public
    check made again from the true core bytes at the new place, the row's mark left as it was."""
    def change(db):
        rows = db.execute("SELECT pos, p FROM restarts WHERE folder = ?", (LEVEL,)).fetchall()
        for pos, p in rows:
            at = pos + delta
            if at < 0xC000 or at + 0xC000 > len(core):
                continue
            db.execute("UPDATE restarts SET pos = ?, check_digest = ?, history = ? WHERE folder = ? AND pos = ?",
                       (at, restart_check(p, at, core[at:at + 0xC000]), core[at - 0xC000:at], LEVEL, pos))
    cases.append(("every restart point moved by %+d, its history and check made again from the true bytes" % delta, change))


def image_case(column, how):
    def change(db):
        value = db.execute("SELECT %s FROM images" % column).fetchone()[0]
        if isinstance(value, str):
            new = {"shifted": value[1:] + value[:1], "flipped": value.swapcase(), "zeroed": "", "maxed": "f" * 200}[how]
        else:
            new = {"shifted": value + 1, "flipped": value ^ 1, "zeroed": 0, "maxed": 2**63 - 1}[how]
        db.execute("UPDATE images SET %s = ?" % column, (new,))
    cases.append(("image row: %s %s" % (column, how), change))


db = sqlite3.connect(os.path.join(clean, "index.sqlite"))
plain = zlib.decompress(db.execute("SELECT record FROM levels WHERE folder = ?", (LEVEL,)).fetchone()[0][16:])
if not db.execute("SELECT count(*) FROM restarts WHERE folder = ?", (LEVEL,)).fetchone()[0]:
    sys.exit("no restart point of %s was saved: the point cases would prove nothing" % LEVEL)
db.close()
for how in MUTATIONS:
    for field, offset, width in record_fields(plain):
        for recompute in (False, True):
            record_case(field, offset, width, how, recompute)
    for field, offset, width in (("magic", 0, 4), ("version", 4, 4), ("CRC", 8, 4), ("plain size", 12, 4)):
        header_case(field, offset, width, how)
    for column in ("pos", "p", "check_digest", "history", "mac"):
        for recompute in ((False, True) if column != "mac" else (False,)):
            point_case(column, how, recompute)
    for column in ("size", "mtime_ns", "toc"):
        image_case(column, how)

for delta in (1, -1, 4096, -4096):
    moved_points_case(delta)

problems = []
for name, change in cases:
    index = os.path.join(work, "hi-case")
    shutil.rmtree(index, ignore_errors=True)
    shutil.copytree(clean, index)
    db = sqlite3.connect(os.path.join(index, "index.sqlite"))
    change(db)
    db.commit()
    db.close()
    m = Mount("index_dir=" + index)
    eio = 0
    listed = listing(m)
    # Every name listed is the truth's, with its size, or reads EIO. A name is checked against
    # the image only when its file is read (that decodes it; a listing must not), so a forged
    # name that passes every rule hides the true one until the folder is decoded again: the
    # forged one stands in its folder in its place and reads EIO.
    stand_ins = {}
    for rel in sorted(set(listed) | set(truth_listing)):
        if listed.get(rel, "absent") == truth_listing.get(rel, "absent"):
            continue
        if rel in listed and listed[rel] is None:
            problems.append("%s: a folder %s, without the index %s" % (name, rel, truth_listing.get(rel, "absent")))
        elif rel in listed:
            if m.read(rel) != "EIO":
                problems.append("%s: %s lists %d bytes (%s without the index) and reads" % (name, rel, listed[rel], truth_listing.get(rel, "absent")))
            eio += 1
            if rel not in truth_listing:
                stand_ins[os.path.dirname(rel)] = stand_ins.get(os.path.dirname(rel), 0) + 1
        else:
            folder = os.path.dirname(rel)
            if not stand_ins.get(folder) and not any(r not in truth_listing and os.path.dirname(r) == folder for r in listed):
                problems.append("%s: %s is not listed, and no file reading EIO stands in its place" % (name, rel))
    for rel, want in truth_bytes.items():
        got = m.read(os.path.join(LEVEL, rel))
        if got == "EIO":
            eio += 1
        elif got != want:
            problems.append("%s: %s/%s reads other bytes than without the index" % (name, LEVEL, rel))
    if eio and m.counter("errors") == 0:
        problems.append("%s: %d reads answered EIO, .gcfs/stats counts no error" % (name, eio))
    m.close()

print("%d hostile index cases: every file as without the index or EIO" % len(cases) if not problems else "\n".join(problems))
sys.exit(1 if problems else 0)
