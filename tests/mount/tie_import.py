"""A tie class from a model file (issue 55): a generated icosphere OBJ with
two of the level's tie textures copied over LEVEL00/ties/tie_500.obj from the
disc's own folder with relative paths; it reads back from the mount and from
a read-only mount of edited.iso as the same triangles (every corner within
half a quantum, scale / 2048, formats-tie-sky.md A.5; every UV within half
of 1/4096), each with its texture; ties.csv reads the class whole, and in
level.glb every instance of the class shows the new mesh. A glTF binary
with a packed new picture over tie_501.obj adds a row to the tie table. A
70,000-triangle sphere is refused with the packets it needs; gcfs verify
passes edited.iso.
Usage: tie_import.py GCFS WORK"""
import io
import math
import os
import shutil
import subprocess
import sys

from PIL import Image

import gcfs_mount
from class_obj import class_row, instance_meshes, parse, same_triangles
from packed_glb import packed_glb

gcfs, work = sys.argv[1:]
work = gcfs_mount.fresh_folder(work, "tie")
check = gcfs_mount.Checks()
CLASS = "LEVEL00/ties/tie_500.obj"



def icosphere(subdivisions, radius=2.5, centre=(0.5, 2.5, -0.25)):
    """An icosphere (y up): positions, UVs from longitude and latitude, triangles counter-clockwise seen from outside."""
    t = (1 + 5 ** 0.5) / 2
    points = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t), (0, 1, -t), (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    points = [tuple(c / math.sqrt(sum(d * d for d in p)) for c in p) for p in points]
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2), (10, 7, 6), (7, 1, 8),
             (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    for _ in range(subdivisions):
        middle, split = {}, []

        def mid(a, b):
            key = (min(a, b), max(a, b))
            if key not in middle:
                p = [(x + y) / 2 for x, y in zip(points[a], points[b])]
                n = math.sqrt(sum(c * c for c in p))
                points.append(tuple(c / n for c in p))
                middle[key] = len(points) - 1
            return middle[key]
        for a, b, c in faces:
            ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
            split += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        faces = split
    positions = [tuple(centre[k] + radius * p[k] for k in range(3)) for p in points]
    uvs = [(0.5 + math.atan2(p[2], p[0]) / (2 * math.pi), 0.5 + math.asin(max(-1, min(1, p[1]))) / math.pi) for p in points]
    return positions, uvs, faces


def sphere_obj(positions, uvs, faces):
    lines = ["mtllib ties.mtl", "o sphere"]
    lines += ["v %r %r %r" % p for p in positions]
    lines += ["vt %r %r" % uv for uv in uvs]
    for material in ("tie_000", "tie_001"):
        lines.append("usemtl " + material)
        for f in faces:
            upper = sum(positions[i][1] for i in f) / 3 > 2.5
            if (material == "tie_001") == upper:
                lines.append("f " + " ".join("%d/%d" % (i + 1, i + 1) for i in f))
    return "\n".join(lines) + "\n"



image = os.path.join(work, "disc.iso")
subprocess.run([gcfs, "mkdisc", image, "--levels", "2", "--seed", "11"], check=True, stdout=subprocess.DEVNULL)
os.makedirs(os.path.join(work, "mnt"))
m = gcfs_mount.Mount(gcfs, "disc.iso", ["edits=edits"], work, cwd=work, mnt="mnt")
before_glb = m.read("LEVEL00/level.glb")
before_shown = instance_meshes(before_glb, "tie_500")

# ---- a generated icosphere, cp'd from the disc's folder with relative paths
positions, uvs, faces = icosphere(3)
written = sphere_obj(positions, uvs, faces)
open(os.path.join(work, "sphere.obj"), "w").write(written)
copied = subprocess.run(["cp", "sphere.obj", "mnt/" + CLASS], cwd=work, capture_output=True, text=True)
status = os.getxattr(m.path(CLASS), "user.gcfs.edit").decode()
check("cp sphere.obj over ties/tie_500.obj (relative paths) succeeds, its status counting the triangles",
      copied.returncode == 0 and status.split(": ", 1)[-1].startswith("%d / " % len(faces)) and "2 texture slots" in status, status + copied.stderr)
got, scale = parse(m.read(CLASS).decode())
want = parse(written)[0]
problem = same_triangles(got, want, scale / 1024 if scale else 1)
check("tie_500.obj reads back the sphere: every corner within half a quantum (scale %s / 2048), every UV within 1/8192, each texture as written"
      % scale, not problem and scale and scale * 32767 / 1024 >= 4.99, problem)
row = class_row(m, "tie", 500)
check("ties.csv reads the new class whole: ok, LOD 1 and 2 smaller, the two textures", row["status"] == "ok" and int(row["lod0_triangles"]) == len(faces)
      and int(row["lod2_triangles"]) <= int(row["lod1_triangles"]) < len(faces) and row["materials"] == "tie_000 tie_001", row)
glb = m.read("LEVEL00/level.glb")
glb_copy = os.path.join(work, "level.glb")
open(glb_copy, "wb").write(glb)
info = subprocess.run(["assimp", "info", glb_copy], capture_output=True, text=True)
shown = instance_meshes(glb, "tie_500")
check("level.glb follows: assimp reads it, and every instance of the class shows one mesh of the sphere's %d triangles" % len(faces),
      info.returncode == 0 and len(shown) == 1 and next(iter(shown))[1] == 3 * len(faces) and shown != before_shown,
      (shown, before_shown, info.stderr[-300:]))

# ---- a glTF binary whose material packs a new picture, over another class
picture = Image.new("RGBA", (16, 16))
for y in range(16):
    for x in range(16):
        picture.putpixel((x, y), (15 * x, 15 * y, 100, 255))
packed = io.BytesIO()
picture.save(packed, "PNG")
rows = len([n for n in os.listdir(m.path("LEVEL00/textures")) if n.startswith("tie_")])
small = icosphere(1)
open(os.path.join(work, "painted.glb"), "wb").write(packed_glb(small[0], small[1], [[i for f in small[2] for i in f]], [packed.getvalue()], "painted"))
copied = subprocess.run(["cp", "painted.glb", "mnt/LEVEL00/ties/tie_501.obj"], cwd=work, capture_output=True, text=True)
status = os.getxattr(m.path("LEVEL00/ties/tie_501.obj"), "user.gcfs.edit").decode()
new_row = "tie_%03d" % rows
check("a .glb with a packed picture over tie_501.obj is taken, the picture added to the tie table", copied.returncode == 0 and "1 added" in status, status)
check("tie_501.obj names the new row, whose PNG reads back as the picture",
      set(mat for mat, _ in parse(m.read("LEVEL00/ties/tie_501.obj").decode())[0]) == {new_row} and
      list(Image.open(io.BytesIO(m.read("LEVEL00/textures/%s.png" % new_row))).convert("RGBA").getdata()) == list(picture.getdata()))
check("tie_500.obj still reads the sphere after the core grew", not same_triangles(parse(m.read(CLASS).decode())[0], want, scale / 1024))

# ---- refused: 70,000 triangles (an icosphere of 81,920)
big = icosphere(6)
open(os.path.join(work, "big.obj"), "w").write(sphere_obj(*big))
copied = subprocess.run(["cp", "big.obj", "mnt/" + CLASS], cwd=work, capture_output=True, text=True)
status = os.getxattr(m.path(CLASS), "user.gcfs.edit").decode()
check("an 81,920-triangle sphere is refused with the packets it needs, and the class keeps its last edit",
      copied.returncode != 0 and "packets" in status and "at most 255" in status and not same_triangles(parse(m.read(CLASS).decode())[0], want, scale / 1024),
      status)

# ---- edited.iso: verified, and a read-only mount shows the edit
edited = os.path.join(work, "edited.iso")
shutil.copyfile(m.path("edited.iso"), edited)
check("gcfs verify passes edited.iso", subprocess.run([gcfs, "verify", edited], stdout=subprocess.DEVNULL).returncode == 0)
ro = gcfs_mount.Mount(gcfs, edited, [], work)
check("edited.iso mounted read-only shows both classes and the new texture",
      ro.read(CLASS) == m.read(CLASS) and ro.read("LEVEL00/ties/tie_501.obj") == m.read("LEVEL00/ties/tie_501.obj") and
      ro.read("LEVEL00/textures/%s.png" % new_row) == m.read("LEVEL00/textures/%s.png" % new_row))
ro.close()
m.close()
check.finish("tie import")
