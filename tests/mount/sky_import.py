"""The sky from a mesh (issue 56): a two-shell sky (a textured band with two
of the level's sky textures, and a gradient band whose vertex colours fade)
copied over LEVEL00/sky/sky.obj from the disc's own folder with relative
paths; it reads back from the mount and from a read-only mount of
edited.iso with the shells in the file's order, every corner within half a
quantum (1/2048 of a sky unit, formats-tie-sky.md B.7), every UV within half
of 1/4096, every gradient colour within 1/255, each face's texture as
written; the sky's textures read as before; level.glb follows; an object
mixing textured and untextured faces is refused with its name; a sky
texture saved flipped reads back pixel for pixel; a glTF binary whose
materials carry packed images (a new picture, added as a texture def that
reads back pixel for pixel, and a sky texture's own pixels, which reuse its
def) is taken, and one whose image's sides are not powers of two is refused;
gcfs verify passes edited.iso.
Usage: sky_import.py GCFS WORK"""
import io
import math
import os
import shutil
import subprocess
import sys

import gcfs_mount
from packed_glb import packed_glb

gcfs, work = sys.argv[1:]
work = gcfs_mount.fresh_folder(work, "sky")
check = gcfs_mount.Checks()
SKY = "LEVEL00/sky/sky.obj"



def parse(text):
    """An OBJ as [(object, [(material, ((position, uv, colour) x 3))])], in the file's object order."""
    positions, uvs, objects, material = [], [], [], ""
    for line in text.splitlines():
        part = line.split()
        if not part:
            continue
        if part[0] == "o":
            objects.append((part[1], []))
        elif part[0] == "v":
            values = list(map(float, part[1:]))
            positions.append((tuple(values[:3]), tuple(values[3:6]) if len(values) >= 6 else None))
        elif part[0] == "vt":
            uvs.append(tuple(map(float, part[1:3])))
        elif part[0] == "usemtl":
            material = part[1]
        elif part[0] == "f":
            corners = []
            for c in part[1:]:
                refs = c.split("/")
                p, colour = positions[int(refs[0]) - 1]
                corners.append((p, uvs[int(refs[1]) - 1] if len(refs) > 1 and refs[1] else None, colour))
            objects[-1][1].append((material, tuple(corners)))
    return objects


def close(a, b, tolerance):
    return a is None and b is None or a is not None and b is not None and all(abs(x - y) <= tolerance for x, y in zip(a, b))


def same_shells(got, want, colour_tolerance=1 / 255 + 1e-4):
    if len(got) != len(want):
        return "%d shells, %d written" % (len(got), len(want))
    for s, ((_, got_faces), (_, want_faces)) in enumerate(zip(got, want)):
        if len(got_faces) != len(want_faces):
            return "shell %d: %d faces, %d written" % (s, len(got_faces), len(want_faces))
        left = list(got_faces)
        for material, corners in want_faces:
            def matches(face):
                if face[0] != material:
                    return False
                for turn in range(3):  # the same winding, any first corner
                    turned = face[1][turn:] + face[1][:turn]
                    if all(close(g[0], w[0], 1 / 2048 + 1e-6) and close(g[1], w[1], 1 / 8192 + 1e-6) and
                           (w[2] is None or close(g[2], w[2], colour_tolerance)) for g, w in zip(turned, corners)):
                        return True
                return False
            match = next((f for f in left if matches(f)), None)
            if match is None:
                return "shell %d: no face like %s %s" % (s, material, corners)
            left.remove(match)
    return ""


def sky_obj(header):
    """Two shells (y up): a textured band of radius 20 (sky_002 below, sky_003 above) and a gradient band of radius 15, fading upwards."""
    lines, base = ["mtllib sky.mtl"], 1
    for shell in range(2):
        textured = shell == 0
        lines.append("o shell_%d" % shell)
        for r in range(3):
            for a in range(17):
                el, az, radius = 0.35 * r, 2 * math.pi * a / 16, 20.0 if textured else 15.0
                x, y, z = radius * math.cos(el) * math.cos(az), radius * math.cos(el) * math.sin(az), radius * math.sin(el)
                if textured:
                    lines.append("v %r %r %r" % (x, z, -y))
                    lines.append("vt %r %r" % (a / 16.0, 1 - r / 2.0))
                else:
                    alpha = 1.0 - 0.35 * r
                    lines.append("v %r %r %r %.4f %.4f %.4f" % (x, z, -y, header[0] / 255 * alpha, header[1] / 255 * alpha, header[2] / 255 * alpha))
        vt_base = 1
        for r in range(2):
            lines.append("usemtl sky_%03d" % (2 + r) if textured else "usemtl sky_gradient")
            for a in range(16):
                v = base + r * 17 + a
                quad = (v, v + 1, v + 18, v + 17)
                if textured:
                    t = [q - base + vt_base for q in quad]
                    lines.append("f %d/%d %d/%d %d/%d" % (quad[0], t[0], quad[1], t[1], quad[2], t[2]))
                    lines.append("f %d/%d %d/%d %d/%d" % (quad[0], t[0], quad[2], t[2], quad[3], t[3]))
                else:
                    lines.append("f %d %d %d" % (quad[0], quad[1], quad[2]))
                    lines.append("f %d %d %d" % (quad[0], quad[2], quad[3]))
        base += 51
    return "\n".join(lines) + "\n"


