"""Edits a modder can trust (issue 52), through real mounts with the tools and
habits people have: relative paths from the disc's folder, a second mount on
one folder, a reader holding a file open while a save lands, an edit the
readers reject, GIMP's close-ignoring save, ImageMagick's empty first close,
a new name, the matrix cells after a position edit, mtimes, a hostile edits
folder (symlinks, FIFOs), sizes past every bound, a grown global WAD, and the
smaller points. One numbered section per point of the issue.
Usage: edit_trust.py GCFS WORK   (Debian's python3: PIL, dbus, gi)"""
import csv
import io
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

from PIL import Image

import gcfs_mount

gcfs, work = sys.argv[1:]
work = os.path.join(work, "trust")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []
SETTLE = 2.5  # edit/session.cpp's kSettle (1.5 s) and room to spare


def check(name, ok, detail=""):
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else ": " + str(detail)))
    if not ok:
        failures.append(name)


class Mount(gcfs_mount.Mount):
    def __init__(self, image, *options, cwd=None, env=None, mnt=None):
        super().__init__(gcfs, image, list(options), work, cwd=cwd, env=env, mnt=mnt, required=False)

    def read(self, rel):
        with open(self.path(rel), "rb") as f:
            return f.read()

    def events(self):
        """The event lines of .gcfs/edits (not the 'changes' lines under an applied one)."""
        return [l for l in self.read(".gcfs/edits").decode().splitlines()[2:] if not l.startswith(" ")]


def save(path, data):
    """A save as most programs make it: open with O_TRUNC, write, close; the close's error raised."""
    with open(path, "wb") as f:
        f.write(data)


def save_ignoring_close(path, data):
    """GIMP's PNG writer: the error close returns is not looked at."""
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    os.write(fd, data)
    try:
        os.close(fd)
        return 0
    except OSError as e:
        return e.errno


def png_bytes(size, colour):
    out = io.BytesIO()
    Image.new("RGBA", size, colour).save(out, "PNG")
    return out.getvalue()


def with_cell(text, row, column, value):
    """`text` (a CSV gcfs wrote: no quoted cells) with one cell of data row `row` (0-based) set."""
    lines = text.split("\n")
    header = lines[0].split(",")
    cells = lines[row + 1].split(",")
    cells[header.index(column)] = value
    lines[row + 1] = ",".join(cells)
    return "\n".join(lines)


def cell(text, row, column):
    rows = list(csv.DictReader(io.StringIO(text)))
    return rows[row][column]


def wait_until(predicate, seconds):
    end = time.time() + seconds
    while time.time() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


disc_dir = os.path.join(work, "discs")
os.makedirs(disc_dir)
image = os.path.join(disc_dir, "disc.iso")
subprocess.run([gcfs, "mkdisc", image, "--levels", "3", "--seed", "11"], check=True, stdout=subprocess.DEVNULL)
original = open(image, "rb").read()
plain = Mount(image, "noindex")
tex = "LEVEL00/textures/tfrag_000.png"
with Image.open(plain.path(tex)) as picture:
    size = picture.size

# ---- 1. relative paths, from the disc's own folder, as the README writes them
os.makedirs(os.path.join(disc_dir, "mnt"))
m = Mount("disc.iso", "edits=e", "noindex", cwd=disc_dir, mnt="mnt")
check("1. 'gcfs mount disc.iso mnt -o edits=e' from the disc's folder mounts", m.mounted(), "" if m.mounted() else m.close())
if not m.mounted():  # go on with absolute paths, so the later points are still tried
    os.makedirs(os.path.join(disc_dir, "mnt"), exist_ok=True)
    m = Mount(image, "edits=" + os.path.join(disc_dir, "e"), "noindex", mnt=os.path.join(disc_dir, "mnt"))
painted = Image.open(m.path(tex)).convert("RGBA")
painted.putpixel((0, 0), painted.getpixel((1, 1)))
buffer = io.BytesIO()
painted.save(buffer, "PNG")
r = subprocess.run(["cp", "/dev/stdin", "mnt/" + tex], input=buffer.getvalue(), cwd=disc_dir, capture_output=True)
check("1. mounted as 'gcfs mount disc.iso mnt -o edits=e' from the disc's folder, a cp over a texture succeeds", r.returncode == 0, r.stderr)
check("1. ... and reads back as written", list(Image.open(m.path(tex)).convert("RGBA").getdata()) == list(painted.getdata()))
check("1. the relative edits folder is the disc folder's e/", os.path.isfile(os.path.join(disc_dir, "e/files", tex)))

