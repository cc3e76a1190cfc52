"""What the class import tests (tie_import.py, shrub_import.py) read back:
a class OBJ's triangles with their materials and UVs, the comparison within
half a quantum, the meshes level.glb's instance nodes show, and a class's
row of its CSV."""
import csv
import json
import struct


def parse(text):
    """An OBJ's triangles as (material, ((x, y, z, u, v) x 3)) and its scale comment's value (None when it has none)."""
    positions, uvs, triangles, material, scale = [], [], [], "", None
    for line in text.splitlines():
        part = line.split()
        if not part:
            continue
        if part[0] == "#" and "x scale" in line:
            scale = float(line.split("x scale")[1].split("/")[0])
        elif part[0] == "v":
            positions.append(tuple(map(float, part[1:4])))
        elif part[0] == "vt":
            uvs.append(tuple(map(float, part[1:3])))
        elif part[0] == "usemtl":
            material = part[1]
        elif part[0] == "f":
            refs = [c.split("/") for c in part[1:]]
            corners = [positions[int(r[0]) - 1] + (uvs[int(r[1]) - 1] if len(r) > 1 and r[1] else (0.0, 0.0)) for r in refs]
            for k in range(1, len(corners) - 1):
                triangles.append((material, (corners[0], corners[k], corners[k + 1])))
    return triangles, scale


def same_triangles(got, want, quantum, material=None):
    """"" when `got` holds each of `want`'s triangles once, wound the same way, every corner within half of
    `quantum` and every UV within half of 1/4096; `material`, when given, stands for every wanted one."""
    if len(got) != len(want):
        return "%d triangles, %d written" % (len(got), len(want))
    left = list(got)
    for wanted, corners in want:
        wanted = material or wanted

        def near(face):
            if face[0] != wanted:
                return False
            for turn in range(3):  # the same winding, any first corner
                turned = face[1][turn:] + face[1][:turn]
                if all(all(abs(g[k] - w[k]) <= quantum / 2 + 1e-5 for k in range(3)) and all(abs(g[k] - w[k]) <= 1 / 8192 + 1e-5 for k in (3, 4))
                       for g, w in zip(turned, corners)):
                    return True
            return False
        match = next((f for f in left if near(f)), None)
        if match is None:
            return "no triangle read back like %s %s" % (wanted, corners)
        left.remove(match)
    return ""


def instance_meshes(glb, prefix):
    """The (vertex, index) counts of the meshes level.glb's nodes named prefix_<n> show."""
    length, _ = struct.unpack_from("<II", glb, 12)
    doc = json.loads(glb[20:20 + length])
    shown = set()
    for node in doc["nodes"]:
        if node.get("name", "").startswith(prefix + "_") and "mesh" in node:
            prims = doc["meshes"][node["mesh"]]["primitives"]
            shown.add((sum(doc["accessors"][p["attributes"]["POSITION"]]["count"] for p in prims),
                       sum(doc["accessors"][p["indices"]]["count"] for p in prims if "indices" in p)))
    return shown


def class_row(mount, kind, klass):
    """The row of LEVEL00/<kind>s/<kind>s.csv for class `klass`, as a dict."""
    with open(mount.path("LEVEL00/%ss/%ss.csv" % (kind, kind)), newline="") as f:
        return next(r for r in csv.DictReader(f) if r["class"] == str(klass))
