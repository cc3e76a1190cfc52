# Every LEVELnn/level.glb and collision.glb of a mount, read through the
# kernel, against the totals `gcfs verify --checks` printed for them:
#   level_scene.py MOUNT CHECKS_TXT BLENDER_SCRIPT VALIDATOR [DAMAGED_LEVEL DAMAGED_CLASS]
# - the Khronos glTF validator: 0 errors, 0 warnings for every file;
# - stat size = bytes read = verify's size;
# - Blender's glTF importer: an object per instance (tie_, shrub_, moby_),
#   per path, volume, camera, light and sound, plus terrain and sky, and no
#   collision; faces drawn = verify's triangles; every image loads; instances
#   of one class share one mesh; empty instances carry extras.error;
# - upright: Blender puts tfrag/terrain.obj (OBJ importer defaults) where it
#   puts level.glb's terrain (glTF importer defaults), height on its z, the
#   short side; the sky's bounds enclose the terrain's across x and y;
# - collision.glb: Blender's faces = verify's triangles, in the same place as
#   collision.obj (OBJ importer defaults);
# - assimp: imports it with verify's cameras, lights (those with a light)
#   and embedded textures;
# - with DAMAGED_LEVEL/CLASS: that level's instances of that tie class are
#   empty nodes whose error names core_data.bin, every other tie has its mesh.
import collections
import json
import os
import re
import subprocess
import sys

mount, checks_path, blender_script, validator = sys.argv[1:5]
damaged = (sys.argv[5], int(sys.argv[6])) if len(sys.argv) > 6 else None
line_re = re.compile(r"^(LEVEL\d+) +ok +level\.glb: (\d+) bytes: (\d+) ties, (\d+) shrubs, (\d+) mobies \((\d+) without a mesh\), "
                     r"(\d+) paths, (\d+) volumes, (\d+) cameras, (\d+) lights, (\d+) sounds; (\d+) meshes, (\d+) images, (\d+) triangles drawn")
collision_re = re.compile(r"^(LEVEL\d+) +ok +collision\.glb: (\d+) bytes: (\d+) meshes, (\d+) triangles drawn")
keys = ["size", "ties", "shrubs", "mobies", "empty", "paths", "volumes", "cameras", "lights", "sounds", "meshes", "images", "triangles"]
expected, collision_expected = {}, {}
for line in open(checks_path):
    m = line_re.match(line)
    if m:
        expected[m.group(1)] = dict(zip(keys, map(int, m.groups()[1:])))
    m = collision_re.match(line)
    if m:
        collision_expected[m.group(1)] = dict(zip(["size", "meshes", "triangles"], map(int, m.groups()[1:])))
levels = sorted(d for d in os.listdir(mount) if d.startswith("LEVEL"))
problems = []
if sorted(expected) != levels:
    problems.append("verify has level.glb lines for %s, the mount lists %s" % (sorted(expected), levels))

files = [os.path.join(mount, l, "level.glb") for l in levels]
collision_files = [os.path.join(mount, l, "collision.glb") for l in sorted(collision_expected)]
report = subprocess.run(["node", validator] + files + collision_files, capture_output=True, text=True)
print(report.stdout.strip())
if report.returncode != 0:
    problems.append("the glTF validator reports errors or warnings: %s" % (report.stdout + report.stderr)[-3000:])

# Blender takes its Python from the first python3 on PATH; its glTF importer
# needs the system one (python3-numpy), not a virtualenv's that runs this script.
blender_env = dict(os.environ, PATH="/usr/bin:/bin:" + os.environ.get("PATH", ""))
import_script = os.path.join(os.path.dirname(blender_script), "blender_import.py")


def blender_scene(path):
    run = subprocess.run(["blender", "-b", "--python", blender_script, "--", path], capture_output=True, text=True, env=blender_env)
    lines = [l[6:] for l in run.stdout.splitlines() if l.startswith("SCENE ")]
    if len(lines) != 1:
        problems.append("%s: Blender did not import it: %s" % (path, (run.stdout + run.stderr)[-2000:]))
        return None
    return json.loads(lines[0])


def obj_bounds(path):  # an OBJ's world bounds as Blender's importer places it, with its defaults
    run = subprocess.run(["blender", "-b", "--python", import_script, "--", path], capture_output=True, text=True, env=blender_env)
    lines = [l.split()[1:] for l in run.stdout.splitlines() if l.startswith("BLENDER_BOUNDS ")]
    return [float(v) for v in lines[0]] if lines and len(lines[0]) == 6 else None


def union(boxes):
    return [min(b[i] for b in boxes) for i in range(3)] + [max(b[i] for b in boxes) for i in range(3, 6)]


def same_place(a, b):
    return a is not None and b is not None and all(abs(x - y) <= 1e-3 * max(1.0, abs(x)) for x, y in zip(a, b))
# Each kind's objects: their group node, and the names they carry.
KINDS = {"ties": (("ties",), ("tie_",)), "shrubs": (("shrubs",), ("shrub_",)), "mobies": (("mobies",), ("moby_",)),
         "paths": (("paths", "grind_paths"), ("path_", "grind_path_")),
         "volumes": (("volumes",), ("cuboid_", "sphere_", "cylinder_", "pill_")), "sounds": (("sounds",), ("sound_",))}