# ---- 2. one mount per edits folder
other_mnt = tempfile.mkdtemp(dir=work)
r = subprocess.run([gcfs, "mount", image, other_mnt, "-o", "edits=" + os.path.join(disc_dir, "e")], capture_output=True, text=True, timeout=30)
check("2. a second mount on the same edits folder is refused, exit 9, naming the holder's pid",
      r.returncode == 9 and ("pid %d" % m.proc.pid) in r.stderr and not os.path.ismount(other_mnt), (r.returncode, r.stderr))
m.close()
edits = os.path.join(disc_dir, "e")

# ---- 3. a file open across an edit reads one whole generation (unbuffered 4 KiB reads, as a copy
# makes them; edited.iso too, several MB: larger than the kernel's readahead)
m = Mount(image, "edits=" + edits, "noindex")
mobies = m.read("LEVEL00/gameplay/mobies.csv").decode()
x = float(cell(mobies, 0, "pos_x"))
torn, trials = [], 0
for rel in ("LEVEL00/level.glb", "edited.iso"):
    for trial in range(5):
        before = m.read(rel)
        with open(m.path(rel), "rb", buffering=0) as reader:
            head = reader.read(4096)
            save(m.path("LEVEL00/gameplay/mobies.csv"), with_cell(mobies, 0, "pos_x", "%g" % (x + trials + 1)).encode())
            rest = b"".join(iter(lambda: reader.read(4096), b""))
        trials += 1
        if head + rest != before:
            torn.append(rel)
check("3. open, read 4 KiB, save mobies.csv, read the rest: one whole generation (level.glb and edited.iso, 5 each)", not torn,
      "torn: %s" % torn)
check("3. a new open sees the newest: the moved moby", cell(m.read("LEVEL00/gameplay/mobies.csv").decode(), 0, "pos_x") == "%g" % (x + trials))

# ---- 4. an edit the readers reject is refused whole, with its line and column
mobies = m.read("LEVEL00/gameplay/mobies.csv").decode()
header = mobies.split("\n")[0].split(",")
try:
    save(m.path("LEVEL00/gameplay/mobies.csv"), with_cell(mobies, 1, "class", "555").encode())
    closed = 0
except OSError as e:
    closed = e.errno
last = m.events()[-1]
check("4. a moby class 555 (none in the level) is refused at close (EINVAL)", closed == 22, closed)
check("4. ... naming line 3, column %d (class)" % (header.index("class") + 1),
      last.startswith("refused") and "line 3, column %d (class): 555 names no moby class of this level" % (header.index("class") + 1) in last, last)
check("4. mobies.csv keeps its applied content", m.read("LEVEL00/gameplay/mobies.csv").decode() == mobies)
edited = os.path.join(work, "edited4.iso")
shutil.copyfile(m.path("edited.iso"), edited)
check("4. gcfs verify passes edited.iso", subprocess.run([gcfs, "verify", edited], stdout=subprocess.DEVNULL).returncode == 0)
os.unlink(edited)

# ---- 5. refusals stay visible: GIMP's sequence, ImageMagick's empty first close, a desktop notification
bus = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"], capture_output=True, text=True)
bus_address, bus_pid = bus.stdout.split("\n")[:2]
notes = os.path.join(work, "notifications.txt")
listener = subprocess.Popen(["/usr/bin/python3", os.path.join(os.path.dirname(os.path.abspath(__file__)), "notify_listener.py"), notes],
                            env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus_address))
wait_until(lambda: os.path.exists(notes), 10)
m.close()
m = Mount(image, "edits=" + edits, "noindex", env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus_address))
shown = m.read(tex)
errno_at_close = save_ignoring_close(m.path(tex), png_bytes((size[0] * 2, size[1] * 2), (255, 0, 0, 255)))
written_back = save_ignoring_close(m.path(tex), shown)  # the metadata step: the old picture read back and written
note = os.getxattr(m.path(tex), "user.gcfs.edit").decode()
check("5. GIMP's sequence: the wrong-size PNG's close says EINVAL (ignored), writing back what the file showed is no event",
      errno_at_close == 22 and written_back == 0, (errno_at_close, written_back))
