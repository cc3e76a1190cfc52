"""Edits through a real mount (-o edits=DIR, edit/session.h), with ordinary
tools: PIL and ImageMagick write textures (in place and by rename-over, as
GIMP and Krita save), sed -i moves a moby, cp writes a help text, ffmpeg
makes the sounds, a text editor the subtitles and PIL the bonus gallery; each reads
back as written, level.glb follows, untouched files stay byte-identical,
edited.iso passes gcfs verify and mounts read-only with the same files, gcfs
pack gives the same bytes, a refused edit keeps the previous content, and a
daemon killed mid-save leaves old or new content, never a mix.
Usage: edits.py GCFS WORK   (run with Debian's python3: it needs PIL)"""
import hashlib
import json
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

from PIL import Image

gcfs, work = sys.argv[1:]
failures = []


def check(name, ok, detail=""):
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else ": " + str(detail)))
    if not ok:
        failures.append(name)


class Mount:
    def __init__(self, image, *options):
        self.mnt = tempfile.mkdtemp(dir=work, prefix="ed-mnt-")
        self.log = open(self.mnt + ".log", "w+")
        args = [gcfs, "mount", "-f", image, self.mnt, "-o", "noindex"]
        for o in options:
            args += ["-o", o]
        self.proc = subprocess.Popen(args, stderr=self.log)
        for _ in range(200):
            if os.path.ismount(self.mnt) or self.proc.poll() is not None:
                break
            time.sleep(0.05)

    def path(self, rel):
        return os.path.join(self.mnt, rel)

    def read(self, rel):
        with open(self.path(rel), "rb") as f:
            return f.read()

    def close(self):
        subprocess.run(["fusermount3", "-u", self.mnt], check=False)
        self.proc.wait()
        self.log.seek(0)
        return self.log.read()


def pixels(path):
    return list(Image.open(path).convert("RGBA").getdata())


def digest_tree(root, sub):
    out = {}
    for d, _, files in os.walk(os.path.join(root, sub)):
        for f in files:
            p = os.path.join(d, f)
            if os.path.islink(p) or f == "stats":
                continue
            out[os.path.relpath(p, root)] = hashlib.md5(open(p, "rb").read()).hexdigest()
    return out


def glb_json(data):
    length = struct.unpack_from("<I", data, 12)[0]
    return json.loads(data[20:20 + length])


image = os.path.join(work, "ed-disc.iso")
subprocess.run([gcfs, "mkdisc", image, "--levels", "3", "--seed", "5"], check=True, stdout=subprocess.DEVNULL)
original = open(image, "rb").read()
plain = Mount(image)
edits = os.path.join(work, "ed-edits")
shutil.rmtree(edits, ignore_errors=True)

# ---- an empty edits folder: edited.iso is the image, byte for byte
m = Mount(image, "edits=" + edits)
check("an empty edits folder gives an edited.iso equal to the image",
      subprocess.run(["cmp", m.path("edited.iso"), image]).returncode == 0)
check(".gcfs/edits says there are none", "no edits" in m.read(".gcfs/edits").decode())

# ---- a texture painted with PIL in colours of its own palette, copied over: pixel-equal
tex = "LEVEL00/textures/tfrag_001.png"
im = Image.open(m.path(tex)).convert("RGBA")
px = im.load()
colour = px[0, 0]
for x in range(im.size[0]):
    px[x, 1] = colour
im.save(os.path.join(work, "ed-a.png"))
rc = subprocess.run(["cp", os.path.join(work, "ed-a.png"), m.path(tex)]).returncode
check("cp of a PIL picture over a texture succeeds", rc == 0)
check("the texture reads back pixel-equal", pixels(m.path(tex)) == pixels(os.path.join(work, "ed-a.png")))
check("pngcheck accepts the texture", subprocess.run(["pngcheck", "-q", m.path(tex)]).returncode == 0)
check(".gcfs/edits lists it applied, in its palette", "applied  " + tex + "  every colour is in the texture's palette" in m.read(".gcfs/edits").decode())

