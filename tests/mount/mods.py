"""Mods you can share and stack (issue 57), through real mounts: mod A (a
texture painted with PIL and a mobies.csv cell), mod B (another cell of the
same row and a sound made by ffmpeg) and mod C (the same texture as A) made
by three edit mounts from the disc's own folder with relative paths. Then
-o mods=A:B:C shows every change with C's texture, .gcfs/edits lists the
texture conflict and no other, writes answer EROFS and the folders are left
as they were; gcfs pack IMAGE A B C equals that mount's edited.iso; gcfs diff
names each change; xdelta3 -d turns gcfs pack --vcdiff's patch into the same
bytes, for one folder and for the stack; a folder moved elsewhere replays the
same; an edits folder over the stack writes on top; on a full-scale disc the
patch of a one-texture mod is under 1 MiB.
Usage: mods.py GCFS WORK   (Debian's python3: it needs PIL)"""
import csv
import errno
import filecmp
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys

from PIL import Image

import gcfs_mount

gcfs, work = sys.argv[1:]
work = os.path.join(work, "mods")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
os.chdir(work)  # the disc's own folder: every path below is relative
failures = []


def check(name, ok, detail=""):
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else ": " + str(detail)[:600]))
    if not ok:
        failures.append(name)


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True)


def rows(data):
    return list(csv.DictReader(io.StringIO(data.decode())))


def set_cell(m, rel, uid, column, value):
    """The row with `uid` given `value` in `column`, the file written back whole (as a spreadsheet saves)."""
    text = m.read(rel).decode()
    table = list(csv.reader(io.StringIO(text)))
    header = table[0]
    for row in table[1:]:
        if row[header.index("uid")] == uid:
            row[header.index(column)] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(table)
    with open(m.path(rel), "w") as f:
        f.write(out.getvalue())


def paint(m, rel, row, out):
    """Row `row` of the picture painted in its first pixel's colour (a colour of its own palette), copied over."""
    im = Image.open(m.path(rel)).convert("RGBA")
    px = im.load()
    for x in range(im.size[0]):
        px[x, row] = px[0, 0]
    im.save(out)
    shutil.copyfile(out, m.path(rel))
    return list(Image.open(out).convert("RGBA").getdata())


def mount(disc, options, name, wait=10):
    os.makedirs(name, exist_ok=True)
    return gcfs_mount.Mount(gcfs, disc, options, work, cwd=work, mnt=name, wait=wait)


def pixels(path):
    return list(Image.open(path).convert("RGBA").getdata())


def tree_digest(folder):
    h = hashlib.sha256()
    for root, dirs, files in sorted(os.walk(folder)):
        dirs.sort()
        for name in sorted(files):
            p = os.path.join(root, name)
            h.update(os.path.relpath(p, folder).encode() + b"\0" + open(p, "rb").read())
    return h.hexdigest()


def sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


image = "disc.iso"
subprocess.run([gcfs, "mkdisc", image, "--levels", "2", "--seed", "11"], check=True, stdout=subprocess.DEVNULL)
tex, mobies, sound = "LEVEL00/textures/tfrag_001.png", "LEVEL00/gameplay/mobies.csv", "LEVEL00/audio/sfx_001.wav"
help_file, cues = "LEVEL00/gameplay/help/us_english.txt", "global/mpeg/00.en.srt"


def replace_line(m, rel, number, text):
    """Line `number` (from 1) of a text file replaced, the file written back whole (as vim saves)."""
    lines = m.read(rel).decode().split("\n")
    lines[number - 1] = text
    with open(m.path(rel), "w") as f:
        f.write("\n".join(lines))

# ---- three mods, each made by its own edit mount
m = mount(image, "edits=A", "mnt-a")
uid = rows(m.read(mobies))[0]["uid"]
old = rows(m.read(mobies))[0]
a_pixels = paint(m, tex, 1, "a.png")
set_cell(m, mobies, uid, "bolts", "77")
help_id = m.read(help_file).decode().split("\n")[0].split("\t")[0]
replace_line(m, help_file, 1, help_id + "\tMod A's first message")
replace_line(m, cues, 3, "Mod A's first cue.")  # cue 1's text (SubRip: number, times, text)
check("mod A: the texture and the bolts cell apply", pixels(m.path(tex)) == a_pixels and rows(m.read(mobies))[0]["bolts"] == "77")
m.close()

m = mount(image, "edits=B", "mnt-b")
set_cell(m, mobies, uid, "draw_distance", "99")
second_help = m.read(help_file).decode().split("\n")[1]
replace_line(m, help_file, 2, second_help.split("\t")[0] + "\tMod B's second message")
replace_line(m, cues, 7, "Mod B's second cue.")  # cue 2's text
subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=0.8:sample_rate=22050", "-ac", "1", "tone.wav"],
               check=True)