check("5. ... user.gcfs.edit says refused, and why", note.startswith("refused at ") and "%d" % (size[0] * 2) in note, note)
check("5. ... the last line of .gcfs/edits says refused", m.events()[-1].startswith("refused  " + tex), m.events()[-1])
check("5. ... the texture still shows the applied edit", m.read(tex) == shown)
check("5. ... and the desktop was told (org.freedesktop.Notifications)",
      wait_until(lambda: tex in open(notes).read() and "refused" in open(notes).read(), 10), open(notes).read())
# ImageMagick: the output emptied and closed, then opened again and written.
fd = os.open(m.path(tex), os.O_WRONLY | os.O_TRUNC)
os.close(fd)
good = Image.open(io.BytesIO(shown)).convert("RGBA")
good.putpixel((1, 0), good.getpixel((0, 1)))
buffer = io.BytesIO()
good.save(buffer, "PNG")
save(m.path(tex), buffer.getvalue())
time.sleep(SETTLE)
check("5. an empty first close followed by the real save is no refusal (mogrify)", m.events()[-1].startswith("applied  " + tex), m.events()[-1])
# An emptied file left so is refused, a moment later.
subprocess.run(["truncate", "-s", "0", m.path("LEVEL00/gameplay/help/french.txt")], check=True)
check("5. a file emptied and left so is refused a moment later, saying so",
      wait_until(lambda: any(l.startswith("refused  LEVEL00/gameplay/help/french.txt") and "emptied" in l for l in m.events()), 10), m.events()[-2:])
check("5. ... and the help text keeps its content", m.read("LEVEL00/gameplay/help/french.txt") == plain.read("LEVEL00/gameplay/help/french.txt"))
# printf >> (an append that cannot encode): bash ignores the close's EINVAL and exits 0; the refusal
# is the last event and the file's attribute.
subprocess.run(["bash", "-c", "printf 'not a number\\n' >> '%s'" % m.path("LEVEL00/gameplay/cameras.csv")], capture_output=True)
check("5. printf >> of a bad row (bash exits 0): the refusal is the last event and user.gcfs.edit",
      m.events()[-1].startswith("refused  LEVEL00/gameplay/cameras.csv")
      and os.getxattr(m.path("LEVEL00/gameplay/cameras.csv"), "user.gcfs.edit").startswith(b"refused"), m.events()[-1])
m.close()
listener.terminate()
os.kill(int(bus_pid), signal.SIGTERM)

# ---- 6. a new name is kept and reported, never silently dropped
m = Mount(image, "edits=" + edits, "noindex")
new_png = os.path.join(work, "new.png")
open(new_png, "wb").write(png_bytes((8, 8), (0, 255, 0, 255)))
r = subprocess.run(["cp", new_png, m.path("LEVEL00/textures/new.png")], capture_output=True)
check("6. cp to textures/new.png succeeds and lists", r.returncode == 0 and "new.png" in os.listdir(m.path("LEVEL00/textures")))
check("6. ... a moment later .gcfs/edits reports it kept in DIR/drafts only",
      wait_until(lambda: any(l.startswith("kept  LEVEL00/textures/new.png  kept in DIR/drafts only, not on the disc") for l in m.events()), 10),
      m.events()[-1:])
check("6. ... the file is in DIR/drafts", open(os.path.join(edits, "drafts/LEVEL00/textures/new.png"), "rb").read() == open(new_png, "rb").read())
check("6. ... and the log says so", "kept in DIR/drafts only" in m.close())
m = Mount(image, "edits=" + edits, "noindex")
check("6. after a remount it is still listed, with its bytes", m.read("LEVEL00/textures/new.png") == open(new_png, "rb").read())
os.unlink(m.path("LEVEL00/textures/new.png"))
check("6. rm takes it away, from DIR/drafts and the journal",
      not os.path.exists(os.path.join(edits, "drafts/LEVEL00/textures/new.png")) and not any("new.png" in l for l in m.events()))
