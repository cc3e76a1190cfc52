"""Adding and removing, not only changing (issue 53), through real mounts and
the tools a modder uses, on the demo disc and a full-scale one: a moby line
duplicated with sed and moved 5 units, a tie line deleted, a camera appended
with >>, a path point inserted with sed, a help message added in one
language, a subtitle cue taken out, and an occluded moby moved (its bit set
in every mask of the occlusion grid). Each reads back from the mount and from
a read-only mount of edited.iso; level.glb follows; gcfs verify passes
edited.iso; the levels no edit touched stay byte-identical. The mounts are
made from the disc's own folder with relative paths.
Usage: instance_rows.py GCFS WORK"""
import csv
import io
import json
import os
import shutil
import struct
import subprocess
import sys

import gcfs_mount

gcfs, work = sys.argv[1:]
work = os.path.join(work, "rows")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []


def check(name, ok, detail=""):
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else ": " + str(detail)[:400]))
    if not ok:
        failures.append(name)


def table(data):
    return list(csv.reader(io.StringIO(data.decode())))


def glb_nodes(data):
    length = struct.unpack_from("<I", data, 12)[0]
    return json.loads(data[20:20 + length])["nodes"]


def status(m, rel):
    return os.getxattr(m.path(rel), "user.gcfs.edit").decode()


def sed(m, rel, script):
    return subprocess.run(["sed", "-i", script, m.path(rel)]).returncode == 0


def masks(grid):
    """formats.md 8.1: the mask indices the grid's octants name, and where the masks start."""
    masks_at, z_count = struct.unpack_from("<iH", grid, 0)[0], struct.unpack_from("<H", grid, 6)[0]
    named = set()
    for z in struct.unpack_from("<%dH" % z_count, grid, 8):
        if not z:
            continue
        y_count = struct.unpack_from("<H", grid, 4 * z + 2)[0]
        for y in struct.unpack_from("<%dH" % y_count, grid, 4 * z + 4):
            if not y:
                continue
            x_count = struct.unpack_from("<H", grid, 4 * y + 2)[0]
            named |= {i for i in struct.unpack_from("<%dH" % x_count, grid, 4 * y + 4) if i != 0xFFFF}
    return masks_at, sorted(named)


