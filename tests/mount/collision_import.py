"""Collision from a mesh (issue 56): a generated stepped mesh with two
surface types copied over LEVEL00/collision.obj from the disc's own folder
with relative paths, a 96x96 height field too large for the collision region
(the core grows), then that file through Blender (imported, raised a unit,
exported with its defaults); each reads back from the mount and from
a read-only mount of edited.iso, every corner within half a packed unit
(formats.md 8.3: x and y 1/16, z 1/64), every face's surface type and corner
count as written; collision.glb follows; a material that names no surface
type is refused with its name; gcfs verify passes edited.iso.
Usage: collision_import.py GCFS WORK BLENDER_SCRIPT"""
import math
import os
import re
import shutil
import subprocess
import sys

import gcfs_mount

gcfs, work, blender_script = sys.argv[1:]
work = gcfs_mount.fresh_folder(work, "collision")
check = gcfs_mount.Checks()
COLLISION = "LEVEL00/collision.obj"
HALF = (1 / 32, 1 / 32, 1 / 128)  # half of each packed unit, in world units



def faces_of(text):
    """The main mesh's faces of an OBJ (the `hero` objects left out) as (material, corners in the game's axes)."""
    positions, faces, material = [], [], ""
    for line in text.splitlines():
        part = line.split()
        if not part:
            continue
        if part[0] == "v":
            x, y, z = map(float, part[1:4])
            positions.append((x, -z, y))  # OBJ y up -> the game's z up (formats/export/axes.h)
        elif part[0] == "usemtl":
            material = part[1]
        elif part[0] == "f" and material != "hero":
            faces.append((material, [positions[int(c.split("/")[0]) - 1] for c in part[1:]]))
    return faces


def same_faces(got, want):
    """Every face of `want` in `got` (order free), corners in order within half a unit, the same material."""
    if len(got) != len(want):
        return "%d faces, %d written" % (len(got), len(want))
    left = list(got)
    for material, corners in want:
        match = next((g for g in left if g[0] == material and len(g[1]) == len(corners) and all(
            abs(a[i] - b[i]) <= HALF[i] + 1e-9 for a, b in zip(g[1], corners) for i in range(3))), None)
        if match is None:
            return "no face like %s %s" % (material, corners)
        left.remove(match)
    return ""


def stairs():
    """An OBJ (y up) of eight steps: treads as quads (col_1f), risers as two triangles (col_05)."""
    lines, n = ["o stairs"], 0
    for s in range(8):
        x, z = 2.3 + 1.5 * s, 1.1 + 0.75 * s
        corners = [(x, 3.2, z), (x + 1.5, 3.2, z), (x + 1.5, 9.2, z), (x, 9.2, z), (x + 1.5, 3.2, z + 0.75), (x + 1.5, 9.2, z + 0.75)]
        lines += ["v %r %r %r" % (cx, cz, -cy) for cx, cy, cz in corners]
        lines += ["usemtl col_1f", "f %d %d %d %d" % (n + 1, n + 2, n + 3, n + 4),
                  "usemtl col_05", "f %d %d %d" % (n + 2, n + 5, n + 6), "f %d %d %d" % (n + 2, n + 6, n + 3)]
        n += 6
    return "\n".join(lines) + "\n"


image = os.path.join(work, "disc.iso")
subprocess.run([gcfs, "mkdisc", image, "--levels", "2", "--seed", "11"], check=True, stdout=subprocess.DEVNULL)
os.makedirs(os.path.join(work, "mnt"))
m = gcfs_mount.Mount(gcfs, "disc.iso", ["edits=edits"], work, cwd=work, mnt="mnt")
before_glb = m.read("LEVEL00/collision.glb")

# ---- a generated mesh, cp'd from the disc's folder with relative paths
open(os.path.join(work, "stairs.obj"), "w").write(stairs())
copied = subprocess.run(["cp", "stairs.obj", "mnt/" + COLLISION], cwd=work, capture_output=True, text=True)
check("cp stairs.obj over collision.obj (relative paths) succeeds", copied.returncode == 0, copied.stderr)
status = os.getxattr(m.path(COLLISION), "user.gcfs.edit").decode()
check("the edit's status counts the faces and keeps the hero groups", "24 faces in" in status and "hero groups kept" in status, status)
shown = m.read(COLLISION).decode()
problem = same_faces(faces_of(shown), faces_of(stairs()))
check("collision.obj reads back the stairs: corners within half a unit, quads kept, each surface type as written", not problem, problem)
glb = m.read("LEVEL00/collision.glb")
glb_copy = os.path.join(work, "collision.glb")
open(glb_copy, "wb").write(glb)
info = subprocess.run(["assimp", "info", glb_copy], capture_output=True, text=True)
check("collision.glb follows (assimp reads it, and it changed)", info.returncode == 0 and glb != before_glb, info.stdout[-300:] + info.stderr[-300:])

