"""Mods as patches (issue 57): a one-texture mod of LEVEL03 on the full-scale
disc, written as a VCDIFF by `gcfs pack --vcdiff` (target: under 1 MiB), beside
xdelta3's own encoder given the packed image (the peer: what a modder would
run without gcfs, with and without its secondary compression), and xdelta3's
decoder applying gcfs's patch (it must give `gcfs pack`'s bytes exactly).
Writes its section of bench/results.md (bench/run.py keeps it).
Usage: python3 bench/patches.py [--gcfs build/gcfs] [--image bench/work/full.iso] [--runs 5]"""
import filecmp
import os
import shutil
import statistics
import subprocess
import tempfile

from run_common import Mounted, bench_arguments, timed, write_section

HERE = os.path.dirname(os.path.abspath(__file__))
TITLE = "Patches (issue 57)"
TEXTURE = "LEVEL03/textures/tfrag_000.png"


def run(argv):
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def median_time(argv, runs):
    return statistics.median(timed(lambda: run(argv)) for _ in range(runs))


def why(ours, theirs, packed, image):
    """What explains the two patches' sizes, from the images themselves."""
    if os.path.getsize(packed) > os.path.getsize(image) and ours < theirs:
        return ("The edited level container grew and moved to the image's end; by its patch's size xdelta3 carried it as new "
                "data (its source window, -B 64 MiB by default, follows the target's position), where gcfs searches a moved "
                "container at its old place")
    if ours > theirs:
        return "xdelta3 compresses its sections again (secondary compression); gcfs does not"
    return ""


def main():
    args = bench_arguments(__doc__, HERE)
    gcfs, image = args.gcfs, args.image
    work = tempfile.mkdtemp(prefix="gcfs-bench-patches-")
    mod = os.path.join(work, "mod")
    with Mounted([gcfs, "mount", "-f", "-o", "edits=" + mod, image]) as m:
        flipped = os.path.join(work, "flipped.png")  # the same colours: the texture keeps its palette
        run(["convert", os.path.join(m.mnt, TEXTURE), "-flip", "PNG32:" + flipped])
        shutil.copyfile(flipped, os.path.join(m.mnt, TEXTURE))

    patch, packed = os.path.join(work, "mod.vcdiff"), os.path.join(work, "packed.iso")
    gcfs_t = median_time([gcfs, "pack", "--vcdiff", image, mod, patch], args.runs)
    pack_t = median_time([gcfs, "pack", image, mod, packed], args.runs)
    peer, peer0 = os.path.join(work, "xdelta3.vcdiff"), os.path.join(work, "xdelta3-0.vcdiff")
    peer_t = median_time(["xdelta3", "-e", "-f", "-s", image, packed, peer], args.runs)
    peer0_t = median_time(["xdelta3", "-0", "-e", "-f", "-s", image, packed, peer0], args.runs)
    out = os.path.join(work, "x.iso")
    apply_t = median_time(["xdelta3", "-d", "-f", "-s", image, patch, out], args.runs)
    same = filecmp.cmp(out, packed, shallow=False)
    size, peer_size, peer0_size = (os.path.getsize(p) for p in (patch, peer, peer0))
    rows = [
        ("`gcfs pack --vcdiff` of a one-texture mod (LEVEL03/textures/tfrag_000.png flipped)", "%d bytes; %.2f s" % (size, gcfs_t),
         "< 1 MiB (issue 57): %s" % ("met" if size < 1 << 20 else "MISSED"),
         "the stack built (the level's core compressed again around the texture), then the image compared in 1 MiB windows, split where "
         "a moved container starts and ends; `gcfs pack` of the image itself %.2f s" % pack_t),
        ("`xdelta3 -e -s IMAGE packed.iso` (the peer, given the packed image)", "%d bytes; %.2f s" % (peer_size, peer_t), "(no target)",
         "gcfs / xdelta3: %.3fx the bytes, %.2fx the time. %s" % (size / peer_size, gcfs_t / peer_t, why(size, peer_size, packed, image))),
        ("`xdelta3 -0 -e` (no secondary compression, as gcfs writes)", "%d bytes; %.2f s" % (peer0_size, peer0_t), "(no target)",
         "gcfs / xdelta3 -0: %.3fx the bytes, %.2fx the time" % (size / peer0_size, gcfs_t / peer0_t)),
        ("`xdelta3 -d -s IMAGE` of gcfs's patch", "%.2f s; %s" % (apply_t, "the packed image's bytes" if same else "DIFFERENT bytes"),
         "the packed image, byte for byte: %s" % ("met" if same else "MISSED"), "%d bytes written" % os.path.getsize(out)),
    ]
    write_section(args, TITLE, "patches.py", "medians of %d runs" % args.runs, rows)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
