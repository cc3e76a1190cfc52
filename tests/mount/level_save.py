"""Blender as the level editor (issue 54): level.glb saved back over the mount
moves, turns, copies and removes instances and volumes. Debian's Blender, headless,
imports LEVEL00/level.glb with the README's options, moves a moby by
(5, 0, 2), turns a tie 90 degrees about the up axis, Shift+D's a shrub and
moves the copy, X's a second moby, lifts a cuboid, and exports with the
defaults over the mounted file: mobies.csv, ties.csv, shrubs.csv and
volumes.csv show exactly those changes, level.glb and a read-only mount of edited.iso show them too. Then:
an unchanged save changes nothing (edited.iso is the image); "+Y Up" off;
"Selected Objects" refused, and allowed with the scene's gcfs_allow_delete;
three.js's GLTFLoader and GLTFExporter round trip; a renamed node found by
its extras; a CSV edit and a level.glb save read back in each other; bad
saves refused naming the node. Mounts are made from the disc's own folder.
Usage: level_save.py GCFS WORK BLENDER_SCRIPT THREE_SCRIPT"""
import csv
import io
import json
import math
import os
import shutil
import struct
import subprocess
import sys

import gcfs_mount

gcfs, work, blender_script, three_script = sys.argv[1:5]
work = os.path.join(work, "level-save")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []
G = "LEVEL00/gameplay"
blender_env = dict(os.environ, PATH="/usr/bin:/bin:" + os.environ.get("PATH", ""))


def check(name, ok, detail=""):
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else ": " + str(detail)[:600]))
    if not ok:
        failures.append(name)


def table(data):
    return list(csv.reader(io.StringIO(data.decode())))


def by(rows, column):
    col = rows[0].index(column)
    return {r[col]: r for r in rows[1:]}


def status(m, rel="LEVEL00/level.glb"):
    return os.getxattr(m.path(rel), "user.gcfs.edit").decode()


def glb_parts(data):
    length = struct.unpack_from("<I", data, 12)[0]
    return json.loads(data[20:20 + length]), data[20 + length:]


def glb_pack(doc, rest):
    text = json.dumps(doc).encode()
    text += b" " * (-len(text) % 4)
    body = struct.pack("<II", len(text), 0x4E4F534A) + text + rest
    return struct.pack("<III", 0x46546C67, 2, 12 + len(body)) + body


def node_matrix(doc, name):
    for n in doc["nodes"]:
        if n.get("name") == name:
            return n.get("matrix")
    return None


def blender(mount, mode):
    path = mount.path("LEVEL00/level.glb")
    run = subprocess.run(["blender", "-b", "--python", blender_script, "--", path, path, mode], capture_output=True, text=True,
                         env=blender_env, timeout=600)
    for line in run.stdout.splitlines():
        if line.startswith("SAVED "):
            return json.loads(line[6:])
    raise SystemExit("blender printed no SAVED line:\n" + run.stdout[-2000:] + run.stderr[-2000:])


def close(a, b, tolerance=1e-4):
    return all(abs(float(x) - float(y)) <= tolerance for x, y in zip(a, b))


def cols(row, header, names):
    return [row[header.index(n)] for n in names]


def mount(label):
    os.makedirs(os.path.join(work, "mnt-" + label), exist_ok=True)
    return gcfs_mount.Mount(gcfs, "demo.iso", ["edits=edits-" + label], work, cwd=work, mnt="mnt-" + label, wait=60)


demo = os.path.join(work, "demo.iso")
subprocess.run([gcfs, "mkdisc", demo, "--levels", "2", "--seed", "7"], check=True, stdout=subprocess.DEVNULL)

# ---- the Blender session of the first test
m = mount("edit")
before = {name: table(m.read(G + "/" + name)) for name in ("mobies.csv", "ties.csv", "shrubs.csv", "cameras.csv", "volumes.csv")}
saved = blender(m, "edit")
check("blender: the export over the mounted level.glb succeeded", saved.get("exported"), saved)
check("blender: the save's status says what it read", "mobies: 1 moved or turned, 1 removed" in status(m) and "ties: 1 moved or turned" in status(m)
      and "shrubs: 1 added as copies" in status(m), status(m))
after = {name: table(m.read(G + "/" + name)) for name in before}
mobies0, mobies1 = by(before["mobies.csv"], "uid"), by(after["mobies.csv"], "uid")
h = before["mobies.csv"][0]
moved_uid, moved_class = saved["moved"]["name"].split("_")[1:3]
gone_uid = saved["deleted"].split("_")[1]
want = [row[3] for row in saved["moved"]["after"][:3]]
check("mobies.csv: the moved moby is where Blender put it (within 1e-4)", close(cols(mobies1[moved_uid], h, ["pos_x", "pos_y", "pos_z"]), want),
      (cols(mobies1[moved_uid], h, ["pos_x", "pos_y", "pos_z"]), want))
