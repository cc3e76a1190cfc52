"""Terrain from a mesh (issue 56): a generated 64x64 height field with vertex
colours and two tfrag textures copied over LEVEL00/tfrag/terrain.obj from the
disc's own folder with relative paths; it reads back from the mount and from
a read-only mount of edited.iso as the same triangles (every corner within
half a quantum, 1/2048 of a world unit, formats.md 7.6), each with its
texture, every colour within 1/255; preview.png shows the new ground (it
rises along x, so its right side is brighter); level.glb follows. Then the
terrain through Blender (imported, raised a unit, exported with defaults:
no colours, so the raised ground takes the PS2's neutral); a material that
names no tfrag texture is refused with its name. A glTF binary (written over
terrain.obj) whose two materials carry images packed in it: one a new
picture, added to the tfrag table (its PNG in textures/ reads back pixel
for pixel, terrain.mtl names it), the other the pixels of tfrag_001.png,
which reuses that row. gcfs verify passes edited.iso.
Usage: terrain_import.py GCFS WORK BLENDER_SCRIPT"""
import io
import math
import os
import shutil
import subprocess
import sys

from PIL import Image

import gcfs_mount
from packed_glb import packed_glb

gcfs, work, blender_script = sys.argv[1:]
work = gcfs_mount.fresh_folder(work, "terrain")
check = gcfs_mount.Checks()
TERRAIN = "LEVEL00/tfrag/terrain.obj"
HALF = 1 / 2048 + 1e-6  # half a quantum, and the OBJ's six decimals



def parse(text):
    """An OBJ's triangles as (material, three corners in the game's axes) and each vertex's colour, by its quantised position."""
    positions, colours, triangles, material = [], {}, [], ""
    for line in text.splitlines():
        part = line.split()
        if not part:
            continue
        if part[0] == "v":
            x, y, z = map(float, part[1:4])
            p = (x, -z, y)  # OBJ y up -> the game's z up (formats/export/axes.h)
            positions.append(p)
            if len(part) >= 7:
                colours[quantum(p)] = tuple(map(float, part[4:7]))
        elif part[0] == "usemtl":
            material = part[1]
        elif part[0] == "f":
            corners = [positions[int(c.split("/")[0]) - 1] for c in part[1:]]
            for k in range(1, len(corners) - 1):
                triangles.append((material, (corners[0], corners[k], corners[k + 1])))
    return triangles, colours


def quantum(p):
    return tuple(round(c * 1024) for c in p)


def oriented(corners):
    """The triangle's corners in quanta, turned so the smallest leads (the winding kept)."""
    q = [quantum(c) for c in corners]
    first = q.index(min(q))
    return tuple(q[first:] + q[:first])


def same_triangles(got, want):
    if len(got) != len(want):
        return "%d triangles, %d written" % (len(got), len(want))
    written = {}
    for material, corners in want:
        written.setdefault((material, oriented(corners)), []).append(corners)
    for material, corners in got:
        match = written.get((material, oriented(corners)))
        if not match:
            return "no written triangle like %s %s" % (material, corners)
        w = match.pop()
        if any(abs(a[i] - b[i]) > HALF for a, b in zip(sorted(corners), sorted(w)) for i in range(3)):
            return "%s is more than half a quantum from %s" % (corners, w)
    return ""