def run(image, label, cue_file):
    folder, name = os.path.split(image)
    edits = "edits-" + label
    shutil.rmtree(os.path.join(folder, edits), ignore_errors=True)
    os.makedirs(os.path.join(folder, "mnt-" + label), exist_ok=True)
    m = gcfs_mount.Mount(gcfs, name, ["edits=" + edits], work, cwd=folder, mnt="mnt-" + label)
    g = "LEVEL00/gameplay"
    before = {rel: m.read(rel) for rel in (g + "/mobies.csv", g + "/ties.csv", g + "/cameras.csv", g + "/paths.csv",
                                           g + "/help/french.txt", g + "/help/us_english.txt", cue_file, "LEVEL00/core/occlusion.bin")}
    touched = []

    # ---- a moby with pvars duplicated with sed, the copy moved 5 units
    mobies = table(before[g + "/mobies.csv"])
    head = mobies[0]
    col = {h: i for i, h in enumerate(head)}
    line = next(n for n, r in enumerate(mobies) if n and int(r[col["pvar_index"]]) >= 0)
    source = mobies[line]
    check(label + ": sed duplicates a moby line", sed(m, g + "/mobies.csv", "%dp" % (line + 1)))
    copy = table(m.read(g + "/mobies.csv"))[line + 1]
    moved = list(copy)
    moved[col["pos_x"]] = repr(float(copy[col["pos_x"]]) + 5)
    check(label + ": sed moves the copy 5 units", sed(m, g + "/mobies.csv", "%ds/.*/%s/" % (line + 2, ",".join(moved))))
    now = table(m.read(g + "/mobies.csv"))
    largest = max(int(r[col["uid"]]) for r in mobies[1:])
    new_uid = now[line + 1][col["uid"]]
    check(label + ": the copy has the next free uid and its place", new_uid == str(largest + 1)
          and abs(float(now[line + 1][col["pos_x"]]) - (float(source[col["pos_x"]]) + 5)) < 1e-3 and len(now) == len(mobies) + 1, now[line + 1])
    check(label + ": the copy has pvars of its own, its source's bytes",
          m.read(g + "/pvars/moby_%s.bin" % new_uid) == m.read(g + "/pvars/moby_%s.bin" % source[col["uid"]]))
    touched.append(g + "/mobies.csv")
    # The copy's pvar file written as it is: its own bytes change, its source's do not.
    own = g + "/pvars/moby_%s.bin" % new_uid
    pvars = m.read(own)
    changed = pvars[:-1] + bytes([pvars[-1] ^ 0x5A])
    with open(m.path(own), "wb") as f:
        f.write(changed)
    check(label + ": the copy's pvar file reads back as written", m.read(own) == changed, status(m, own))
    check(label + ": its source's pvar file is unchanged", m.read(g + "/pvars/moby_%s.bin" % source[col["uid"]]) == pvars)
    touched.append(own)

    # ---- a tie line deleted
    ties = table(before[g + "/ties.csv"])
    tcol = {h: i for i, h in enumerate(ties[0])}
    gone_uid = ties[1][tcol["uid"]]
    check(label + ": sed deletes a tie line", sed(m, g + "/ties.csv", "2d"))
    check(label + ": ties.csv reads back one row shorter", len(table(m.read(g + "/ties.csv"))) == len(ties) - 1)
    touched.append(g + "/ties.csv")

    # ---- a camera appended with >>
    cameras = table(before[g + "/cameras.csv"])
    with open(m.path(g + "/cameras.csv"), "a") as f:
        f.write(",7,1.5,2,3,0,0,0.5,\n")
    last = table(m.read(g + "/cameras.csv"))[-1]
    check(label + ": a camera appended with >> reads back with its index", last == [str(len(cameras) - 1), "7", "1.5", "2", "3", "0", "0", "0.5", "-1"], last)
    touched.append(g + "/cameras.csv")

    # ---- a path point inserted with sed
    paths = table(before[g + "/paths.csv"])
    first_path = [r for r in paths[1:] if r[0] == "path" and r[1] == "0"]
    check(label + ": sed inserts a path point", sed(m, g + "/paths.csv", "2a path,0,,10,20,30,0"))
    after = [r for r in table(m.read(g + "/paths.csv"))[1:] if r[0] == "path" and r[1] == "0"]
    check(label + ": path 0 has one more point, the new one second", len(after) == len(first_path) + 1 and after[1] == ["path", "0", "1", "10", "20", "30", "0"], after[:3])
    touched.append(g + "/paths.csv")

    # ---- an env transition copied with sed
    transitions = table(m.read(g + "/env_transitions.csv"))
    check(label + ": sed copies an env transition", sed(m, g + "/env_transitions.csv", "2p"))
    now = table(m.read(g + "/env_transitions.csv"))
    check(label + ": the copy reads back after its source, renumbered", len(now) == len(transitions) + 1 and now[2][1:] == transitions[1][1:], now[:3])
    touched.append(g + "/env_transitions.csv")

    # ---- a point light appended with >> in world units
    lights = table(m.read(g + "/lights.csv"))
    lcol = {h: i for i, h in enumerate(lights[0])}
    light = [""] * len(lights[0])
    light[0] = "point"
    for key, value in (("pos_x", "100"), ("pos_y", "36"), ("pos_z", "10"), ("radius", "20"), ("colour_r", "1"), ("colour_g", "0.5"), ("colour_b", "0.25")):
        light[lcol[key]] = value
    with open(m.path(g + "/lights.csv"), "a") as f:
        f.write(",".join(light) + "\n")
    last = table(m.read(g + "/lights.csv"))[-1]
    check(label + ": a point light appended with >> reads back, its raw u16s as formats-gameplay.md 3.10's example",
          [last[lcol[k]] for k in ("raw_pos_x", "raw_pos_y", "raw_pos_z", "raw_radius", "raw_colour_r", "raw_colour_g", "raw_colour_b")]
          == ["6400", "2304", "640", "1280", "65535", "32768", "16384"], last)
    touched.append(g + "/lights.csv")

    # ---- a help message added in French: every language lists it
    with open(m.path(g + "/help/french.txt"), "a") as f:
        f.write("777\tUn nouveau conseil\n")
    check(label + ": the French message reads back", m.read(g + "/help/french.txt").decode().endswith("777\tUn nouveau conseil\n"))
    check(label + ": US English lists it with no text", m.read(g + "/help/us_english.txt").decode().endswith("777\t\n"))
    check(label + ": the status says the other languages got it", "the 7 other languages" in status(m, g + "/help/french.txt"), status(m, g + "/help/french.txt"))
    touched += [g + "/help/french.txt", g + "/help/us_english.txt"]

    # ---- a subtitle cue taken out, the rest renumbered as subtitle editors do
    cues = before[cue_file].decode().strip("\n").split("\n\n")
    kept = [c.split("\n", 1)[1] for c in cues[1:]]
    with open(m.path(cue_file), "w") as f:
        f.write("".join("%d\n%s\n\n" % (i + 1, c) for i, c in enumerate(kept)))
    shown_cues = m.read(cue_file).decode().strip("\n").split("\n\n")
    check(label + ": the cue is gone, the others read back", [c.split("\n", 1)[1] for c in shown_cues] == kept, shown_cues[:2])
    check(label + ": the status says the record left every language", "removed from all five languages" in status(m, cue_file), status(m, cue_file))
    touched.append(cue_file)

    # ---- an occluded moby moved: its bit set in every mask
    now = table(m.read(g + "/mobies.csv"))
    occluded = next(n for n, r in enumerate(now) if n and r[col["occlusion"]] == "0")
    row = list(now[occluded])
    row[col["pos_y"]] = repr(float(row[col["pos_y"]]) + 5)
    check(label + ": sed moves an occluded moby", sed(m, g + "/mobies.csv", "%ds/.*/%s/" % (occluded + 1, ",".join(row))))
    said = status(m, g + "/mobies.csv")
    check(label + ": the status names the visibility bit set in every mask", "set in every occlusion mask" in said, said)
    bits = [int(b) for b in said.split("visibility bit")[1].split(" set")[0].lstrip("s").split()] if "set in every" in said else []
    grid = m.read("LEVEL00/core/occlusion.bin")
    at, named = masks(grid)
    check(label + ": each mask the grid names has the bit", bits and named and all(grid[at + 128 * i + (b >> 3)] >> (b & 7) & 1 for i in named for b in bits),
          (bits, named))

    # ---- level.glb follows
    nodes = glb_nodes(m.read("LEVEL00/level.glb"))
    copy_node = [n for n in nodes if n.get("name") == "moby_%s_%s" % (new_uid, source[col["class"]])]
    place = (copy_node[0].get("translation") or copy_node[0].get("matrix", [0] * 16)[12:15]) if copy_node else None
    check(label + ": level.glb holds the copy at its new place", place and abs(place[0] - (float(source[col["pos_x"]]) + 5)) < 1e-3, place)
    check(label + ": level.glb holds no node of the deleted tie",
          not any(n.get("extras", {}).get("kind") == "tie" and str(n["extras"].get("uid")) == gone_uid for n in nodes))

    # ---- mounted again: the edits folder replays to the same files (the pvar edit after the table it rests on)
    shown = {rel: m.read(rel) for rel in touched}
    log = m.close()
    check(label + ": the mount logged no error", " error" not in log.lower(), log[-400:])
    os.makedirs(os.path.join(folder, "mnt-" + label))
    # Replaying re-encodes the level (core_data compressed again for the visibility bits): seconds
    # at full scale, more on a loaded machine.
    m = gcfs_mount.Mount(gcfs, name, ["edits=" + edits], work, cwd=folder, mnt="mnt-" + label, wait=120)
    check(label + ": mounted again, every edit replays to the same files", all(m.read(rel) == shown[rel] for rel in touched),
          [rel for rel in touched if m.read(rel) != shown[rel]])

    # ---- edited.iso: verify, a read-only mount shows every edit, untouched levels byte-identical
    edited = os.path.join(work, label + "-edited.iso")
    shutil.copyfile(m.path("edited.iso"), edited)
    check(label + ": gcfs verify passes edited.iso", subprocess.run([gcfs, "verify", edited], stdout=subprocess.DEVNULL).returncode == 0)
    ro = gcfs_mount.Mount(gcfs, edited, [], work)
    for rel in touched + ["LEVEL00/level.glb", "LEVEL00/core/occlusion.bin", "LEVEL00/occlusion.bin"]:
        check(label + ": edited.iso mounted read-only shows %s as edited" % rel, ro.read(rel) == m.read(rel))
    plain = gcfs_mount.Mount(gcfs, image, [], work)
    others = sorted(f for f in os.listdir(plain.path("disc/LEVELS")) if f.endswith(".WAD") and not f.startswith("LEVEL00."))
    check(label + ": the levels no edit touched are byte-identical in edited.iso (%d files)" % len(others),
          others and all(ro.read("disc/LEVELS/" + f) == plain.read("disc/LEVELS/" + f) for f in others))
    plain.close()
    ro.close()
    log = m.close()
    check(label + ": the second mount replayed every edit and refused none", "0 refused" in log and " error" not in log.lower(), log[-400:])


