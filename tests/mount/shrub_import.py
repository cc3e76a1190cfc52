"""A shrub class from a model file (issue 55): a cube made in Blender,
painted with a new picture and exported with the glTF exporter's defaults
(a .glb with the picture packed in), copied over LEVEL00/shrubs/shrub_700.obj
from the disc's own folder with relative paths. It reads back from the mount
and from a read-only mount of edited.iso as Blender's triangles (every
corner within half a quantum, scale / 2048, formats-shrub.md 1.6; every UV
within half of 1/4096; each facing the way Blender wound it), the picture
a new row of the shrub table whose PNG reads back within 1/255 a channel (48
colours: no quantisation), the billboard kept; shrubs.csv reads the class
whole and every instance in level.glb shows the cube; gcfs verify passes.
Usage: shrub_import.py GCFS WORK BLENDER_SCRIPT"""
import io
import os
import shutil
import subprocess
import sys

from PIL import Image

import gcfs_mount
from class_obj import class_row, instance_meshes, parse, same_triangles

gcfs, work, blender_script = sys.argv[1:]
work = gcfs_mount.fresh_folder(work, "shrub")
check = gcfs_mount.Checks()
CLASS = "LEVEL00/shrubs/shrub_700.obj"




image = os.path.join(work, "disc.iso")
subprocess.run([gcfs, "mkdisc", image, "--levels", "2", "--seed", "11"], check=True, stdout=subprocess.DEVNULL)
os.makedirs(os.path.join(work, "mnt"))
m = gcfs_mount.Mount(gcfs, "disc.iso", ["edits=edits"], work, cwd=work, mnt="mnt")
before_glb = m.read("LEVEL00/level.glb")
billboard = m.read("LEVEL00/shrubs/shrub_700_billboard.png")
rows = len([n for n in os.listdir(m.path("LEVEL00/textures")) if n.startswith("shrub_")])
new_row = "shrub_%03d" % rows

run = subprocess.run(["blender", "-b", "--python", blender_script, "--", "cube.glb", "cube.obj"], cwd=work, capture_output=True, text=True)
check("Blender makes a painted cube and exports it as .glb (defaults) and OBJ", run.returncode == 0 and "BLENDER exported" in run.stdout, run.stderr[-400:])
copied = subprocess.run(["cp", "cube.glb", "mnt/" + CLASS], cwd=work, capture_output=True, text=True)
status = os.getxattr(m.path(CLASS), "user.gcfs.edit").decode()
check("cp cube.glb over shrubs/shrub_700.obj (relative paths) succeeds: 12 triangles, the picture added to the shrub table",
      copied.returncode == 0 and ": 12 triangles in 1 packets" in status and "1 added" in status, status + copied.stderr)
got, scale = parse(m.read(CLASS).decode())
want = parse(open(os.path.join(work, "cube.obj")).read())[0]
problem = same_triangles(got, want, scale / 1024 if scale else 1, material=new_row)
check("shrub_700.obj reads back Blender's cube: every corner within half a quantum (scale %s / 2048), every UV within 1/8192, each wound as "
      "Blender wound it, the new row its texture" % scale, not problem, problem)
painted = Image.open(io.BytesIO(m.read("LEVEL00/textures/%s.png" % new_row))).convert("RGBA")
blender_pixels = []
for y in range(16):
    for x in range(16):
        c = (x // 2 + 8 * ((15 - y) // 6)) % 48  # Blender's pixels run bottom-up, a PNG's top-down
        blender_pixels.append((round(c / 47.0 * 255), round((1 - c / 47.0) * 255), round((c % 5) / 4.0 * 255), 255))
check("the new row's PNG is Blender's picture, every channel within 1/255 of its float pixels (48 colours: a palette of its own, nothing quantised)",
      painted.size == (16, 16) and all(max(abs(a - b) for a, b in zip(p, q)) <= 1 for p, q in zip(painted.getdata(), blender_pixels)),
      list(painted.getdata())[:4])
check("the billboard reads as before", m.read("LEVEL00/shrubs/shrub_700_billboard.png") == billboard)
row = class_row(m, "shrub", 700)
check("shrubs.csv reads the new class whole", row["status"] == "ok" and row["materials"] == new_row, row)
glb = m.read("LEVEL00/level.glb")
glb_copy = os.path.join(work, "level.glb")
open(glb_copy, "wb").write(glb)
info = subprocess.run(["assimp", "info", glb_copy], capture_output=True, text=True)
shown = instance_meshes(glb, "shrub_700")
check("level.glb follows: assimp reads it, and every instance of the class shows the cube's 12 triangles",
      info.returncode == 0 and len(shown) == 1 and next(iter(shown))[1] == 36 and shown != instance_meshes(before_glb, "shrub_700"),
      (shown, info.stderr[-300:]))

# ---- refused: a face naming neither a shrub texture nor an image
open(os.path.join(work, "plain.obj"), "w").write("o plain\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl leafy\nf 1 2 3\n")
copied = subprocess.run(["cp", "plain.obj", "mnt/" + CLASS], cwd=work, capture_output=True, text=True)
status = os.getxattr(m.path(CLASS), "user.gcfs.edit").decode()
check("a material naming no shrub texture and carrying no image is refused, named, and the class keeps the cube",
      copied.returncode != 0 and "leafy" in status and not same_triangles(parse(m.read(CLASS).decode())[0], want, scale / 1024, material=new_row), status)

# ---- edited.iso: verified, and a read-only mount shows the edit
edited = os.path.join(work, "edited.iso")
shutil.copyfile(m.path("edited.iso"), edited)
check("gcfs verify passes edited.iso", subprocess.run([gcfs, "verify", edited], stdout=subprocess.DEVNULL).returncode == 0)
ro = gcfs_mount.Mount(gcfs, edited, [], work)
check("edited.iso mounted read-only shows the cube and its texture",
      ro.read(CLASS) == m.read(CLASS) and ro.read("LEVEL00/textures/%s.png" % new_row) == m.read("LEVEL00/textures/%s.png" % new_row))
ro.close()
m.close()
check.finish("shrub import")
