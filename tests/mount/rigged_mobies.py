#!/usr/bin/env python3
# Every LEVELnn/mobies/moby_<class>.glb and mobies/low/moby_<class>.glb of a
# mount, each copied out of the mount alone: the Khronos validator finds no
# error or warning and no image or buffer points outside the file; a class
# with a skeleton has exactly one skin, the one every mesh of the file (the
# main mesh and each bangle) is bound to, with the joints skeleton.json lists
# (a class without one has no skin); every vertex's WEIGHTS_0 sum to 1 within
# 1/255. Blender's importer makes one armature per file: for the classes with
# several joints, rotating one bone moves exactly the vertices the file
# weights to that joint or to a joint below it in skeleton.json's hierarchy
# (a leaf: its own vertices alone; blender_pose.py), and for the classes
# with bangles, the bangles' vertices move with the bones the same way.
# Usage: rigged_mobies.py MOUNT VALIDATOR BLENDER_POSE_SCRIPT
import glob
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

mount, validator, pose_script = sys.argv[1:4]
problems = []
files = sorted(glob.glob(os.path.join(mount, "LEVEL*", "mobies", "moby_*.glb")) + glob.glob(os.path.join(mount, "LEVEL*", "mobies", "low", "moby_*.glb")))
if not files or not any("/low/" in f for f in files):
    sys.exit("no moby .glb (or none in low/) in %s" % mount)
alone = tempfile.mkdtemp()
copies = []
for n, path in enumerate(files):  # one folder each: nothing beside the copy to resolve a URI against
    os.mkdir(os.path.join(alone, str(n)))
    copies.append(shutil.copy(path, os.path.join(alone, str(n))))
run = subprocess.run(["node", validator] + copies, capture_output=True, text=True)
shutil.rmtree(alone)
if run.returncode != 0:
    problems.append("validator, on the files copied out alone: " + run.stdout[-2000:] + run.stderr[-500:])

COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
TYPES = {5121: "B", 5123: "H", 5125: "I", 5126: "f"}


def read_glb(path):
    data = open(path, "rb").read()
    json_size = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + json_size])
    bin_at = 20 + json_size + 8
    return doc, data[bin_at:]


def accessor(doc, binary, index):
    a = doc["accessors"][index]
    view = doc["bufferViews"][a["bufferView"]]
    n = COMPONENTS[a["type"]]
    fmt = "<%d%s" % (a["count"] * n, TYPES[a["componentType"]])
    flat = struct.unpack_from(fmt, binary, view.get("byteOffset", 0) + a.get("byteOffset", 0))
    return [flat[i:i + n] for i in range(0, len(flat), n)]


def near(a, b):
    return all(abs(x - y) < 2e-3 for x, y in zip(a, b))


def same_points(want, got):
    return all(any(near(w, g) for g in got) for w in want) and all(any(near(g, w) for w in want) for g in got)


def pose(path, mesh_name):
    """Blender's armature count and the POSE_ lines for the armature deforming mesh_name."""
    blender = subprocess.run(["blender", "-b", "--python", pose_script, "--", path, mesh_name], capture_output=True, text=True,
                             env=dict(os.environ, PATH="/usr/bin:/bin:" + os.environ.get("PATH", "")))
    lines = [l for l in blender.stdout.splitlines() if l.startswith("POSE_")]
    armatures = [int(l.split()[1]) for l in lines if l.startswith("POSE_ARMATURES ")]
    bones = [int(l.split()[1]) for l in lines if l.startswith("POSE_BONES ")]
    moved = {}
    for line in lines:
        if line.startswith("POSE_MOVED "):
            parts = line.split()
            moved[int(parts[1].rsplit("_", 1)[1])] = [tuple(float(c) for c in p.split(",")) for p in parts[2:]]
    return armatures[0] if armatures else None, bones[0] if bones else None, moved, blender.stderr[-800:]


def weighted_to(positions, joint_sets, weights, parents):
    """Per joint, the positions weighted to it or to a joint below it."""
    joints = len(parents)
    def below(j):  # j and every joint under it
        out = {j}
        for k in range(joints):
            if parents[k] in out:
                out.add(k)
        return out
    return {j: [positions[v] for v in range(len(positions)) if any(joint_sets[v][k] in below(j) and weights[v][k] > 0 for k in range(4))]
            for j in range(joints)}


