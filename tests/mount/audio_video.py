# Every sound and video of a mounted built disc, through third-party readers
# (formats-globals.md §1-4):
#   audio_video.py MOUNT
# - ffmpeg decodes every .vag (its vag demuxer, adpcm_psx decoder); gcfs's .wav
#   equals ffmpeg's PCM sample for sample over the WAV's length (tolerance 0),
#   and ffmpeg's samples past it (the end frame and after) are silence;
# - the strongest FFT bin of every WAV is the tone its VAG's name states
#   ("440Hz v005"), within one bin;
# - Python's wave module opens every WAV; its frame count is the stat size
#   minus the header (44 bytes, 112 with the smpl loop chunk), halved, and the
#   smpl chunk is there exactly when audio.csv names a loop;
# - ffprobe reads every .pss as an MPEG program stream with MPEG-2 video that
#   ffmpeg decodes without an error, and every .srt as SubRip with as many
#   cues as subtitles.csv has rows with text in that language.
import concurrent.futures
import csv
import glob
import json
import os
import re
import struct
import subprocess
import sys
import wave

import numpy

mount = sys.argv[1]
problems = []
checked = {"vag": 0, "pss": 0, "srt": 0}


def run(args):
    return subprocess.run(args, capture_output=True)


def wav_samples(path):
    with wave.open(path) as w:
        return w, numpy.frombuffer(w.readframes(w.getnframes()), dtype="<i2")


def check_vag(vag, csv_row):
    wav_path = vag[:-4] + ".wav"
    name = open(vag, "rb").read(0x30)[0x20:0x30].split(b"\0")[0].decode()
    got = run(["ffmpeg", "-v", "error", "-i", vag, "-f", "s16le", "-"])
    if got.returncode != 0:
        problems.append("%s: ffmpeg: %s" % (vag, got.stderr.decode().strip()))
        return
    theirs = numpy.frombuffer(got.stdout, dtype="<i2")
    w, ours = wav_samples(wav_path)
    size = os.stat(wav_path).st_size
    raw = open(wav_path, "rb").read()
    has_smpl = raw[36:40] == b"smpl"
    header = 112 if has_smpl else 44
    if w.getnframes() != (size - header) // 2 or w.getsampwidth() != 2 or w.getnchannels() != 1:
        problems.append("%s: wave reads %d frames of %d bytes, stat size %d" % (wav_path, w.getnframes(), w.getsampwidth(), size))
    if has_smpl != bool(csv_row["loop"]):
        problems.append("%s: smpl chunk %s, audio.csv loop %r" % (wav_path, has_smpl, csv_row["loop"]))
    if has_smpl:
        first, last = struct.unpack("<II", raw[36 + 8 + 36 + 8:36 + 8 + 36 + 16])
        if "%d-%d" % (first, last) != csv_row["loop"]:
            problems.append("%s: smpl loop %d-%d, audio.csv %s" % (wav_path, first, last, csv_row["loop"]))
    if int(csv_row["samples"]) != len(ours) or int(csv_row["rate"]) != w.getframerate():
        problems.append("%s: audio.csv says %s samples at %s Hz, the WAV holds %d at %d" %
                        (wav_path, csv_row["samples"], csv_row["rate"], len(ours), w.getframerate()))
    if len(theirs) < len(ours):
        problems.append("%s: ffmpeg decodes %d samples, the WAV holds %d" % (vag, len(theirs), len(ours)))
        return
    differ = numpy.nonzero(theirs[:len(ours)] != ours)[0]
    if len(differ):
        problems.append("%s: %d samples differ from ffmpeg's, the first at %d (%d vs %d)" %
                        (wav_path, len(differ), differ[0], ours[differ[0]], theirs[differ[0]]))
    if numpy.any(theirs[len(ours):]):
        problems.append("%s: ffmpeg decodes sound past the end frame" % vag)
    m = re.match(r"(\d+)Hz", name)
    if not m:
        problems.append("%s: the VAG's name %r states no tone" % (vag, name))
        return
    spectrum = numpy.abs(numpy.fft.rfft(ours.astype(float) * numpy.hanning(len(ours))))
    peak = numpy.argmax(spectrum) * w.getframerate() / len(ours)
    if abs(peak - int(m.group(1))) > w.getframerate() / len(ours) + 1:
        problems.append("%s: strongest frequency %.1f Hz, the VAG names %s Hz" % (wav_path, peak, m.group(1)))
    checked["vag"] += 1