image = os.path.join(work, "disc.iso")
subprocess.run([gcfs, "mkdisc", image, "--levels", "2", "--seed", "11"], check=True, stdout=subprocess.DEVNULL)
os.makedirs(os.path.join(work, "mnt"))
m = gcfs_mount.Mount(gcfs, "disc.iso", ["edits=edits"], work, cwd=work, mnt="mnt")
before_glb = m.read("LEVEL00/level.glb")
textures = sorted(n for n in os.listdir(m.path("LEVEL00/sky")) if n.endswith(".png"))
textures_before = {n: m.read("LEVEL00/sky/" + n) for n in textures}
# The header colour, as the shown gradient shell's opaque vertices carry it (sky.obj: header x alpha).
shown_before = m.read(SKY).decode()
opaque = max((tuple(map(float, l.split()[4:7])) for l in shown_before.splitlines() if l.startswith("v ") and len(l.split()) >= 7), key=sum)
header = tuple(round(c * 255) for c in opaque)

wanted = sky_obj(header)
open(os.path.join(work, "two_shells.obj"), "w").write(wanted)
copied = subprocess.run(["cp", "two_shells.obj", "mnt/" + SKY], cwd=work, capture_output=True, text=True)
check("cp two_shells.obj over sky/sky.obj (relative paths) succeeds", copied.returncode == 0, copied.stderr)
status = os.getxattr(m.path(SKY), "user.gcfs.edit").decode()
check("the edit's status names a textured and a gradient shell, the textures kept",
      "2 shells (shell 0 textured, 64 faces" in status and "shell 1 gradient, 64 faces" in status and "textures" in status, status)
problem = same_shells(parse(m.read(SKY).decode()), parse(wanted))
check("sky.obj reads back both shells in order: corners within half a quantum, UVs, gradient colours within 1/255, each face's texture",
      not problem, problem)
check("the sky's textures read as before", all(m.read("LEVEL00/sky/" + n) == textures_before[n] for n in textures) and len(textures) >= 4)
glb = m.read("LEVEL00/level.glb")
glb_copy = os.path.join(work, "level.glb")
open(glb_copy, "wb").write(glb)
info = subprocess.run(["assimp", "info", glb_copy], capture_output=True, text=True)
check("level.glb follows (assimp reads it, and it changed)", info.returncode == 0 and glb != before_glb, info.stdout[-300:] + info.stderr[-300:])

# ---- gcfs's own sky.obj saved back unchanged: the same shells (its gradient vertices alone carry colours)
copy_back = m.read(SKY).decode()
open(os.path.join(work, "shown.obj"), "w").write(copy_back)
copied = subprocess.run(["cp", "shown.obj", "mnt/" + SKY], cwd=work, capture_output=True, text=True)
problem = same_shells(parse(m.read(SKY).decode()), parse(copy_back))
check("sky.obj as gcfs shows it, saved back, reads back the same", copied.returncode == 0 and not problem, problem or copied.stderr)

# ---- refused: an object mixing textured and untextured faces
bad = wanted.replace("usemtl sky_003", "usemtl sky_gradient")
open(os.path.join(work, "bad.obj"), "w").write(bad)
copied = subprocess.run(["cp", "bad.obj", "mnt/" + SKY], cwd=work, capture_output=True, text=True)
status = os.getxattr(m.path(SKY), "user.gcfs.edit").decode()
check("an object mixing textured and untextured faces is refused, named, and the file keeps its last edit",
      copied.returncode != 0 and "shell_0" in status and not same_shells(parse(m.read(SKY).decode()), parse(copy_back)), status)