def edit_mount(image, label, wait=10):
    """A mount of `image` made from its own folder with relative paths: edits-LABEL at mnt-LABEL."""
    folder, name = os.path.split(image)
    os.makedirs(os.path.join(folder, "mnt-" + label), exist_ok=True)
    return gcfs_mount.Mount(gcfs, name, ["edits=edits-" + label], work, cwd=folder, mnt="mnt-" + label, wait=wait)


def groups_follow(image):
    """groups.csv names mobies by their row in mobies.csv: a group made after a mobies.csv edit keeps
    its mobies when mobies.csv is saved again or taken back, renumbering them (formats/gameplay/rebase.h)."""
    m = edit_mount(image, "groups")
    g = "LEVEL00/gameplay"
    mobies = table(m.read(g + "/mobies.csv"))
    col = {h: i for i, h in enumerate(mobies[0])}
    free = [n - 1 for n, r in enumerate(mobies) if n > 1 and r[col["group"]] == "-1"][-2:]
    want = [mobies[i + 1][col["uid"]] for i in free]

    def group_uids():
        rows = [r for r in table(m.read(g + "/groups.csv"))[1:] if r[0] == "moby"]
        now = table(m.read(g + "/mobies.csv"))
        return [now[int(i) + 1][col["uid"]] for i in rows[-1][3].split()] if rows else []

    check("groups: sed copies moby 0, the mobies after it move down a row", sed(m, g + "/mobies.csv", "2p"))
    with open(m.path(g + "/groups.csv"), "a") as f:
        f.write("moby,,,%d %d\n" % (free[0] + 1, free[1] + 1))
    check("groups: a moby group appended with >> lists its two mobies", group_uids() == want, (group_uids(), want, status(m, g + "/groups.csv")))
    check("groups: mobies.csv saved again without the copy", sed(m, g + "/mobies.csv", "3d"))
    check("groups: the group still lists the same two mobies, renumbered", group_uids() == want, group_uids())
    check("groups: mobies.csv saved again with the copy", sed(m, g + "/mobies.csv", "2p"))
    check("groups: the group follows again", group_uids() == want, group_uids())
    os.unlink(m.path(g + "/mobies.csv"))
    check("groups: mobies.csv taken back with rm, the group still lists them", group_uids() == want, group_uids())
    shown = m.read(g + "/groups.csv")
    m.close()
    m = edit_mount(image, "groups", wait=120)
    check("groups: mounted again, groups.csv replays as it was shown", m.read(g + "/groups.csv") == shown and group_uids() == want)
    edited = os.path.join(work, "groups-edited.iso")
    shutil.copyfile(m.path("edited.iso"), edited)
    check("groups: gcfs verify passes edited.iso", subprocess.run([gcfs, "verify", edited], stdout=subprocess.DEVNULL).returncode == 0)
    log = m.close()
    check("groups: the mounts logged no error", " error" not in log.lower(), log[-400:])