# An editor's temporary renamed over the file within the moment is no new name.
open(m.path("LEVEL00/textures/.tmp-save"), "wb").write(m.read("LEVEL00/textures/tfrag_001.png"))
time.sleep(0.3)
os.rename(m.path("LEVEL00/textures/.tmp-save"), m.path("LEVEL00/textures/tfrag_001.png"))
time.sleep(SETTLE)
check("6. a temporary renamed over a texture is not reported kept", not any(".tmp-save" in l for l in m.events()), m.events()[-2:])

# ---- 7. matrix cells after a position edit
ties = m.read("LEVEL00/gameplay/ties.csv").decode()
z = float(cell(ties, 0, "pos_z"))
save(m.path("LEVEL00/gameplay/ties.csv"), with_cell(ties, 0, "pos_z", "%g" % (z + 1)).encode())
ties = m.read("LEVEL00/gameplay/ties.csv").decode()
gameplay_before = m.read("LEVEL00/gameplay.bin")
save(m.path("LEVEL00/gameplay/ties.csv"), with_cell(ties, 0, "col3_z", "%g" % (z + 7)).encode())
ties = m.read("LEVEL00/gameplay/ties.csv").decode()
check("7. after a pos_z edit, a col3_z edit changes gameplay.bin", m.read("LEVEL00/gameplay.bin") != gameplay_before)
check("7. ... and both cells read back the new value", cell(ties, 0, "col3_z") == cell(ties, 0, "pos_z") == "%g" % (z + 7),
      (cell(ties, 0, "col3_z"), cell(ties, 0, "pos_z")))
shrubs = m.read("LEVEL00/gameplay/shrubs.csv").decode()
both = with_cell(with_cell(shrubs, 0, "pos_x", "1.5"), 0, "col3_x", "2.5")
try:
    save(m.path("LEVEL00/gameplay/shrubs.csv"), both.encode())
    closed = 0
except OSError as e:
    closed = e.errno
check("7. pos_x and col3_x changed to two values is refused, naming both", closed == 22 and "col3_x and pos_x" in m.events()[-1], m.events()[-1])

# ---- 8. modification times follow the edits, across a remount
t0 = time.time()
time.sleep(1.1)
save(m.path("LEVEL00/gameplay/help/german.txt"), m.read("LEVEL00/gameplay/help/german.txt").replace(b"\t", b"\tX", 1))
times = {rel: os.stat(m.path(rel)).st_mtime for rel in ("LEVEL00/gameplay/help/german.txt", "LEVEL00/level.glb", "edited.iso")}
untouched = os.stat(m.path("LEVEL01/level.glb")).st_mtime
check("8. the edited file, its level's files and edited.iso are dated the edit", all(t >= int(t0) for t in times.values()), times)
check("8. another level's files keep the disc's date", untouched < t0, untouched)
m.close()
m = Mount(image, "edits=" + edits, "noindex")
again = {rel: os.stat(m.path(rel)).st_mtime for rel in times}
check("8. after a remount the times are the same", again == times, (again, times))
r = subprocess.run(["cp", "-u", m.path("LEVEL00/gameplay/help/german.txt"), os.path.join(work, "old-german.txt")])
m.close()

# ---- 9. the edits folder is never followed out of itself, and nothing in it blocks
outside = os.path.join(work, "elsewhere")


def fresh_outside():
    shutil.rmtree(outside, ignore_errors=True)
    os.makedirs(os.path.join(outside, "textures"))
    open(os.path.join(outside, "core_data.bin"), "wb").write(b"outside" * 1000)
    open(os.path.join(outside, "textures/tfrag_000.png"), "wb").write(b"an outside file")
    return {f: open(os.path.join(outside, f), "rb").read() for f in ("core_data.bin", "textures/tfrag_000.png")}


def outside_unchanged(before):
    now = {}
    for d, _, fs in os.walk(outside):
        for f in fs:
            now[os.path.relpath(os.path.join(d, f), outside)] = open(os.path.join(d, f), "rb").read()
    return now == before