def height_field(cells):
    """An OBJ (y up) of cells x cells unit squares as triangles over ground that rises along x, with colours and UVs; bands of two textures."""
    def height(i, j):
        return 0.15 * i + 0.5 * math.sin(j / 4.0)
    lines = ["mtllib terrain.mtl", "o ground"]
    for j in range(cells + 1):
        for i in range(cells + 1):
            lines.append("v %r %r %r %.4f %.4f %.4f" % (4.0 + i, height(i, j), -(6.0 + j), i / cells, j / cells, 0.5))
    for j in range(cells + 1):
        for i in range(cells + 1):
            lines.append("vt %r %r" % (i / 16.0, 1 - j / 16.0))
    for j in range(cells):
        lines.append("usemtl tfrag_%03d" % (j // 8 % 2))
        for i in range(cells):
            a = j * (cells + 1) + i + 1
            b, d, e = a + 1, a + cells + 1, a + cells + 2
            lines.append("f %d/%d %d/%d %d/%d" % (a, a, b, b, e, e))
            lines.append("f %d/%d %d/%d %d/%d" % (a, a, e, e, d, d))
    return "\n".join(lines) + "\n"


def glb_ground(cells, images):
    """A glTF binary of a cells x cells height field (y up) with UVs; row band j // 4 % 2 takes material 0 or 1, each with its PNG packed in."""
    positions = [(2.0 + i, 0.25 * i + 0.1 * j, -(3.0 + j)) for j in range(cells + 1) for i in range(cells + 1)]
    uvs = [(i / 4.0, j / 4.0) for j in range(cells + 1) for i in range(cells + 1)]
    bands = [[], []]
    for j in range(cells):
        for i in range(cells):
            a = j * (cells + 1) + i
            bands[j // 4 % 2] += [a, a + cells + 2, a + 1, a, a + cells + 1, a + cells + 2]
    return packed_glb(positions, uvs, bands, images, "ground")


def sides(png):
    """The mean brightness of the preview's covered pixels in its left and right thirds."""
    picture = Image.open(io.BytesIO(png)).convert("RGBA")
    w, h = picture.size
    left, right = [], []
    for y in range(h):
        for x in list(range(w // 3)) + list(range(2 * w // 3, w)):
            r, g, b, a = picture.getpixel((x, y))
            if a:
                (left if x < w // 3 else right).append(r + g + b)
    return (sum(left) / max(1, len(left)), sum(right) / max(1, len(right)))


image = os.path.join(work, "disc.iso")
subprocess.run([gcfs, "mkdisc", image, "--levels", "2", "--seed", "11"], check=True, stdout=subprocess.DEVNULL)
os.makedirs(os.path.join(work, "mnt"))
m = gcfs_mount.Mount(gcfs, "disc.iso", ["edits=edits"], work, cwd=work, mnt="mnt")
before_glb, before_preview = m.read("LEVEL00/level.glb"), m.read("LEVEL00/preview.png")
texture_before = m.read("LEVEL00/textures/tfrag_000.png")

# ---- a generated height field, cp'd from the disc's folder with relative paths
ground = height_field(64)
open(os.path.join(work, "ground.obj"), "w").write(ground)
copied = subprocess.run(["cp", "ground.obj", "mnt/" + TERRAIN], cwd=work, capture_output=True, text=True)
check("cp ground.obj over tfrag/terrain.obj (relative paths) succeeds", copied.returncode == 0, copied.stderr)
status = os.getxattr(m.path(TERRAIN), "user.gcfs.edit").decode()
check("the edit's status counts the triangles and patches", ": 8192 triangles in " in status and "colours from the file" in status, status)
shown = m.read(TERRAIN).decode()
got, got_colours = parse(shown)
want, want_colours = parse(ground)
problem = same_triangles(got, want)
check("terrain.obj reads back the height field: every corner within half a quantum, each triangle's texture as written", not problem, problem)
off = [p for p, c in want_colours.items() if p not in got_colours or any(abs(a - b) > 1 / 255 for a, b in zip(got_colours[p], c))]
check("every vertex colour within 1/255", not off, off[:3])
check("a patch OBJ reads too (tfrag/patches.csv lists them, none rejected)",
      b"rejected" not in m.read("LEVEL00/tfrag/patches.csv") and m.read("LEVEL00/tfrag/patch_0000.obj").startswith(b"#"))
preview = m.read("LEVEL00/preview.png")
left, right = sides(preview)
check("preview.png shows the new ground: it changed, and its right side (higher x, higher ground) is brighter", preview != before_preview and right > left,
      (left, right))
glb = m.read("LEVEL00/level.glb")
glb_copy = os.path.join(work, "level.glb")
open(glb_copy, "wb").write(glb)
info = subprocess.run(["assimp", "info", glb_copy], capture_output=True, text=True)
check("level.glb follows (assimp reads it, and it changed)", info.returncode == 0 and glb != before_glb, info.stdout[-300:] + info.stderr[-300:])
check("a texture reads as before", m.read("LEVEL00/textures/tfrag_000.png") == texture_before)

# ---- through Blender: imported, raised a unit, exported with its defaults, cp'd back
open(os.path.join(work, "shown.obj"), "w").write(shown)
open(os.path.join(work, "terrain.mtl"), "wb").write(m.read("LEVEL00/tfrag/terrain.mtl"))
run = subprocess.run(["blender", "-b", "--python", blender_script, "--", "shown.obj", "raised.obj"], cwd=work, capture_output=True, text=True)
check("Blender imports terrain.obj and exports it raised", run.returncode == 0 and "BLENDER exported" in run.stdout, run.stderr[-400:])
copied = subprocess.run(["cp", "raised.obj", "mnt/" + TERRAIN], cwd=work, capture_output=True, text=True)
status = os.getxattr(m.path(TERRAIN), "user.gcfs.edit").decode()
check("cp of Blender's export over terrain.obj succeeds", copied.returncode == 0, status)
raised = [(mat, tuple((x, y, z + 1) for x, y, z in corners)) for mat, corners in got]
after, after_colours = parse(m.read(TERRAIN).decode())
problem = same_triangles(after, raised)
check("terrain.obj reads back one unit higher, each triangle's texture as Blender kept it", not problem, problem)
check("Blender wrote no colours, and no raised vertex lies on the old ground: each is the PS2's neutral 0x80",
      "colours from the file" not in status and all(abs(c - 0x80 / 255) < 0.001 for cs in after_colours.values() for c in cs), status)

# ---- refused: a material that names no tfrag texture
bad = ground.replace("usemtl tfrag_001", "usemtl grass")
open(os.path.join(work, "bad.obj"), "w").write(bad)
copied = subprocess.run(["cp", "bad.obj", "mnt/" + TERRAIN], cwd=work, capture_output=True, text=True)
status = os.getxattr(m.path(TERRAIN), "user.gcfs.edit").decode()
check("a material naming no tfrag texture is refused, named, and the file keeps its last edit",
      copied.returncode != 0 and "grass" in status and not same_triangles(parse(m.read(TERRAIN).decode())[0], raised), status)

# ---- a glTF binary whose materials carry images: one new, one a tfrag texture's own pixels
rows = len([n for n in os.listdir(m.path("LEVEL00/textures")) if n.startswith("tfrag_")])
new_row = "tfrag_%03d" % rows
picture = Image.new("RGBA", (32, 16))
for y in range(16):
    for x in range(32):
        picture.putpixel((x, y), (6 * ((x + y) % 40), 255 - 6 * ((x + y) % 40), 7 * (y % 3), 255))
packed = io.BytesIO()
picture.save(packed, "PNG")
existing = m.read("LEVEL00/textures/tfrag_001.png")
open(os.path.join(work, "painted.glb"), "wb").write(glb_ground(16, [packed.getvalue(), existing]))
copied = subprocess.run(["cp", "painted.glb", "mnt/" + TERRAIN], cwd=work, capture_output=True, text=True)
status = os.getxattr(m.path(TERRAIN), "user.gcfs.edit").decode()
check("a .glb with two packed images written over terrain.obj is taken: one image the same as a tfrag texture, one added",
      copied.returncode == 0 and "2 images from the file: 1 the same as a tfrag texture, 1 added" in status, status)
shown = m.read(TERRAIN).decode()
materials = sorted(set(mat for mat, _ in parse(shown)[0]))
check("terrain.obj's faces name the new row and tfrag_001", materials == sorted(["tfrag_001", new_row]), materials)
added = m.read("LEVEL00/textures/%s.png" % new_row)
check("the new row's PNG reads back as the packed picture, pixel for pixel",
      list(Image.open(io.BytesIO(added)).convert("RGBA").getdata()) == list(picture.getdata()))
check("terrain.mtl names the new row", ("newmtl %s\n" % new_row).encode() in m.read("LEVEL00/tfrag/terrain.mtl"))
check("tfrag_001.png is not added again", not os.path.exists(m.path("LEVEL00/textures/tfrag_%03d.png" % (rows + 1))))

# ---- edited.iso: verified, and a read-only mount shows the edit
edited = os.path.join(work, "edited.iso")
shutil.copyfile(m.path("edited.iso"), edited)
check("gcfs verify passes edited.iso", subprocess.run([gcfs, "verify", edited], stdout=subprocess.DEVNULL).returncode == 0)
ro = gcfs_mount.Mount(gcfs, edited, [], work)
check("edited.iso mounted read-only shows the last terrain.obj and its new texture",
      ro.read(TERRAIN) == m.read(TERRAIN) and ro.read("LEVEL00/textures/%s.png" % new_row) == added)
ro.close()
m.close()
check.finish("terrain import")