def areas_links(image):
    """areas.csv written back: an area unlinks a path, which paths.csv may then remove; an area
    appended with >> gets its counts and bounding sphere from its links (formats-gameplay.md 3.14)."""
    m = edit_mount(image, "areas")
    g = "LEVEL00/gameplay"
    areas = table(m.read(g + "/areas.csv"))
    col = {h: i for i, h in enumerate(areas[0])}
    linker = next(n for n, r in enumerate(areas) if n and r[col["paths_links"]])
    path = areas[linker][col["paths_links"]].split()[-1]
    paths = table(m.read(g + "/paths.csv"))
    linked = [r for r in areas[1:] if path in r[col["paths_links"]].split()]
    check("areas: removing a path an area links is refused", len(linked) == 1 and not sed(m, g + "/paths.csv", "/^path,%s,/d" % path)
          and "linked by area" in status(m, g + "/paths.csv"), status(m, g + "/paths.csv"))
    kept = " ".join(p for p in areas[linker][col["paths_links"]].split() if p != path)
    check("areas: sed unlinks the path from its area",
          sed(m, g + "/areas.csv", "%ds/^\\([^,]*,\\([^,]*,\\)\\{15\\}\\)[^,]*/\\1%s/" % (linker + 1, kept)), status(m, g + "/areas.csv"))
    now = table(m.read(g + "/areas.csv"))
    check("areas: the area reads back without it, its count following", now[linker][col["paths_links"]] == kept
          and now[linker][col["paths_count"]] == str(len(kept.split())), now[linker])
    check("areas: paths.csv may remove the path now", sed(m, g + "/paths.csv", "/^path,%s,/d" % path), status(m, g + "/paths.csv"))
    left = {r[1] for r in table(m.read(g + "/paths.csv"))[1:] if r[0] == "path"}
    check("areas: one path fewer", len(left) == len({r[1] for r in paths[1:] if r[0] == "path"}) - 1, left)
    # areas.csv saved again under the paths.csv edit made after it: a path link it adds would name
    # paths.csv's new numbers and is refused; a cuboid link is its own to give.
    before = m.read(g + "/areas.csv")
    subprocess.run(["sh", "-c", "echo ,,,,,,,,,,,,,,,,0,,,, >> '%s'" % m.path(g + "/areas.csv")])
    check("areas: an area linking a path, appended after paths.csv renumbered them, is refused naming paths.csv",
          m.read(g + "/areas.csv") == before and "paths.csv the path numbers" in status(m, g + "/areas.csv"), status(m, g + "/areas.csv"))
    with open(m.path(g + "/areas.csv"), "a") as f:
        f.write(",,,,,,,,,,,,,,,,,0,,,\n")
    last = table(m.read(g + "/areas.csv"))[-1]
    check("areas: an area appended with >> reads back with its counts and a sphere",
          last[0] == str(len(areas) - 1) and last[col["paths_count"]] == "0" and last[col["cuboids_count"]] == "1"
          and float(last[col["bsphere_r"]]) > 0, (last, status(m, g + "/areas.csv")))
    check("areas: the unlinked path stays unlinked, the area the paths.csv edit renumbered as it showed",
          table(m.read(g + "/areas.csv"))[1:-1] == table(before)[1:], table(m.read(g + "/areas.csv"))[:3])
    edited = os.path.join(work, "areas-edited.iso")
    shutil.copyfile(m.path("edited.iso"), edited)
    check("areas: gcfs verify passes edited.iso", subprocess.run([gcfs, "verify", edited], stdout=subprocess.DEVNULL).returncode == 0)
    shown = m.read(g + "/areas.csv")
    m.close()
    m = edit_mount(image, "areas", wait=120)
    check("areas: mounted again, areas.csv replays as it was shown", m.read(g + "/areas.csv") == shown)
    log = m.close()
    check("areas: the mount logged no error", " error" not in log.lower(), log[-400:])