def hostile_folder(name, journal_entries):
    """A folder for this image whose journal lists `journal_entries` (path, size, crc)."""
    folder = os.path.join(work, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, "files"))
    key = json.load(open(os.path.join(edits, "journal.json")))["image"]
    entries = [{"path": p, "state": "applied", "status": "", "sequence": i + 1, "time": 0, "size": s, "crc32": c, "containers": []}
               for i, (p, s, c) in enumerate(journal_entries)]
    json.dump({"gcfs_edits": 1, "image": key, "next_sequence": len(entries) + 1, "edits": entries}, open(os.path.join(folder, "journal.json"), "w"))
    return folder


import zlib  # noqa: E402

before = fresh_outside()
core = open(os.path.join(outside, "core_data.bin"), "rb").read()
folder = hostile_folder("e-link-level", [("LEVEL01/core_data.bin", len(core), zlib.crc32(core))])
os.symlink(outside, os.path.join(folder, "files/LEVEL01"))
m = Mount(image, "edits=" + folder, "noindex")
check("9. files/LEVEL01 a symlink out: the outside core_data.bin is not served", m.read("LEVEL01/core_data.bin") == plain.read("LEVEL01/core_data.bin"))
check("9. ... nor put into edited.iso", m.read("edited.iso") == original)
try:
    save(m.path("LEVEL01/textures/tfrag_000.png"), m.read("LEVEL01/textures/tfrag_000.png")[:-1] + b"\0")
except OSError:
    pass
try:
    os.unlink(m.path("LEVEL01/core_data.bin"))
except OSError:
    pass
m.close()
check("9. ... and no save or rm through the mount wrote or removed a byte outside", outside_unchanged(before))
before = fresh_outside()
folder = hostile_folder("e-link-files", [("LEVEL01/core_data.bin", len(core), zlib.crc32(core))])
os.rmdir(os.path.join(folder, "files"))
os.makedirs(os.path.join(outside, "LEVEL01"))
shutil.copyfile(os.path.join(outside, "core_data.bin"), os.path.join(outside, "LEVEL01/core_data.bin"))
before = {**before, "LEVEL01/core_data.bin": core}
os.symlink(outside, os.path.join(folder, "files"))
r = subprocess.run([gcfs, "pack", image, folder, os.path.join(work, "packed9.iso")], capture_output=True, text=True, timeout=30)
check("9. files/ a symlink out: gcfs pack refuses the folder (exit 9), naming it", r.returncode == 9 and "files" in r.stderr, r.stderr)
check("9. ... and nothing outside changed", outside_unchanged(before))
# FIFOs: a stored file, the journal, the index file. None may hang anything.
folder = hostile_folder("e-fifo-file", [(tex, 10, 0)])
os.makedirs(os.path.join(folder, "files/LEVEL00/textures"))
os.mkfifo(os.path.join(folder, "files", tex))
start = time.time()
m = Mount(image, "edits=" + folder, "noindex")
listed = m.read(tex) == plain.read(tex)
check("9. a FIFO as a stored file: the mount answers within 5 s and shows the disc's texture", time.time() - start < 5 and listed)
m.close()
folder = hostile_folder("e-fifo-journal", [])
os.unlink(os.path.join(folder, "journal.json"))
os.mkfifo(os.path.join(folder, "journal.json"))
for args, what in (([gcfs, "mount", image, tempfile.mkdtemp(dir=work), "-o", "edits=" + folder], "gcfs mount"),
                   ([gcfs, "pack", image, folder, os.path.join(work, "p.iso")], "gcfs pack"), ([gcfs, "edits", folder], "gcfs edits")):
    try:
        r = subprocess.run(args, capture_output=True, text=True, timeout=5)
        check("9. a FIFO as journal.json: %s exits 9 within 5 s, naming it" % what, r.returncode == 9 and "journal.json" in r.stderr, r.stderr)
    except subprocess.TimeoutExpired:
        check("9. a FIFO as journal.json: %s exits 9 within 5 s, naming it" % what, False, "hung")
index_dir = os.path.join(work, "fifo-index")
os.makedirs(index_dir)
os.mkfifo(os.path.join(index_dir, "index.sqlite"))
m = Mount(image, "index_dir=" + index_dir)
start = time.time()
lister = subprocess.Popen(["ls", "-l", m.path("LEVEL01")], stdout=subprocess.DEVNULL)
try:
    lister.wait(timeout=5)
    check("9. a FIFO as index.sqlite: a level lists within 5 s", lister.returncode == 0)