check("mobies.csv: it moved by (5, 0, 2) from its row, y untouched",
      close([float(a) - float(b) for a, b in zip(cols(mobies1[moved_uid], h, ["pos_x", "pos_y", "pos_z"]),
                                                  cols(mobies0[moved_uid], h, ["pos_x", "pos_y", "pos_z"]))], [5, 0, 2])
      and cols(mobies1[moved_uid], h, ["pos_y"]) == cols(mobies0[moved_uid], h, ["pos_y"]))
check("mobies.csv: the deleted moby's row is gone", gone_uid not in mobies1 and gone_uid in mobies0)
index = h.index("index")
unchanged = [u for u in mobies0 if u not in (moved_uid, gone_uid)]
check("mobies.csv: every other moby keeps its cells (its index aside)",
      all(mobies0[u][:index] + mobies0[u][index + 1:] == mobies1[u][:index] + mobies1[u][index + 1:] or
          # pvar_index renumbers when a moby with pvars goes (formats-gameplay.md 3.13)
          [c for k, c in enumerate(mobies0[u]) if h[k] not in ("index", "pvar_index")] ==
          [c for k, c in enumerate(mobies1[u]) if h[k] not in ("index", "pvar_index")] for u in unchanged), len(unchanged))
ties0, ties1 = before["ties.csv"], after["ties.csv"]
th = ties0[0]
turned = int(saved["turned"]["name"].split("_")[2]) + 1
matrix_cols = ["col%d_%s" % (c, a) for c in range(3) for a in "xyz"]
# Blender's world matrix of a mesh object is M · G (G = level.glb's root turn,
# (x, y, z) -> (x, z, -y)): its importer turns the mesh data too. M = B · G^T.
b = saved["turned"]["after"]
blender_axes = [b[r][0] if c == 0 else (b[r][2] if c == 1 else -b[r][1]) for c in range(3) for r in range(3)]
check("ties.csv: the turned tie's axes are Blender's (within 1e-4)", close(cols(ties1[turned], th, matrix_cols), blender_axes),
      (cols(ties1[turned], th, matrix_cols), blender_axes))
old_axes = [float(v) for v in cols(ties0[turned], th, matrix_cols)]
turned_axes = [v for c in range(3) for v in (-old_axes[3 * c + 1], old_axes[3 * c], old_axes[3 * c + 2])]
check("ties.csv: they are the old axes turned 90 degrees about z", close(cols(ties1[turned], th, matrix_cols), turned_axes, 1e-5))
check("ties.csv: its position and every other tie are as they were",
      cols(ties1[turned], th, ["pos_x", "pos_y", "pos_z", "col3_x", "col3_y", "col3_z"]) == cols(ties0[turned], th, ["pos_x", "pos_y", "pos_z", "col3_x", "col3_y", "col3_z"])
      and [r for k, r in enumerate(ties1) if k != turned] == [r for k, r in enumerate(ties0) if k != turned])
shrubs0, shrubs1 = before["shrubs.csv"], after["shrubs.csv"]
sh = shrubs0[0]
source = int(saved["copied"]["name"].split("_")[2]) + 1
copy = shrubs1[-1]
check("shrubs.csv: the shrubs are as they were, the copy appended", shrubs1[:-1] == shrubs0 and len(shrubs1) == len(shrubs0) + 1)
check("shrubs.csv: the copy is its source's row at the copy's place (within 1e-4)",
      cols(copy, sh, ["class", "draw_distance"]) == cols(shrubs0[source], sh, ["class", "draw_distance"])
      and close(cols(copy, sh, ["pos_x", "pos_y", "pos_z"]), [row[3] for row in saved["copied"]["after"][:3]])
      and close([float(a) - float(b) for a, b in zip(cols(copy, sh, ["pos_x", "pos_y", "pos_z"]), cols(shrubs0[source], sh, ["pos_x", "pos_y", "pos_z"]))], [3, 1, 0]))
ch = before["cameras.csv"][0]
check("cameras.csv: untouched but for the pvar_index a removed moby's pvars renumber (Blender's defaults export no camera)",
      [[c for k, c in enumerate(r) if ch[k] != "pvar_index"] for r in after["cameras.csv"]] ==
      [[c for k, c in enumerate(r) if ch[k] != "pvar_index"] for r in before["cameras.csv"]])
