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
# For the classes whose skeleton is a chain at least four deep with turned,
# scaled bind frames (formats-moby.md §11; the builder's worms): Blender's
# rest pose is the class's OBJ, and a rotated bone turns its vertices about
# the joint's bind position as the test reads it from skeleton.json itself
# (-F · m_3 × scale/1024, F the stored 3x3, as Wrench's recover_moby_joints
# reads the skeleton): each vertex wholly weighted to it and the joints below
# keeps its distance to that point. The same through three.js's GLTFLoader
# and its CPU skinning (pose_three.mjs beside the validator), which also must
# move exactly the vertices weighted to the bone or below it.
# Usage: rigged_mobies.py MOUNT VALIDATOR BLENDER_POSE_SCRIPT
import glob
import json
import math
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
    points = lambda words: [tuple(float(c) for c in p.split(",")) for p in words]
    moved, turned, rest = {}, {}, []
    for line in lines:
        parts = line.split()
        if line.startswith("POSE_MOVED "):
            moved[int(parts[1].rsplit("_", 1)[1])] = points(parts[2:])
        elif line.startswith("POSE_TURNED "):
            turned[int(parts[1].rsplit("_", 1)[1])] = points(parts[2:])
        elif line.startswith("POSE_REST "):
            rest = points(parts[1:])
    return armatures[0] if armatures else None, bones[0] if bones else None, moved, blender.stderr[-800:], turned, rest


def obj_positions(path):
    """An OBJ's vertices in the game's axes (gcfs writes the game's (x, y, z) as (x, z, -y))."""
    out = []
    for line in open(path):
        if line.startswith("v "):
            x, y, z = (float(c) for c in line.split()[1:4])
            out.append((x, -z, y))
    return out


def three_pose(path, mesh_name):
    """three.js's rest positions and, per bone, the posed ones, in the game's axes (its world is glTF's y-up)."""
    run = subprocess.run(["node", os.path.join(os.path.dirname(validator), "pose_three.mjs"), path, mesh_name], capture_output=True, text=True)
    if run.returncode != 0:
        return None, None, run.stderr[-800:]
    doc = json.loads(run.stdout)
    game = lambda points: [(x, -z, y) for x, y, z in points]
    return game(doc["rest"]), [game(p) for p in doc["posed"]], ""


def chain_depth(parents):
    def depth(j):
        return 1 if parents[j] < 0 else 1 + depth(parents[j])
    return max(depth(j) for j in range(len(parents)))


def bind_position(joint, scale):
    """formats-moby.md §11 as Wrench's recover_moby_joints reads it: the joint sits at -F · m_3 × scale/1024."""
    m = joint["bind_matrix"]
    return tuple(-(m[r] * m[12] + m[4 + r] * m[13] + m[8 + r] * m[14]) * scale / 1024 for r in range(3))


def turns_about(pivot, pairs, rigid):
    """Of the (rest, posed) pairs, those whose rest position is one of `rigid`: how many, and whether each keeps its distance to `pivot`."""
    kept = [(a, b) for a, b in pairs if any(near(a, r) for r in rigid)]
    return len(kept), bool(kept) and all(abs(math.dist(a, pivot) - math.dist(b, pivot)) <= 2e-3 for a, b in kept)


def turned_frame(joint):
    m = joint["bind_matrix"]
    return any(abs(m[4 * c + r]) > 1e-3 for c in range(3) for r in range(3) if r != c) and abs(sum(m[r] ** 2 for r in range(3)) - 1) > 1e-2


scales = {}
for csv_path in glob.glob(os.path.join(mount, "LEVEL*", "mobies", "mobies.csv")):
    rows = [l.rstrip("\n").split(",") for l in open(csv_path)]
    head = rows[0]
    for row in rows[1:]:
        if len(row) == len(head):
            scales[(os.path.dirname(csv_path), row[head.index("class")])] = float(row[head.index("scale")])


def below(j, parents):
    """j and every joint under it."""
    out = {j}
    for k in range(len(parents)):
        if parents[k] in out:
            out.add(k)
    return out


