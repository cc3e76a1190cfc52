"""The edit round trip on the full-scale disc (issue 40): the time from
closing an edited texture to a full read of that level's level.glb, and
edited.iso read throughput against cat of the image (target >= 0.8x), with
one edit applied so that edited.iso is assembled from the image and a patch;
and the PS-ADPCM encoder edited sounds go through (issue 41): SNR against the
input for a tone, noise and a chirp, and its speed (gcfs_bench adpcm-encode).
Writes its section of bench/results.md (bench/run.py keeps it).
Usage: python3 bench/edits.py [--gcfs build/gcfs] [--image bench/work/full.iso] [--runs 5]"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from run_common import bench_arguments, drop_caches, read_file, timed, write_section

HERE = os.path.dirname(os.path.abspath(__file__))
TITLE = "Edits (issue 40)"
LEVEL = "LEVEL03"


def mount(gcfs, image, mnt, edits):
    proc = subprocess.Popen([gcfs, "mount", "-f", image, mnt, "-o", "edits=" + edits], stderr=subprocess.DEVNULL)
    for _ in range(400):
        if os.path.ismount(mnt):
            return proc
        time.sleep(0.05)
    raise SystemExit("the mount did not come up")


def round_trip(gcfs, image, runs):
    """One mount under -o edits: `runs` saves of a texture (close timed), each followed by a full read of
    the level's level.glb, then edited.iso read cold against cat of the image. A dict of the figures."""
    work = tempfile.mkdtemp(prefix="gcfs-bench-edits-")
    mnt, edits = os.path.join(work, "mnt"), os.path.join(work, "edits")
    os.makedirs(mnt)
    proc = mount(gcfs, image, mnt, edits)
    texture = os.path.join(mnt, LEVEL, "textures", "tfrag_000.png")
    glb = os.path.join(mnt, LEVEL, "level.glb")
    pictures = []
    for i, op in enumerate(["-flip", "-flop", "-rotate", "-transpose", "-transverse"]):
        out = os.path.join(work, "t%d.png" % i)
        subprocess.run(["convert", texture] + ([op, "180"] if op == "-rotate" else [op]) + ["PNG32:" + out], check=True)
        pictures.append(open(out, "rb").read())
    closes, reads, glb_bytes = [], [], 0
    for i in range(runs):
        data = pictures[i % len(pictures)]
        f = open(texture, "wb")
        f.write(data)
        closes.append(timed(f.close))  # the edit is encoded and applied at close
        start = time.perf_counter()
        glb_bytes = read_file(glb)
        reads.append(time.perf_counter() - start)

    edited = os.path.join(mnt, "edited.iso")
    size = os.path.getsize(edited)
    mount_times, plain_times, cold = [], [], drop_caches()
    for _ in range(runs):
        drop_caches()
        mount_times.append(timed(lambda: read_file(edited)))
        drop_caches()
        plain_times.append(timed(lambda: subprocess.run(["cat", image], stdout=subprocess.DEVNULL, check=True)))
    subprocess.run(["fusermount3", "-u", mnt])
    proc.wait()
    shutil.rmtree(work)
    return {"close_s": statistics.median(closes), "read_s": statistics.median(reads), "glb_bytes": glb_bytes,
            "edited_bytes": size, "edited_s": statistics.median(mount_times), "cat_s": statistics.median(plain_times),
            "cold": cold}


def main():
    args = bench_arguments(__doc__, HERE)
    gcfs = args.gcfs
    r = round_trip(gcfs, args.image, args.runs)
    close_t, read_t, glb_bytes, size, cold = r["close_s"], r["read_s"], r["glb_bytes"], r["edited_bytes"], r["cold"]
    ratio = r["cat_s"] / r["edited_s"]

    rows = [
        ("close of an edited %s/textures/tfrag_000.png (encode, re-compress the level, new generation)" % LEVEL,
         "%.2f s" % close_t, "(no target)", "median of %d saves, each a different picture of the same colours" % args.runs),
        ("then a full read of %s/level.glb" % LEVEL, "%.2f s" % read_t, "(no target)",
         "%d bytes, the scene built from the edited container" % glb_bytes),
        ("close to level.glb read, together", "%.2f s" % (close_t + read_t), "(no target)", ""),
        ("edited.iso read / cat of the image (throughput)", "%.2fx" % ratio, ">= 0.8x",
         "%d bytes; %.0f vs %.0f MB/s%s" % (size, size / r["edited_s"] / 1e6, os.path.getsize(args.image) / r["cat_s"] / 1e6,
                                             ", page cache dropped before each" if cold else ", caches NOT dropped")),
    ]
    bench = os.path.join(os.path.dirname(gcfs), "gcfs_bench")
    enc = dict(l.split(" ", 1) for l in subprocess.run([bench, "adpcm-encode", "10"], check=True, capture_output=True,
                                                        text=True).stdout.splitlines())
    has_encoder = "adpcm_psx" in subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True, text=True).stdout
    for signal, target in (("tone", ">= 30 dB"), ("noise", "(no target)"), ("chirp", "(no target)")):
        snr = float(enc["encode_%s_exhaustive_snr_db" % signal])
        rows.append(("PS-ADPCM encode of a 10 s %s at 22050 Hz: SNR / speed" % signal,
                     "%.1f dB; %.1f MB/s of WAV" % (snr, float(enc["encode_%s_exhaustive_mb_s" % signal])), target,
                     "every filter and shift per frame, closed loop; the builder's three shifts a filter: %s dB, %s MB/s. %s"
                     % (enc["encode_%s_three_shifts_snr_db" % signal], enc["encode_%s_three_shifts_mb_s" % signal],
                        "ffmpeg's adpcm_psx encoder beside it" if has_encoder else
                        "Debian's ffmpeg has no adpcm_psx encoder (only the decoder), so there is no peer figure")))
    write_section(args, TITLE, "edits.py", "medians of %d runs" % args.runs, rows)


if __name__ == "__main__":
    sys.exit(main())
