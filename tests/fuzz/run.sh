#!/usr/bin/env bash
# Runs each libFuzzer target for a bounded time on a seed corpus cut from a
# built disc; fails on any crash, leak, timeout or broken invariant.
# Usage: run.sh GCFS FUZZ_BUILD_DIR SECONDS TARGET...
set -u
GCFS=$(readlink -f "$1"); BUILD=$(readlink -f "$2"); SECONDS_EACH=$3; shift 3
WORK=$BUILD/fuzz-work
rm -rf "$WORK/seeds" "$WORK"/*.rc && mkdir -p "$WORK/seeds" "$WORK/artifacts"

# ---- seeds: the structures each parser reads, taken from a small built disc
disc=$WORK/seed.iso
"$GCFS" mkdisc "$disc" --levels 3 --seed 5 >/dev/null || { echo "mkdisc failed"; exit 1; }
seed() { mkdir -p "$WORK/seeds/$1"; "$GCFS" cat "$disc" "$2" > "$WORK/seeds/$1/$(echo "$2" | tr / _)"; }
for l in LEVEL00 LEVEL01; do
    seed wad_lz $l/core_data.wad; seed wad_lz $l/gameplay.wad; seed wad_lz $l/hud_bank_0.wad
    seed level_headers $l/header.bin; seed level_core $l/core_index.bin; seed core_blocks $l/core_index.bin
done
seed toc disc/RC2.HDR
for region in occlusion sky collision; do seed geometry LEVEL00/core/$region.bin; done
seed gameplay LEVEL00/gameplay.bin
seed gameplay LEVEL01/gameplay.bin
# The edit decoders: textures as PNG; gameplay files after their gameplay.bin (fuzz_edit_text.cpp's layout).
for t in tfrag_000 tie_000 moby_001; do seed edit_png LEVEL00/textures/$t.png; done
seed edit_sound LEVEL00/audio/sfx_002.wav; seed edit_sound global/mpeg/00.en.srt
# collision_compile: a quad and a triangle over four corners (fuzz_collision_compile.cpp's layout).
mkdir -p "$WORK/seeds/collision_compile"
python3 -c "import struct, sys; sys.stdout.buffer.write(bytes([4]) + struct.pack('<12h', 64, 64, 64, 200, 64, 64, 200, 200, 64, 64, 200, 96) + bytes([1, 0x1f, 0, 1, 2, 3, 0, 5, 0, 2, 3, 0]))" \
    > "$WORK/seeds/collision_compile/quad_and_triangle"
# terrain_compile: two triangles over four corners, two textures (fuzz_terrain_compile.cpp's layout).
mkdir -p "$WORK/seeds/terrain_compile"
python3 -c "import struct, sys; sys.stdout.buffer.write(bytes([4]) + struct.pack('<12h', 64, 64, 64, 200, 64, 64, 200, 200, 64, 64, 200, 96) + bytes([1, 0, 1, 2, 0, 8, 16, 8, 3, 0, 2, 3, 8, 0, 8, 16]))" \
    > "$WORK/seeds/terrain_compile/two_triangles"
# sky_compile: one gradient shell of one triangle (fuzz_sky_compile.cpp's layout).
mkdir -p "$WORK/seeds/sky_compile"
python3 -c "import struct, sys; sys.stdout.buffer.write(bytes([1, 0, 3]) + b''.join(struct.pack('<3h', *p) + bytes([0, 0, 200]) for p in ((2560, 0, 256), (0, 2560, 256), (0, 0, 2560))) + bytes([1, 0, 1, 2]))" \
    > "$WORK/seeds/sky_compile/gradient_triangle"
# tie_compile: four corners and two triangles over two slots (fuzz_tie_compile.cpp's layout).
mkdir -p "$WORK/seeds/tie_compile"
python3 -c "import struct, sys; sys.stdout.buffer.write(bytes([4]) + b''.join(struct.pack('<3h', *p) + bytes([0, 15]) for p in ((0, 0, 0), (64, 0, 0), (64, 64, 0), (0, 64, 64))) + bytes([2, 128, 128, 0, 1, 2, 0, 0, 2, 3, 1]))" \
    > "$WORK/seeds/tie_compile/two_triangles"
# shrub_compile: the same four corners and two triangles (fuzz_shrub_compile.cpp's layout).
mkdir -p "$WORK/seeds/shrub_compile"
python3 -c "import struct, sys; sys.stdout.buffer.write(bytes([4]) + b''.join(struct.pack('<3h', *p) + bytes([0, 15]) for p in ((0, 0, 0), (64, 0, 0), (64, 64, 0), (0, 64, 64))) + bytes([2, 0, 1, 2, 0, 0, 2, 3, 1]))" \
    > "$WORK/seeds/shrub_compile/two_triangles"
# obj_colours: the level's own sky.obj, whose gradient vertices alone carry colours.
seed obj_colours LEVEL00/sky/sky.obj
# journal: a journal as gcfs writes one (edit/journal.cpp), an applied, a refused and a kept edit.
mkdir -p "$WORK/seeds/journal"
cat > "$WORK/seeds/journal/three" <<'JSON'
{"gcfs_edits": 1, "image": "3145728-0011aabb", "next_sequence": 5, "edits": [
 {"path": "LEVEL00/textures/tfrag_000.png", "state": "applied", "status": "every colour is in the texture's palette", "sequence": 1,
  "time": 1796585735, "size": 312, "crc32": 305419896, "last_refusal": "the picture is 64x64", "refusal_sequence": 4, "refusal_time": 1796585799,
  "containers": [{"path": "LEVELS/LEVEL00.WAD", "bytes": 153600}]},
 {"path": "LEVEL00/gameplay/mobies.csv", "state": "refused", "status": "line 3, column 12 (class): 555", "sequence": 2, "time": 1796585740,
  "size": 0, "crc32": 0, "containers": []},
 {"path": "LEVEL00/textures/new.png", "state": "kept", "status": "kept in DIR/drafts only", "sequence": 3, "time": 1796585750,
  "size": 80, "crc32": 7, "containers": []}]}
JSON
mkdir -p "$WORK/seeds/edit_text"
# Each as shown, and some with rows added and removed (sed: a line
# duplicated, a line deleted, a line appended), the way a modder edits them.
"$GCFS" cat "$disc" LEVEL00/gameplay.bin > "$WORK/gp.bin"
for pick in "0 mobies.csv" "3 cameras.csv" "6 settings.json" "7 help/us_english.txt" "9 paths.csv" \
            "10 pvars/moby_1007.bin" "11 env_transitions.csv 2p" "12 lights.csv \$p" "0 mobies.csv 3p;5d" "129 ties.csv 2p;4d" "2 shrubs.csv 3d" "9 paths.csv 2p;\$d" "7 help/us_english.txt \$a777\tadded" \
            "13 groups.csv" "13 groups.csv 2d;\$p" "14 areas.csv" "14 areas.csv 2p;3d" \
            "15 volumes.csv" "15 volumes.csv 2p;\$d"; do
    read -r pick_index pick_file pick_sed <<< "$pick"
    "$GCFS" cat "$disc" "LEVEL00/gameplay/$pick_file" | sed "${pick_sed:-}" > "$WORK/gp.txt"
    seed_name="$pick_index${pick_sed:+-rows-$(echo "$pick_sed" | tr -dc '0-9a-z')}"
    python3 -c 'import struct, sys; g = open(sys.argv[1], "rb").read(); sys.stdout.buffer.write(struct.pack("<I", len(g)) + g + bytes([int(sys.argv[3])]) + open(sys.argv[2], "rb").read())' \
        "$WORK/gp.bin" "$WORK/gp.txt" "$pick_index" > "$WORK/seeds/edit_text/$seed_name"
done
# mod_merge: a grain byte, then a file as shown and two mods' versions of it, NUL between
# (fuzz_mod_merge.cpp's layout): cells of one row, a row copied and one removed, cues, messages.
mkdir -p "$WORK/seeds/mod_merge"
for pick in "0 gameplay/mobies.csv 2s/,0,/,7,/ 3p;5d" "1 gameplay/help/us_english.txt 1s/X/Y/ \$a4200\tnew" "3 gameplay/settings.json 2s/0/1/ 3s/1/2/"; do
    read -r grain file one two <<< "$pick"
    "$GCFS" cat "$disc" "LEVEL00/$file" > "$WORK/mm-base"
    { printf "\\x$(printf %02x "$grain")"; cat "$WORK/mm-base"; printf '\0'; sed "$one" "$WORK/mm-base"; printf '\0'; sed "$two" "$WORK/mm-base"; } \
        > "$WORK/seeds/mod_merge/$grain-$(basename "$file")"
done
"$GCFS" cat "$disc" global/mpeg/00.en.srt > "$WORK/mm-base"
{ printf '\x02'; cat "$WORK/mm-base"; printf '\0'; sed 's/Hello/Hi/' "$WORK/mm-base"; printf '\0'; sed 's/00:00:01,001/00:00:01,500/' "$WORK/mm-base"; } \
    > "$WORK/seeds/mod_merge/2-srt"
# edit_scene: LEVEL00's gameplay.bin, then a level.glb as shown, as a text
# .gltf with its buffer embedded, and saved with a moby moved, a tie
# copied (Blender's "name.001") and a shrub's node gone (fuzz_edit_scene.cpp's layout).
mkdir -p "$WORK/seeds/edit_scene"
"$GCFS" cat "$disc" LEVEL00/level.glb > "$WORK/level.glb"
python3 - "$WORK/gp.bin" "$WORK/level.glb" "$WORK/seeds/edit_scene" <<'PY'
import base64, copy, json, struct, sys
gameplay, glb, out = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read(), sys.argv[3]
def seed(name, data):
    open(out + "/" + name, "wb").write(struct.pack("<I", len(gameplay)) + gameplay + data)
length = struct.unpack_from("<I", glb, 12)[0]
doc, rest = json.loads(glb[20:20 + length]), glb[20 + length:]
def pack(d):
    text = json.dumps(d).encode(); text += b" " * (-len(text) % 4)
    body = struct.pack("<II", len(text), 0x4E4F534A) + text + rest
    return struct.pack("<III", 0x46546C67, 2, 12 + len(body)) + body
seed("shown", glb)
text = copy.deepcopy(doc)
text["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64.b64encode(rest[8:8 + text["buffers"][0]["byteLength"]]).decode()
seed("text", json.dumps(text).encode())
saved = copy.deepcopy(doc)
for n in saved["nodes"]:
    if n.get("name", "").startswith("moby_") and "matrix" in n:
        n["matrix"][12] += 5
        break
tie = next(i for i, n in enumerate(saved["nodes"]) if n.get("name", "").startswith("tie_") and "matrix" in n)
saved["nodes"].append(dict(saved["nodes"][tie], name=saved["nodes"][tie]["name"] + ".001"))
parent = next(n for n in saved["nodes"] if tie in n.get("children", []))
parent["children"].append(len(saved["nodes"]) - 1)
for n in saved["nodes"]:
    if n.get("name") == "shrubs" and n.get("children"):
        n["children"] = n["children"][1:]
seed("saved", pack(saved))
PY
# A one-octant collision block (formats.md 8.3), so mutations also run fast:
# mesh at 0x40; root, z node, y node, then an octant of 4 vertices, a quad and
# a triangle (4 + 16 + 8 + 1 bytes = 2 qwords).
python3 - "$WORK/seeds/geometry/one_octant" <<'PY'
import struct, sys
mesh = struct.pack("<hHH2x", 0, 1, 2) + struct.pack("<hHI4x", 0, 1, 16) + struct.pack("<hHI8x", 0, 1, 32 << 8 | 2)
octant = struct.pack("<HBB", 2, 4, 1) + struct.pack("<4I", 0, 16, 16 | 64 << 20, 64 << 20)
octant += bytes([0, 1, 2, 0x1F, 0, 2, 3, 0x1F, 3])
open(sys.argv[1], "wb").write(struct.pack("<ii", 0x40, 0) + bytes(0x38) + mesh + octant + bytes(-len(octant) % 16))
PY
"$GCFS" cat "$disc" LEVEL00/data.bin | head -c 4096 > "$WORK/seeds/level_headers/data_head.bin"
python3 - "$disc" "$GCFS" "$WORK/seeds" <<'PY'
import os, struct, subprocess, sys
disc, gcfs, seeds = sys.argv[1:]
img = open(disc, "rb").read()
os.makedirs(seeds + "/iso9660", exist_ok=True)
pvd = img[16 * 2048:17 * 2048]
open(seeds + "/iso9660/pvd", "wb").write(pvd)
root_lba, root_len = struct.unpack_from("<I", pvd, 0x9C + 2)[0], struct.unpack_from("<I", pvd, 0x9C + 10)[0]
open(seeds + "/iso9660/root_dir", "wb").write(img[root_lba * 2048:root_lba * 2048 + root_len])
# VIF: the five lists of the first patches, each its own seed (formats.md 7.3)
os.makedirs(seeds + "/vif", exist_ok=True)
block = subprocess.run([gcfs, "cat", disc, "LEVEL00/core/tfrag.bin"], capture_output=True, check=True).stdout
table, count = struct.unpack_from("<ii", block, 0)
for i in range(min(count, 4)):
    h = table + 0x40 * i
    data = table + struct.unpack_from("<i", block, h + 0x10)[0]
    lod2, shared, lod1, lod0 = struct.unpack_from("<4H", block, h + 0x14)
    rgba = struct.unpack_from("<H", block, h + 0x1E)[0]
    lod1_size = block[h + 0x22]
    bounds = [lod2, shared, lod1, lod0, shared + 16 * lod1_size, rgba]
    for k in range(5):
        open("%s/vif/patch%d_list%d" % (seeds, i, k), "wb").write(block[data + bounds[k]:data + bounds[k + 1]])
    # tfrag: the block cut after patch i, its count set to i + 1 (small seeds run fast)
    os.makedirs(seeds + "/tfrag", exist_ok=True)
    end = data + struct.unpack_from("<H", block, h + 0x38)[0] + 64  # the cube ends the patch (7.3)
    cut = bytearray(block[:end])
    struct.pack_into("<i", cut, 4, i + 1)
    open("%s/tfrag/first_%d_patches" % (seeds, i + 1), "wb").write(bytes(cut))
PY

# saved_index: a record of two files and a run, laid out as
# formats/saved_index/folder_record.h says (magic, version, CRC, size, deflated).
python3 - "$WORK/seeds/saved_index" <<'PY'
import os, struct, sys, zlib
os.makedirs(sys.argv[1], exist_ok=True)
s = lambda t: struct.pack("<H", len(t)) + t
plain = struct.pack("<II", 1, 2) + s(b"info.json") + struct.pack("<Q", 1234) + s(b"tfrag/terrain.obj") + struct.pack("<Q", 99)
plain += struct.pack("<I", 1) + s(b"ties") + struct.pack("<II", 0, 2)
plain += s(b"tie_500.obj") + struct.pack("<Q", 10) + s(b"tie_501.obj") + struct.pack("<Q", 20)
blob = b"GCIR" + struct.pack("<III", 1, zlib.crc32(plain), len(plain)) + zlib.compress(plain)
open(sys.argv[1] + "/record", "wb").write(blob)
PY

# restart_point: the target makes its own stream and points; a seed picks the
# first point unchanged, another moves its cursor by one.
mkdir -p "$WORK/seeds/restart_point"
printf '\x00\x00\x00\x00\x00' > "$WORK/seeds/restart_point/as_met"
printf '\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x10\x00\x00\x00\x01' > "$WORK/seeds/restart_point/cursor_moved"

# tie, shrub, moby: each class of the disc cut at its extent (ties.csv, shrubs.csv, mobies.csv),
# and the classes Wrench's code wrote or read (../shared/vectors, when present).
python3 - "$disc" "$GCFS" "$WORK/seeds" "$(dirname "$0")/../../../shared/vectors" <<'PY'
import csv, glob, io, os, shutil, subprocess, sys
disc, gcfs, seeds, vectors = sys.argv[1:]
cat = lambda path: subprocess.run([gcfs, "cat", disc, path], capture_output=True, check=True).stdout
core = cat("LEVEL00/core_data.bin")
for kind, folder in (("tie", "ties"), ("shrub", "shrubs"), ("moby", "mobies")):
    os.makedirs("%s/%s" % (seeds, kind), exist_ok=True)
    for row in csv.DictReader(io.StringIO(cat("LEVEL00/%s/%s.csv" % (folder, folder)).decode())):
        if not row["core_offset"]:
            continue  # a moby class without a model: no bytes to cut
        start = int(row["core_offset"], 16)
        open("%s/%s/class_%s" % (seeds, kind, row["class"]), "wb").write(core[start:start + int(row["extent"])])
    for f in glob.glob("%s/%s/*.bin" % (vectors, kind)):
        shutil.copy(f, "%s/%s/" % (seeds, kind))
PY

# vag: every VAG of the disc, and the AUDIO WAD headers; subtitles: each MPEG
# slot's subtitle table cut from mpeg.wad, and the WAD's header (formats-globals.md 1-4).
mkdir -p "$WORK/seeds/vag" "$WORK/seeds/subtitles"
for f in $("$GCFS" ls "$disc" global/audio/vendor | awk '/\.vag$/ {print $2}'); do seed vag global/audio/vendor/$f; done
for f in $("$GCFS" ls "$disc" LEVEL00/audio | awk '/\.vag$/ {print $2}'); do seed vag LEVEL00/audio/$f; done
"$GCFS" cat "$disc" global/audio.wad | head -c 6144 > "$WORK/seeds/vag/global_audio_header"
"$GCFS" cat "$disc" LEVEL00/audio.wad | head -c 4120 > "$WORK/seeds/vag/level_audio_header"
"$GCFS" cat "$disc" global/mpeg.wad > "$WORK/seeds/subtitles/mpeg.wad"
python3 - "$WORK/seeds/subtitles" <<'PY'
import struct, sys
wad = open(sys.argv[1] + "/mpeg.wad", "rb").read()
for slot in range(50):
    sector, size = struct.unpack_from("<ii", wad, 8 + 16 * slot)
    if size > 0:
        open("%s/slot%02d" % (sys.argv[1], slot), "wb").write(wad[sector * 2048:sector * 2048 + size])
PY
cp "$(dirname "$0")"/../../../shared/vectors/globals/mpeg/*.wad "$WORK/seeds/subtitles/" 2>/dev/null
# pss_sound: every cutscene's PSS (two with a sound track, one without).
mkdir -p "$WORK/seeds/pss_sound"
for f in $("$GCFS" ls "$disc" global/mpeg | awk '/\.pss$/ {print $2}'); do seed pss_sound global/mpeg/$f; done

# pif: the disc's global PIFs and texture lists, raw; armor: its mesh-only
# classes; executable: the frontbin and the IRX table (formats-globals.md 5-8),
# and the global vectors of ../shared (when present).
mkdir -p "$WORK/seeds/pif" "$WORK/seeds/armor" "$WORK/seeds/executable"
python3 - "$disc" "$GCFS" "$WORK/seeds" "$(dirname "$0")/../../../shared/vectors/globals" <<'PY'
import glob, os, shutil, struct, subprocess, sys
disc, gcfs, seeds, vectors = sys.argv[1:]
cat = lambda path: subprocess.run([gcfs, "cat", disc, path], capture_output=True, check=True).stdout
armor = cat("global/armor.wad")
for i in range(15):  # §6: armors[9] at 0x08, wrenches[6] at 0x98, {mesh, textures}
    at = 0x08 + 16 * i
    for kind, (sector, count) in (("armor", struct.unpack_from("<ii", armor, at)), ("pif", struct.unpack_from("<ii", armor, at + 8))):
        if count > 0:
            open("%s/%s/armor_entry%d" % (seeds, kind, i), "wb").write(armor[sector * 2048:(sector + count) * 2048])
misc = cat("global/misc.wad")
sector, count = struct.unpack_from("<ii", misc, 0x20)  # frontbin
open(seeds + "/executable/frontbin", "wb").write(misc[sector * 2048:(sector + count) * 2048])
open(seeds + "/executable/misc_header", "wb").write(misc[:0x40])
sector, count = struct.unpack_from("<ii", misc, 0x08)  # debug_font
open(seeds + "/pif/debug_font", "wb").write(misc[sector * 2048:(sector + count) * 2048])
for f in glob.glob(vectors + "/*/*.wad"):
    shutil.copy(f, seeds + "/executable/")
