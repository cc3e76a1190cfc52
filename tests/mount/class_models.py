# Every tie, shrub and moby class OBJ of one level, as assimp and Blender read it
# through the mount, against the totals `gcfs verify --checks` printed:
#   class_models.py MOUNT LEVEL CHECKS_TXT BLENDER_SCRIPT
# Lower LODs are listed where they have triangles. Per file: assimp's faces and Blender's faces are verify's triangles,
# Blender's vertices are verify's vertices (= the file's v lines), every
# material loads with its image, and the billboards pass pngcheck.
import json
import os
import re
import subprocess
import sys

mount, level, checks_path, blender_script = sys.argv[1:5]
expected = {}  # path -> (vertices, triangles)
for line in open(checks_path):
    m = re.match(r"^%s +ok +(tie|shrub|moby) class (-?\d+): \S+ at core_data.bin 0x[0-9a-f]+: (.*?); materials" % level, line)
    if not m:
        continue
    kind, cls, lods = m.group(1), m.group(2), m.group(3).split(", then ")
    for lod, text in enumerate(lods):
        v, t = map(int, re.match(r"(\d+) vertices (\d+) triangles", text).groups())
        sub = "" if lod == 0 else "low/" if kind == "moby" else "lod%d/" % lod
        if lod > 0 and t == 0:
            continue  # a lower LOD without triangles is not listed
        folder = "mobies" if kind == "moby" else kind + "s"
        expected[os.path.join(mount, level, folder, sub + "%s_%s.obj" % (kind, cls))] = (v, t)
listed = sorted(os.path.join(root, f) for root, _, files in os.walk(os.path.join(mount, level)) for f in files
                if f.endswith(".obj") and os.path.basename(root) in ("ties", "shrubs", "mobies", "lod1", "lod2", "low") and "tfrag" not in root)
problems = []
if sorted(expected) != listed:
    problems.append("verify lines name %s, the mount lists %s" % (sorted(expected), listed))

empty = [p for p in sorted(expected) if expected[p][1] == 0]  # LOD 0 of a class without triangles
paths = [p for p in sorted(expected) if expected[p][1] > 0]
blender = subprocess.run(["blender", "-b", "--python", blender_script, "--"] + paths, capture_output=True, text=True)
lines = [l for l in blender.stdout.splitlines() if l.startswith("BLENDER ")]
if len(lines) != len(paths):
    problems.append("Blender printed %d lines for %d files: %s" % (len(lines), len(paths), blender.stderr[-2000:]))
for path, line in zip(paths, lines):
    want_v, want_t = expected[path]
    text = open(path).read()
    materials = {l.split()[1] for l in text.splitlines() if l.startswith("usemtl ")}
    v_lines = sum(1 for l in text.splitlines() if l.startswith("v "))
    info = subprocess.run(["assimp", "info", path], capture_output=True, text=True).stdout
    faces = int(re.search(r"^Faces:\s+(\d+)", info, re.M).group(1))
    textures = info.count("$tex.file")
    want_line = "BLENDER vertices=%d faces=%d materials=%d images=%d uv=1 colours=1" % (want_v, want_t, len(materials), len(materials))
    print("%s: verify %d/%d, v lines %d; assimp faces %d, texture maps %d; %s" % (path, want_v, want_t, v_lines, faces, textures, line))
    if v_lines != want_v or faces != want_t or textures < len(materials) or line != want_line:
        problems.append("%s disagrees" % path)
pngs = [os.path.join(mount, level, "shrubs", f) for f in os.listdir(os.path.join(mount, level, "shrubs")) if f.endswith(".png")]
if pngs and subprocess.run(["pngcheck", "-q"] + pngs).returncode != 0:
    problems.append("pngcheck rejects a billboard")
skeletons = [os.path.join(mount, level, "mobies", f) for f in os.listdir(os.path.join(mount, level, "mobies")) if f.endswith(".skeleton.json")]
for path in skeletons:  # a joint list whose parents come first
    joints = json.load(open(path))["joints"]
    if not joints or any(j["parent"] >= j["index"] for j in joints):
        problems.append("%s: parents do not come first" % path)
print("\n".join(problems) if problems else "%d class OBJs (%d without a mesh), %d billboards and %d skeletons agree"
      % (len(paths), len(empty), len(pngs), len(skeletons)))
sys.exit(1 if problems else 0)