# ---- a sky texture replaced: flipped in an image tool, the same colours, so every pixel reads back as saved
from PIL import Image  # noqa: E402 (Debian's python3-pil)
texture = "LEVEL00/sky/" + textures[2]
open(os.path.join(work, "sky_before.png"), "wb").write(m.read(texture))
Image.open(os.path.join(work, "sky_before.png")).transpose(Image.FLIP_TOP_BOTTOM).save(os.path.join(work, "sky_flipped.png"))
copied = subprocess.run(["cp", "sky_flipped.png", "mnt/" + texture], cwd=work, capture_output=True, text=True)
open(os.path.join(work, "sky_after.png"), "wb").write(m.read(texture))
after = Image.open(os.path.join(work, "sky_after.png")).convert("RGBA")
flipped = Image.open(os.path.join(work, "sky_flipped.png")).convert("RGBA")
check("a sky texture saved flipped (%s) reads back pixel for pixel" % textures[2],
      copied.returncode == 0 and list(after.getdata()) == list(flipped.getdata()) and list(after.getdata()) != list(Image.open(os.path.join(work, "sky_before.png")).convert("RGBA").getdata()),
      os.getxattr(m.path(texture), "user.gcfs.edit").decode())

# ---- a glTF binary whose two materials carry packed images: a new picture and sky texture 3's own pixels
def glb_band(images):
    """One band of radius 20 (y up): its lower row of quads takes material 0, its upper row material 1."""
    positions, uvs, rows = [], [], [[], []]
    for r in range(3):
        for a in range(17):
            el, az = 0.35 * r, 2 * math.pi * a / 16
            positions.append((20 * math.cos(el) * math.cos(az), 20 * math.sin(el), -20 * math.cos(el) * math.sin(az)))
            uvs.append((a / 16.0, r / 2.0))
    for r in range(2):
        for a in range(16):
            v = r * 17 + a
            rows[r] += [v, v + 1, v + 18, v, v + 18, v + 17]
    return packed_glb(positions, uvs, rows, images, "band")


new_def = "sky_%03d" % len(textures)
picture = Image.new("RGBA", (16, 8))
for y in range(8):
    for x in range(16):
        picture.putpixel((x, y), (16 * x, 32 * y, 128, 255))
packed = os.path.join(work, "picture.png")
picture.save(packed)
reused = m.read("LEVEL00/sky/" + textures[3])
open(os.path.join(work, "band.glb"), "wb").write(glb_band([open(packed, "rb").read(), reused]))
copied = subprocess.run(["cp", "band.glb", "mnt/" + SKY], cwd=work, capture_output=True, text=True)
status = os.getxattr(m.path(SKY), "user.gcfs.edit").decode()
check("a .glb with two packed images over sky.obj is taken: one the same as a sky texture, one added",
      copied.returncode == 0 and "2 images from the file: 1 the same as a sky texture, 1 added" in status, status)
materials = sorted(set(mat for _, faces in parse(m.read(SKY).decode()) for mat, _ in faces))
check("sky.obj's faces name the new def and the reused one", materials == sorted([new_def, textures[3][:-4]]), materials)
check("the new def's PNG reads back as the packed picture, pixel for pixel",
      list(Image.open(io.BytesIO(m.read("LEVEL00/sky/%s.png" % new_def))).convert("RGBA").getdata()) == list(picture.getdata()))
odd = os.path.join(work, "odd.png")
picture.resize((24, 8)).save(odd)
open(os.path.join(work, "odd.glb"), "wb").write(glb_band([open(odd, "rb").read(), reused]))
copied = subprocess.run(["cp", "odd.glb", "mnt/" + SKY], cwd=work, capture_output=True, text=True)
status = os.getxattr(m.path(SKY), "user.gcfs.edit").decode()
check("an image whose sides are not powers of two is refused with its size", copied.returncode != 0 and "24x8" in status and "powers of two" in status,
      status)

# ---- edited.iso: verified, and a read-only mount shows the edit
edited = os.path.join(work, "edited.iso")
shutil.copyfile(m.path("edited.iso"), edited)
check("gcfs verify passes edited.iso", subprocess.run([gcfs, "verify", edited], stdout=subprocess.DEVNULL).returncode == 0)
ro = gcfs_mount.Mount(gcfs, edited, [], work)
check("edited.iso mounted read-only shows the new sky.obj and texture", ro.read(SKY) == m.read(SKY) and ro.read(texture) == m.read(texture))
ro.close()
m.close()
check.finish("sky import")