# ---- ImageMagick, saved as GIMP does: a temporary in the folder renamed over the texture
tex2 = "LEVEL00/textures/moby_000.png"
flipped = os.path.join(work, "ed-flip.png")
subprocess.run(["convert", m.path(tex2), "-flip", "PNG32:" + flipped], check=True)
temporary = m.path("LEVEL00/textures/.gimp-save.tmp")
shutil.copyfile(flipped, temporary)
check("the editor's temporary is listed in the folder", ".gimp-save.tmp" in os.listdir(m.path("LEVEL00/textures")))
os.rename(temporary, m.path(tex2))
check("a rename over the texture applies it", pixels(m.path(tex2)) == pixels(flipped))
check("the temporary is gone after the rename", ".gimp-save.tmp" not in os.listdir(m.path("LEVEL00/textures")))
check("no temporary name reached the edits folder's files", not any(
    ".gimp" in f for _, _, fs in os.walk(os.path.join(edits, "files")) for f in fs))

# ---- colours that are not in the palette: the status says how they were placed
tex3 = "LEVEL00/textures/tie_001.png"
im = Image.open(m.path(tex3)).convert("RGBA")
for x in range(im.size[0]):
    im.putpixel((x, 0), (7, 200, 9, 255))
im.save(os.path.join(work, "ed-new.png"))
shutil.copyfile(os.path.join(work, "ed-new.png"), m.path(tex3))
status = [l for l in m.read(".gcfs/edits").decode().splitlines() if tex3 in l]
check("a picture with new colours is applied and says how", status and "applied" in status[0]
      and ("new palette" in status[0] or "nearest" in status[0]), status)
if status and "new palette" in status[0]:
    check("with a palette of its own, the new colours read back exactly", pixels(m.path(tex3)) == pixels(os.path.join(work, "ed-new.png")))

# ---- sed -i moves a moby; level.glb places it there
rows = m.read("LEVEL00/gameplay/mobies.csv").decode().splitlines()
header = rows[0].split(",")
first = rows[1].split(",")
uid, o_class, x_col = first[header.index("uid")], first[header.index("class")], header.index("pos_x")
new_x = "123.25"
edited_row = ",".join(first[:x_col] + [new_x] + first[x_col + 1:])
rc = subprocess.run(["sed", "-i", "2s/.*/%s/" % edited_row, m.path("LEVEL00/gameplay/mobies.csv")]).returncode
check("sed -i on mobies.csv succeeds", rc == 0)
check("mobies.csv reads back as written", m.read("LEVEL00/gameplay/mobies.csv").decode().splitlines()[1] == edited_row)
check("every other row of mobies.csv is unchanged", m.read("LEVEL00/gameplay/mobies.csv").decode().splitlines()[2:] == rows[2:])
scene = glb_json(m.read("LEVEL00/level.glb"))
node = [n for n in scene["nodes"] if n.get("name") == "moby_%s_%s" % (uid, o_class)]
position = (node[0].get("translation") or node[0].get("matrix", [0] * 16)[12:15]) if node else None
check("level.glb places the moved moby at its new x", position and abs(position[0] - 123.25) < 1e-4, position)
check("level.glb's size at stat is its length", os.stat(m.path("LEVEL00/level.glb")).st_size == len(m.read("LEVEL00/level.glb")))
# The edited texture is the one level.glb embeds.
glb = m.read("LEVEL00/level.glb")
check("level.glb embeds the edited texture's PNG", m.read(tex) in glb)

# ---- a help text changed with cp; grep finds it
help_path = "LEVEL00/gameplay/help/us_english.txt"
lines = m.read(help_path).decode().splitlines()
new_first = lines[0].split("\t")[0] + "\tA modder's own words"
with open(os.path.join(work, "ed-help.txt"), "w") as f:
    f.write("\n".join([new_first] + lines[1:]) + "\n")
