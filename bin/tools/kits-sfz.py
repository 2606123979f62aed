#!/usr/bin/env python3
"""Writes engine/src/main/resources/instruments/sfz/electronic-<kit>.sfz from instruments/kits.json, the
electronic kits' mapping for Scorecast's sampler (docs/SAMPLER.md), the same choices the SF2 kit builder
made: each key one sample, or a soft and a hard one (below and from velocity 80); with one, the soft
layer is the sample low-passed at soft_cutoff_hz; each sample normalised to -1 dBFS peak (measured here
with ffmpeg's volumedetect), then gain_db; pan; hats in one choke group; tune_semitones as the root.
The sources hold one take per sound, so a key's three round robins are that take at -6, 0 and +6 cents
and 0.4 dB apart: consecutive hits are never the same samples, and no listener hears a retuned drum."""
import json, os, re, subprocess, sys

root = os.path.join(os.path.dirname(__file__), "..", "..")
kits = json.load(open(os.path.join(root, "engine/src/main/resources/instruments/kits.json")))
src = kits["source_dir"]
cutoff = kits.get("soft_cutoff_hz", 3500)
HARD_FROM = 80
LEVEL_DB = -3.1  # measured: the house kit 3.1 dB louder than Gervill played the SF2 kit (SampledInstrumentsTest)
TAKES = [(1, 0, 0.0), (2, 6, -0.4), (3, -6, -0.2)]  # seq_position, tune cents, volume dB
peaks = {}

def peak(name):
    if name not in peaks:
        out = subprocess.run(["ffmpeg", "-hide_banner", "-nostats", "-i", os.path.join(src, name + ".flac"),
                              "-af", "volumedetect", "-f", "null", "-"], capture_output=True, text=True).stderr
        peaks[name] = float(re.search(r"max_volume: (-?[0-9.]+) dB", out).group(1))
    return peaks[name]

outdir = os.path.join(root, "engine/src/main/resources/instruments/sfz")
for kit in kits["kits"]:
    lines = ["// Scorecast's %s kit (bank electronic, program %d) from Debian sonic-pi-samples (CC0)," % (kit["name"], kit["program"]),
             "// written by bin/tools/kits-sfz.py from instruments/kits.json; do not edit by hand.",
             "<control> default_path=%s/" % src,
             "<global> ampeg_release=2.5 seq_length=3 global_volume=%s" % LEVEL_DB]
    for key in sorted(kit["keys"], key=int):
        k = kit["keys"][key]
        names = k["samples"]
        gain = min(0.0, k.get("gain_db", 0))
        rootkey = int(key) - round(k.get("tune_semitones", 0))
        pan = max(-1, min(1, k.get("pan", 0))) * 100
        choke = " group=%d off_by=%d" % (k["choke"], k["choke"]) if "choke" in k else ""
        hard = names[-1]
        soft = names[0] if len(names) == 2 else None
        for pos, cents, vol in TAKES:
            common = "key=%s pitch_keycenter=%d pan=%g seq_position=%d tune=%d%s" % (key, rootkey, pan, pos, cents, choke)
            if soft:
                lines.append("<region> %s lovel=1 hivel=%d volume=%.2f sample=%s.flac" % (common, HARD_FROM - 1, -1 - peak(soft) + gain + vol, soft))
            else:
                lines.append("<region> %s lovel=1 hivel=%d volume=%.2f cutoff=%d sample=%s.flac" % (common, HARD_FROM - 1, -1 - peak(hard) + gain + vol, cutoff, hard))
            lines.append("<region> %s lovel=%d hivel=127 volume=%.2f sample=%s.flac" % (common, HARD_FROM, -1 - peak(hard) + gain + vol, hard))
    with open(os.path.join(outdir, "electronic-%d.sfz" % kit["program"]), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("kit", kit["program"], kit["name"], len(lines) - 4, "regions")
