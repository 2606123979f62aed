#!/usr/bin/env python3
"""How close a delivered encoding decodes to its master, band by band.

    python3 bench/codec/band_snr.py MASTER.wav DELIVERED.mp4 [DELIVERED.mp3 ...]

Each file's first audio stream is decoded by the ffmpeg CLI to 48 kHz stereo float, aligned to the
master (the lag, within 50 samples, that correlates best over 10-12 s), and the error (decoded minus
master) is compared with the master: signal to error energy over the whole file and in six bands
(Hann windows of 4096 samples, both channels, the first second left out). Higher is closer. Used for
the MP4's AAC coder choice in docs/RENDER.md.
"""
import subprocess
import sys

import numpy as np

RATE = 48000
BANDS = [(0, 500), (500, 2000), (2000, 6000), (6000, 12000), (12000, 16000), (16000, 20000)]


def decode(path):
    pcm = subprocess.run(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-i", path, "-map", "0:a:0",
         "-f", "f32le", "-ac", "2", "-ar", str(RATE), "-"],
        capture_output=True, check=True).stdout
    return np.frombuffer(pcm, dtype=np.float32).reshape(-1, 2)


def compare(master, decoded):
    probe = master[RATE * 10:RATE * 12, 0]
    lags = range(-50, 51)
    lag = max(lags, key=lambda l: float(np.dot(probe, decoded[RATE * 10 + l:RATE * 12 + l, 0])))
    n = min(len(master), len(decoded) - max(lag, 0)) - RATE
    ref = master[RATE:n]
    err = decoded[RATE + lag:n + lag] - ref
    size = 4096
    window = np.hanning(size)
    signal = np.zeros(size // 2 + 1)
    noise = np.zeros(size // 2 + 1)
    for i in range(0, len(ref) - size, size):
        for c in (0, 1):
            signal += np.abs(np.fft.rfft(ref[i:i + size, c] * window)) ** 2
            noise += np.abs(np.fft.rfft(err[i:i + size, c] * window)) ** 2
    freqs = np.fft.rfftfreq(size, 1 / RATE)
    bands = []
    for lo, hi in BANDS:
        inside = (freqs >= lo) & (freqs < hi)
        bands.append(10 * np.log10(signal[inside].sum() / noise[inside].sum()))
    whole = 10 * np.log10(float((ref ** 2).sum()) / float((err ** 2).sum()))
    return lag, whole, bands


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    master = decode(sys.argv[1])
    print("file | lag | signal/error dB | " + " | ".join(f"{lo / 1000:g}-{hi / 1000:g} kHz" for lo, hi in BANDS))
    for path in sys.argv[2:]:
        lag, whole, bands = compare(master, decode(path))
        print(f"{path} | {lag} | {whole:.2f} | " + " | ".join(f"{b:.1f}" for b in bands))


if __name__ == "__main__":
    main()
