#!/usr/bin/python3
# Third-party readers on a mounted level's particles and transition textures
# (formats-globals.md §13, §5). Run by Debian's python3, whose PIL
# (python3-pil) plays APNG frames:
#   - every particles/NNN.png is an animation of as many frames as
#     particles/NNN/ holds, each frame 1/15 s, and frame k equals frame_kk.png
#     placed at the top left of the canvas, transparent elsewhere;
#   - every transition/NN.png equals the PIF it comes from, decoded here from
#     transition_textures.bin (the list, the swizzled palette, PS2 alpha).
# Usage: particles.py MOUNTPOINT
import glob, os, struct, sys
from PIL import Image

mount = sys.argv[1]
problems, animations, transitions = [], 0, 0

def rgba(path):
    im = Image.open(path)
    return im.convert("RGBA")

for level in sorted(glob.glob(os.path.join(mount, "LEVEL??"))):
    for apng in sorted(glob.glob(os.path.join(level, "particles", "[0-9][0-9][0-9].png"))):
        frames = sorted(glob.glob(apng[:-4] + "/frame_*.png"))
        im = Image.open(apng)
        if not getattr(im, "is_animated", False) and len(frames) > 1:
            problems.append(f"{apng}: PIL sees no animation"); continue
        if im.n_frames != len(frames):
            problems.append(f"{apng}: {im.n_frames} frames, {len(frames)} frame files"); continue
        for k, frame_path in enumerate(frames):
            im.seek(k)
            if abs(im.info.get("duration", 0) - 1000 / 15) > 0.01:
                problems.append(f"{apng} frame {k}: {im.info.get('duration')} ms")
            got = im.convert("RGBA")
            want = Image.new("RGBA", got.size, (0, 0, 0, 0))
            want.paste(rgba(frame_path), (0, 0))
            if got.tobytes() != want.tobytes():
                problems.append(f"{apng} frame {k} differs from {frame_path}")
        animations += 1

    bin_path = os.path.join(level, "transition_textures.bin")
    if not os.path.isdir(os.path.join(level, "transition")):
        continue
    data = open(bin_path, "rb").read()
    count = struct.unpack_from("<i", data, 0)[0]
    offsets = list(struct.unpack_from(f"<{count}i", data, 4)) + [len(data)]
    pngs = sorted(glob.glob(os.path.join(level, "transition", "*.png")))
    if len(pngs) != count:
        problems.append(f"{level}: {len(pngs)} transition PNGs for {count} list entries")
    for i in range(min(count, len(pngs))):
        pif = data[offsets[i]:offsets[i + 1]]
        magic, _, w, h, fmt = struct.unpack_from("<4s4i", pif, 0)
        if magic != b"2FIP" or fmt != 0x13:
            problems.append(f"{level} transition {i}: not an 8-bit PIF"); continue
        pal = pif[0x20:0x20 + 1024]
        def colour(c):  # entry c is stored at slot c with bits 3 and 4 swapped
            s = (c & ~0x18) | ((c & 0x08) << 1) | ((c & 0x10) >> 1)
            r, g, b, a = pal[4 * s:4 * s + 4]
            return (r, g, b, min(2 * a, 255))
        colours = [colour(c) for c in range(256)]
        indices = pif[0x20 + 1024:0x20 + 1024 + w * h]
        want = bytes(v for c in indices for v in colours[c])
        got = rgba(pngs[i])
        if got.size != (w, h) or got.tobytes() != want:
            problems.append(f"{pngs[i]}: differs from the PIF")
        transitions += 1

if not animations or not transitions:
    problems.append(f"nothing checked: {animations} animations, {transitions} transition textures")
print("\n".join(problems) or f"{animations} animations and {transitions} transition textures match")
sys.exit(1 if problems else 0)