shutil.copyfile("tone.wav", m.path(sound))
b_sound = m.read(sound)
check("mod B: another cell of the same row and a sound apply",
      rows(m.read(mobies))[0]["draw_distance"] == "99" and rows(m.read(mobies))[0]["bolts"] == old["bolts"] and len(b_sound) > 44)
m.close()

m = mount(image, "edits=C", "mnt-c")
c_pixels = paint(m, tex, 2, "c.png")
m.close()
check("C's texture differs from A's", c_pixels != a_pixels)

digests = {d: tree_digest(d) for d in "ABC"}

# ---- the stack, read-only
m = mount(image, "mods=A:B:C", "mnt-abc", wait=60)
row = rows(m.read(mobies))[0]
check("-o mods=A:B:C: the row has A's bolts and B's draw distance", row["bolts"] == "77" and row["draw_distance"] == "99", row)
check("...the other cells of the row as the image has them", all(row[k] == old[k] for k in old if k not in ("bolts", "draw_distance")))
check("...C's texture (the later folder wins)", pixels(m.path(tex)) == c_pixels)
check("...B's sound", m.read(sound) == b_sound)
shown_help = m.read(help_file).decode()
check("...A's and B's help messages, different messages of one file, both", "Mod A's first message" in shown_help and "Mod B's second message" in shown_help,
      shown_help[:300])
shown_cues = m.read(cues).decode()
check("...A's and B's cues, different cues of one subtitle file, both", "Mod A's first cue." in shown_cues and "Mod B's second cue." in shown_cues,
      shown_cues[:300])
listing = m.read(".gcfs/edits").decode()
conflicts = [line for line in listing.splitlines() if line.startswith("conflict")]
check(".gcfs/edits lists the texture conflict between A and C, and no other",
      len(conflicts) == 1 and tex in conflicts[0] and "/A" in conflicts[0] and "/C" in conflicts[0] and "/B" not in conflicts[0], listing)
try:
    with open(m.path(mobies), "a") as f:
        f.write("x")
    erofs = False
except OSError as e:
    erofs = e.errno == errno.EROFS
check("a write to a mods-only mount answers EROFS", erofs)
shutil.copyfile(m.path("edited.iso"), "abc-mount.iso")
m.close()
check("mounting the stack left every mod folder as it was", all(tree_digest(d) == digests[d] for d in "ABC"))

r = run(gcfs, "pack", image, "A", "B", "C", "abc.iso")
check("gcfs pack IMAGE A B C OUT succeeds", r.returncode == 0, r.stderr)
check("...and equals the mount's edited.iso", filecmp.cmp("abc.iso", "abc-mount.iso", shallow=False))
r = run(gcfs, "verify", "abc.iso")
check("gcfs verify passes the packed stack", r.returncode == 0, r.stdout[-400:] + r.stderr[-400:])

# ---- gcfs diff: each change in words, and as JSON
r = run(gcfs, "diff", image, "A", "B", "C")
text = r.stdout
check("gcfs diff names the bolts cell with its old and new value and the row's uid",
      r.returncode == 0 and "(uid %s), bolts: \"%s\" -> \"77\"" % (uid, old["bolts"]) in text, text)
check("...the draw distance cell", "(uid %s), draw_distance: \"%s\" -> \"99\"" % (uid, old["draw_distance"]) in text, text)
check("...the help messages and the cues with their old and new text",
      "message %s, its line:" % help_id in text and "Mod B's second message" in text and "cue 1, its text:" in text and "\"Mod B's second cue.\"" in text, text)
check("...the texture's changed pixels and their box", tex + " (picture)" in text and "pixels changed, within x" in text, text)
check("...the sound's old and new length", sound + " (sound)" in text and " s (" in text and "-> 0.8" in text, text)
r = run(gcfs, "diff", "--json", image, "A", "B", "C")
try:
    diff = {d["path"]: d for d in json.loads(r.stdout)}
except ValueError:
    diff = {}
cells = [c for c in diff.get(mobies, {}).get("changes", []) if c.get("field") in ("bolts", "draw_distance")]
check("gcfs diff --json gives the cells, the pixel count and the sound length as fields",
      len(cells) == 2 and diff.get(tex, {}).get("changes", [{}])[0].get("pixels_changed", 0) > 0
      and abs(diff.get(sound, {}).get("changes", [{}])[0].get("new_seconds", 0) - 0.8) < 0.05, r.stdout[:600])