check("cp of a help text succeeds", subprocess.run(["cp", os.path.join(work, "ed-help.txt"), m.path(help_path)]).returncode == 0)
check("the help text reads back as written", m.read(help_path) == open(os.path.join(work, "ed-help.txt"), "rb").read())
check("grep -r finds the new words", subprocess.run(["grep", "-rqF", "A modder's own words", m.path("LEVEL00/gameplay/help")]).returncode == 0)

# ---- sounds (issue 41): a tone made by ffmpeg over a level sound and a vendor line
def pcm(data):
    import wave, io
    w = wave.open(io.BytesIO(data))
    return list(struct.unpack("<%dh" % w.getnframes(), w.readframes(w.getnframes())))


tone = os.path.join(work, "ed-tone.wav")
subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1.2:sample_rate=22050", "-ac", "1", tone],
               check=True)
sound = "LEVEL00/audio/sfx_001"
check("cp of an ffmpeg tone over a level sound succeeds", subprocess.run(["cp", tone, m.path(sound + ".wav")]).returncode == 0)
written, heard = pcm(open(tone, "rb").read()), pcm(m.read(sound + ".wav"))
n = len(written)
noise = sum((a - b) ** 2 for a, b in zip(written, heard[:n]))
snr = 10 * __import__("math").log10(sum(a * a for a in written) / max(noise, 1))
check("the sound reads back with SNR >= 30 dB against what was written", len(heard) >= n and snr >= 30, "%.1f dB" % snr)
theirs = subprocess.run(["ffmpeg", "-loglevel", "error", "-i", m.path(sound + ".vag"), "-f", "s16le", "-"], capture_output=True).stdout
theirs = list(struct.unpack("<%dh" % (len(theirs) // 2), theirs))
check("ffmpeg's adpcm_psx decode of the new .vag equals gcfs's .wav sample for sample", theirs[:len(heard)] == heard)
looped = m.read("LEVEL00/audio/sfx_002.wav")  # the builder's looping sound (its smpl loop from the frame flags)
with open(os.path.join(work, "ed-loop.wav"), "wb") as f:
    f.write(looped)
shutil.copyfile(os.path.join(work, "ed-loop.wav"), m.path("LEVEL00/audio/sfx_007.wav"))
row = lambda name: [r for r in m.read("LEVEL00/audio/audio.csv").decode().splitlines() if r.startswith(name + ",")][0].split(",")
check("a WAV's smpl loop survives as the loop flags (audio.csv's loop column)", row("sfx_007")[9] == row("sfx_002")[9] != "", (row("sfx_007"), row("sfx_002")))
check("...and the WAV reads back the same bytes", m.read("LEVEL00/audio/sfx_007.wav") == looped)
vag = m.read("LEVEL00/audio/sfx_000.vag")
with open(os.path.join(work, "ed-sound.vag"), "wb") as f:
    f.write(vag)
check("a .vag written over another slot is stored as written", subprocess.run(["cp", os.path.join(work, "ed-sound.vag"), m.path("LEVEL00/audio/sfx_000.vag")]).returncode == 0
      and m.read("LEVEL00/audio/sfx_000.vag") == vag)
with open(os.path.join(work, "ed-bad.vag"), "wb") as f:
    f.write(b"VAGp" + bytes(60))
check("a .vag that is not one is refused", subprocess.run(["cp", os.path.join(work, "ed-bad.vag"), m.path("LEVEL00/audio/sfx_000.vag")],
                                                           capture_output=True).returncode != 0 and m.read("LEVEL00/audio/sfx_000.vag") == vag)
stereo = os.path.join(work, "ed-stereo.wav")
subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=0.5:sample_rate=44100", "-ac", "2",
                "-c:a", "pcm_f32le", stereo], check=True)
check("a stereo float WAV over a vendor line is mixed down and says so", subprocess.run(["cp", stereo, m.path("global/audio/vendor/000.wav")]).returncode == 0
      and "mixed down to mono" in m.read(".gcfs/edits").decode())
fast = os.path.join(work, "ed-fast.wav")
subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=0.2:sample_rate=96000", fast], check=True)
r = subprocess.run(["cp", fast, m.path("LEVEL00/audio/sfx_000.wav")], capture_output=True, text=True)
check("a 96 kHz WAV is refused with the reason", r.returncode != 0 and "96000 Hz" in m.read(".gcfs/edits").decode(), r.stderr)

# ---- subtitles (issue 41): an .srt edited with a text editor, an unencodable character refused
srt = "global/mpeg/00.fr.srt"
before_srt = m.read(srt).decode()
english = m.read("global/mpeg/00.en.srt")
cue_text = before_srt.split("\n")[6]
edited_srt = before_srt.replace(cue_text, "Ça, c'est écrit à la main !", 1)
with open(os.path.join(work, "ed-fr.srt"), "w") as f:
    f.write(edited_srt)
check("cp of an edited .srt succeeds", subprocess.run(["cp", os.path.join(work, "ed-fr.srt"), m.path(srt)]).returncode == 0)
check("the .srt reads back as written", m.read(srt).decode() == edited_srt)
check("the other languages keep their subtitles", m.read("global/mpeg/00.en.srt") == english)
r = subprocess.run(["sed", "-i", "s/Ça/☃ Ça/", m.path(srt)], capture_output=True, text=True)
refusal = [l for l in m.read(".gcfs/edits").decode().splitlines() if l.startswith("refused  " + srt)]
check("an unencodable character is refused, naming it with its line and column",
      r.returncode != 0 and refusal and "U+2603" in refusal[0] and "line 7, column 1" in refusal[0], (r.stderr, refusal))
check("the .srt keeps its applied content", m.read(srt).decode() == edited_srt)

# ---- the bonus gallery (issue 41): pictures painted by PIL, in 8-bit and 4-bit PIFs and an RGBA image
import csv as csv_module
gallery = list(csv_module.DictReader(open(m.path("global/bonus/bonus.csv"))))
picks = {}
for row_ in gallery:
    kind = "8" if "8-bit" in row_["format"] else "4" if "4-bit" in row_["format"] else "rgba" if row_["kind"].startswith("RGBA") else None
    if kind and row_["status"] == "ok" and kind not in picks:
        picks[kind] = "global/bonus/" + row_["file"]
check("the gallery has an 8-bit, a 4-bit and an RGBA picture to paint", sorted(picks) == ["4", "8", "rgba"], picks)
for kind, rel in sorted(picks.items()):
    im = Image.open(m.path(rel)).convert("RGBA")
    px = im.load()
    for x in range(im.size[0]):
        px[x, 0] = px[0, im.size[1] - 1] if kind != "rgba" else (12, 34, 56, 255)
    painted = os.path.join(work, "ed-bonus-%s.png" % kind)
    im.save(painted)
    ok = subprocess.run(["cp", painted, m.path(rel)]).returncode == 0
    check("a bonus picture (%s) painted by PIL reads back pixel-equal" % kind, ok and pixels(m.path(rel)) == pixels(painted))
    check("pngcheck accepts it (%s)" % kind, subprocess.run(["pngcheck", "-q", m.path(rel)]).returncode == 0)

# ---- the MISC WAD's font and the HUD's pictures (PIL) and a HUD vendor line (ffmpeg's tone)
import glob
armor_texture = "global/armor/textures/" + sorted(os.listdir(m.path("global/armor/textures")))[0]
for rel in ["global/misc/debug_font.png", armor_texture] + sorted(os.path.relpath(p, m.mnt) for p in glob.glob(m.path("global/hud/*/*.png")))[:1]:
    im = Image.open(m.path(rel)).convert("RGBA")
    px = im.load()
    for x in range(im.size[0]):
        px[x, 0] = px[0, im.size[1] - 1]
    painted = os.path.join(work, "ed-global.png")
    im.save(painted)
    check("%s painted by PIL reads back pixel-equal" % rel, subprocess.run(["cp", painted, m.path(rel)]).returncode == 0
          and pixels(m.path(rel)) == pixels(painted))
    picks[rel] = rel
model = armor_texture.rsplit("/", 1)[1].rsplit("_", 1)[0]
check("the armor's glb embeds the edited texture", m.read(armor_texture) in m.read("global/armor/%s.glb" % model))
hud_sound = sorted(os.path.relpath(p, m.mnt) for p in glob.glob(m.path("global/hud/vendor_audio/*.wav")))[-1]
check("an ffmpeg tone over %s reads back as the same tone over a level sound does" % hud_sound, subprocess.run(["cp", tone, m.path(hud_sound)]).returncode == 0
      and pcm(m.read(hud_sound))[:100] == pcm(m.read(sound + ".wav"))[:100])
picks[hud_sound] = hud_sound

# ---- a refused edit: the close fails, the reason names line and column, the content stays
before = m.read("LEVEL00/gameplay/cameras.csv")
bad = before.decode().splitlines()
cells = bad[1].split(",")
cells[2] = "not-a-number"
bad[1] = ",".join(cells)
with open(os.path.join(work, "ed-bad.csv"), "w") as f:
    f.write("\n".join(bad) + "\n")
rc = subprocess.run(["cp", os.path.join(work, "ed-bad.csv"), m.path("LEVEL00/gameplay/cameras.csv")], capture_output=True, text=True)
check("cp of an unencodable CSV fails at close (EINVAL)", rc.returncode != 0 and "Invalid argument" in rc.stderr, rc.stderr)
check("the CSV keeps its previous content", m.read("LEVEL00/gameplay/cameras.csv") == before)
refusal = [l for l in m.read(".gcfs/edits").decode().splitlines() if "cameras.csv" in l]
check(".gcfs/edits lists it refused with line and column", refusal and refusal[0].startswith("refused") and "line 2, column 3" in refusal[0], refusal)
check("a picture of another size is refused", subprocess.run(["cp", os.path.join(work, "ed-flip.png"), m.path("LEVEL00/textures/tfrag_000.png")],
                                                              capture_output=True).returncode != 0 if Image.open(flipped).size != Image.open(m.path("LEVEL00/textures/tfrag_000.png")).size else True)

# ---- untouched levels and globals are byte-identical to a plain mount
for sub in ("LEVEL02", "global/armor/low", "LEVEL01/audio", "disc/SYSTEM.CNF"):
    check("%s is byte-identical to a plain mount" % sub, digest_tree(m.mnt, sub) == digest_tree(plain.mnt, sub))

# ---- edited.iso: verify passes, a read-only mount shows the same files, pack gives the same bytes
edited = os.path.join(work, "ed-edited.iso")
shutil.copyfile(m.path("edited.iso"), edited)
check("edited.iso's size at stat is its length", os.path.getsize(edited) == os.stat(m.path("edited.iso")).st_size)
check("gcfs verify passes edited.iso", subprocess.run([gcfs, "verify", edited], stdout=subprocess.DEVNULL).returncode == 0)
check("the image itself is unchanged", open(image, "rb").read() == original)
ro = Mount(edited)
for rel in (tex, tex2, tex3, "LEVEL00/gameplay/mobies.csv", help_path, "LEVEL00/level.glb", "LEVEL00/core_data.bin",
            sound + ".wav", "global/audio/vendor/000.wav", srt) + tuple(picks.values()):
    check("edited.iso mounted read-only shows %s as edited" % rel, ro.read(rel) == m.read(rel))
ro.close()
packed = os.path.join(work, "ed-packed.iso")
r = subprocess.run([gcfs, "pack", image, edits, packed], capture_output=True, text=True)
check("gcfs pack is refused while a mount holds the folder, naming its pid (exit 9)", r.returncode == 9 and "pid %d" % m.proc.pid in r.stderr, r.stderr)
m.close()
check("gcfs pack gives the bytes of edited.iso", subprocess.run([gcfs, "pack", image, edits, packed]).returncode == 0
      and open(packed, "rb").read() == open(edited, "rb").read())
check("gcfs pack leaves no temporary beside its output", sorted(f for f in os.listdir(work) if f.startswith("ed-packed")) == ["ed-packed.iso"])
m = Mount(image, "edits=" + edits)
listing = subprocess.run([gcfs, "edits", edits], capture_output=True, text=True).stdout
check("gcfs edits lists every edit without mounting", all(p in listing for p in (tex, tex2, "mobies.csv", help_path, "cameras.csv", sound, srt)))

# ---- rm of an edited file takes the edit back
os.unlink(m.path(tex3))
check("rm of an edited texture shows the disc's texture again", m.read(tex3) == plain.read(tex3))
check("rm of a file never edited is refused", subprocess.run(["rm", "-f", m.path("LEVEL00/textures/fx_000.png")], capture_output=True).returncode != 0)
m.close()

# ---- the same folder again shows the same edits; another image's folder is refused
m = Mount(image, "edits=" + edits)
check("a second mount with the same folder shows the edits", m.read(tex) == open(os.path.join(work, "ed-a.png"), "rb").read() or
      pixels(m.path(tex)) == pixels(os.path.join(work, "ed-a.png")))
check("...and the moved moby", m.read("LEVEL00/gameplay/mobies.csv").decode().splitlines()[1] == edited_row)
m.close()
other = os.path.join(work, "ed-other.iso")
subprocess.run([gcfs, "mkdisc", other, "--levels", "3", "--seed", "6"], check=True, stdout=subprocess.DEVNULL)
r = subprocess.run([gcfs, "mount", other, tempfile.mkdtemp(dir=work), "-o", "edits=" + edits], capture_output=True, text=True)
check("an edits folder made for another image is refused with a clear line", r.returncode != 0 and "another image" in r.stderr, r.stderr)

# ---- crash safety: states a crash can leave, then a real kill -9 during saves
journal = os.path.join(edits, "journal.json")
stored = os.path.join(edits, "files", help_path)
with open(stored + ".gcfs-new", "wb") as f:  # crashed before its journal commit
    f.write(b"half written")
m = Mount(image, "edits=" + edits)
check("a new file whose journal entry was never committed is dropped: the old content shows",
      m.read(help_path) == open(os.path.join(work, "ed-help.txt"), "rb").read() and not os.path.exists(stored + ".gcfs-new"))
m.close()
versions = []
for i in range(30):
    lines[0] = lines[0].split("\t")[0] + "\tSaved version %d" % i
    versions.append(("\n".join(lines) + "\n").encode())
m = Mount(image, "edits=" + edits)
sources = []
for i, v in enumerate(versions):
    sources.append(os.path.join(work, "ed-v%d.txt" % i))
    open(sources[-1], "wb").write(v)
writer = subprocess.Popen(["bash", "-c", 'for f in "${@:2}"; do cp "$f" "$1" || break; done', "writer", m.path(help_path)] + sources,
                          stderr=subprocess.DEVNULL)
time.sleep(random.uniform(0.05, 0.4))
m.proc.send_signal(signal.SIGKILL)
m.proc.wait()
writer.kill()
writer.wait()
subprocess.run(["fusermount3", "-u", "-z", m.mnt])  # lazily: the dead connection may still be busy a moment
m = Mount(image, "edits=" + edits)
now = m.read(help_path)
check("after kill -9 mid-save the help text is one whole saved version", now in versions + [open(os.path.join(work, "ed-help.txt"), "rb").read()],
      now[:80])
check("after kill -9 the journal parses", json.load(open(journal))["gcfs_edits"] == 1)
m.close()
plain.close()
print("edits: %d checks failed" % len(failures) if failures else "edits: all passed")
sys.exit(1 if failures else 0)