PY

# The scene target damages a disc it builds itself: its seeds say where
# (byte 0: core stream, container or ISO9660 directories; bytes 1-4: offset)
# and what to write.
mkdir -p "$WORK/seeds/scene"
python3 - "$WORK/seeds/scene" <<'PY'
import struct, sys
for i, (part, at, payload) in enumerate([(1, 0x2000, b"\xff" * 16), (1, 0x30, b"\x00" * 8), (0, 0x400, b"\x20\x10\x00\x7f"),
                                         (0, 0x1800, bytes(range(64))), (1, 0x6000, b"\x7f" * 32),
                                         (2, 0x9C, b"\xff" * 34), (2, 0x1000, b"\x00" * 40), (2, 0x1822, b"\x02" * 8)]):
    open("%s/seed%d" % (sys.argv[1], i), "wb").write(bytes([part]) + struct.pack("<I", at) + payload)
PY

# Inputs that once crashed a target (tests/fuzz/regressions/TARGET-*.bin) run first, as seeds.
for f in "$(dirname "$0")"/regressions/*.bin; do
    [ -e "$f" ] || continue
    t=$(basename "$f"); t=${t%%-*}
    mkdir -p "$WORK/seeds/$t" && cp "$f" "$WORK/seeds/$t/"
done

# One target per core at a time: each still runs SECONDS_EACH on a core of
# its own, and `make test` waits half as long on a 2-core machine.
run_target() {
    local target=$1 exe=$BUILD/fuzz_$1 log=$WORK/$1.log
    mkdir -p "$WORK/corpus/$target"
    # geometry renders a whole OBJ per input: small inputs keep it exploring
    # (the disc's 100 KB collision seed is cut to its first 16 KiB).
    local max_len=262144; [ "$target" = geometry ] && max_len=16384
    "$exe" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -max_len=$max_len -print_final_stats=1 \
        -artifact_prefix="$WORK/artifacts/$target-" "$WORK/corpus/$target" "$WORK/seeds/$target" >"$log" 2>&1
    echo $? >"$WORK/$target.rc"
}
cores=$(nproc)
for target in "$@"; do
    while [ "$(jobs -rp | wc -l)" -ge "$cores" ]; do wait -n; done
    run_target "$target" &
done
wait

passed=0; failed=0
for target in "$@"; do
    log=$WORK/$target.log
    rc=$(cat "$WORK/$target.rc" 2>/dev/null || echo "no result")
    execs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
    if [ "$rc" = 0 ]; then
        passed=$((passed + 1)); echo "ok   fuzz_$target: ${execs:-?} executions in ${SECONDS_EACH}s, no crash"
    else
        failed=$((failed + 1)); echo "FAIL fuzz_$target (exit $rc): artifacts in $WORK/artifacts"; tail -30 "$log" | sed 's/^/     | /'
    fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