except subprocess.TimeoutExpired:
    check("9. a FIFO as index.sqlite: a level lists within 5 s", False, "hung")
m.proc.send_signal(signal.SIGTERM)
try:
    m.proc.wait(timeout=5)
    check("9. ... and SIGTERM unmounts", not os.path.ismount(m.mnt))
except subprocess.TimeoutExpired:
    check("9. ... and SIGTERM unmounts", False, "the daemon did not stop")
    subprocess.run(["fusermount3", "-uz", m.mnt])
    m.proc.kill()

# ---- 10. sizes are bounded as bytes arrive
m = Mount(image, "edits=" + edits, "noindex")
for rel in (tex, "LEVEL00/audio/sfx_000.wav", "LEVEL00/gameplay/mobies.csv"):
    r = subprocess.run(["truncate", "-s", "2G", m.path(rel)], capture_output=True, text=True)
    check("10. truncate -s 2G on %s is refused with EFBIG" % rel, r.returncode != 0 and "too large" in r.stderr.lower(), r.stderr)
r = subprocess.run(["bash", "-c", "head -c 300M /dev/zero > '%s'" % m.path("LEVEL00/gameplay/cameras.csv")], capture_output=True, text=True)
check("10. 300 MB written into a CSV stops at its bound with EFBIG", r.returncode != 0 and "too large" in r.stderr.lower(), r.stderr)
check("10. ... the writer's failed draft is not applied, the refusal says why",
      m.events()[-1].startswith("refused  LEVEL00/gameplay/cameras.csv") and "EFBIG" in m.events()[-1], m.events()[-1])
peak = int([l for l in open("/proc/%d/status" % m.proc.pid) if l.startswith("VmHWM")][0].split()[1])
check("10. the daemon's peak RSS stays under 256 MiB", peak < 256 * 1024, "%d KiB" % peak)
# A writer killed mid-save: its draft is never applied.
killed = subprocess.Popen(["/usr/bin/python3", "-c", "import os,sys,time; f=open(sys.argv[1],'wb'); f.write(b'half a '); f.flush(); time.sleep(30)",
                           m.path("LEVEL00/gameplay/help/spanish.txt")])
time.sleep(1)
killed.kill()
killed.wait()
check("10. a writer killed mid-save: nothing applied, the refusal names the signal",
      wait_until(lambda: "killed by signal 9" in m.events()[-1], 5) and m.read("LEVEL00/gameplay/help/spanish.txt") == plain.read("LEVEL00/gameplay/help/spanish.txt"),
      m.events()[-1])
m.close()

# ---- 12. a grown global WAD is never the image's last listed file
GLOBAL_SIZES = (0x328, 0x40, 0x1870, 0xA48, 0x1800, 0xBA8, 0x170, 0x3C8, 0xF8)  # formats.md 2.3, in order


def listed_files(data):
    """(kind, LBA) of every file the table of contents lists (formats.md 2.3)."""
    toc = 1001 * 2048
    at, files = toc, []
    for size in GLOBAL_SIZES:
        files.append(("global", struct.unpack_from("<I", data, at + 4)[0]))
        at += size
    for entry in range(100):
        parts = struct.unpack_from("<6I", data, at + 0x18 * entry)
        for lba in parts[0::2]:
            if lba > 1001 and (lba - 1001) * 2048 < 0x200000:
                files.append(("level", struct.unpack_from("<I", data, (lba) * 2048 + 4)[0]))
    return files


m = Mount(image, "edits=" + os.path.join(work, "e-grow"), "noindex")
tone = os.path.join(work, "tone.wav")
subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=8", "-ar", "22050", "-ac", "1", tone], check=True)
r1 = subprocess.run(["cp", tone, m.path("global/audio/vendor/000.wav")]).returncode
srt = m.read("global/mpeg/00.en.srt").decode()
first_text_line = srt.split("\n")[2]
r2 = save_ignoring_close(m.path("global/mpeg/00.en.srt"), srt.replace(first_text_line, first_text_line + " and more" * 400, 1).encode())
grown = m.read("edited.iso")
files = listed_files(grown)
stranded = [lba for kind, lba in files if kind == "global" and not any(other > lba for _, other in files)]
check("12. a grown AUDIO.WAD and MPEG.WAD (both applied) keep a listed file after every global WAD",
      r1 == 0 and r2 == 0 and len(grown) > len(original) and not stranded, (r1, r2, len(grown) - len(original), stranded))
