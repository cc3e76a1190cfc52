"""Geometry imports on the full-scale disc (issue 56): a 100,352-triangle
height field (224 x 224 squares) saved over LEVEL03/tfrag/terrain.obj under
-o edits, its close timed (assimp's read, the tfrag compiler's patches,
LODs and strips, the core grown and compressed again, the new generation
served), then the level's first `ls -lR` after it, against the same listing
of the level in an edits mount before any edit; and the same ground as
quads over LEVEL03/collision.obj; and (issue 55) a 10,000-triangle sphere
over the level's first tie class. Each run saves a different height field
and sphere, so every close encodes. Writes its section of bench/results.md.
Usage: python3 bench/imports.py [--gcfs build/gcfs] [--image bench/work/full.iso] [--runs 3]"""
import math
import os
import shutil
import statistics
import sys
import tempfile

from run_common import Mount, bench_arguments, ls_lr, timed, write_section

HERE = os.path.dirname(os.path.abspath(__file__))
TITLE = "Geometry imports (issues 55, 56)"
LEVEL = "LEVEL03"
CELLS = 224  # 2 x 224 x 224 = 100,352 triangles


def height(i, j, run):
    return 0.2 * i + math.sin(j / 7.0 + run) + 0.3 * math.cos(i / 3.0)


