#!/usr/bin/env python3
"""Crafted ISO9660 damage (issue 33): copies of a clean gcfs disc whose
directory records are damaged or hostile, one image per case, written to
OUTDIR/<case>.iso. Only ISO9660 directories change (and sectors appended at
the image's end): the table of contents and every WAD stay as they were, so a
mount must show every level and global of the clean disc byte for byte.

Usage: craft_iso.py CLEAN.iso OUTDIR   (prints the case names, one a line)
       craft_iso.py --trimmed CLEAN.iso OUT.iso
The second writes no damage: every directory record sized to the bytes its
records use rather than to whole sectors, as some modding tools write them.
"""
import os
import struct
import sys

S = 2048
ROOT_RECORD = 16 * S + 156  # the root's record inside the primary volume descriptor


def both32(v):
    return struct.pack("<I", v) + struct.pack(">I", v)


def record(name, lba, size, directory=False, length=None):
    """An ECMA-119 9.1 directory record; `length` overrides the length byte."""
    body = bytes([0]) + both32(lba) + both32(size) + bytes(7) + bytes([2 if directory else 0, 0, 0]) + b"\x01\x00\x00\x01"
    body += bytes([len(name)]) + name
    if len(name) % 2 == 0:  # the padding field after an even-length identifier
        body += b"\x00"
    full = bytes([len(body) + 1]) + body
    if length is not None:
        full = bytes([length]) + full[1:]
    return full


def extent(records):
    """Records laid out so none straddles a sector (ECMA-119 6.8.1.1)."""
    out = bytearray()
    for r in records:
        if len(out) % S + len(r) > S:
            out += bytes(S - len(out) % S)
        out += r
    out += bytes(-len(out) % S)
    return bytes(out)


def set_extent(d, at, lba, size):
    d[at + 2:at + 10] = both32(lba)
    d[at + 10:at + 18] = both32(size)


def records_of(d, lba, size):
    """(offset, name, lba, size, is_directory) of each record of a clean directory."""
    at, end = lba * S, lba * S + size
    while at < end:
        n = d[at]
        if n == 0:
            at = (at // S + 1) * S
            continue
        name = bytes(d[at + 33:at + 33 + d[at + 32]])
        yield at, name, struct.unpack_from("<I", d, at + 2)[0], struct.unpack_from("<I", d, at + 10)[0], bool(d[at + 25] & 2)
        at += n


def trimmed(d):
    """Each directory's size in its records (and the root's in the PVD) cut to its last record's end."""
    used, todo = {}, [(struct.unpack_from("<I", d, ROOT_RECORD + 2)[0], struct.unpack_from("<I", d, ROOT_RECORD + 10)[0])]
    while todo:
        lba, size = todo.pop()
        if lba in used:
            continue
        last = 0
        for at, name, child, child_size, is_dir in records_of(d, lba, size):
            last = at + d[at] - lba * S
            if is_dir and name not in (b"\x00", b"\x01"):
                todo.append((child, child_size))
        used[lba] = last

    def patch(at):
        lba = struct.unpack_from("<I", d, at + 2)[0]
        if d[at + 25] & 2 and lba in used:
            set_extent(d, at, lba, used[lba])
    patch(ROOT_RECORD)
    for lba in list(used):
        for at, *_ in records_of(d, lba, S):
            patch(at)
    return d


def root_child(d, name):
    root_lba, root_size = struct.unpack_from("<I", d, ROOT_RECORD + 2)[0], struct.unpack_from("<I", d, ROOT_RECORD + 10)[0]
    return next(r for r in records_of(d, root_lba, root_size) if r[1] == name)


def with_levels_extent(d, records_after_dots):
    """LEVELS/ replaced by a new extent appended at the image's end."""
    at, _, lba, _, _ = root_child(d, b"LEVELS")
    root_lba = struct.unpack_from("<I", d, ROOT_RECORD + 2)[0]
    new_lba = len(d) // S
    body = extent([record(b"\x00", new_lba, 0, True), record(b"\x01", root_lba, S, True)] + records_after_dots)
    body = bytearray(body)
    set_extent(body, 0, new_lba, len(body))
    d += body
    set_extent(d, at, new_lba, len(body))
    return d


def level_files(d):
    _, _, lba, size, _ = root_child(d, b"LEVELS")
    return [record(name, l, s) for _, name, l, s, is_dir in records_of(d, lba, size) if name not in (b"\x00", b"\x01")]


def main():
    if sys.argv[1] == "--trimmed":
        with open(sys.argv[3], "wb") as f:
            f.write(trimmed(bytearray(open(sys.argv[2], "rb").read())))
        return
    clean, outdir = sys.argv[1], sys.argv[2]
    base = bytearray(open(clean, "rb").read())
    cnf = root_child(base, b"SYSTEM.CNF;1")
    levels_at, _, levels_lba, levels_size, _ = root_child(base, b"LEVELS")
    root_lba = struct.unpack_from("<I", base, ROOT_RECORD + 2)[0]
    cases = {}

    def case(name, make):
        d = bytearray(base)
        make(d)
        cases[name] = d

    # Hostile names, each a record of SYSTEM.CNF's bytes: none may climb out of
    # disc/LEVELS, collide, or pass 255 bytes once escaped.
    hostile = [b".", b"..", b"A\x00B;1", b"CTRL\x01\x1f;1", b"\xff\xfe;1", b"\xff" * 221, b"../../ESCAPE;1", b"A/B;1",
               b"LEVEL00.WAD;1", b"LEVEL00.WAD;1", b"EVIL\nLINE\x1b[31m;1"]
    case("names", lambda d: with_levels_extent(d, level_files(d) + [record(n, cnf[2], cnf[3]) for n in hostile]))
    # A record shorter than 33 bytes, then the rest in the next sector.
    case("short-record", lambda d: with_levels_extent(
        d, [record(b"SHORT;1", cnf[2], cnf[3], length=20)] + [record(b"PAD%02d;1" % i, cnf[2], cnf[3]) for i in range(60)]))
    # A name length running past its record.
    def name_past(d):
        bad = bytearray(record(b"BADNAME;1", cnf[2], cnf[3]))
        bad[32] = 200
        with_levels_extent(d, [bytes(bad)] + level_files(d))
    case("name-past-record", name_past)
    # LEVELS/ pointing at SYSTEM.CNF's sector: file data, not records.
    case("file-data", lambda d: set_extent(d, levels_at, cnf[2], S))
    # 2,000 records in one directory.
    case("records-2000", lambda d: with_levels_extent(d, [record(b"F%04d;1" % i, cnf[2], cnf[3]) for i in range(2000)]))
    # A directory size of 0x7fffffff, and the root's too.
    case("huge-size", lambda d: set_extent(d, levels_at, levels_lba, 0x7FFFFFFF))
    case("root-huge-size", lambda d: set_extent(d, ROOT_RECORD, root_lba, 0x7FFFFFFF))
    # A directory and a file whose extents lie past the image's end.
    case("past-end", lambda d: with_levels_extent(
        d, level_files(d) + [record(b"GONE", len(d) // S + 500, S, True), record(b"GONE.BIN;1", len(d) // S + 900, 4096)]))
    # Loops: to itself, its parent and the root.
    case("loops", lambda d: with_levels_extent(
        d, level_files(d) + [record(b"SELF", len(d) // S, S, True), record(b"PARENT", root_lba, S, True),
                             record(b"ROOT", root_lba, S, True)]))

    for name, d in cases.items():
        with open(os.path.join(outdir, name + ".iso"), "wb") as f:
            f.write(d)
        print(name)


main()