# ---- a height field too large for the collision region: the core grows, and what follows it moves
def height_field(cells):
    """An OBJ (y up) of cells x cells unit quads over a wavy ground, two surface types by slope."""
    def height(i, j):
        return round(1.5 + math.sin(i / 5.0) + 0.5 * math.cos(j / 3.0), 4)
    lines = ["o ground"] + ["v %d %r %d" % (i, height(i, j), -j) for j in range(cells + 1) for i in range(cells + 1)]
    for material in ("col_1f", "col_0b"):
        lines.append("usemtl " + material)
        for j in range(cells):
            for i in range(cells):
                steep = abs(height(i + 1, j + 1) - height(i, j)) > 0.4
                if steep == (material == "col_0b"):
                    a = j * (cells + 1) + i + 1
                    lines.append("f %d %d %d %d" % (a, a + 1, a + cells + 2, a + cells + 1))
    return "\n".join(lines) + "\n"


ground = height_field(96)
open(os.path.join(work, "ground.obj"), "w").write(ground)
texture_before, ties_before = m.read("LEVEL00/textures/tfrag_000.png"), m.read("LEVEL00/ties/ties.csv")
copied = subprocess.run(["cp", "ground.obj", "mnt/" + COLLISION], cwd=work, capture_output=True, text=True)
status = os.getxattr(m.path(COLLISION), "user.gcfs.edit").decode()
check("a 96x96 height field past the collision region is applied by growing the core", copied.returncode == 0 and "grown by" in status, status)
shown = m.read(COLLISION).decode()
problem = same_faces(faces_of(shown), faces_of(ground))
check("collision.obj reads back the height field: corners within half a unit, each surface type as written", not problem, problem)
check("what the core's growth moved reads as before (a texture; the tie classes' rows but for their core offsets)",
      m.read("LEVEL00/textures/tfrag_000.png") == texture_before and
      re.sub(rb"0x[0-9a-f]+", b"", m.read("LEVEL00/ties/ties.csv")) == re.sub(rb"0x[0-9a-f]+", b"", ties_before))

# ---- through Blender: imported, raised a unit, exported with its defaults, cp'd back
open(os.path.join(work, "shown.obj"), "w").write(shown)
open(os.path.join(work, "collision.mtl"), "wb").write(m.read("LEVEL00/collision.mtl"))  # beside it, as its mtllib line names it
run = subprocess.run(["blender", "-b", "--python", blender_script, "--", "shown.obj", "raised.obj"], cwd=work, capture_output=True, text=True)
check("Blender imports collision.obj and exports it raised", run.returncode == 0 and "BLENDER exported" in run.stdout, run.stderr[-400:])
copied = subprocess.run(["cp", "raised.obj", "mnt/" + COLLISION], cwd=work, capture_output=True, text=True)
check("cp of Blender's export over collision.obj succeeds", copied.returncode == 0, copied.stderr)
raised = [(mat, [(x, y, z + 1) for x, y, z in corners]) for mat, corners in faces_of(shown)]
problem = same_faces(faces_of(m.read(COLLISION).decode()), raised)
check("collision.obj reads back one unit higher, the surface types and quads as Blender kept them", not problem, problem)

# ---- refused: a material that names no surface type
bad = stairs().replace("usemtl col_05", "usemtl grass")
open(os.path.join(work, "bad.obj"), "w").write(bad)
copied = subprocess.run(["cp", "bad.obj", "mnt/" + COLLISION], cwd=work, capture_output=True, text=True)
status = os.getxattr(m.path(COLLISION), "user.gcfs.edit").decode()
check("a material naming no surface type is refused, named, and the file keeps its last edit",
      copied.returncode != 0 and "grass" in status and not same_faces(faces_of(m.read(COLLISION).decode()), raised), status)

# ---- edited.iso: verified, and a read-only mount shows the edit
edited = os.path.join(work, "edited.iso")
shutil.copyfile(m.path("edited.iso"), edited)
check("gcfs verify passes edited.iso", subprocess.run([gcfs, "verify", edited], stdout=subprocess.DEVNULL).returncode == 0)
ro = gcfs_mount.Mount(gcfs, edited, [], work)
check("edited.iso mounted read-only shows the raised collision.obj", ro.read(COLLISION) == m.read(COLLISION))
ro.close()
m.close()
check.finish("collision import")