def terrain_obj(run):
    """A y-up OBJ as Blender writes one: positions, UVs, two tfrag textures in bands, triangles."""
    lines = ["o ground"]
    lines += ["v %.4f %.4f %.4f" % (i * 0.5, height(i, j, run), -j * 0.5) for j in range(CELLS + 1) for i in range(CELLS + 1)]
    lines += ["vt %.4f %.4f" % (i / 32.0, 1 - j / 32.0) for j in range(CELLS + 1) for i in range(CELLS + 1)]
    for j in range(CELLS):
        lines.append("usemtl tfrag_%03d" % (j // 16 % 2))
        for i in range(CELLS):
            a = j * (CELLS + 1) + i + 1
            b, d, e = a + 1, a + CELLS + 1, a + CELLS + 2
            lines.append("f %d/%d %d/%d %d/%d\nf %d/%d %d/%d %d/%d" % (a, a, b, b, e, e, a, a, e, e, d, d))
    return "\n".join(lines) + "\n"


def collision_obj(run):
    """The same ground as quads of one surface type."""
    lines = ["o ground", "usemtl col_01"]
    lines += ["v %.4f %.4f %.4f" % (i * 0.5, height(i, j, run), -j * 0.5) for j in range(CELLS + 1) for i in range(CELLS + 1)]
    for j in range(CELLS):
        for i in range(CELLS):
            a = j * (CELLS + 1) + i + 1
            lines.append("f %d %d %d %d" % (a, a + 1, a + CELLS + 2, a + CELLS + 1))
    return "\n".join(lines) + "\n"


def sphere_obj(run, rings=51, sectors=100):
    """A UV sphere (y up) of 2 x sectors x (rings - 1) = 10,000 triangles with UVs, two tie textures (upper and lower half)."""
    lines = ["o sphere"]
    for r in range(rings + 1):
        for s in range(sectors + 1):
            el, az = math.pi * r / rings - math.pi / 2, 2 * math.pi * s / sectors
            lines.append("v %.5f %.5f %.5f" % (3 * math.cos(el) * math.cos(az), 3 + 3 * math.sin(el) + 0.01 * run, -3 * math.cos(el) * math.sin(az)))
    lines += ["vt %.5f %.5f" % (s / sectors, r / rings) for r in range(rings + 1) for s in range(sectors + 1)]
    for half in range(2):
        lines.append("usemtl tie_%03d" % half)
        for r in range(half * rings // 2, rings // 2 + half * (rings - rings // 2)):
            for s in range(sectors):
                a = r * (sectors + 1) + s + 1
                b, c, d = a + 1, a + sectors + 1, a + sectors + 2
                if r > 0:
                    lines.append("f %d/%d %d/%d %d/%d" % (a, a, b, b, d, d))
                if r < rings - 1:
                    lines.append("f %d/%d %d/%d %d/%d" % (a, a, d, d, c, c))
    return "\n".join(lines) + "\n"


def save(mnt, path, text):
    """Writes `text` over a mount file; the seconds its close took (the edit is applied there)."""
    f = open(os.path.join(mnt, path), "w")
    f.write(text)
    return timed(f.close)


def main():
    args = bench_arguments(__doc__, HERE)
    runs = min(args.runs, 3)
    blank = tempfile.mkdtemp(prefix="gcfs-bench-imports-")
    with Mount(args.gcfs, args.image, "edits=" + blank) as m:
        before = ls_lr(os.path.join(m.mnt, LEVEL))  # the level's first listing under -o edits, no edit yet
        patches_before = len(os.listdir(os.path.join(m.mnt, LEVEL, "tfrag")))
    shutil.rmtree(blank)
    terrain, listings, collision, tie, tie_after = [], [], [], [], []
    for run in range(runs):
        edits = tempfile.mkdtemp(prefix="gcfs-bench-imports-")
        with Mount(args.gcfs, args.image, "edits=" + edits) as m:
            terrain.append(save(m.mnt, LEVEL + "/tfrag/terrain.obj", terrain_obj(run)))
            status = os.getxattr(os.path.join(m.mnt, LEVEL, "tfrag/terrain.obj"), "user.gcfs.edit").decode()
            if "triangles in" not in status:
                raise SystemExit("the terrain was not applied: " + status)
            listings.append(ls_lr(os.path.join(m.mnt, LEVEL)))
            patches_after = len(os.listdir(os.path.join(m.mnt, LEVEL, "tfrag")))
            collision.append(save(m.mnt, LEVEL + "/collision.obj", collision_obj(run)))
            klass = sorted(n for n in os.listdir(os.path.join(m.mnt, LEVEL, "ties")) if n.startswith("tie_") and n.endswith(".obj"))[0]
            tie_after.append(save(m.mnt, LEVEL + "/ties/" + klass, sphere_obj(run)))
        shutil.rmtree(edits)
        # The class alone, the level's first edit in a fresh edits folder.
        edits = tempfile.mkdtemp(prefix="gcfs-bench-imports-")
        with Mount(args.gcfs, args.image, "edits=" + edits) as m:
            tie.append(save(m.mnt, LEVEL + "/ties/" + klass, sphere_obj(run + 1)))
            tie_status = os.getxattr(os.path.join(m.mnt, LEVEL, "ties", klass), "user.gcfs.edit").decode()
            if "triangles in" not in tie_status:
                raise SystemExit("the tie class was not applied: " + tie_status)
        shutil.rmtree(edits)
    rows = [
        ("close of a 100,352-triangle terrain.obj over %s (read, patches, LODs, strips, core grown and compressed, served)" % LEVEL,
         "%.2f s" % statistics.median(terrain), "(no target)", "median of %d saves, each a different height field; %s" % (runs, status.split(": ", 1)[-1][:160])),
        ("then the level's first `ls -lR` (every patch decoded for its size)", "%.2f s" % statistics.median(listings), "(no target)",
         "the same listing under -o edits before any edit: %.2f s. An edits mount answers every stat itself (a file may change, so "
         "the kernel keeps no attributes), so the listing grows with the files: tfrag/ holds %d entries after, %d before (a patch OBJ each, "
         "and as many again in lod1/ and lod2/)" % (before, patches_after, patches_before)),
        ("close of the same ground as 50,176 quads over %s/collision.obj" % LEVEL, "%.2f s" % statistics.median(collision), "(no target)",
         "after the terrain, in the same mount"),
        ("close of a 10,000-triangle sphere over %s/ties/%s (read, LODs, strips, packets, core compressed, served)" % (LEVEL, klass),
         "%.2f s" % statistics.median(tie), "< 1 s", "%s; the level's first edit; %s" % ("met" if statistics.median(tie) < 1 else "MISSED", tie_status.split(": ", 1)[-1][:160])),
        ("the same sphere saved after the terrain and the collision, in their mount", "%.2f s" % statistics.median(tie_after), "(no target)",
         "core_data is compressed again around what differs from the image's own stream (edit/level_parts.h), and after the terrain grew the "
         "core that is every block past the tfrag region"),
    ]
    write_section(args, TITLE, "imports.py", "medians of %d runs" % runs, rows)


if __name__ == "__main__":
    sys.exit(main())