for level, path in zip(levels, files):
    want = expected.get(level)
    if not want:
        continue
    data = open(path, "rb").read()
    if os.stat(path).st_size != want["size"] or len(data) != want["size"]:
        problems.append("%s: stat %d, read %d, verify %d" % (path, os.stat(path).st_size, len(data), want["size"]))
    info = subprocess.run(["assimp", "info", path], capture_output=True, text=True).stdout
    assimp = {k: int(v) for k, v in re.findall(r"^(Cameras|Lights|Textures \(embed\.\)):\s+(\d+)", info, re.M)}
    lit = sum(1 for n in json.loads(data[20:20 + int.from_bytes(data[12:16], "little")])["nodes"] if "KHR_lights_punctual" in n.get("extensions", {}))
    if assimp != {"Cameras": want["cameras"], "Lights": lit, "Textures (embed.)": want["images"]}:
        problems.append("%s: assimp reads %s; verify says %d cameras, %d images; %d lit nodes" % (path, assimp, want["cameras"], want["images"], lit))
    scene = blender_scene(path)
    if scene is None:
        continue
    objects = scene["objects"]
    by_name = {o["name"]: o for o in objects}
    got = {k: sum(1 for o in objects if o["parent"] in parents and o["name"].startswith(names)) for k, (parents, names) in KINDS.items()}
    got["cameras"] = sum(1 for o in objects if o["parent"] == "cameras")
    got["lights"] = sum(1 for o in objects if o["parent"] == "lights")
    instances = [o for o in objects if o["parent"] in ("ties", "shrubs", "mobies")]
    got["empty"] = sum(1 for o in instances if o["type"] == "EMPTY")
    got["triangles"] = sum(o.get("faces", 0) for o in objects)
    got["images"] = sum(1 for i in scene["images"] if i["width"] > 0)
    for k in ("ties", "shrubs", "mobies", "empty", "paths", "volumes", "cameras", "lights", "sounds", "triangles", "images"):
        if got[k] != want[k]:
            problems.append("%s: Blender has %d %s, verify says %d" % (level, got[k], k, want[k]))
    if not all(o["props"].get("error") for o in instances if o["type"] == "EMPTY"):
        problems.append("%s: an empty instance without extras.error" % level)
    if sum(1 for o in objects if o["type"] == "CAMERA") + sum(1 for o in objects if o["type"] == "LIGHT") == 0:
        problems.append("%s: no camera or light objects" % level)
    if by_name.get("terrain", {}).get("type") != "MESH":
        problems.append("%s: no terrain mesh object" % level)
    if any(o["name"].startswith("collision") for o in objects):
        problems.append("%s: level.glb holds collision objects; collision.glb should" % level)
    sky = [o["bounds"] for o in objects if o["parent"] == "sky" and o["type"] == "MESH"]
    if not sky:
        problems.append("%s: no sky shell objects" % level)
    terrain = by_name.get("terrain", {}).get("bounds")
    obj = obj_bounds(os.path.join(mount, level, "tfrag", "terrain.obj"))
    if not same_place(terrain, obj):
        problems.append("%s: Blender puts terrain.obj at %s, level.glb's terrain at %s" % (level, obj, terrain))
    elif not (obj[5] - obj[2] < obj[3] - obj[0] and obj[5] - obj[2] < obj[4] - obj[1]):
        problems.append("%s: terrain.obj is not upright in Blender: bounds %s" % (level, obj))
    elif sky and not all(union(sky)[i] < terrain[i] and union(sky)[3 + i] > terrain[3 + i] for i in range(2)):
        problems.append("%s: the sky %s does not enclose the terrain %s across x and y" % (level, union(sky), terrain))
    # Vertex data once per class: every instance of a class shows one mesh.
    meshes_of = collections.defaultdict(set)
    for o in instances:
        if o["type"] == "MESH":
            meshes_of[(o["parent"], o["props"]["class"])].add(o["mesh"])
    if any(len(m) != 1 for m in meshes_of.values()):
        problems.append("%s: a class's instances do not share one mesh: %s" % (level, dict(meshes_of)))
    if damaged and level == damaged[0]:
        hit = [o for o in instances if o["parent"] == "ties" and o["props"]["class"] == damaged[1]]
        if not hit or any(o["type"] != "EMPTY" or "core_data.bin 0x" not in o["props"].get("error", "") for o in hit):
            problems.append("%s: tie class %d's instances should be empty nodes naming the damage: %s" % (level, damaged[1], hit))
        if any(o["type"] != "MESH" for o in instances if o["parent"] == "ties" and o["props"]["class"] != damaged[1]):
            problems.append("%s: an undamaged tie class lost its mesh" % level)
    print("%s: %s | blender %s | terrain bounds %s" % (level, want, {k: got[k] for k in sorted(got)}, terrain))
    if level in collision_expected:
        want_c, collision = collision_expected[level], os.path.join(mount, level, "collision.glb")
        if os.stat(collision).st_size != want_c["size"] or len(open(collision, "rb").read()) != want_c["size"]:
            problems.append("%s: stat or read size is not verify's %d" % (collision, want_c["size"]))
        scene = blender_scene(collision)
        if scene is not None:
            meshes = [o for o in scene["objects"] if o["type"] == "MESH"]
            faces = sum(o["faces"] for o in meshes)
            obj = obj_bounds(os.path.join(mount, level, "collision.obj"))
            print("%s: collision.glb: verify %s, Blender %d faces; bounds %s, collision.obj's %s" % (level, want_c, faces, union([o["bounds"] for o in meshes]), obj))
            if faces != want_c["triangles"] or len(meshes) != want_c["meshes"]:
                problems.append("%s: Blender has %d collision faces in %d meshes, verify %s" % (collision, faces, len(meshes), want_c))
            if not same_place(union([o["bounds"] for o in meshes]), obj):
                problems.append("%s: not where Blender puts collision.obj" % collision)
print("\n".join(problems) if problems else "%d level.glb and %d collision.glb files: validator clean, Blender's objects and faces agree "
      "with verify, OBJs and scenes upright in one place" % (len(files), len(collision_files)))
sys.exit(1 if problems else 0)
