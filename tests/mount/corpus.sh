#!/usr/bin/env bash
# The corrupt-disc corpus, mounted for real: for every kind of damage the disc
# builder plants (in level 1 of 4), the mount succeeds, the damaged files
# answer EIO, every other level reads byte-exactly like a clean disc built from
# the same seed, info.json and .gcfs/stats name the failure, and gcfs verify
# exits 1 naming it.
# Usage: corpus.sh PATH/TO/gcfs
set -u
GCFS=$(readlink -f "$1")
WORK=$(mktemp -d /tmp/gcfs-corpus-test.XXXXXX)
export XDG_CACHE_HOME=$WORK/xdg-cache  # the persistent index: the test's own, not the user's
source "$(dirname "$0")/lib.sh"
cleanup() { unmount "$WORK/clean" 2>/dev/null; unmount "$WORK/mnt" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

mkdir -p "$WORK/clean" "$WORK/mnt"
"$GCFS" mkdisc "$WORK/clean.iso" --levels 4 --seed 7 >/dev/null || { echo "mkdisc failed"; exit 1; }
"$GCFS" mount "$WORK/clean.iso" "$WORK/clean" && wait_mounted "$WORK/clean" || { echo "clean mount failed"; exit 1; }

# serve IMAGE NAME: mounts IMAGE in the foreground on $WORK/mnt, log in $WORK/NAME.log, pid in $pid.
serve() { "$GCFS" mount -f "$1" "$WORK/mnt" 2>"$WORK/$2.log" & pid=$!; }

same_as_clean() {  # every file of a level folder, except the live info.json
    diff -r --exclude=info.json "$WORK/clean/$1" "$WORK/mnt/$1"
}
info_names() {  # a failed check of LEVEL01/info.json, or a LEVEL01 error of .gcfs/stats, names the failure
    python3 - "$WORK/mnt/LEVEL01/info.json" "$WORK/mnt/.gcfs/stats" "$1" <<'PY'
import json, sys
info = json.load(open(sys.argv[1]))
bad = [c for c in info["checks"] if not c["ok"]]
bad += [info[k] for k in ("occlusion", "sky", "collision", "gameplay") if k in info and not info[k]["ok"]]
errors = [l for l in open(sys.argv[2]) if l.startswith("error LEVEL01/")]
named = sys.argv[3] in json.dumps(bad) or any(sys.argv[3] in l for l in errors)
sys.exit(0 if named and (bad or errors) else 1)
PY
}

# kind | files that must answer EIO (relative to the mount) | text naming the failure | intact levels
#      | files and folders of the damaged level that still read exactly as on the clean disc (optional)
cases=(
    "tfrag-count|LEVEL01/tfrag/patch_0001.obj LEVEL01/tfrag/lod2/patch_0001.obj|vert_count|LEVEL00 LEVEL02 LEVEL03"
    "vif-desync|LEVEL01/tfrag/patch_0002.obj|VIF desync|LEVEL00 LEVEL02 LEVEL03"
    "core-lookback|LEVEL01/core_data.bin LEVEL01/core/tfrag.bin|lookback|LEVEL00 LEVEL02 LEVEL03"
    "gameplay-double-literal|LEVEL01/gameplay.bin|double literal|LEVEL00 LEVEL02 LEVEL03"
    "gameplay-size|LEVEL01/gameplay.bin|exceeds|LEVEL00 LEVEL02 LEVEL03"
    "extents-in-bytes|LEVEL01/data.bin LEVEL01/gameplay.wad|outside the|LEVEL00 LEVEL02 LEVEL03"
    "extents-overlap|LEVEL01/gameplay.bin|overlaps|LEVEL00 LEVEL02 LEVEL03"
    "toc-past-end|disc/LEVELS/LEVEL01.WAD/..|container inside image|LEVEL00 LEVEL02 LEVEL03"
    "truncated|disc/LEVELS/LEVEL02.WAD disc/SCENES/SCENE03.WAD|container inside image|LEVEL00"
    "collision-size|LEVEL01/collision.obj|size mismatch|LEVEL00 LEVEL02 LEVEL03"
    "sky-shells|LEVEL01/..|9 shells|LEVEL00 LEVEL02 LEVEL03"
    "sky-face-index|LEVEL01/sky/sky.obj|names vertex|LEVEL00 LEVEL02 LEVEL03|collision.obj tfrag gameplay textures"
    "gameplay-moby-count|LEVEL01/gameplay/mobies.csv|moby needs|LEVEL00 LEVEL02 LEVEL03|gameplay/ties.csv gameplay/shrubs.csv gameplay/cameras.csv gameplay/paths.obj gameplay/volumes.obj gameplay/help/us_english.txt gameplay/help/french.txt sky"
    "gameplay-help-offset|LEVEL01/gameplay/help/french.txt|string offset|LEVEL00 LEVEL02 LEVEL03|gameplay/mobies.csv gameplay/ties.csv gameplay/help/us_english.txt gameplay/help/german.txt gameplay/settings.json gameplay/pvars"
    "tie-strip-slot|LEVEL01/ties/tie_500.obj|nothing is placed at slot 6|LEVEL00 LEVEL02 LEVEL03|ties/tie_501.obj ties/tie_502.obj ties/lod2/tie_502.obj ties/ties.mtl shrubs textures sky tfrag gameplay collision.obj"
    "shrub-packet-size|LEVEL01/shrubs/shrub_700.obj|runs past the class|LEVEL00 LEVEL02 LEVEL03|shrubs/shrub_701.obj shrubs/shrub_700_billboard.png shrubs/shrubs.mtl ties textures sky tfrag gameplay"
    "moby-cache-index|LEVEL01/mobies/moby_100.obj|names vertex 126|LEVEL00 LEVEL02 LEVEL03|mobies/moby_101.obj mobies/moby_103.obj mobies/low/moby_103.obj mobies/mobies.mtl ties shrubs textures sky tfrag gameplay"
    "moby-packet-count|LEVEL01/mobies/moby_100.obj|packet table needs|LEVEL00 LEVEL02 LEVEL03|mobies/moby_101.obj mobies/moby_102.obj mobies/moby_101.skeleton.json ties shrubs textures gameplay"
    "moby-joint-parent|LEVEL01/mobies/moby_101.glb LEVEL01/mobies/moby_101.skeleton.json|parent offset 0x80|LEVEL00 LEVEL02 LEVEL03|mobies/moby_101.obj mobies/moby_100.glb mobies/moby_103.glb mobies/moby_103.skeleton.json mobies/mobies.mtl ties shrubs textures gameplay"
    "gameplay-path-count|LEVEL01/gameplay/paths.obj LEVEL01/gameplay/paths.csv|declares|LEVEL00 LEVEL02 LEVEL03|gameplay/grind_paths.obj gameplay/mobies.csv gameplay/settings.json gameplay/volumes.obj gameplay/help"
    "particle-frame-row|LEVEL01/particles/010.png LEVEL01/particles/010/frame_02.png|names part_textures row 200|LEVEL00 LEVEL02 LEVEL03|particles/000.png particles/000 particles/003.png particles/010/frame_01.png textures sound_remap.bin sound_remap.csv ratchet_seqs overlay.elf tfrag gameplay"
    "sound-remap-end|LEVEL01/sound_remap.bin LEVEL01/sound_remap.csv|last element|LEVEL00 LEVEL02 LEVEL03|particles particles.csv ratchet_seqs textures overlay.elf tfrag gameplay"
    "stash-row-unlisted|LEVEL01/..|moby class 100 is not stashed|LEVEL00 LEVEL02 LEVEL03|textures mobies gameplay"
    "vag-predictor|LEVEL01/audio/sfx_001.wav|predictor 5|LEVEL00 LEVEL02 LEVEL03|audio/sfx_000.wav audio/sfx_510.wav audio/upgrade_sample.wav gameplay tfrag"
)
for case in "${cases[@]}"; do
    IFS='|' read -r kind eio_files names intact unharmed <<<"$case"
    image=$WORK/$kind.iso
    check "[$kind] the builder plants it" "$GCFS" mkdisc "$image" --levels 4 --seed 7 --damage "$kind"
    serve "$image" "$kind"
    check "[$kind] the mount succeeds" wait_mounted "$WORK/mnt"
    info_size=$(stat -c %s "$WORK/mnt/LEVEL01/info.json" 2>/dev/null)
    for f in $eio_files; do
        [[ $f == */.. ]] && continue  # no file answers EIO: no container, or the damage shows in info.json only
        check "[$kind] $f answers EIO" eio_at "$WORK/mnt/$f"
        check "[$kind] its user.gcfs.status reports an error" \
            bash -c "getfattr --absolute-names --only-values -n user.gcfs.status '$WORK/mnt/$f' | grep -q '^error: '"
    done
    for level in $intact; do check "[$kind] $level reads exactly like the clean disc" same_as_clean "$level"; done
    for f in $unharmed; do
        check "[$kind] LEVEL01/$f reads exactly like the clean disc" diff -r "$WORK/clean/LEVEL01/$f" "$WORK/mnt/LEVEL01/$f"
    done
    check "[$kind] global/ reads exactly like the clean disc" diff -r "$WORK/clean/global" "$WORK/mnt/global"
    check "[$kind] LEVEL01/info.json or .gcfs/stats names the failure" info_names "$names"
    check "[$kind] LEVEL01/info.json keeps the size stat gave before the failures" \
        bash -c "test '$info_size' = \$(stat -c %s '$WORK/mnt/LEVEL01/info.json') && test \$(cat '$WORK/mnt/LEVEL01/info.json' | wc -c) = '$info_size'"
    if [[ -f $WORK/mnt/LEVEL01/level.glb ]]; then
        check "[$kind] LEVEL01/level.glb reads in full (a scene leaves out what it cannot decode)" \
            bash -c "test \$(cat '$WORK/mnt/LEVEL01/level.glb' | wc -c) = \$(stat -c %s '$WORK/mnt/LEVEL01/level.glb')"
    fi
    if [[ $eio_files != */.. ]]; then
        first=${eio_files%% *}
        check "[$kind] .gcfs/stats lists $first" grep -q "^error $first: " "$WORK/mnt/.gcfs/stats"
    fi
    "$GCFS" verify "$image" >"$WORK/$kind.verify"; rc=$?
    check "[$kind] gcfs verify exits 1 naming it" \
        bash -c "test $rc = 1 && grep '^FAILED LEVEL01: ' '$WORK/$kind.verify' | grep -q '$names'"
    check "[$kind] no crash: the daemon is still serving" test -f "$WORK/mnt/README.txt"
    stop_daemon TERM $pid
done

# ---- damage inside a global WAD: only its files fail, every level and the
# rest of global/ read exactly like the clean disc.
# kind | files that must answer EIO | text naming the failure | its folder | files of that folder still exact
global_cases=(
    "vag-size|global/audio/vendor/001.vag global/audio/vendor/001.wav|data_size|audio|vendor/000.wav vendor/005.wav help"
    "audio-extent|global/audio/help/french/005.vag global/audio/help/french/005.wav|the WAD ends at sector|audio|vendor help/english help/french/000.wav"
    "subtitle-offset|global/mpeg/00.en.srt global/mpeg/00.de.srt|past the|mpeg|00.pss 01.pss 03.fr.srt 49.it.srt"
    "video-extent|global/mpeg/01.pss|claims bytes|mpeg|00.pss 00.en.srt 49.pss subtitles.csv"
    "pif-magic|global/bonus/sketchbook/29.png|2FIP|bonus|goodies_images character_sketches credits_images credits_text_0.bin credits_text_7.bin"
    "pif-size|global/bonus/character_sketches/00.png|needs|bonus|character_sketches/18.png sketchbook goodies_images paintings"
    "texlist-count|global/armor/armor_0.glb|texture list|armor|armor_3.obj armor_3.glb wrench_5.glb textures/armor_3_0.png textures/wrench_5_2.png low"
    "armor-packets|global/armor/armor_0.obj global/armor/armor_0.glb|mesh: |armor|armor_3.obj armor_8.glb wrench_0.glb textures low"
    "exe-block|global/misc/frontbin.elf|runs past|misc|debug_font.png irx save_game.bin frontbin_net.bin"
)
for case in "${global_cases[@]}"; do
    IFS='|' read -r kind eio_files names folder unharmed <<<"$case"
    image=$WORK/$kind.iso
    check "[$kind] the builder plants it" "$GCFS" mkdisc "$image" --levels 4 --seed 7 --damage "$kind"
    serve "$image" "$kind"
    check "[$kind] the mount succeeds" wait_mounted "$WORK/mnt"
    for f in $eio_files; do
        check "[$kind] $f answers EIO" eio_at "$WORK/mnt/$f"
        check "[$kind] $f fails at open, not at a later read" eio_at_open "$WORK/mnt/$f"
        check "[$kind] one log line names $f and the byte" bash -c "test \$(grep -c '$f: .*$names.*byte 0x' '$WORK/$kind.log') = 1"
    done
    for level in LEVEL00 LEVEL01 LEVEL02 LEVEL03; do check "[$kind] $level reads exactly like the clean disc" same_as_clean "$level"; done
    for f in $unharmed; do
        check "[$kind] global/$folder/$f reads exactly like the clean disc" diff -r "$WORK/clean/global/$folder/$f" "$WORK/mnt/global/$folder/$f"
    done
    check "[$kind] the other global folders read exactly like the clean disc" \
        diff -r --exclude="$folder" --exclude="$folder.wad" "$WORK/clean/global" "$WORK/mnt/global"
    check "[$kind] global/$folder/info.json lists the failure" \
        python3 -c "import json, sys; i = json.load(open(sys.argv[1])); sys.exit(0 if not i['ok'] and sys.argv[2] in json.dumps(i['failures']) else 1)" \
        "$WORK/mnt/global/$folder/info.json" "$names"
    "$GCFS" verify "$image" >"$WORK/$kind.verify"; rc=$?
    check "[$kind] gcfs verify exits 1 naming it" bash -c "test $rc = 1 && grep '^FAILED global/$folder/' '$WORK/$kind.verify' | grep -q '$names'"
    stop_daemon TERM $pid
done

# ---- crafted images: names from the image never climb out of their folder
craft() {  # craft OUT FROM TO: the clean image with a directory record's name bytes replaced (same length)
    python3 - "$WORK/clean.iso" "$1" "$2" "$3" <<'PY'
import sys
src, out, old, new = sys.argv[1], sys.argv[2], sys.argv[3].encode(), sys.argv[4].encode()
data = bytearray(open(src, "rb").read())
head = bytes(data[16 * 2048:400 * 2048])
at = head.find(old)
assert at >= 0 and len(old) == len(new)
data[16 * 2048 + at:16 * 2048 + at + len(old)] = new
open(out, "wb").write(data)
PY
}
craft "$WORK/pwned.iso" 'SYSTEM.CNF;1' '../../PWNED1'
serve "$WORK/pwned.iso" pwned
check "[crafted ../../PWNED1] the mount succeeds" wait_mounted "$WORK/mnt"
check "[crafted ../../PWNED1] nothing named PWNED1 at the root or directly in disc/" \
    bash -c "! ls '$WORK/mnt' '$WORK/mnt/disc' | grep -qx PWNED1"
check "[crafted ../../PWNED1] the record shows escaped inside disc/ with SYSTEM.CNF's bytes" \
    cmp "$WORK/mnt/disc/..%2F..%2FPWNED1" "$WORK/clean/disc/SYSTEM.CNF"
check "[crafted ../../PWNED1] one log line names the record and what it is shown as" \
    bash -c "test \$(grep -c 'the record named \"../../PWNED1\" is shown as ..%2F..%2FPWNED1' '$WORK/pwned.log') = 1"
stop_daemon TERM $pid
check "[crafted ../../PWNED1] gcfs ls IMAGE shows no PWNED1 at the root" bash -c "! '$GCFS' ls '$WORK/pwned.iso' 2>/dev/null | grep -q PWNED1"
check "[crafted ../../PWNED1] gcfs ls IMAGE disc shows it escaped" \
    bash -c "'$GCFS' ls '$WORK/pwned.iso' disc 2>/dev/null | grep -qF '..%2F..%2FPWNED1'"
mkdir -p "$WORK/out/inside"
check "[crafted ../../PWNED1] gcfs extract writes only under DEST" \
    bash -c "'$GCFS' extract '$WORK/pwned.iso' disc '$WORK/out/inside' 2>/dev/null; test -f '$WORK/out/inside/disc/..%2F..%2FPWNED1' && test -z \"\$(find '$WORK/out' -name PWNED1)\" && test ! -e '$WORK/PWNED1'"
mkdir -p "$WORK/outside" "$WORK/dest"
ln -s "$WORK/outside" "$WORK/dest/LEVEL00"
check "[extract] a symlink already in DEST is refused, never written through" \
    bash -c "! '$GCFS' extract '$WORK/clean.iso' LEVEL00 '$WORK/dest' 2>'$WORK/dest.err' && grep -q 'not followed' '$WORK/dest.err' && test -z \"\$(ls -A '$WORK/outside')\""

craft "$WORK/twice.iso" 'LEVEL01.WAD;1' 'LEVEL00.WAD;1'
serve "$WORK/twice.iso" twice
check "[crafted duplicate name] the mount succeeds" wait_mounted "$WORK/mnt"
check "[crafted duplicate name] both records show, the second as LEVEL00.WAD~2" \
    bash -c "cmp '$WORK/mnt/disc/LEVELS/LEVEL00.WAD' '$WORK/clean/disc/LEVELS/LEVEL00.WAD' && cmp '$WORK/mnt/disc/LEVELS/LEVEL00.WAD~2' '$WORK/clean/disc/LEVELS/LEVEL01.WAD'"
stop_daemon TERM $pid

# ---- truncated images say where they end
head -c $((1010 * 2048)) "$WORK/clean.iso" > "$WORK/short.iso"
check "[truncated in the table of contents] gcfs ls says where the image ends and what the TOC needs" \
    bash -c "'$GCFS' ls '$WORK/short.iso' 2>&1 | grep -q 'the image ends at sector 1010; the table of contents needs sector'"
check "[truncated in the table of contents] mount refuses with the same words" \
    bash -c "'$GCFS' mount '$WORK/short.iso' '$WORK/mnt' 2>&1 | grep -q 'the image ends at sector 1010; the table of contents needs sector'"

# ---- a rebuilt image whose ISO9660 directories are sized to the bytes used
# (as some modding tools write them) rather than to whole sectors
python3 "$(dirname "$0")/craft_iso.py" --trimmed "$WORK/clean.iso" "$WORK/trimmed.iso"
serve "$WORK/trimmed.iso" trimmed
check "[directories sized in bytes] the mount succeeds" wait_mounted "$WORK/mnt"
check "[directories sized in bytes] disc/ reads exactly like the clean disc" diff -r "$WORK/clean/disc" "$WORK/mnt/disc"
check "[directories sized in bytes] every level reads exactly like the clean disc" \
    bash -c "for l in LEVEL00 LEVEL01 LEVEL02 LEVEL03; do diff -r --exclude=info.json '$WORK/clean/'\$l '$WORK/mnt/'\$l || exit 1; done"
stop_daemon TERM $pid

# ---- crafted ISO9660 directories (tests/mount/craft_iso.py): the game reads
# none of them, so each costs only the part of disc/ it describes
mkdir -p "$WORK/crafted"
python3 "$(dirname "$0")/craft_iso.py" "$WORK/clean.iso" "$WORK/crafted" >"$WORK/crafted.list" || echo "craft_iso.py failed"
while read -r kind; do
    image=$WORK/crafted/$kind.iso
    serve "$image" "iso-$kind"
    check "[iso $kind] the mount succeeds" wait_mounted "$WORK/mnt"
    check "[iso $kind] every level reads exactly like the clean disc" \
        bash -c "for l in LEVEL00 LEVEL01 LEVEL02 LEVEL03; do diff -r --exclude=info.json '$WORK/clean/'\$l '$WORK/mnt/'\$l || exit 1; done"
    check "[iso $kind] global/ reads exactly like the clean disc" diff -r "$WORK/clean/global" "$WORK/mnt/global"
    check "[iso $kind] every name in disc/ is one step of at most 255 bytes" \
        bash -c "find '$WORK/mnt/disc' -mindepth 1 -printf '%f\n' | awk 'length(\$0) > 255 || /\\// { bad = 1 } END { exit bad }'"
    check "[iso $kind] every name of disc/ copies out (names a file system can hold; a file past the image end is EIO)" \
        bash -c "rm -rf '$WORK/copy'; cp -r '$WORK/mnt/disc' '$WORK/copy' 2>/dev/null; diff <(cd '$WORK/mnt/disc' && find . | sort) <(cd '$WORK/copy' && find . | sort)"
    if [[ $kind == names ]]; then
        check "[iso $kind] hostile names show escaped inside disc/LEVELS, duplicates apart" \
            bash -c "cd '$WORK/mnt/disc/LEVELS' && test -f %2E && test -f %2E%2E && test -f A%00B && test -f ..%2F..%2FESCAPE && test -f A%2FB && test -f LEVEL00.WAD~2 && test -f LEVEL00.WAD~3 && cmp %2E '$WORK/clean/disc/SYSTEM.CNF'"
        check "[iso $kind] nothing escaped the mount" bash -c "test ! -e '$WORK/ESCAPE' && ! ls '$WORK/mnt' | grep -q ESCAPE"
        check "[iso $kind] no disc/.damaged: hostile names are not damage" test ! -e "$WORK/mnt/disc/.damaged"
        check "[iso $kind] a name with a line break and an escape sequence shows escaped" test -f "$WORK/mnt/disc/LEVELS/EVIL%0ALINE%1B[31m"
        # Log lines quote the raw names escaped (tree/node/log_escape.h): no ESC reaches stderr or .gcfs/log,
        # and the line naming EVIL is one line.
        check "[iso $kind] the log quotes hostile names escaped: no control byte in stderr or .gcfs/log, one line each" \
            bash -c "for f in '$WORK/iso-$kind.log' '$WORK/mnt/.gcfs/log'; do ! grep -qP '[\\x00-\\x08\\x0b-\\x1f\\x7f]' \"\$f\" && grep -q 'EVIL[^ ]*LINE' \"\$f\" && ! grep -q '^LINE' \"\$f\" || exit 1; done"
    else
        check "[iso $kind] disc/.damaged names the LBA and byte" grep -qP '^disc/\S*\tLBA \d+\tbyte \d+\t' "$WORK/mnt/disc/.damaged"
        check "[iso $kind] each problem is logged once, naming LBA and image byte" \
            bash -c "n=\$(grep -c 'ISO9660 directory at LBA .*, image byte' '$WORK/iso-$kind.log'); test \$n -ge 1 && test \$n = \$(grep -c \$'\\tLBA ' '$WORK/mnt/disc/.damaged')"
    fi
    stop_daemon TERM $pid
    check "[iso $kind] gcfs ls lists the levels" bash -c "'$GCFS' ls '$image' 2>/dev/null | grep -q LEVEL03"
    "$GCFS" verify "$image" >"$WORK/iso-$kind.verify" 2>/dev/null; rc=$?
    if [[ $kind == names ]]; then
        check "[iso $kind] gcfs verify passes" test $rc = 0
    else
        check "[iso $kind] gcfs verify exits 1 naming the ISO9660 damage and no level" \
            bash -c "test $rc = 1 && grep -q '^FAILED disc/.*ISO9660 directory at LBA' '$WORK/iso-$kind.verify' && ! grep -q '^FAILED LEVEL' '$WORK/iso-$kind.verify'"
    fi
done <"$WORK/crafted.list"
check "[iso] all nine crafted cases ran" test "$(wc -l <"$WORK/crafted.list")" = 9

# ---- what is not a disc image file, and bad options, are refused at once
mkfifo "$WORK/fifo"
for cmd in "ls" "verify" "mount"; do
    args=("$WORK/fifo"); [[ $cmd == mount ]] && args+=("$WORK/mnt")
    check "[fifo] gcfs $cmd refuses a FIFO at once (exit 2), naming it" \
        bash -c "timeout 10 '$GCFS' $cmd ${args[*]} 2>&1 | grep -q 'is a FIFO'; test \${PIPESTATUS[0]} = 2"
done
for size in -5 0 +5 " 5" 99999999999999999999 5X; do
    check "[cache_size=$size] refused with the usage line" \
        bash -c "'$GCFS' mount '$WORK/clean.iso' '$WORK/mnt' -o 'cache_size=$size' 2>&1 | grep -q '^usage: gcfs mount'; test \${PIPESTATUS[0]} = 1"
done

# ---- a foreground mount on a relative mount point stops cleanly on a signal
for sig in INT TERM; do
    (cd "$WORK" && exec "$GCFS" mount -f clean.iso mnt 2>"$WORK/sig.log") & pid=$!
    check "[SIG$sig, relative mount point] the mount succeeds" wait_mounted "$WORK/mnt"
    kill -$sig $pid; wait $pid; rc=$?
    check "[SIG$sig, relative mount point] exits 0" test $rc = 0
    check "[SIG$sig, relative mount point] leaves no mount behind" bash -c "! mountpoint -q '$WORK/mnt' && ! grep -q 'failed to unmount' '$WORK/sig.log'"
done

finish corpus