v0, v1 = before["volumes.csv"], after["volumes.csv"]
vh = v0[0]
cuboid0 = next(k for k, r in enumerate(v0) if r[:2] == ["cuboid", "0"])
check("volumes.csv: cuboid 0 is lifted by 1 (col3_z), every other volume as it was",
      close([float(v1[cuboid0][vh.index("col3_z")]) - float(v0[cuboid0][vh.index("col3_z")])], [1])
      and [r for k, r in enumerate(v1) if k != cuboid0] == [r for k, r in enumerate(v0) if k != cuboid0]
      and "cuboids: 1 moved or turned" in status(m), (v1[cuboid0], status(m)))
doc, _ = glb_parts(m.read("LEVEL00/level.glb"))
moved_node = node_matrix(doc, "moby_%s_%s" % (moved_uid, moved_class))
check("level.glb read back: the moby's node carries its new position", moved_node and close(moved_node[12:15], want), moved_node)
check("level.glb read back: the deleted moby has no node", node_matrix(doc, saved["deleted"]) is None
      and not any(n.get("name", "").startswith("moby_%s_" % gone_uid) for n in doc["nodes"]))
check("level.glb read back: the shrub copy has a node", any(n.get("name") == "shrub_%s_%d" % (copy[1], len(shrubs1) - 2) for n in doc["nodes"]))
edited = os.path.join(work, "edit-edited.iso")
shutil.copyfile(m.path("edited.iso"), edited)
check("edited.iso: gcfs verify passes it", subprocess.run([gcfs, "verify", edited], stdout=subprocess.DEVNULL).returncode == 0)
ro = gcfs_mount.Mount(gcfs, edited, [], work)
for rel in ("mobies.csv", "ties.csv", "shrubs.csv", "volumes.csv"):
    check("edited.iso mounted read-only shows %s as edited" % rel, ro.read(G + "/" + rel) == m.read(G + "/" + rel))
check("edited.iso mounted read-only shows level.glb as edited", ro.read("LEVEL00/level.glb") == m.read("LEVEL00/level.glb"))
ro.close()
journal = m.read(".gcfs/edits").decode()
check(".gcfs/edits lists the three tables and the read level.glb", all(s in journal for s in (
    "applied  LEVEL00/gameplay/mobies.csv  saved through level.glb", "applied  LEVEL00/gameplay/ties.csv", "translated  LEVEL00/level.glb")), journal)
check("rm level.glb is refused: its edits are the tables' own", subprocess.run(["rm", m.path("LEVEL00/level.glb")], stderr=subprocess.DEVNULL).returncode != 0)