edited = os.path.join(work, "edited12.iso")
open(edited, "wb").write(grown)
check("12. ... and gcfs verify passes it", subprocess.run([gcfs, "verify", edited], stdout=subprocess.DEVNULL).returncode == 0)
m.close()
os.unlink(edited)

# ---- 13. the smaller points
m = Mount(image, "edits=" + edits, "noindex")
cameras = m.read("LEVEL00/gameplay/cameras.csv").decode()
header = cameras.split("\n")[0].split(",")
spaced = with_cell(cameras, 0, header[2], " " + cell(cameras, 0, header[2]) + " ")
save(m.path("LEVEL00/gameplay/cameras.csv"), spaced.encode())
check("13. a CSV cell with blanks around its number is taken", m.events()[-1].startswith("applied  LEVEL00/gameplay/cameras.csv"), m.events()[-1])
note = os.getxattr(m.path("LEVEL00/gameplay/cameras.csv"), "user.gcfs.edit").decode()
check("13. getfattr on an edited file says the edit", note.startswith("applied at "), note)
log = m.close()
check("13. the mount logs how many edits it replayed", "edits replayed" in log, log[-300:])
journal = json.load(open(os.path.join(edits, "journal.json")))
journal["edits"][0]["status"] = "a reason with \x1b[31m a terminal escape\x07"
journal["edits"][0]["state"] = "refused"
json.dump(journal, open(os.path.join(edits, "journal.json"), "w"))
listing = subprocess.run([gcfs, "edits", edits], capture_output=True).stdout
check("13. gcfs edits escapes a status's control characters", b"\x1b" not in listing and b"\x07" not in listing and b"\\x1b" in listing)
# Another image's edits with the key rewritten: each edit passes the whole-level check or is refused; the pack verifies.
other = os.path.join(work, "other.iso")
subprocess.run([gcfs, "mkdisc", other, "--levels", "3", "--seed", "12"], check=True, stdout=subprocess.DEVNULL)
forged = os.path.join(work, "e-forged")
shutil.copytree(edits, forged, ignore=shutil.ignore_patterns("lock"))
probe = tempfile.mkdtemp(dir=work)
r = subprocess.run([gcfs, "mount", other, probe, "-o", "edits=" + os.path.join(work, "e-probe")], capture_output=True, text=True)
subprocess.run(["fusermount3", "-u", probe])
journal = json.load(open(os.path.join(forged, "journal.json")))
journal["image"] = json.load(open(os.path.join(work, "e-probe/journal.json")))["image"]
json.dump(journal, open(os.path.join(forged, "journal.json"), "w"))
packed = os.path.join(work, "forged.iso")
r = subprocess.run([gcfs, "pack", other, forged, packed], capture_output=True, text=True)
check("13. another image's edits under a rewritten key pack into an image gcfs verify passes",
      r.returncode == 0 and subprocess.run([gcfs, "verify", packed], stdout=subprocess.DEVNULL).returncode == 0, r.stderr[-500:])
# A killed pack leaves nothing beside its output.
pack = subprocess.Popen([gcfs, "pack", image, edits, os.path.join(work, "killed.iso")])
time.sleep(0.05)
pack.kill()
pack.wait()
check("13. a killed gcfs pack leaves no temporary", not [f for f in os.listdir(work) if f.startswith("killed.iso.") or f.endswith(".gcfs-tmp")])

# ---- 1 (end). a relative -o edits= is accepted; an unusable folder exits 9
not_a_folder = os.path.join(work, "a-file")
open(not_a_folder, "w").write("x")
r = subprocess.run([gcfs, "mount", image, tempfile.mkdtemp(dir=work), "-o", "edits=" + not_a_folder], capture_output=True, text=True)
check("1. an edits folder that is a file exits 9", r.returncode == 9, (r.returncode, r.stderr))

plain.close()
check("the image was only read", open(image, "rb").read() == original)
print("edit_trust: %s" % ("%d checks failed" % len(failures) if failures else "all passed"))
sys.exit(1 if failures else 0)