def volumes_follow(image):
    """volumes.csv written back: a cuboid inserted before the others renumbers them, and the areas'
    links, the ship camera's cuboids and the camera-collision grid follow; a pill removed; a cuboid an
    area links stays (formats-gameplay.md 3.5, 3.7, 3.14, 3.16)."""
    m = edit_mount(image, "volumes")
    g = "LEVEL01/gameplay"  # odd levels name a ship path and its camera cuboids
    areas = table(m.read(g + "/areas.csv"))
    acol = {h: i for i, h in enumerate(areas[0])}
    ship = json.loads(m.read(g + "/settings.json"))["settings"]
    volumes = table(m.read(g + "/volumes.csv"))
    check("volumes: sed inserts a cuboid before the others",
          sed(m, g + "/volumes.csv", "2i cuboid,,2,0,0,0,0,2,0,0,0,0,3,0,40,50,4,0.01,,,,,,,,,,,,,0,0,0,0"), status(m, g + "/volumes.csv"))
    now = table(m.read(g + "/volumes.csv"))
    check("volumes: it reads back as cuboid 0, its inverse computed", now[1][:2] == ["cuboid", "0"] and now[1][18] == "0.5"
          and len(now) == len(volumes) + 1, now[1])
    shifted = [" ".join(str(int(i) + 1) for i in r[acol["cuboids_links"]].split()) for r in areas[1:]]
    after = table(m.read(g + "/areas.csv"))
    check("volumes: the areas' cuboid links name the same cuboids", [r[acol["cuboids_links"]] for r in after[1:]] == shifted, after[1:])
    now_ship = json.loads(m.read(g + "/settings.json"))["settings"]
    check("volumes: the ship camera's cuboids follow", now_ship["ship_camera_cuboid_start"] == ship["ship_camera_cuboid_start"] + 1
          and now_ship["ship_camera_cuboid_end"] == ship["ship_camera_cuboid_end"] + 1, now_ship)
    check("volumes: sed deletes pill 0", sed(m, g + "/volumes.csv", "/^pill,0,/d"), status(m, g + "/volumes.csv"))
    check("volumes: one pill fewer", sum(r[0] == "pill" for r in table(m.read(g + "/volumes.csv"))) == sum(r[0] == "pill" for r in volumes) - 1)
    check("volumes: deleting a cuboid an area links is refused", not sed(m, g + "/volumes.csv", "/^cuboid,1,/d")
          and "linked by area" in status(m, g + "/volumes.csv"), status(m, g + "/volumes.csv"))
    edited = os.path.join(work, "volumes-edited.iso")
    shutil.copyfile(m.path("edited.iso"), edited)
    check("volumes: gcfs verify passes edited.iso", subprocess.run([gcfs, "verify", edited], stdout=subprocess.DEVNULL).returncode == 0)
    shown = {rel: m.read(g + rel) for rel in ("/volumes.csv", "/areas.csv", "/settings.json")}
    m.close()
    m = edit_mount(image, "volumes", wait=120)
    check("volumes: mounted again, volumes.csv, areas.csv and settings.json replay as they were shown",
          all(m.read(g + rel) == shown[rel] for rel in shown))
    log = m.close()
    check("volumes: the mount logged no error", " error" not in log.lower(), log[-400:])


demo = os.path.join(work, "demo.iso")
subprocess.run([gcfs, "mkdisc", demo, "--levels", "4", "--seed", "7"], check=True, stdout=subprocess.DEVNULL)
run(demo, "demo", "global/mpeg/00.en.srt")
groups_follow(demo)
areas_links(demo)
volumes_follow(demo)
full = os.path.join(work, "full.iso")
subprocess.run([gcfs, "mkdisc", full, "--scale", "full", "--levels", "2", "--seed", "3"], check=True, stdout=subprocess.DEVNULL)
run(full, "full", "global/mpeg/00.en.srt")
print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