def weighted_to(positions, joint_sets, weights, parents, wholly=False):
    """Per joint, the positions weighted to it or to a joint below it (wholly: all their weight)."""
    def takes(v, j):
        share = [joint_sets[v][k] in below(j, parents) for k in range(4) if weights[v][k] > 0]
        return all(share) if wholly else any(share)
    return {j: [positions[v] for v in range(len(positions)) if takes(v, j)] for j in range(len(parents))}


posed = posed_bangles = posed_chains = 0
for path in files:
    name = os.path.basename(path)[:-4]
    lod = "_low_lod" if "/low/" in path else "_high_lod"
    folder = os.path.dirname(path).removesuffix("/low")
    skeleton_path = os.path.join(folder, name + ".skeleton.json")
    skeleton = json.load(open(skeleton_path))["joints"] if os.path.exists(skeleton_path) else []
    parents = [j["parent"] for j in skeleton]
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
        armatures, bones, moved, stderr, _, _ = pose(path, bangle["name"])
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
    armatures, bones, moved, stderr, turned, rest = pose(path, name + lod)
    if armatures != 1 or bones != joints:
        problems.append("%s: Blender made %s armatures, of %s bones; the class has %d joints%s" % (path, armatures, bones, joints, stderr))
        continue
    for j in range(joints):
        if not moved.get(j) or not same_points(weighted[j], moved[j]):
            problems.append("%s: rotating joint %d moved %d vertices, the file weights %d to it and the joints below it" % (path, j, len(moved.get(j, [])), len(weighted[j])))
    posed += 1
    if chain_depth(parents) < 4 or not all(turned_frame(j) for j in skeleton):
        continue
    # The bind pose is the OBJ: every vertex Blender's armature leaves in the rest pose is one of the OBJ's.
    obj = obj_positions(os.path.join(os.path.dirname(path), name + ".obj"))
    if not rest or not all(any(near(r, o) for o in obj) for r in rest):
        problems.append("%s: Blender's rest pose (%d vertices) is not the OBJ's vertices" % (path, len(rest)))
    scale = scales.get((folder, name.split("_")[1]))
    if scale is None:
        problems.append("%s: mobies.csv gives no scale" % path)
        continue
    # A vertex all of whose weight is on the joint and those below it turns rigidly with it
    # (one that blends in a joint above it moves partway, as linear blending does).
    rigid = weighted_to(positions, joint_sets, weights, parents, wholly=True)
    for j in range(joints):
        pivot = bind_position(skeleton[j], scale)
        count, kept = turns_about(pivot, zip(moved.get(j, []), turned.get(j, [])), rigid[j])
        if not kept:
            problems.append("%s: rotating joint %d does not turn its %d vertices about its bind position %s" % (path, j, count, pivot))
    three_rest, three_posed, stderr = three_pose(path, name + lod)
    if three_rest is None or len(three_posed) != joints:
        problems.append("%s: three.js did not pose it: %s" % (path, stderr))
        continue
    if not all(any(near(r, o) for o in obj) for r in three_rest):
        problems.append("%s: three.js's rest pose is not the OBJ's vertices" % path)
    for j in range(joints):
        pivot = bind_position(skeleton[j], scale)
        moved_now = [i for i, (a, b) in enumerate(zip(three_rest, three_posed[j])) if math.dist(a, b) > 1e-4]
        if not same_points(weighted[j], [three_rest[i] for i in moved_now]):
            problems.append("%s: in three.js, turning bone %d moved %d vertices, the file weights %d to it or below" % (path, j, len(moved_now), len(weighted[j])))
        if not turns_about(pivot, [(three_rest[i], three_posed[j][i]) for i in moved_now], rigid[j])[1]:
            problems.append("%s: in three.js, bone %d does not turn its vertices about its bind position %s" % (path, j, pivot))
    posed_chains += 1
if posed == 0 or posed_bangles == 0 or posed_chains == 0:
    problems.append("%d classes with several joints, %d bangles and %d turned, scaled chains four deep were posed; the test needs each"
                    % (posed, posed_bangles, posed_chains))
print("%d moby .glb files validated alone, %d posed in Blender (%d turned, scaled chains four deep, in three.js too), %d bangles posed with their class's armature"
      % (len(files), posed, posed_chains, posed_bangles))
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
