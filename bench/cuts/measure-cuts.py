#!/usr/bin/env python3
"""Cuts felt: for every cut of the analysis, the delivered audio's level in the 50 ms after the cut
over the 150 ms before it (RMS dB), as an editor hears the accent. Usage: measure-cuts.py OUTPUTS_DIR"""
import json, subprocess, sys, numpy as np
RATE = 48000
def main(d):
    cuts = [c['time'] for c in json.load(open(f'{d}/analysis.json'))['cuts']]
    raw = subprocess.run(['ffmpeg', '-v', 'error', '-i', f'{d}/video.mp4', '-vn', '-ac', '1', '-ar', str(RATE), '-f', 'f32le', '-'],
                         capture_output=True, check=True).stdout
    x = np.frombuffer(raw, dtype=np.float32).astype(np.float64)
    def db(a, b):
        seg = x[max(0, int(a * RATE)):int(b * RATE)]
        return 20 * np.log10(np.sqrt(np.mean(seg ** 2)) + 1e-9)
    rises = [db(t, t + 0.05) - db(t - 0.15, t) for t in cuts]
    felt = sum(r >= 6 for r in rises)
    print(d, f'{felt} of {len(cuts)} cuts at +6 dB or more;', ' '.join(f'{t:.2f}s:{r:+.1f}' for t, r in zip(cuts, rises)))
if __name__ == '__main__':
    for d in sys.argv[1:]: main(d)
