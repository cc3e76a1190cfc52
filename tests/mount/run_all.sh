#!/usr/bin/env bash
# Real-mount tests: mount a built disc through the kernel and check it with
# ordinary tools. Needs root (or fuse group) and /dev/fuse.
# Usage: run_all.sh PATH/TO/gcfs
set -u
GCFS=$(readlink -f "$1")
WORK=$(mktemp -d /tmp/gcfs-mount-test.XXXXXX)
MNT=$WORK/mnt
# The persistent index of every mount here goes in the test's own folder, not the user's cache.
export XDG_CACHE_HOME=$WORK/xdg-cache
source "$(dirname "$0")/lib.sh"
cleanup() { unmount "$MNT" 2>/dev/null; unmount "$WORK/mnt2" 2>/dev/null; unmount "$WORK/mnt3" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

mkdir -p "$MNT"
"$GCFS" mkdisc "$WORK/disc.iso" --levels 4 --seed 7 --originals "$WORK/orig" >/dev/null || { echo "mkdisc failed"; exit 1; }
IMAGE=$WORK/disc.iso

check "isoinfo (genisoimage) lists the built image" bash -c "isoinfo -l -i '$IMAGE' | grep -q 'LEVEL00.WAD;1'"

# ---- mount and browse
check "mount daemonizes and returns 0" "$GCFS" mount "$IMAGE" "$MNT"
check "mount is up" wait_mounted "$MNT"
check "mounting decoded nothing" grep -qx "cache_misses 0" "$MNT/.gcfs/stats"
for p in README.txt disc/SYSTEM.CNF disc/RC2.HDR global/mpeg.wad LEVEL00/header.bin \
         LEVEL00/data.bin LEVEL00/core_data.wad LEVEL00/core_data.bin LEVEL00/core_index.bin LEVEL00/gameplay.bin \
         LEVEL00/sound_bank.bin LEVEL00/core/tfrag.bin LEVEL00/collision.mtl .gcfs/stats; do
    check "tree has $p" test -e "$MNT/$p"
done
check "by-id/30 is a symlink to the museum's folder" test "$(readlink "$MNT/by-id/30")" = "../LEVEL03"
check "by-id/30 resolves" test -f "$MNT/by-id/30/core_data.bin"
check "by-name/Insomniac Museum is a symlink to the same folder (formats.md 2.4's name of id 30)" \
    test "$(readlink "$MNT/by-name/Insomniac Museum")" = "../LEVEL03"
check "README.txt's level table names each level" bash -c "grep -q '^LEVEL01 .* Oozla\$' '$MNT/README.txt' && grep -q '^LEVEL03 .* Insomniac Museum\$' '$MNT/README.txt'"
check "stat of extents decoded nothing" grep -qx "cache_misses 0" "$MNT/.gcfs/stats"
# info.json (occlusion, sky and gameplay summaries) and collision.obj (its
# size) need the core's head: tfrag, occlusion, sky, collision (§6.2 order),
# and the gameplay stream; level.glb's size (its scene built once without
# images) needs the tfrag region and the class window too. Listing a level
# decodes exactly those, once each, and a helper the same for the next level
# (tree/index/index_ahead.h), and nothing of any other level.
level_ls_decodes_its_scene_sources() {
    ls -l "$MNT/LEVEL01" "$MNT/LEVEL01/core" >/dev/null && ls -l "$MNT/LEVEL01" >/dev/null || return 1
    python3 - "$MNT" <<'PY'
import csv, json, os, sys, time
mnt = sys.argv[1]
def stats():
    return dict(line.split(" ", 1) for line in open(os.path.join(mnt, ".gcfs/stats")).read().splitlines() if " " in line)
before, now = None, stats()
while now != before:  # the helpers are done when the counters stop moving
    time.sleep(0.5)
    before, now = now, stats()
def sources(level):
    regions = json.load(open(os.path.join(mnt, level, "info.json")))["core"]["regions"]
    head = regions["collision"]["offset_bytes"] + regions["collision"]["size_bytes"] - \
        min(regions[k]["offset_bytes"] for k in ("occlusion", "sky", "collision") if k in regions)
    tfrag = regions["tfrag"]["size_bytes"]
    gameplay = os.stat(os.path.join(mnt, level, "gameplay.bin")).st_size
    rows = [r for k in ("ties", "shrubs") for r in csv.DictReader(open(os.path.join(mnt, level, k, k + ".csv")))]
    offsets = [int(r["offset_in_core_data"], 16) for k in ("mobies", "ties", "shrubs")
               for r in csv.DictReader(open(os.path.join(mnt, level, "classes", k + ".csv")))]
    window = max(int(r["core_offset"], 16) + int(r["extent"]) for r in rows) - min(o for o in offsets if o > 0)
    print(level, "head", head, "tfrag", tfrag, "gameplay", gameplay, "classes", window)
    return head + tfrag + gameplay + window
expected = sum(sources(level) for level in ("LEVEL01", "LEVEL02"))
after = stats()
print("misses", now["cache_misses"], "decoded", now["bytes_decoded"], "expected", expected)
sys.exit(0 if now == after and int(now["cache_misses"]) == 8 and int(now["bytes_decoded"]) == expected else 1)
PY
}
check "ls -l of a level decodes its own and the next level's core head, tfrag region, class window and gameplay, once each" level_ls_decodes_its_scene_sources
check "tree has LEVEL00/info.json and LEVEL00/collision.obj" test -s "$MNT/LEVEL00/info.json" -a -s "$MNT/LEVEL00/collision.obj"
check "find lists the whole tree" test "$(find "$MNT" | wc -l)" -gt 100
# OBJ sizes need the patch data: listing a tfrag/ folder (find above, with
# READDIRPLUS) or ls -lR decodes that level's tfrag region, listing the
# level its core's occlusion, sky and collision regions, listing gameplay/ its gameplay
# stream, and listing ties/ or shrubs/ the core up to its last class (one
# window for both: WAD LZ decodes from the start), each once, nothing else.
ls_lR_decodes_only_core_heads() {
    ls -lR "$MNT" >/dev/null || return 1
    python3 - "$MNT" <<'PY'
import csv, json, os, sys
mnt = sys.argv[1]
levels = sorted(d for d in os.listdir(mnt) if d.startswith("LEVEL"))
regions = [json.load(open(os.path.join(mnt, l, "info.json")))["core"]["regions"] for l in levels]
tfrag = sum(r["tfrag"]["size_bytes"] for r in regions)
heads = sum(r["collision"]["offset_bytes"] + r["collision"]["size_bytes"] -  # the occlusion, sky and collision regions
            min(r[k]["offset_bytes"] for k in ("occlusion", "sky", "collision") if k in r) for r in regions)
core = sum(os.stat(os.path.join(mnt, l, "core_data.bin")).st_size for l in levels)
gameplay = sum(os.stat(os.path.join(mnt, l, "gameplay.bin")).st_size for l in levels)
def class_window(level):  # the first class of any table (classes/) to the end of the last tie or shrub extent
    rows = [r for k in ("ties", "shrubs") for r in csv.DictReader(open(os.path.join(mnt, level, k, k + ".csv")))]
    offsets = [int(r["offset_in_core_data"], 16) for k in ("mobies", "ties", "shrubs")
               for r in csv.DictReader(open(os.path.join(mnt, level, "classes", k + ".csv")))]
    return max(int(r["core_offset"], 16) + int(r["extent"]) for r in rows) - min(o for o in offsets if o > 0)
classes = sum(class_window(l) for l in levels)  # the cache counts the bytes each decode keeps
stats = dict(line.split(" ", 1) for line in open(os.path.join(mnt, ".gcfs/stats")).read().splitlines() if " " in line)
misses, decoded = int(stats["cache_misses"]), int(stats["bytes_decoded"])
print("misses", misses, "decoded", decoded, "tfrag regions", tfrag, "core heads", heads, "gameplay", gameplay, "class windows", classes,
      "cores", core)
sys.exit(0 if misses == 4 * len(levels) and decoded == tfrag + heads + gameplay + classes and heads < core else 1)
PY
}
check "ls -lR decodes only each level's tfrag region, core head, gameplay and class window, once each" ls_lR_decodes_only_core_heads
check "a second ls -lR decodes nothing more" bash -c "before=\$(grep cache_misses '$MNT/.gcfs/stats'); ls -lR '$MNT' >/dev/null; test \"\$before\" = \"\$(grep cache_misses '$MNT/.gcfs/stats')\""

# ---- raw extents equal the image bytes at the header's sector offsets
raw_extents_match() {
    python3 - "$IMAGE" "$MNT" <<'PY'
import json, sys, os
image, mnt = sys.argv[1], sys.argv[2]
bad = 0
with open(image, "rb") as img:
    for level in sorted(d for d in os.listdir(mnt) if d.startswith("LEVEL")):
        info = json.load(open(os.path.join(mnt, level, "info.json")))
        base = info["container"]["offset_bytes"]
        for name, ext in info["header"]["extents"].items():
            fname = "gameplay.wad" if name == "gameplay" else name + ".bin"
            img.seek(base + ext["offset_bytes"])
            want = img.read(ext["size_bytes"])
            got = open(os.path.join(mnt, level, fname), "rb").read()
            if want != got:
                print("mismatch", level, fname); bad += 1
        lump = info["container"]["offset_bytes"] + info["header"]["extents"]["data"]["offset_bytes"]
        for name, sec in info["data_lump"].items():
            fname = name + (".wad" if sec["compressed"] else ".bin")
            img.seek(lump + sec["offset_bytes"])
            if img.read(sec["size_bytes"]) != open(os.path.join(mnt, level, fname), "rb").read():
                print("mismatch", level, fname); bad += 1
sys.exit(1 if bad else 0)
PY
}
check "every raw extent equals the image at its sector offset" raw_extents_match
for level in LEVEL00 LEVEL01 LEVEL02 LEVEL03; do
    check "$level core_data.bin equals the builder's original" cmp "$MNT/$level/core_data.bin" "$WORK/orig/$level/core_data.bin"
    check "$level gameplay.bin equals the builder's original" cmp "$MNT/$level/gameplay.bin" "$WORK/orig/$level/gameplay.bin"
    check "$level stat size of core_data.bin is the decoded size" \
        test "$(stat -c %s "$MNT/$level/core_data.bin")" = "$(stat -c %s "$WORK/orig/$level/core_data.bin")"
done
marker=$(cat "$WORK/orig/LEVEL02/marker.txt")
check "grep -r finds the marker planted inside a compressed core" \
    bash -c "grep -rlF '$marker' '$MNT/LEVEL02' | grep -qx '$MNT/LEVEL02/core_data.bin'"
check "the marker is not in the compressed stream itself" bash -c "! grep -qF '$marker' '$MNT/LEVEL02/core_data.wad'"
# ---- gameplay/: decoded tables, help text and OBJs through the kernel
check "grep -r finds the planted help phrase under gameplay/help/" \
    bash -c "grep -rlF 'GCFS help phrase for level 02' '$MNT/LEVEL02/gameplay/help' | grep -qx '$MNT/LEVEL02/gameplay/help/us_english.txt'"
gameplay_csvs_parse() {
    python3 - "$MNT" <<'PY'
import csv, glob, json, os, sys
mnt = sys.argv[1]
for level in sorted(glob.glob(mnt + "/LEVEL*")):
    g = level + "/gameplay"
    for path in glob.glob(g + "/*.csv"):
        rows = list(csv.reader(open(path, newline="")))
        assert rows and all(len(r) == len(rows[0]) for r in rows), path
        assert os.path.getsize(path) == len(open(path, "rb").read()), path
    mobies = list(csv.DictReader(open(g + "/mobies.csv", newline="")))
    assert len(mobies) > 0 and all(r["size"] == "136" for r in mobies), level
    pvars = [r for r in mobies if int(r["pvar_index"]) >= 0]
    assert len(os.listdir(g + "/pvars")) == len(pvars), level
    assert json.load(open(g + "/settings.json"))["present"], level
    assert len(os.listdir(g + "/help")) == 8, level
PY
}
check "every gameplay CSV parses with Python's csv module, row counts match the pvars and help folders" gameplay_csvs_parse
# Blender's importer: one object per volume with the file's vertices and
# faces, one object per path with one edge between each pair of points.
blender_reads_gameplay_objs() {
    local g=$MNT/LEVEL01/gameplay
    local vol paths
    vol=$(blender -b --python "$(dirname "$0")/blender_import.py" -- "$g/volumes.obj" 2>&1 | grep '^BLENDER')
    paths=$(blender -b --python "$(dirname "$0")/blender_import.py" -- "$g/paths.obj" 2>&1 | grep '^BLENDER')
    python3 - "$g" "$vol" "$paths" <<'PY'
import csv, sys
g, vol, paths = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
field = lambda words, k: int([w for w in words if w.startswith(k + "=")][0].split("=")[1])
lines = open(g + "/volumes.obj").read().splitlines()
volumes = len(list(csv.DictReader(open(g + "/volumes.csv", newline=""))))
points = [r for r in csv.DictReader(open(g + "/paths.csv", newline="")) if r["kind"] == "path"]
path_count = len({r["path"] for r in points})
print("blender:", sys.argv[2], "|", sys.argv[3], "| csv:", volumes, "volumes,", path_count, "paths,", len(points), "points")
sys.exit(0 if field(vol, "objects") == volumes and field(vol, "vertices") == sum(l.startswith("v ") for l in lines)
         and field(vol, "faces") == sum(l.startswith("f ") for l in lines)
         and field(paths, "objects") == path_count and field(paths, "edges") == len(points) - path_count else 1)
PY
}
check "Blender imports volumes.obj and paths.obj: an object per volume and per path, every face and edge" blender_reads_gameplay_objs
# sky/: assimp and Blender load sky.obj with info.json's sky totals, every
# material resolved to a PNG beside it that pngcheck accepts.
sky_obj_loads() {
    local s=$MNT/LEVEL00/sky
    pngcheck -q "$s"/sky_*.png >/dev/null || return 1
    local blender
    blender=$(blender -b --python "$(dirname "$0")/blender_import.py" -- "$s/sky.obj" 2>&1 | grep '^BLENDER ')
    python3 - "$MNT/LEVEL00/info.json" "$s" "$blender" "$(assimp info "$s/sky.obj" 2>&1)" <<'PY'
import json, os, re, sys
sky = json.load(open(sys.argv[1]))["sky"]
mtl = open(os.path.join(sys.argv[2], "sky.mtl")).read()
maps = re.findall(r"map_Kd (\S+)", mtl)
blender = dict(kv.split("=") for kv in sys.argv[3].split()[1:])
faces = int(re.search(r"Faces:\s+(\d+)", sys.argv[4]).group(1))
print("info.json:", sky["vertices"], sky["triangles"], "| blender:", sys.argv[3], "| assimp faces:", faces, "| maps:", len(maps))
sys.exit(0 if sky["ok"] and int(blender["vertices"]) == sky["vertices"] and int(blender["faces"]) == sky["triangles"]
         and faces == sky["triangles"] and maps and all(os.path.exists(os.path.join(sys.argv[2], m)) for m in maps)
         and int(blender["images"]) > 0 else 1)
PY
}
check "sky.obj: assimp and Blender load info.json's sky totals, every texture map a PNG pngcheck accepts" sky_obj_loads
check "assimp reads paths.obj and volumes.obj" bash -c "assimp info '$MNT/LEVEL00/gameplay/volumes.obj' >/dev/null && assimp info '$MNT/LEVEL00/gameplay/paths.obj' >/dev/null"
check "cp -r copies a level out" cp -r "$MNT/LEVEL01" "$WORK/copy"
check "the copy equals the mount" diff -r "$MNT/LEVEL01" "$WORK/copy"

concurrent_cats_agree() {
    local f=$MNT/LEVEL03/core_data.bin
    for i in $(seq 8); do cat "$f" | md5sum > "$WORK/sum.$i" & done
    wait
    test "$(cat "$WORK"/sum.* | sort -u | wc -l)" = 1 && test "$(cut -d' ' -f1 "$WORK/sum.1")" = "$(md5sum < "$WORK/orig/LEVEL03/core_data.bin" | cut -d' ' -f1)"
}
check "8 concurrent cats of one extent give identical, correct bytes" concurrent_cats_agree

# ---- tfrag terrain: OBJ files agree with gcfs verify and with a third-party reader
check "gcfs verify passes the built disc" bash -c "'$GCFS' verify '$IMAGE' > '$WORK/verify.txt'"
check "gcfs verify --checks lists each level's occlusion, sky and collision checks, all ok" \
    bash -c "'$GCFS' verify --checks '$IMAGE' > '$WORK/checks.txt' && for c in 'occlusion grid parses' 'sky parses' 'collision parses' 'core head decode equals the core'; do test \$(grep -c \"^LEVEL0. *ok *\$c: \" '$WORK/checks.txt') = 4 || exit 1; done && ! grep -q FAILED '$WORK/checks.txt'"
verify_field() { grep "^$1 " "$WORK/verify.txt" | awk -v c="$2" '{gsub(",", "", $c); print $c}'; }
# ties/, shrubs/ and mobies/: every class OBJ at every LOD through assimp and
# Blender with the totals verify prints for it, every material with its image,
# the billboards through pngcheck, the skeletons as JSON (formats-tie-sky.md A,
# formats-shrub.md, formats-moby.md).
for level in LEVEL00 LEVEL03; do
    check "$level ties/, shrubs/, mobies/: assimp and Blender load every class OBJ with verify's totals, materials and images" \
        python3 "$(dirname "$0")/class_models.py" "$MNT" $level "$WORK/checks.txt" "$(dirname "$0")/blender_import.py"
done
check "class lines in verify --checks: 5 mobies, 3 ties and 2 shrubs per level, all ok" \
    bash -c "test \$(grep -c '^LEVEL0. *ok *moby class ' '$WORK/checks.txt') = 20 && test \$(grep -c '^LEVEL0. *ok *tie class ' '$WORK/checks.txt') = 12 && test \$(grep -c '^LEVEL0. *ok *shrub class ' '$WORK/checks.txt') = 8"
# level.glb: the whole level as one glTF scene, checked by the Khronos
# validator and by Blender's importer against the totals verify prints.
GLTF_VALIDATOR=$(dirname "$0")/../gltf/validate.mjs
check "every level.glb and collision.glb: the glTF validator finds no error or warning, Blender makes an object per instance with verify's totals, OBJs land upright where the scenes put them" \
    python3 "$(dirname "$0")/level_scene.py" "$MNT" "$WORK/checks.txt" "$(dirname "$0")/blender_scene.py" "$GLTF_VALIDATOR"
# Rigged mobies (formats-moby.md 8.7, 11, 12): every class .glb of both LODs validated
# copied out alone, one skin for the class and its bangles against skeleton.json,
# weights summing to 1, the worm and the bangles posed in Blender.
check "every LEVELnn/mobies/moby_<class>.glb and low/moby_<class>.glb, copied out alone: the glTF validator finds no error or warning and nothing outside the file, one skin per file matching skeleton.json, weights sum to 1, Blender makes one armature whose bones move exactly the vertices weighted to them, the bangles' too; the four-deep turned, scaled chains' rest pose is the OBJ in Blender and three.js, and a bone turns its vertices about the joint's bind position" \
    python3 "$(dirname "$0")/rigged_mobies.py" "$MNT" "$GLTF_VALIDATOR" "$(dirname "$0")/blender_pose.py"
# Sound and video (formats-globals.md 1-4): ffmpeg, ffprobe, Python's wave and
# numpy (Debian's python3, where python3-numpy is) against every VAG, WAV, PSS and SRT.
check "global/audio and every LEVELnn/audio: ffmpeg decodes each VAG to gcfs's WAV sample for sample, the tone is the one its name states, wave reads each WAV at its stat size; ffprobe reads every PSS and SRT" \
    /usr/bin/python3 "$(dirname "$0")/audio_video.py" "$MNT"
check "gcfs verify reads every file of every opened global/ folder, all ok" \
    bash -c "for g in armor audio bonus hud misc mpeg; do grep -Eq \"^global/\$g +[0-9,]+ +[0-9,]+  ok\$\" '$WORK/verify.txt' || exit 1; done"
# global/armor (formats-globals.md 6): assimp reads each model's OBJs and glbs (one per LOD) with
# armor.csv's triangles, the Khronos validator passes each glb; global/misc (8): readelf reads every IOP
# module and the rebuilt frontbin.elf, whose sections carry the level overlay's names.
armor_models_load() {
    python3 - "$MNT/global/armor" "$GLTF_VALIDATOR" <<'PY'
import csv, glob, os, re, subprocess, sys
folder, validator = sys.argv[1:]
problems = []
def assimp_faces(path):
    out = subprocess.run(["assimp", "info", path], capture_output=True, text=True).stdout
    m = re.search(r"^Faces:\s+(\d+)", out, re.M)
    return int(m.group(1)) if m else -1
for row in csv.DictReader(open(os.path.join(folder, "armor.csv"), newline="")):
    name = row["model"]
    if row["status"] != "ok":
        problems.append("%s: %s" % (name, row["error"]))
        continue
    low = int(row["low_triangles"])
    for path, want in ((os.path.join(folder, name + ".obj"), int(row["high_triangles"])), (os.path.join(folder, name + ".glb"), int(row["high_triangles"])),
                       (os.path.join(folder, "low", name + ".obj"), low), (os.path.join(folder, "low", name + ".glb"), low)):
        if os.path.exists(path) != (want > 0) or (want > 0 and assimp_faces(path) != want):
            problems.append("%s: assimp reads %d faces, armor.csv says %d" % (path, assimp_faces(path) if os.path.exists(path) else 0, want))
glbs = sorted(glob.glob(os.path.join(folder, "*.glb")) + glob.glob(os.path.join(folder, "low", "*.glb")))
v = subprocess.run(["node", validator] + glbs, capture_output=True, text=True)
if v.returncode != 0 or not glbs:
    problems.append(v.stdout[-600:])
print("\n".join(problems) or "%d models" % len(glbs))
sys.exit(1 if problems else 0)
PY
}
check "global/armor: assimp reads every model OBJ and glb with armor.csv's triangles, the glTF validator finds no error or warning" armor_models_load
readelf_reads_misc() {
    local f n=0
    for f in "$MNT"/global/misc/irx/*.irx "$MNT/global/misc/frontbin.elf"; do
        readelf -W -h -S "$f" >/dev/null 2>"$WORK/readelf.err" && ! grep -q . "$WORK/readelf.err" || { echo "$f: $(cat "$WORK/readelf.err")"; return 1; }
        n=$((n + 1))
    done
    [ $n -ge 2 ] && readelf -W -S "$MNT/global/misc/frontbin.elf" | grep -q ' lvl.camvtbl ' && readelf -W -l "$MNT/global/misc/frontbin.elf" | grep -q LOAD
}
check "global/misc: readelf reads every .irx and frontbin.elf without a warning; frontbin.elf has the overlay's sections and a LOAD segment" readelf_reads_misc
readelf_reads_overlays() {
    local f n=0
    for f in "$MNT"/LEVEL0?/overlay.elf; do
        readelf -W -h -S -l "$f" >/dev/null 2>"$WORK/readelf.err" && ! grep -q . "$WORK/readelf.err" || { echo "$f: $(cat "$WORK/readelf.err")"; return 1; }
        readelf -W -S "$f" | grep -q ' lvl.sndvtbl ' && readelf -W -l "$f" | grep -q LOAD || { echo "$f: no overlay sections or LOAD"; return 1; }
        n=$((n + 1))
    done
    [ $n = 4 ]
}
check "every level's overlay.elf: readelf reads it without a warning, with the overlay's sections and a LOAD segment" readelf_reads_overlays
check "PIL plays every particles/NNN.png frame for frame as particles/NNN/, and reads every transition/NN.png as its PIF" \
    /usr/bin/python3 "$(dirname "$0")/particles.py" "$MNT"
gameplay_rows_match_verify() {
    for level in LEVEL00 LEVEL01 LEVEL02 LEVEL03; do
        local g=$MNT/$level/gameplay
        for pair in "mobies 8" "ties 9" "shrubs 10"; do
            set -- $pair
            rows=$(python3 -c "import csv,sys; print(len(list(csv.DictReader(open(sys.argv[1], newline='')))))" "$g/$1.csv")
            [ "$rows" = "$(verify_field "$level" "$2")" ] || { echo "$level $1.csv: $rows rows, verify: $(verify_field "$level" "$2")"; return 1; }
        done
    done
}
check "gameplay mobies.csv, ties.csv, shrubs.csv rows equal the instances gcfs verify prints" gameplay_rows_match_verify
tfrag_files_match_verify() {
    local level=$1 patches
    patches=$(verify_field "$level" 4)
    [ "$patches" -gt 0 ] || return 1
    for dir in tfrag tfrag/lod1 tfrag/lod2; do
        [ "$(ls "$MNT/$level/$dir"/patch_*.obj | wc -l)" = "$patches" ] || { echo "$dir: wrong file count"; return 1; }
    done
    [ "$(tail -n +2 "$MNT/$level/tfrag/patches.csv" | grep -c ',ok,')" = "$patches" ]
}
# assimp reads terrain.obj as meant: its faces are verify's triangles, every
# material of the file loads with its texture map, and the file's "v" lines are
# verify's vertices. (assimp's own vertex total is not compared: with texture
# coordinates it splits vertices by its own rules, 17 for a 15-vertex patch.)
assimp_matches_verify() {
    local level=$1 info
    info=$(assimp info "$MNT/$level/tfrag/terrain.obj" 2>&1) || return 1
    python3 - "$MNT/$level/tfrag/terrain.obj" "$(verify_field "$level" 5)" "$(verify_field "$level" 6)" <<PY
import sys
path, want_vertices, want_faces = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
info = """$info"""
field = lambda name: int(next(l.split()[1] for l in info.splitlines() if l.startswith(name + ":")))
v_lines, f_lines, materials = 0, 0, set()
for line in open(path):
    if line.startswith("v "): v_lines += 1
    elif line.startswith("f "): f_lines += 1
    elif line.startswith("usemtl "): materials.add(line.split()[1])
print("assimp: %d faces, %d materials, %d texture maps; file: %d v lines, %d f lines, %d materials; verify: %d, %d"
      % (field("Faces"), field("Materials"), info.count("\$tex.file"), v_lines, f_lines, len(materials),
         want_vertices, want_faces))
ok = (field("Faces") == want_faces == f_lines and v_lines == want_vertices and field("Materials") == len(materials)
      and info.count("\$tex.file") == len(materials))
sys.exit(0 if ok else 1)
PY
}
# Blender's own OBJ importer: verify's vertex and face totals, every material
# with its image loaded from textures/, texture coordinates and vertex colours.
blender_matches_verify() {
    local level=$1 line materials
    line=$(blender -b --python "$(dirname "$0")/blender_import.py" -- "$MNT/$level/tfrag/terrain.obj" 2>&1 | grep '^BLENDER ')
    materials=$(grep -c '^newmtl' "$MNT/$level/tfrag/terrain.mtl")
    echo "$line; verify: $(verify_field "$level" 5) vertices, $(verify_field "$level" 6) faces; mtl: $materials"
    [ "$line" = "BLENDER vertices=$(verify_field "$level" 5) faces=$(verify_field "$level" 6) materials=$materials images=$materials uv=1 colours=1" ]
}
for level in LEVEL00 LEVEL01 LEVEL02 LEVEL03; do
    check "$level Blender imports terrain.obj: verify's totals, every material and image, UVs, colours" \
        blender_matches_verify $level
    check "$level tfrag/ has one OBJ per patch at each LOD and a csv row each" tfrag_files_match_verify $level
    check "$level assimp info terrain.obj agrees with verify, with its materials and texture maps" assimp_matches_verify $level
done
# collision.obj as assimp and Blender read it: info.json's merged counts
# (assimp splits quads into two triangles; Blender keeps them), one material
# per surface type plus the hero groups', and one object per hero group.
collision_readers_agree() {
    local level=$1 info line
    info=$(assimp info "$MNT/$level/collision.obj" 2>&1) || return 1
    line=$(blender -b --python "$(dirname "$0")/blender_import.py" -- "$MNT/$level/collision.obj" 2>&1 | grep '^BLENDER ')
    python3 - "$MNT/$level/info.json" "$line" <<PY
import json, sys
c = json.load(open(sys.argv[1]))["collision"]
info = """$info"""
field = lambda name: int(next(l.split()[1] for l in info.splitlines() if l.startswith(name + ":")))
blender = dict(kv.split("=") for kv in sys.argv[2].split()[1:])
want_faces = 2 * c["quads"] + c["triangles"] + c["hero_triangles"]
want_materials = c["surface_types"] + (1 if c["hero_groups"] else 0)
print("assimp: %d faces, %d materials; blender: %s; info.json: %s" % (field("Faces"), field("Materials"), blender, c))
ok = (c["ok"] and field("Faces") == want_faces and field("Materials") == want_materials
      and int(blender["vertices"]) == c["vertices"] + c["hero_vertices"]
      and int(blender["faces"]) == c["quads"] + c["triangles"] + c["hero_triangles"]
      and int(blender["materials"]) == want_materials and c["hero_groups"] == 2 and c["quads"] > 0)
sys.exit(0 if ok else 1)
PY
}
check "LEVEL02 collision.obj: assimp and Blender load info.json's faces, vertices and materials" collision_readers_agree LEVEL02
check "info.json parses the occlusion grid and the sky of every level" bash -c "for l in '$MNT'/LEVEL0?; do python3 -c '
import json, sys
i = json.load(open(sys.argv[1]))
o, s = i[\"occlusion\"], i[\"sky\"]
sys.exit(0 if o[\"ok\"] and o[\"masks\"] > 0 and s[\"ok\"] and s[\"shell_count\"] == len(s[\"shells\"]) > 0 and i[\"ok\"] else 1)
' \"\$l/info.json\" || exit 1; done"
generated_sizes_exact() {
    local f n=0
    while IFS= read -r f; do
        [ "$(stat -c %s "$f")" = "$(wc -c < "$f")" ] || { echo "size differs: $f"; return 1; }
        n=$((n + 1))
    done < <(find "$MNT" -name '*.obj' -o -name '*.csv' -o -name '*.png')
    [ $n -gt 200 ]
}
check "every OBJ, CSV and PNG has its stat size exactly" generated_sizes_exact
check "pngcheck validates every texture" bash -c "find '$MNT' -name '*.png' | grep -q . && find '$MNT' -name '*.png' -print0 | xargs -0 pngcheck -q"
check "each level has a 256x256 preview.png" \
    bash -c "for l in '$MNT'/LEVEL0?; do pngcheck \"\$l/preview.png\" | grep -q '(256x256, 8-bit palette+trns' || exit 1; done"
check "classes/ holds the class and texture tables" \
    bash -c "ls '$MNT/LEVEL02/classes' | tr '\n' ' ' | grep -qx 'mobies.csv shrubs.csv textures.csv ties.csv '"
check "textures.csv lists every PNG of textures/ but the particle and fx ones, which come from the banks" \
    test "$(grep -cE '^(tfrag|moby|tie|shrub),' "$MNT/LEVEL02/classes/textures.csv")" = "$(ls "$MNT/LEVEL02/textures" | grep -cvE '^(part|fx)_')"
check "assimp opens a single LOD-1 patch" assimp info "$MNT/LEVEL02/tfrag/lod1/patch_0003.obj"
check "grep -r finds a patch by its comment header" \
    bash -c "grep -rl 'tfrag patch 5 of LEVEL01' '$MNT/LEVEL01/tfrag' | grep -qx '$MNT/LEVEL01/tfrag/patch_0005.obj'"
check "cp -r copies the tfrag folder" bash -c "cp -r '$MNT/LEVEL02/tfrag' '$WORK/tfrag-copy' && diff -r '$MNT/LEVEL02/tfrag' '$WORK/tfrag-copy'"
check "gcfs extract (no mount) writes what the mount shows" \
    bash -c "'$GCFS' extract '$IMAGE' LEVEL03 '$WORK/extracted' 2>'$WORK/extract-clean.err' && diff -r --exclude=info.json '$MNT/LEVEL03' '$WORK/extracted/LEVEL03'"
check "gcfs extract prints no progress when stderr is not a terminal" test ! -s "$WORK/extract-clean.err"

# user.gcfs.* attributes, read through the kernel: every file has all six;
# a raw file's image bytes are exactly its content; a decoded file names the
# same image bytes as the stream it is decoded from; everything is "ok".
xattrs_tell_the_truth() {
    python3 - "$MNT" "$IMAGE" <<'PY'
import os, re, sys
mnt, image = sys.argv[1:]
img = open(image, "rb").read()
names = ["user.gcfs.container", "user.gcfs.sectors", "user.gcfs.decoder", "user.gcfs.source", "user.gcfs.status", "user.gcfs.what"]
raw = decoded = 0
ranges = {}
for root, dirs, files in os.walk(mnt):
    for d in dirs:
        if [n for n in os.listxattr(os.path.join(root, d), follow_symlinks=False) if n.startswith("user.gcfs.")]:
            sys.exit("directory with attributes: " + d)
    for f in files:
        path = os.path.join(root, f)
        if os.path.islink(path): continue
        rel = os.path.relpath(path, mnt)
        attrs = {n: os.getxattr(path, n).decode() for n in os.listxattr(path)}
        if sorted(attrs) != sorted(names): sys.exit("%s has %s" % (rel, sorted(attrs)))
        if not attrs["user.gcfs.status"].startswith("ok"): sys.exit("%s: %s" % (rel, attrs["user.gcfs.status"]))
        if attrs["user.gcfs.what"] == "not in the catalogue": sys.exit("%s: not in README.txt's catalogue" % rel)
        m = re.fullmatch(r"image LBA \[(\d+), (\d+)\), bytes \[0x([0-9a-f]+), 0x([0-9a-f]+)\)", attrs["user.gcfs.sectors"])
        if not m: continue  # made by gcfs alone
        lba0, lba1, start, end = int(m[1]), int(m[2]), int(m[3], 16), int(m[4], 16)
        if lba0 != start // 2048 or lba1 != -(-end // 2048): sys.exit("%s: sectors and bytes disagree" % rel)
        ranges[rel] = (start, end)
        if attrs["user.gcfs.decoder"].startswith("none"):
            raw += 1
            if open(path, "rb").read() != img[start:end]: sys.exit(rel + ": content differs from its image bytes")
        else:
            decoded += 1
for rel, r in ranges.items():
    if rel.endswith("/core_data.bin") and ranges[rel[:-4] + ".wad"] != r: sys.exit(rel + ": not its stream's bytes")
    if "/tfrag/" in rel and not rel.endswith(".mtl") and ranges[rel.split("/")[0] + "/core_data.wad"] != r: sys.exit(rel + ": not the core's bytes")
    if rel.endswith(".mtl") and rel.split("/")[1] in ("tfrag", "ties", "shrubs", "mobies") and ranges[rel.split("/")[0] + "/core_index.bin"] != r: sys.exit(rel + ": not the texture tables' bytes")
# Files made from gs_ram.bin (billboards, stashed moby textures) name bytes inside it.
import csv, glob
from_gs_ram = [os.path.relpath(p, mnt) for p in glob.glob(os.path.join(mnt, "LEVEL*", "shrubs", "*_billboard.png"))]
for table in glob.glob(os.path.join(mnt, "LEVEL*", "classes", "textures.csv")):
    level = os.path.relpath(table, mnt).split("/")[0]
    from_gs_ram += ["%s/textures/moby_%03d.png" % (level, int(r["index"])) for r in csv.DictReader(open(table))
                    if r["table"] == "moby" and r["gs_ram_stash_offset"]]
for rel in from_gs_ram:
    gs = ranges[rel.split("/")[0] + "/gs_ram.bin"]
    if rel not in ranges or not (gs[0] <= ranges[rel][0] < ranges[rel][1] <= gs[1]): sys.exit(rel + ": its sectors are not inside gs_ram.bin's")
print("raw files checked", raw, "decoded files", decoded, "made from gs_ram.bin", len(from_gs_ram))
sys.exit(0 if raw > 40 and decoded > 200 and any("billboard" in r for r in from_gs_ram) and any("moby_" in r for r in from_gs_ram) else 1)
PY
}
check "user.gcfs.* xattrs: raw files are their image bytes, decoded ones name their stream (billboards and stashed textures gs_ram.bin's bytes), all ok" xattrs_tell_the_truth
check "README.txt describes every name the mount shows, every line of it is met, user.gcfs.what names each file's line" \
    python3 "$(dirname "$0")/catalogue.py" "$MNT"
check "security.* and POSIX ACL xattrs are not supported (ls stops asking), unknown user.* ones are absent" \
    bash -c "getfattr -n security.selinux '$MNT/README.txt' 2>&1 | grep -q 'not supported' && getfattr -n system.posix_acl_access '$MNT/README.txt' 2>&1 | grep -q 'not supported' && getfattr -n user.nope '$MNT/README.txt' 2>&1 | grep -q 'No such attribute'"
noxattr_mount_has_none() {
    mkdir -p "$WORK/mnt3" && "$GCFS" mount "$IMAGE" "$WORK/mnt3" -o noxattr && wait_mounted "$WORK/mnt3" || return 1
    local out; out=$(getfattr -n user.gcfs.container "$WORK/mnt3/LEVEL00/data.bin" 2>&1)
    unmount "$WORK/mnt3"
    [[ $out == *"Operation not supported"* ]]
}
check "-o noxattr mounts without user.gcfs.* attributes" noxattr_mount_has_none
# Listing LEVEL00's names has a helper size LEVEL01 (decoding its
# indexes), on top of what sizing LEVEL00 itself decodes (names come with
# attributes); with -o noindexahead only the latter.
decodes_after_listing() {  # mount options; prints cache_misses once the helpers are done
    mkdir -p "$WORK/mnt4" && "$GCFS" mount "$IMAGE" "$WORK/mnt4" "$@" && wait_mounted "$WORK/mnt4" || return 1
    ls "$WORK/mnt4/LEVEL00" >/dev/null
    local misses=-1 last=-2
    while [ "$misses" != "$last" ]; do last=$misses; sleep 0.5; misses=$(awk '$1 == "cache_misses" {print $2}' "$WORK/mnt4/.gcfs/stats"); done
    unmount "$WORK/mnt4"
    echo "$misses"
}
index_ahead_sizes_next_levels() {
    local with without
    with=$(decodes_after_listing -o noindex) && without=$(decodes_after_listing -o noindex,noindexahead) || return 1
    echo "cache misses after listing LEVEL00: $with with helpers, $without with -o noindexahead"
    [ "$with" -gt "$without" ]
}
check "listing a level folder sizes the next ones ahead; -o noindexahead does not" index_ahead_sizes_next_levels
check "persistent index: a second mount lists with 0 decodes, a changed header is decoded again, a lying record or an unwritable place is handled, a damaged index is ignored" \
    python3 "$(dirname "$0")/persistent_index.py" "$GCFS" "$IMAGE" "$WORK"
# Two full-scale levels, whose cores keep restart points: every field of the index forged.
"$GCFS" mkdisc "$WORK/full2.iso" --scale full --levels 2 --seed 3 >/dev/null
check "a hostile index (every field of its records, restart points and image row shifted, flipped, zeroed and maxed, checksums stale and computed again): every file as without the index or EIO, counted" \
    python3 "$(dirname "$0")/hostile_index.py" "$GCFS" "$WORK/full2.iso" "$WORK"
modelless_row() {  # classes/mobies.csv says "none"; mobies/mobies.csv has that class's row saying why
    local cls
    cls=$(awk -F, '$4 == "\"none\"" {print $2; exit}' "$MNT/LEVEL00/classes/mobies.csv")
    [ -n "$cls" ] && grep -q "^$cls,,0,no model,,\"its class-table offset is 0" "$MNT/LEVEL00/mobies/mobies.csv"
}
check "a moby class without a model has a row in mobies/mobies.csv saying why (issue 44, item 6)" modelless_row
# Counts that mean one thing (issue 44): mobies.csv's high_* columns count the main mesh, the
# OBJ's faces before its first bangle group; high_bangle_* the faces of its bangle_<entry> groups.
mobies_csv_counts_match_objs() {
    python3 - "$MNT" <<'PY'
import csv, glob, os, sys
problems, bangled = [], 0
for table in sorted(glob.glob(os.path.join(sys.argv[1], "LEVEL*", "mobies", "mobies.csv"))):
    for row in csv.DictReader(open(table, newline="")):
        if row["status"] != "ok":
            continue
        for lod, obj in (("high_", os.path.join(os.path.dirname(table), "moby_%s.obj" % row["class"])),
                         ("low_", os.path.join(os.path.dirname(table), "low", "moby_%s.obj" % row["class"]))):
            faces, group = {"": 0}, ""
            if os.path.exists(obj):
                for line in open(obj):
                    if line.startswith("g "):
                        group = line.split()[1]
                        faces[group] = 0
                    elif line.startswith("f "):
                        faces[group] += 1
            main, bangles = faces[""], sum(n for g, n in faces.items() if g.startswith("bangle_"))
            bangled += bangles > 0
            if (main, bangles) != (int(row[lod + "triangles"]), int(row[lod + "bangle_triangles"])):
                problems.append("%s class %s %s: the OBJ has %d + %d faces, the CSV says %s + %s" % (table, row["class"], lod, main, bangles,
                                row[lod + "triangles"], row[lod + "bangle_triangles"]))
print("\n".join(problems) or "%d LODs with bangles, every count as the OBJ's groups" % bangled)
sys.exit(1 if problems or not bangled else 0)
PY
}
check "mobies.csv counts the main mesh in high_/low_ columns and the bangles in their own, as the OBJ's groups hold them" mobies_csv_counts_match_objs
# One text encoding (issue 44): help text and subtitles both decode the game's bytes as
# Windows-1252, so one grep for an accented word finds the help line and the cue.
check "grep -r for accented words finds both a help text and a subtitle file" \
    bash -c "grep -rlF -e 'Café' -e 'été' '$MNT/LEVEL00/gameplay/help' '$MNT/global/mpeg' | grep -c -e '/help/french.txt\$' -e '/00.fr.srt\$' | grep -qx 2"
check "edits through the mount: PIL, ImageMagick, sed -i and cp round trips, level.glb follows, edited.iso verified and remounted, refusals, kill -9 mid-save" \
    /usr/bin/python3 "$(dirname "$0")/edits.py" "$GCFS" "$WORK"
check "edits you can trust (issue 52): relative paths, one mount per folder, a generation per open file, whole-level checks, visible refusals (xattr, last line, desktop), new names kept, mtimes, a hostile folder, bounds, a grown global WAD" \
    /usr/bin/python3 "$(dirname "$0")/edit_trust.py" "$GCFS" "$WORK"
check "adding and removing (issue 53): a moby copied with sed and moved, a tie deleted, a camera appended, a path point inserted, a help message added, a cue removed, an occluded moby moved; edited.iso verified and mounted, level.glb follows, other levels byte-identical (demo and full-scale discs)" \
    /usr/bin/python3 "$(dirname "$0")/instance_rows.py" "$GCFS" "$WORK"
check "Blender as the level editor (issue 54): level.glb saved from Blender moves, turns, copies and removes instances; unchanged, z-up, selected-only and three.js saves; CSVs, level.glb and edited.iso agree" \
    /usr/bin/python3 "$(dirname "$0")/level_save.py" "$GCFS" "$WORK" "$(readlink -f "$(dirname "$0")")/blender_level_save.py" \
    "$(readlink -f "$(dirname "$0")/../gltf")/level_save_three.mjs"
check "collision from a mesh (issue 56): a generated stepped mesh and Blender's export of it over collision.obj read back within half a unit with their surface types, collision.glb follows, an unknown material refused, edited.iso verified and mounted" \
    /usr/bin/python3 "$(dirname "$0")/collision_import.py" "$GCFS" "$WORK" "$(readlink -f "$(dirname "$0")")/blender_raise_obj.py"
check "terrain from a mesh (issue 56): a generated 64x64 height field with colours and Blender's export of it over tfrag/terrain.obj read back within half a quantum with their textures and colours, preview.png and level.glb follow, an unknown material refused, edited.iso verified and mounted" \
    /usr/bin/python3 "$(dirname "$0")/terrain_import.py" "$GCFS" "$WORK" "$(readlink -f "$(dirname "$0")")/blender_raise_obj.py"
check "the sky from a mesh (issue 56): a textured and a gradient shell over sky/sky.obj read back in order within half a quantum, UVs, colours within 1/255, textures kept, gcfs's own sky.obj saved back the same, a mixed object refused, a sky texture saved flipped, edited.iso verified and mounted" \
    /usr/bin/python3 "$(dirname "$0")/sky_import.py" "$GCFS" "$WORK"
check "a tie class from a model file (issue 55): a generated icosphere OBJ over ties/tie_500.obj reads back within half a quantum with its textures, ties.csv and level.glb follow, a .glb's packed picture added to the tie table, 81,920 triangles refused, edited.iso verified and mounted" \
    /usr/bin/python3 "$(dirname "$0")/tie_import.py" "$GCFS" "$WORK"
check "a shrub class from a model file (issue 55): a cube made and painted in Blender, its .glb over shrubs/shrub_700.obj, reads back as Blender's triangles within half a quantum, its picture a new shrub texture, the billboard kept, shrubs.csv and level.glb follow, a bare material refused, edited.iso verified and mounted" \
    /usr/bin/python3 "$(dirname "$0")/shrub_import.py" "$GCFS" "$WORK" "$(readlink -f "$(dirname "$0")")/blender_painted_cube.py"
check "mods you can share and stack (issue 57): three edit folders stacked with -o mods=A:B:C (cells merged, the texture conflict listed, EROFS, folders untouched), gcfs pack and diff, xdelta3 applies gcfs's VCDIFF (one folder, the stack, full scale under 1 MiB), a moved folder, an edits folder on top" \
    /usr/bin/python3 "$(dirname "$0")/mods.py" "$GCFS" "$WORK"
# A daemon forks after its edits folder is opened (tools/cmd_mount.cpp): what a session decides a
# moment after a close, keeping a new name in DIR/drafts, must happen in the process that serves.
background_edit_session() {
    local mnt=$WORK/mnt-bg dir=$WORK/bg-edits kept
    mkdir -p "$mnt" && "$GCFS" mount "$IMAGE" "$mnt" -o "edits=$dir" && wait_mounted "$mnt" || return 1
    local daemon; daemon=$(cat "$dir/lock")
    echo note > "$mnt/LEVEL00/notes.txt"
    for _ in $(seq 50); do test -f "$dir/drafts/LEVEL00/notes.txt" && break; sleep 0.1; done
    kept=$(cat "$dir/drafts/LEVEL00/notes.txt" 2>/dev/null)
    unmount "$mnt"
    for _ in $(seq 100); do kill -0 "$daemon" 2>/dev/null || break; sleep 0.1; done
    test "$kept" = note || { echo "DIR/drafts/LEVEL00/notes.txt: '${kept}'"; return 1; }
    ! kill -0 "$daemon" 2>/dev/null || { echo "daemon $daemon still running 10 s after its unmount"; return 1; }
}
check "a daemon (no -f) with -o edits keeps a new name in DIR/drafts, as a foreground one does, and ends at its unmount" background_edit_session
check "setfattr is refused with EROFS" bash -c "setfattr -n user.x -v 1 '$MNT/README.txt' 2>&1 | grep -q 'Read-only file system'"
erofs() { local out; out=$("$@" 2>&1); [[ $out == *"Read-only file system"* ]]; }
check "touch is refused with EROFS" erofs touch "$MNT/new"
check "overwriting a file is refused with EROFS" erofs bash -c "echo x > '$MNT/LEVEL00/info.json'"
check "mkdir is refused with EROFS" erofs mkdir "$MNT/dir"
check "rm is refused with EROFS" erofs rm -f "$MNT/README.txt"
check "mv is refused with EROFS" erofs mv "$MNT/README.txt" "$MNT/R"

check "fusermount3 -u unmounts" unmount "$MNT"
daemon_gone() { for _ in $(seq 50); do pgrep -f "gcfs mount $IMAGE" >/dev/null || return 0; sleep 0.1; done; return 1; }
check "no daemon is left behind" daemon_gone

# ---- errors at mount time
mount_error() {  # expected message fragment, then mount arguments
    local want=$1; shift
    local out rc
    out=$("$GCFS" mount "$@" 2>&1); rc=$?
    [[ $rc -ne 0 && $out == *"$want"* ]] || { echo "rc=$rc out=$out"; return 1; }
}
check "missing image is a one-line error" mount_error "No such file" "$WORK/nope.iso" "$MNT"
head -c 100000 /dev/urandom > "$WORK/random.bin"
check "not an ISO is a clear error" mount_error "not an ISO9660 image" "$WORK/random.bin" "$MNT"
if command -v genisoimage >/dev/null; then
    mkdir -p "$WORK/plain" && echo hello > "$WORK/plain/A.TXT"
    genisoimage -quiet -o "$WORK/plain.iso" "$WORK/plain" 2>/dev/null
    check "an ISO without a table of contents is not this game" mount_error "no Going Commando table of contents" "$WORK/plain.iso" "$MNT"
fi
check "missing mountpoint is a clear error" mount_error "No such file or directory" "$IMAGE" "$WORK/absent"
mkdir -p "$WORK/full" && touch "$WORK/full/x"
check "non-empty mountpoint is refused" mount_error "is not empty" "$IMAGE" "$WORK/full"
# ---- the command line (issue 44, item 7)
cli_says() {  # expected exit code, expected message fragment, then the arguments
    local want_rc=$1 want=$2; shift 2
    local out rc
    out=$("$GCFS" "$@" 2>&1); rc=$?
    [[ $rc -eq $want_rc && $out == *"$want"* ]] || { echo "rc=$rc out=$out"; return 1; }
}
check "an unknown command is named, with the commands there are, exit 1" cli_says 1 "no command 'nosuchcmd'; the commands are: mount" nosuchcmd
check "a missing argument exits 1 (gcfs(1)), not CLI11's 106" cli_says 1 "image is required" mount
check "a malformed number exits 1, not CLI11's 105" cli_says 1 "Could not convert" mkdisc "$WORK/x.iso" --levels abc
check "a mount onto a missing mountpoint exits 4 before anything is made: no -o edits=DIR folder" \
    bash -c "! test -e '$WORK/never-edits' && '$GCFS' mount '$IMAGE' '$WORK/no-such-mountpoint' -o edits='$WORK/never-edits' 2>/dev/null; test \$? = 4 && ! test -e '$WORK/never-edits'"
check "gcfs cat of a folder says it is a folder" cli_says 1 "LEVEL00: is a folder" cat "$IMAGE" LEVEL00
check "gcfs ls lists a folder sorted by name, as ls does" \
    bash -c "'$GCFS' ls '$IMAGE' LEVEL00/mobies | awk '{print \$NF}' > '$WORK/ls.txt' && LC_ALL=C sort -c '$WORK/ls.txt'"
head -c 300000 "$IMAGE" > "$WORK/cut.iso"
check "an image cut before its root directory is called truncated" cli_says 3 "the image is truncated: it ends at sector 146" ls "$WORK/cut.iso"
mkdir -p "$WORK/onto"
"$GCFS" mount "$IMAGE" "$WORK/onto" && wait_mounted "$WORK/onto"
check "mounting onto a gcfs mount says it is one, with the fix" mount_error "is already a FUSE mount" "$IMAGE" "$WORK/onto"
unmount "$WORK/onto"

# A killed daemon leaves a stale mount; gcfs says how to clear it.
mkdir -p "$WORK/mnt2"
"$GCFS" mount -f "$IMAGE" "$WORK/mnt2" 2>/dev/null &
pid=$!
wait_mounted "$WORK/mnt2"
kill -9 $pid; wait $pid 2>/dev/null
check "a stale mount is reported with the fix" mount_error "fusermount3 -u" "$IMAGE" "$WORK/mnt2"
timeout 30 fusermount3 -u "$WORK/mnt2" 2>/dev/null

# SIGTERM in the foreground unmounts.
"$GCFS" mount -f "$IMAGE" "$MNT" 2>"$WORK/fg.log" &
pid=$!
wait_mounted "$MNT"
stop_daemon TERM $pid
check "SIGTERM in the foreground unmounts" bash -c "! mountpoint -q '$MNT'"
# A non-interactive shell starts background jobs with SIGINT ignored, which
# libfuse respects; start the daemon as a terminal would, SIGINT at default.
python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
    "$GCFS" mount -f "$IMAGE" "$MNT" 2>/dev/null &
pid=$!
wait_mounted "$MNT"
stop_daemon INT $pid
check "SIGINT in the foreground unmounts" bash -c "! mountpoint -q '$MNT'"

# ---- the image truncated, then rewritten, under a live mount: EIO, never a crash
cp "$IMAGE" "$WORK/live.iso"
"$GCFS" mount -f "$WORK/live.iso" "$MNT" 2>"$WORK/live.log" &
pid=$!
wait_mounted "$MNT"
cat "$MNT/LEVEL00/core_data.bin" >/dev/null
truncate -s 3M "$WORK/live.iso"
check "truncated under the mount: a raw extent reads as EIO" eio_at "$MNT/LEVEL02/data.bin"
check "truncated under the mount: an undecoded core reads as EIO" eio_at "$MNT/LEVEL03/core_data.bin"
check "truncated under the mount: what was already decoded is EIO too (two images never mix)" eio_at "$MNT/LEVEL00/core_data.bin"
check "truncated under the mount: a scene is EIO, not a smaller valid one" eio_at "$MNT/LEVEL00/level.glb"
check "truncated under the mount: each file's failure is logged once, naming the changed image" \
    bash -c "test \$(grep -c 'LEVEL00/level.glb: .*changed (size or modification time) since it was mounted' '$WORK/live.log') = 1"
"$GCFS" mkdisc "$WORK/other.iso" --levels 4 --seed 99 >/dev/null
cp "$WORK/other.iso" "$WORK/live.iso"  # the same file, rewritten with other bytes
check "rewritten under the mount: reads are EIO, not the new bytes" eio_at "$MNT/LEVEL01/sound_bank.bin"
check "the log says the image changed" grep -q "changed (size or modification time) since it was mounted" "$WORK/live.log"
check "the daemon is still serving" test -f "$MNT/README.txt"
stop_daemon TERM $pid

# ---- a corrupt extent answers EIO, logs one line, the rest stays readable
# The core stream of LEVEL01 opens with a match reaching before the start.
check "corrupt image prepared" "$GCFS" mkdisc "$WORK/corrupt.iso" --levels 4 --seed 7 --damage core-lookback
"$GCFS" mount -f "$WORK/corrupt.iso" "$MNT" 2>"$WORK/corrupt.log" &
pid=$!
wait_mounted "$MNT"
check "corrupt core_data.bin reads as EIO" eio_at "$MNT/LEVEL01/core_data.bin"
check "a second read is EIO too" eio_at "$MNT/LEVEL01/core_data.bin"
check "the error is logged once, naming level, extent and offset" \
    bash -c "test \$(grep -c 'LEVEL01/core_data.bin' '$WORK/corrupt.log') = 1 && grep -q 'lookback.*0x10' '$WORK/corrupt.log'"
check ".gcfs/stats lists the failure" grep -q "error LEVEL01/core_data.bin" "$MNT/.gcfs/stats"
check "the rest of the disc stays readable" cmp "$MNT/LEVEL00/core_data.bin" "$WORK/orig/LEVEL00/core_data.bin"
check "the damaged level's other extents still read" cmp "$MNT/LEVEL01/gameplay.bin" "$WORK/orig/LEVEL01/gameplay.bin"
stop_daemon TERM $pid

# ---- the log (issue 44, item 5): .gcfs/log keeps the tail, -o log=FILE every line
"$GCFS" mount "$WORK/corrupt.iso" "$MNT" -o "log=$WORK/daemon.log" && wait_mounted "$MNT"
cat "$MNT/LEVEL01/core_data.bin" >/dev/null 2>&1
check ".gcfs/log holds the EIO's line, with the file and the byte offset" grep -q "LEVEL01/core_data.bin: .*lookback.*0x10" "$MNT/.gcfs/log"
check "-o log=FILE holds it too" grep -q "LEVEL01/core_data.bin: .*lookback.*0x10" "$WORK/daemon.log"
unmount "$MNT"

# ---- a damaged tie class: level.glb stays valid, that class's instances are empty nodes saying why
"$GCFS" mkdisc "$WORK/tie.iso" --levels 4 --seed 7 --damage tie-strip-slot >/dev/null
"$GCFS" verify --checks "$WORK/tie.iso" > "$WORK/tie-checks.txt"
"$GCFS" mount -f "$WORK/tie.iso" "$MNT" 2>"$WORK/tie.log" &
pid=$!
wait_mounted "$MNT"
check "damaged tie class 500 of LEVEL01: every level.glb still validates, its instances are empty nodes with extras.error, the rest is intact" \
    python3 "$(dirname "$0")/level_scene.py" "$MNT" "$WORK/tie-checks.txt" "$(dirname "$0")/blender_scene.py" "$GLTF_VALIDATOR" LEVEL01 500
stop_daemon TERM $pid

# ---- a patch whose header disagrees with its lists is reported, never half-emitted
"$GCFS" mkdisc "$WORK/damaged.iso" --levels 4 --seed 7 --damage tfrag-count --damage vif-desync >/dev/null
"$GCFS" mount -f "$WORK/damaged.iso" "$MNT" 2>"$WORK/damaged.log" &
pid=$!
wait_mounted "$MNT"
check "the patch whose vert_count disagrees reads as EIO" eio_at "$MNT/LEVEL01/tfrag/patch_0001.obj"
check "its LOD-1 variant too" eio_at "$MNT/LEVEL01/tfrag/lod1/patch_0001.obj"
check "the patch whose VIF walk desynchronises reads as EIO" eio_at "$MNT/LEVEL01/tfrag/patch_0002.obj"
check "the log names the file and the byte offset of the bad field" \
    bash -c "test \$(grep -c 'LEVEL01/tfrag/patch_0001.obj' '$WORK/damaged.log') = 1 && grep 'LEVEL01/tfrag/patch_0001.obj' '$WORK/damaged.log' | grep -q 'byte 0xbc.*vert_count'"
check "patches.csv says rejected and why" bash -c "grep -q '^1,.*,rejected,.*vert_count' '$MNT/LEVEL01/tfrag/patches.csv' && grep -q '^2,.*,rejected,.*VIF desync' '$MNT/LEVEL01/tfrag/patches.csv'"
check "the level's other patches read" assimp info "$MNT/LEVEL01/tfrag/patch_0003.obj"
"$GCFS" verify "$WORK/damaged.iso" > "$WORK/verify.txt"; verify_rc=$?
check "gcfs verify exits 1 on the damaged disc" test $verify_rc = 1
check "gcfs verify names the rejected patch" grep -q "FAILED LEVEL01: tfrag patch counts: 2 of .* patch 1: .*vert_count" "$WORK/verify.txt"
check "terrain.obj holds the good patches, as many as verify counts" assimp_matches_verify LEVEL01
"$GCFS" extract "$WORK/damaged.iso" LEVEL01/tfrag "$WORK/extract-damaged" 2>"$WORK/extract.err"; extract_rc=$?
check "gcfs extract of the damaged level exits 1 and names each rejected file" \
    bash -c "test $extract_rc = 1 && test \$(grep -c 'rejected' '$WORK/extract.err') = 6 && grep -q \"^gcfs extract: \$(find '$WORK/extract-damaged' -type f | wc -l) files copied, 6 could not be read\" '$WORK/extract.err'"
check "gcfs extract leaves no half-written file and copies the rest" \
    bash -c "test ! -e '$WORK/extract-damaged/tfrag/patch_0001.obj' && cmp '$WORK/extract-damaged/tfrag/terrain.obj' '$MNT/LEVEL01/tfrag/terrain.obj'"
stop_daemon TERM $pid

finish mount