# ---- the reverse: a CSV edit shows in level.glb, and a second save reads over it
rows = table(m.read(G + "/mobies.csv"))
col = rows[0].index("pos_z")
rows[2][col] = "%g" % (float(rows[2][col]) + 1)
try:
    with open(m.path(G + "/mobies.csv"), "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)
except OSError:
    check("a CSV edit after the level.glb save is applied", False, status(m, G + "/mobies.csv"))
doc, _ = glb_parts(m.read("LEVEL00/level.glb"))
uid2, class2 = rows[2][rows[0].index("uid")], rows[2][rows[0].index("class")]
check("a CSV edit shows in level.glb", close([node_matrix(doc, "moby_%s_%s" % (uid2, class2))[14]], [rows[2][col]]))
saved2 = blender(m, "z_up")
now = by(table(m.read(G + "/mobies.csv")), "uid")
check("a second Blender save (\"+Y Up\" off) reads over both: the CSV edit stays, the moby moves again",
      saved2.get("exported") and "z-up frame" in status(m) and close([now[uid2][col]], [rows[2][col]])
      and close(cols(now[moved_uid], h, ["pos_x", "pos_y", "pos_z"]), [r[3] for r in saved2["moved"]["after"][:3]]), (status(m), saved2))
shown = {rel: m.read(G + "/" + rel) for rel in ("mobies.csv", "ties.csv", "shrubs.csv")}
log = m.close()
m = mount("edit")
check("mounted again: the tables replay as they were shown", all(m.read(G + "/" + rel) == shown[rel] for rel in shown))
check("mounted again: level.glb's last save is still told", "level.glb read (z-up frame)" in status(m), status(m))
log = m.close()
check("the mounts logged no error", "gcfs: error" not in log, log[-400:])

# ---- an unchanged save changes nothing
m = mount("same")
saved = blender(m, "unchanged")
check("unchanged: Blender's export over level.glb is taken", saved.get("exported") and "no table changed" in status(m), status(m))
image = open(demo, "rb").read()
check("unchanged: edited.iso is the image, byte for byte", m.read("edited.iso") == image)
m.close()

# ---- "Selected Objects": refused, then allowed by the scene's extras
m = mount("selected")
before = {rel: m.read(G + "/" + rel) for rel in ("mobies.csv", "ties.csv", "shrubs.csv")}
saved = blender(m, "selected")
check("selected: the export of one moby alone is refused (the close fails)", not saved.get("exported"), saved)
check("selected: the status says why", "the file holds 1 of the level's" in status(m) and "gcfs_allow_delete" in status(m), status(m))
check("selected: nothing is removed", all(m.read(G + "/" + rel) == before[rel] for rel in before))
saved = blender(m, "selected_allow")
mobies = table(m.read(G + "/mobies.csv"))
check("selected with gcfs_allow_delete: the moby alone is left, moved", saved.get("exported") and len(mobies) == 2
      and close(cols(mobies[1], mobies[0], ["pos_x", "pos_y", "pos_z"]), [r[3] for r in saved["moved"]["after"][:3]]), (status(m), len(mobies)))
check("selected with gcfs_allow_delete: kinds with no node are left as they are",
      m.read(G + "/ties.csv") == before["ties.csv"] and m.read(G + "/shrubs.csv") == before["shrubs.csv"] and "no tie node in the file" in status(m))
m.close()

# ---- three.js: GLTFLoader, a node moved, GLTFExporter over the mount
m = mount("three")
mobies = table(m.read(G + "/mobies.csv"))
h = mobies[0]
name = "moby_%s_%s" % (mobies[1][h.index("uid")], mobies[1][h.index("class")])
out = os.path.join(work, "three.glb")
run = subprocess.run(["node", three_script, m.path("LEVEL00/level.glb"), out, name, "1.5", "0", "0"], capture_output=True, text=True,
                     cwd=os.path.dirname(three_script))
check("three.js: the scene loads and exports", run.returncode == 0, run.stderr[-400:])
shutil.copyfile(out, m.path("LEVEL00/level.glb"))
now = table(m.read(G + "/mobies.csv"))
# glTF's +x is the game's +x (the root node's (x, y, z) -> (x, z, -y)).
check("three.js: the same CSV change, pos_x + 1.5 and nothing else",
      close([float(now[1][h.index("pos_x")]) - float(mobies[1][h.index("pos_x")])], [1.5])
      and [c for k, c in enumerate(now[1]) if h[k] != "pos_x"] == [c for k, c in enumerate(mobies[1]) if h[k] != "pos_x"]
      and now[2:] == mobies[2:], status(m))

# ---- a renamed node is found by its extras; refusals name the node
doc, rest = glb_parts(m.read("LEVEL00/level.glb"))
target = next(n for n in doc["nodes"] if n.get("extras", {}).get("kind") == "moby" and n["extras"]["index"] == 2)
target["name"] = "my favourite crate"
target["matrix"][12] += 2
with open(m.path("LEVEL00/level.glb"), "wb") as f:
    f.write(glb_pack(doc, rest))
now2 = table(m.read(G + "/mobies.csv"))
check("renamed: the node is found by its extras and its moby moves", close([float(now2[3][h.index("pos_x")]) - float(now[3][h.index("pos_x")])], [2]),
      status(m))
doc, rest = glb_parts(m.read("LEVEL00/level.glb"))
target = next(n for n in doc["nodes"] if n.get("extras", {}).get("kind") == "moby" and n["extras"]["index"] == 1)
for k in range(3):
    target["matrix"][k] *= 2  # stretched along its own x axis: two scales
bad = m.path("LEVEL00/level.glb")
try:
    with open(bad, "wb") as f:
        f.write(glb_pack(doc, rest))
except OSError:  # refused: the close says EINVAL
    pass
check("an uneven scale on a moby is refused naming the node", target["name"] in status(m) and "scaled unevenly" in status(m), status(m))
check("the refused save changed nothing", table(m.read(G + "/mobies.csv")) == now2)
text = {"asset": {"version": "2.0"}, "buffers": [{"uri": "../../../../etc/passwd", "byteLength": 16}]}
try:
    with open(bad, "w") as f:
        f.write(json.dumps(text))
except OSError:
    pass
check("a .gltf naming an outside file is refused, nothing read", "outside file" in status(m), status(m))
try:
    with open(bad, "wb") as f:
        f.write(b"glTF\x02\x00\x00\x00" + b"\xff" * 100)
except OSError:
    pass
check("a damaged binary glTF is refused", "not a glTF 2.0 file" in status(m), status(m))
log = m.close()
check("the three.js mount logged no error (refusals are warnings)", "gcfs: error" not in log, log[-400:])

print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
