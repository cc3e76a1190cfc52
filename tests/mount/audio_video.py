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
#   ffmpeg decodes without an error (and no audio stream: its MPEG-PS demuxer
#   skips the PSS's sound, private stream 1 sub-stream 0), and every .srt as
#   SubRip with as many cues as subtitles.csv has rows with text in that
#   language;
# - every .pss with a sound track has its NN.wav, whose samples equal this
#   test's own decode of the PSS's packets (demuxed here from 13818-1, the
#   SShd/SSbd stream and PS-ADPCM decoded here from their descriptions), and
#   equal ffmpeg's ADS demuxer's decode of the demuxed track;
# - every such PSS whose rate DVD LPCM carries has NN.mpg, which ffprobe reads
#   as MPEG-2 video and pcm_dvd audio, ffmpeg decodes with no error, and whose
#   audio equals NN.wav sample for sample; one at another rate has none.
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
checked = {"vag": 0, "pss": 0, "pss_sound": 0, "mpg": 0, "srt": 0}


def run(args):
    return subprocess.run(args, capture_output=True)


def pss_sound(data):
    """The payloads of private stream 1, sub-stream 0, joined (formats/mpeg/pss_audio.h's reading)."""
    at, out = 0, bytearray()
    while at < len(data):
        assert data[at:at + 3] == b"\0\0\1", "no start code at %d" % at
        code = data[at + 3]
        if code == 0xB9:
            break
        if code == 0xBA:
            at += 14 + (data[at + 13] & 7)
            continue
        end = at + 6 + int.from_bytes(data[at + 4:at + 6], "big")
        if code == 0xBD:
            payload = at + 9 + data[at + 8]
            if data[payload] == 0:
                out += data[payload + 4:end]
        at = end
    return bytes(out)


def spu_decode(track):
    """SShd, SSbd, then blocks of `interleave` bytes per channel of PS-ADPCM (formats-globals.md §1): PCM, interleaved."""
    assert track[:4] == b"SShd" and track[32:36] == b"SSbd"
    kind, rate, channels, interleave = struct.unpack_from("<4I", track, 8)
    body = track[40:40 + struct.unpack_from("<I", track, 36)[0]]
    k0, k1 = (0, 60, 115, 98, 122), (0, 0, -52, -55, -60)
    samples = [[] for _ in range(channels)]
    history = [(0, 0)] * channels
    for block in range(len(body) // interleave):
        c = block % channels
        h1, h2 = history[c]
        for f in range(block * interleave, (block + 1) * interleave, 16):
            p, shift = body[f] >> 4, body[f] & 15
            for i in range(28):
                nibble = (body[f + 2 + i // 2] >> (4 * (i & 1))) & 15
                nibble -= 16 if nibble & 8 else 0
                mixed = h1 * k0[p] + h2 * k1[p]
                y = ((nibble << 12) >> shift) + int(mixed / 64)  # C's division: toward zero
                samples[c].append(max(-32768, min(32767, y)))
                h1, h2 = y, h1
        history[c] = (h1, h2)
    return rate, channels, numpy.array(samples, dtype="<i2").T.reshape(-1)


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
    track, wav_path = pss_sound(open(pss, "rb").read()), pss[:-4] + ".wav"
    if not track:
        if os.path.exists(wav_path):
            problems.append("%s: a WAV for a PSS without sound" % wav_path)
        continue
    if not os.path.exists(wav_path):
        problems.append("%s: the PSS has a sound track and no WAV beside it" % pss)
        continue
    rate, channels, ours = spu_decode(track)
    w, theirs = wav_samples(wav_path)
    if (w.getframerate(), w.getnchannels()) != (rate, channels) or not numpy.array_equal(ours, theirs):
        problems.append("%s: %d Hz x %d, %d samples; the PSS's packets decode to %d Hz x %d, %d samples%s" % (
            wav_path, w.getframerate(), w.getnchannels(), len(theirs), rate, channels, len(ours),
            "" if len(ours) != len(theirs) else ", %d differ" % numpy.count_nonzero(ours != theirs)))
    ads = subprocess.run(["ffmpeg", "-v", "error", "-f", "ads", "-i", "pipe:", "-f", "s16le", "-"], input=track, capture_output=True)
    if ads.returncode or not numpy.array_equal(numpy.frombuffer(ads.stdout, dtype="<i2"), theirs):
        problems.append("%s: ffmpeg's ADS decode of the demuxed track differs (%s)" % (wav_path, ads.stderr.decode().strip()))
    checked["pss_sound"] += 1
    mpg = pss[:-4] + ".mpg"
    if rate not in (48000, 96000, 44100, 32000):
        if os.path.exists(mpg):
            problems.append("%s: an MPEG with LPCM sound at %d Hz, a rate LPCM does not name" % (mpg, rate))
        continue
    probe = run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name", "-of", "json", mpg])
    codecs = [st.get("codec_name") for st in json.loads(probe.stdout or b"{}").get("streams", [])]
    whole = run(["ffmpeg", "-v", "error", "-i", mpg, "-f", "null", "-"])
    audio = run(["ffmpeg", "-v", "error", "-i", mpg, "-map", "0:a", "-f", "s16le", "-"])
    if probe.returncode or sorted(codecs) != ["mpeg2video", "pcm_dvd"] or whole.returncode or whole.stderr:
        problems.append("%s: ffprobe finds %s; ffmpeg: %s" % (mpg, codecs, whole.stderr.decode().strip()))
    elif not numpy.array_equal(numpy.frombuffer(audio.stdout, dtype="<i2"), theirs):
        problems.append("%s: its audio (%d samples) is not %s's (%d)" % (mpg, len(audio.stdout) // 2, wav_path, len(theirs)))
    checked["mpg"] += 1

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

print("checked %d VAG/WAV pairs in %d folders, %d PSS (%d with sound, %d MPEG with it), %d SRT" % (checked["vag"], len(folders), checked["pss"], checked["pss_sound"], checked["mpg"], checked["srt"]))
for p in problems:
    print("PROBLEM", p)
sys.exit(1 if problems or not all(checked.values()) else 0)
