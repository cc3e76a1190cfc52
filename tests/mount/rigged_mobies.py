#!/usr/bin/env python3
# Every LEVELnn/mobies/moby_<class>.glb of a mount: the Khronos validator finds
# no error or warning; each skin has the joints skeleton.json lists (a class
# without one has no skin); every vertex's WEIGHTS_0 sum to 1 within 1/255;
# and, for the classes with several joints, Blender's importer makes an
# armature of that many bones in which rotating one bone moves exactly the
# vertices the file weights to that joint or to a joint below it in
# skeleton.json's hierarchy (a leaf: its own vertices alone; blender_pose.py).
# Usage: rigged_mobies.py MOUNT VALIDATOR BLENDER_POSE_SCRIPT
import glob
import json
import os
import struct
import subprocess
import sys

mount, validator, pose_script = sys.argv[1:4]
problems = []
files = sorted(glob.glob(os.path.join(mount, "LEVEL*", "mobies", "moby_*.glb")))
if not files:
    sys.exit("no moby .glb in %s" % mount)
run = subprocess.run(["node", validator] + files, capture_output=True, text=True)
if run.returncode != 0:
    problems.append("validator: " + run.stdout[-2000:] + run.stderr[-500:])

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


posed = 0
for path in files:
    name = os.path.basename(path)[:-4]
    skeleton_path = path[:-4] + ".skeleton.json"
    parents = [j["parent"] for j in json.load(open(skeleton_path))["joints"]] if os.path.exists(skeleton_path) else []
    joints = len(parents)
    doc, binary = read_glb(path)
    node = next(n for n in doc["nodes"] if n["name"] == name + "_high_lod")
    if joints == 0:
        if "skin" in node or doc.get("skins"):
            problems.append("%s: a skin for a class without a skeleton" % path)
        continue
    if "skin" not in node:
        problems.append("%s: no skin for a %d-joint class" % (path, joints))
        continue
    skin = doc["skins"][node["skin"]]
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
    if joints < 2:
        continue
    # The game's axes are Blender's world axes (the root turns them y-up, the importer back z-up).
    def below(j):  # j and every joint under it
        out = {j}
        for k in range(joints):
            if parents[k] in out:
                out.add(k)
        return out
    weighted = {j: [positions[v] for v in range(len(positions)) if any(joint_sets[v][k] in below(j) and weights[v][k] > 0 for k in range(4))]
                for j in range(joints)}
    if len({len(p) for p in weighted.values()}) < 2 or not any(0 < sum(1 for k in range(4) if w[k] > 0) > 1 for w in weights):
        problems.append("%s: no vertex blends joints; the posing check would prove little" % path)
    blender = subprocess.run(["blender", "-b", "--python", pose_script, "--", path, name + "_high_lod"], capture_output=True, text=True,
                             env=dict(os.environ, PATH="/usr/bin:/bin:" + os.environ.get("PATH", "")))
    lines = [l for l in blender.stdout.splitlines() if l.startswith("POSE_")]
    bones = [l for l in lines if l.startswith("POSE_BONES ")]
    if not bones or int(bones[0].split()[1]) != joints:
        problems.append("%s: Blender's armature has %s bones, the class %d joints%s" % (path, bones, joints, blender.stderr[-800:]))
        continue
    for line in lines:
        if not line.startswith("POSE_MOVED "):
            continue
        parts = line.split()
        bone = parts[1]
        j = int(bone.rsplit("_", 1)[1])
        moved = [tuple(float(c) for c in p.split(",")) for p in parts[2:]]
        if not moved or not same_points(weighted[j], moved):
            problems.append("%s: rotating bone %s moved %d vertices, the file weights %d to joint %d and those below it" % (path, bone, len(moved), len(weighted[j]), j))
    posed += 1
if posed == 0:
    problems.append("no class with several joints was posed")
print("%d moby .glb files validated, %d posed in Blender" % (len(files), posed))
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