# ---- VCDIFF patches that xdelta3 applies with no gcfs
for label, folders in (("one folder", ["A"]), ("the stack", ["A", "B", "C"])):
    packed = "packed-%d.iso" % len(folders)
    subprocess.run([gcfs, "pack", image] + folders + [packed], check=True)
    r = run(gcfs, "pack", "--vcdiff", image, *folders, "patch.vcdiff")
    x = run("xdelta3", "-d", "-f", "-s", image, "patch.vcdiff", "x.iso")
    check("xdelta3 -d applies gcfs pack --vcdiff's patch of %s and gives the packed image byte for byte" % label,
          r.returncode == 0 and x.returncode == 0 and filecmp.cmp("x.iso", packed, shallow=False), r.stderr + x.stderr)
    check("...a patch of %s is about the changed bytes (%d bytes for a %d-byte image)" % (label, os.path.getsize("patch.vcdiff"), os.path.getsize(image)),
          os.path.getsize("patch.vcdiff") < os.path.getsize(image) // 8)

# ---- a folder that travels: another path, mounted read-only with -o mods=
shutil.copytree("A", "elsewhere/moved-A")
m = mount(image, "mods=elsewhere/moved-A", "mnt-moved", wait=60)
shutil.copyfile(m.path("edited.iso"), "moved.iso")
m.close()
subprocess.run([gcfs, "pack", image, "A", "a.iso"], check=True)
check("a mod folder moved to another path replays the same edits", filecmp.cmp("moved.iso", "a.iso", shallow=False))
r = run(gcfs, "edits", "elsewhere/moved-A")
check("gcfs edits names the image a folder belongs to (volume id, size, table-of-contents digest)",
      r.returncode == 0 and "belongs to the image with volume id" in r.stdout and "table-of-contents digest" in r.stdout
      and "(not recorded)" not in r.stdout, r.stdout[:400])

# ---- an edits folder on top of the stack
digests = {d: tree_digest(d) for d in "AB"}  # (gcfs pack of one folder above took its lock, as an edit mount does)
m = mount(image, "mods=A:B,edits=D", "mnt-d", wait=60)
set_cell(m, mobies, uid, "mission", "5")
row = rows(m.read(mobies))[0]
check("-o mods=A:B,edits=D: a save lands on top of the stack, A's and B's cells kept",
      row["mission"] == "5" and row["bolts"] == "77" and row["draw_distance"] == "99", row)
m.close()
check("...the mod folders unchanged by it", tree_digest("A") == digests["A"] and tree_digest("B") == digests["B"])

# ---- folders that cannot be stacked: refused with the reason (exit 9), nothing made
os.makedirs("mnt-x", exist_ok=True)
r = run(gcfs, "mount", image, "mnt-x", "-o", "mods=A:no-such-mod")
check("a mod folder that is not there is refused (exit 9) and not made", r.returncode == 9 and "no-such-mod" in r.stderr
      and not os.path.exists("no-such-mod"), r.stderr)
subprocess.run([gcfs, "mkdisc", "other.iso", "--levels", "2", "--seed", "12"], check=True, stdout=subprocess.DEVNULL)
r = run(gcfs, "mount", "other.iso", "mnt-x", "-o", "mods=A")
check("a mod folder of another image is refused (exit 9), naming it", r.returncode == 9 and "another image" in r.stderr, r.stderr)
check("...and nothing was mounted", not os.path.ismount("mnt-x"))
r = run(gcfs, "mount", image, "mnt-x", "-o", "mods=A,edits=A")
check("one folder as both a mod (read) and the edits folder (written) is refused (exit 9)", r.returncode == 9 and "both a mod folder" in r.stderr,
      r.stderr)

# ---- a full-scale disc: a one-texture mod's patch is under 1 MiB
full = "full.iso"
subprocess.run([gcfs, "mkdisc", full, "--scale", "full", "--levels", "2", "--seed", "5"], check=True, stdout=subprocess.DEVNULL)
m = mount(full, "edits=F", "mnt-f", wait=120)
paint(m, tex, 1, "f.png")
m.close()
r = run(gcfs, "pack", "--vcdiff", full, "F", "full.vcdiff")
x = run("xdelta3", "-d", "-f", "-s", full, "full.vcdiff", "full-x.iso")
subprocess.run([gcfs, "pack", full, "F", "full-packed.iso"], check=True)
size = os.path.getsize("full.vcdiff") if os.path.exists("full.vcdiff") else -1
check("full-scale: a one-texture mod's VCDIFF is under 1 MiB (%d bytes for a %d-byte image) and xdelta3 reproduces the packed image"
      % (size, os.path.getsize(full)), 0 < size < 1 << 20 and x.returncode == 0 and filecmp.cmp("full-x.iso", "full-packed.iso", shallow=False),
      r.stderr + x.stderr)

print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
