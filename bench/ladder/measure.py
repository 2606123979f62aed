#!/usr/bin/env python3
"""Issue 26 speed ladder: per-scene loudness (RMS dB) and onsets/s of a scored ladder video, and Spearman rho against speed rank."""
import json, subprocess, sys, numpy as np
SPEED = [0, 2, 1, 3, 2, 0, 3, 1]  # still, normal, slow, fast, normal, still, fast, slow
def spearman(a, b):
    ra = np.argsort(np.argsort(a)).astype(float); rb = np.argsort(np.argsort(b)).astype(float)
    # average ranks for ties
    def rank(x):
        x = np.asarray(x, float); order = np.argsort(x); r = np.empty(len(x)); i = 0
        while i < len(x):
            j = i
            while j + 1 < len(x) and x[order[j+1]] == x[order[i]]: j += 1
            r[order[i:j+1]] = (i + j) / 2.0; i = j + 1
        return r
    ra, rb = rank(a), rank(b)
    return float(np.corrcoef(ra, rb)[0, 1])
def main(path):
    raw = subprocess.run(['ffmpeg', '-v', 'error', '-i', path, '-ac', '1', '-ar', '48000', '-f', 'f32le', '-'], capture_output=True).stdout
    x = np.frombuffer(raw, dtype=np.float32)
    wav = path + '.mono.wav'
    subprocess.run(['ffmpeg', '-v', 'error', '-y', '-i', path, '-ac', '1', '-ar', '44100', wav])
    on = subprocess.run(['aubioonset', '-i', wav], capture_output=True, text=True).stdout.split()
    on = np.array([float(t) for t in on])
    rms, ons = [], []
    for k in range(8):
        a, b = k * 10 + 0.5, k * 10 + 9.5  # away from the cuts' accents
        seg = x[int(a * 48000):int(b * 48000)]
        rms.append(20 * np.log10(np.sqrt(np.mean(seg.astype(np.float64) ** 2)) + 1e-9))
        ons.append(((on >= a) & (on < b)).sum() / (b - a))
    names = ['still', 'slow', 'normal', 'fast']
    by = {n: (np.mean([rms[i] for i in range(8) if SPEED[i] == s]), np.mean([ons[i] for i in range(8) if SPEED[i] == s])) for s, n in enumerate(names)}
    print(path, ' | '.join(f'{n} {by[n][0]:.1f} dB {by[n][1]:.2f}/s' for n in names),
          f'| rho loud {spearman(SPEED, rms):.2f} onsets {spearman(SPEED, ons):.2f}',
          f'| fast-still {by["fast"][0]-by["still"][0]:.1f} dB, loudest-still {max(rms)-by["still"][0]:.1f} dB')
    return by
if __name__ == '__main__':
    for p in sys.argv[1:]: main(p)