def audio_folder(folder):
    rows = {r["file"]: r for r in csv.DictReader(open(os.path.join(folder, "audio.csv"), newline=""))}
    info = json.load(open(os.path.join(folder, "info.json")))
    if not info["ok"]:
        problems.append("%s/info.json: not ok: %s" % (folder, info["failures"]))
    vags = sorted(glob.glob(os.path.join(folder, "**", "*.vag"), recursive=True))
    if sorted(os.path.relpath(v, folder)[:-4] for v in vags) != sorted(rows):
        problems.append("%s: audio.csv rows %s, .vag files %s" % (folder, sorted(rows), vags))
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:  # ffmpeg's start-up is most of each check
        list(pool.map(lambda vag: check_vag(vag, rows[os.path.relpath(vag, folder)[:-4]]), vags))
    return len(vags)


folders = [os.path.join(mount, "global", "audio")] + sorted(glob.glob(os.path.join(mount, "LEVEL*", "audio")))
for folder in folders:
    if audio_folder(folder) == 0:
        problems.append("%s: no VAG" % folder)

mpeg = os.path.join(mount, "global", "mpeg")
for pss in sorted(glob.glob(os.path.join(mpeg, "*.pss"))):
    probe = run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name:format=format_name", "-of", "json", pss])
    info = json.loads(probe.stdout or b"{}")
    codecs = [s.get("codec_name") for s in info.get("streams", [])]
    if probe.returncode or info.get("format", {}).get("format_name") != "mpeg" or codecs != ["mpeg2video"]:
        problems.append("%s: ffprobe: rc %d, %s %s" % (pss, probe.returncode, info, probe.stderr.decode()))
    decoded = run(["ffmpeg", "-v", "error", "-i", pss, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
    if decoded.returncode or decoded.stderr or len(decoded.stdout) < 10 * 64 * 48 * 3 // 2:
        problems.append("%s: ffmpeg decodes %d bytes of pictures: %s" % (pss, len(decoded.stdout), decoded.stderr.decode()))
    checked["pss"] += 1

subtitles = list(csv.DictReader(open(os.path.join(mpeg, "subtitles.csv"), newline="")))
languages = {"en": "english", "fr": "french", "de": "german", "es": "spanish", "it": "italian"}
for srt in sorted(glob.glob(os.path.join(mpeg, "*.srt"))):
    slot, code = os.path.basename(srt).split(".")[:2]
    probe = run(["ffprobe", "-v", "error", "-count_packets", "-show_entries", "stream=codec_name,nb_read_packets", "-of", "json", srt])
    streams = json.loads(probe.stdout or b"{}").get("streams", [])
    want = sum(1 for r in subtitles if int(r["slot"]) == int(slot) and r[languages[code]])
    if probe.returncode or len(streams) != 1 or streams[0]["codec_name"] != "subrip" or int(streams[0]["nb_read_packets"]) != want:
        problems.append("%s: ffprobe: rc %d, %s; subtitles.csv has %d cues" % (srt, probe.returncode, streams, want))
    checked["srt"] += 1

print("checked %d VAG/WAV pairs in %d folders, %d PSS, %d SRT" % (checked["vag"], len(folders), checked["pss"], checked["srt"]))
for p in problems:
    print("PROBLEM", p)
sys.exit(1 if problems or not all(checked.values()) else 0)