posed = posed_bangles = 0
for path in files:
    name = os.path.basename(path)[:-4]
    lod = "_low_lod" if "/low/" in path else "_high_lod"
    skeleton_path = os.path.join(os.path.dirname(path).removesuffix("/low"), name + ".skeleton.json")
    parents = [j["parent"] for j in json.load(open(skeleton_path))["joints"]] if os.path.exists(skeleton_path) else []
    joints = len(parents)
    doc, binary = read_glb(path)
    for image in doc.get("images", []):
        if "uri" in image or "bufferView" not in image:
            problems.append("%s: image %s is not embedded" % (path, image.get("name")))
    if any("uri" in b for b in doc.get("buffers", [])):
        problems.append("%s: a buffer outside the file" % path)
    node = next(n for n in doc["nodes"] if n["name"] == name + lod)
    mesh_nodes = [n for n in doc["nodes"] if "mesh" in n]
    if joints == 0:
        if any("skin" in n for n in mesh_nodes) or doc.get("skins"):
            problems.append("%s: a skin for a class without a skeleton" % path)
        continue
    if len(doc.get("skins", [])) != 1 or any(n.get("skin") != 0 for n in mesh_nodes):
        problems.append("%s: %d skins for %d meshes; the class and its bangles should share one" % (path, len(doc.get("skins", [])), len(mesh_nodes)))
        continue
    skin = doc["skins"][0]
    if len(skin["joints"]) != joints:
        problems.append("%s: skin of %d joints, skeleton.json lists %d" % (path, len(skin["joints"]), joints))
    attributes = doc["meshes"][node["mesh"]]["primitives"][0]["attributes"]
    positions = accessor(doc, binary, attributes["POSITION"])
    joint_sets = accessor(doc, binary, attributes["JOINTS_0"])
    weights = accessor(doc, binary, attributes["WEIGHTS_0"])
    for v, w in enumerate(weights):
        if abs(sum(w) - 1) > 1 / 255:
            problems.append("%s: vertex %d's weights sum to %f" % (path, v, sum(w)))
            break
    # Each bangle: Blender makes one armature, and rotating a bone moves the bangle's vertices it weights.
    for bangle in (n for n in mesh_nodes if n is not node):
        attributes = doc["meshes"][bangle["mesh"]]["primitives"][0]["attributes"]
        want = weighted_to(accessor(doc, binary, attributes["POSITION"]), accessor(doc, binary, attributes["JOINTS_0"]),
                           accessor(doc, binary, attributes["WEIGHTS_0"]), parents)
        armatures, bones, moved, stderr = pose(path, bangle["name"])
        if armatures != 1 or bones != joints:
            problems.append("%s: Blender made %s armatures of %s bones for bangle %s (want 1 of %d)%s" % (path, armatures, bones, bangle["name"], joints, stderr))
            continue
        if not any(want.values()):
            problems.append("%s: bangle %s is weighted to no joint" % (path, bangle["name"]))
        for j in range(joints):
            if not same_points(want[j], moved.get(j, [])):
                problems.append("%s: rotating joint %d moved %d vertices of bangle %s, the file weights %d to it" % (path, j, len(moved.get(j, [])), bangle["name"], len(want[j])))
        posed_bangles += 1
    if joints < 2:
        continue
    # The game's axes are Blender's world axes (the root turns them y-up, the importer back z-up).
    weighted = weighted_to(positions, joint_sets, weights, parents)
    if len({len(p) for p in weighted.values()}) < 2 or not any(0 < sum(1 for k in range(4) if w[k] > 0) > 1 for w in weights):
        problems.append("%s: no vertex blends joints; the posing check would prove little" % path)
    armatures, bones, moved, stderr = pose(path, name + lod)
    if armatures != 1 or bones != joints:
        problems.append("%s: Blender made %s armatures, of %s bones; the class has %d joints%s" % (path, armatures, bones, joints, stderr))
        continue
    for j in range(joints):
        if not moved.get(j) or not same_points(weighted[j], moved[j]):
            problems.append("%s: rotating joint %d moved %d vertices, the file weights %d to it and the joints below it" % (path, j, len(moved.get(j, [])), len(weighted[j])))
    posed += 1
if posed == 0 or posed_bangles == 0:
    problems.append("%d classes with several joints and %d bangles were posed; the test needs both" % (posed, posed_bangles))
print("%d moby .glb files validated alone, %d posed in Blender, %d bangles posed with their class's armature" % (len(files), posed, posed_bangles))
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
