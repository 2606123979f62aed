package dev.scorecast.engine.music;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Chord voicings chosen by voice leading: of every placement of the chord's tones in the
 * register, the one that moves the voices least from the previous voicing (with a pull to the
 * register's middle so a long progression does not drift). Styles: close, open (drop 2), spread
 * (root low, the rest an octave and more above), power (root, fifth, octave), shell (root,
 * seventh, tenth).
 */
final class Voicings {
    private Voicings() {}

    /** The chord's pitch classes, coloured: "7" adds the scale's seventh, "9" also the ninth. */
    static List<Integer> tones(Chord chord, String color, Bars bars) {
        List<Integer> pcs = new ArrayList<>(chord.pitchClasses());
        boolean plain = chord.intervals().size() == 3
                && !chord.symbol().contains("sus")
                && !chord.symbol().contains("dim")
                && !chord.symbol().contains("aug");
        if (plain && color != null && (color.equals("7") || color.equals("9"))) {
            int maj7 = Math.floorMod(chord.root() + 11, 12);
            boolean majorThird = chord.intervals().get(1) == 4;
            pcs.add(majorThird && bars.inScale(maj7) ? maj7 : Math.floorMod(chord.root() + 10, 12));
            int ninth = Math.floorMod(chord.root() + 2, 12);
            if (color.equals("9") && bars.inScale(ninth)) {
                pcs.add(ninth);
            }
        }
        return pcs;
    }

    /** Picks the voicing of {@code pcs} (root first) nearest {@code previous} (null at the start). */
    static int[] lead(int[] previous, List<Integer> pcs, String style, int voices, int lo, int hi) {
        List<int[]> candidates = candidates(pcs, style == null ? "close" : style, Math.max(2, voices), lo, hi);
        if (candidates.isEmpty()) {
            candidates = candidates(pcs, "close", Math.min(3, pcs.size()), lo - 12, hi + 12);
        }
        double center = (lo + hi) / 2.0;
        int[] best = null;
        double bestCost = Double.MAX_VALUE;
        for (int[] c : candidates) {
            double moved = "spread".equals(style) && previous != null && previous.length > 1
                    ? 0.3 * Math.abs(previous[0] - c[0])
                            + movement(
                                    Arrays.copyOfRange(previous, 1, previous.length),
                                    Arrays.copyOfRange(c, 1, c.length))
                    : movement(previous, c);
            double cost = moved + 0.35 * c.length * Math.max(0, Math.abs(mean(c) - center) - 3);
            if (cost < bestCost - 1e-9) {
                best = c;
                bestCost = cost;
            }
        }
        return best;
    }

    /** Semitones the voices move from {@code a} to {@code b}, each voice of b to its nearest in a. */
    static double movement(int[] a, int[] b) {
        if (a == null) {
            return 0;
        }
        if (a.length == b.length) {
            double sum = 0;
            for (int i = 0; i < a.length; i++) {
                sum += Math.abs(a[i] - b[i]);
            }
            return sum;
        }
        double sum = 0;
        for (int p : b) {
            int nearest = Integer.MAX_VALUE;
            for (int q : a) {
                nearest = Math.min(nearest, Math.abs(p - q));
            }
            sum += nearest;
        }
        return sum;
    }

    private static double mean(int[] v) {
        return Arrays.stream(v).average().orElse(0);
    }

    private static List<int[]> candidates(List<Integer> pcs, String style, int voices, int lo, int hi) {
        List<int[]> out = new ArrayList<>();
        int root = pcs.get(0);
        switch (style) {
            case "power" -> {
                for (int r = lo; r <= hi - 12; r++) {
                    if (Math.floorMod(r - root, 12) == 0) {
                        out.add(
                                voices >= 4
                                        ? new int[] {r, r + 7, r + 12, r + 19 <= hi ? r + 19 : r + 12}
                                        : new int[] {r, r + 7, r + 12});
                    }
                }
            }
            case "shell" -> {
                int third = Math.floorMod(pcs.get(1) - root, 12);
                int top = pcs.size() > 3 ? Math.floorMod(pcs.get(3) - root, 12) : 7;
                for (int r = lo; r <= hi; r++) {
                    if (Math.floorMod(r - root, 12) == 0 && r + third + 12 <= hi) {
                        out.add(new int[] {r, r + top, r + third + 12});
                    }
                }
            }
            case "spread" -> {
                List<Integer> upper = new ArrayList<>(pcs.subList(1, pcs.size()));
                upper.add(root);
                for (int r = lo; r < lo + 12; r++) {
                    if (Math.floorMod(r - root, 12) != 0) {
                        continue;
                    }
                    for (int[] u : stacks(upper, Math.max(2, voices - 1), r + 7, hi)) {
                        int[] v = new int[u.length + 1];
                        v[0] = r;
                        System.arraycopy(u, 0, v, 1, u.length);
                        out.add(v);
                    }
                }
            }
            case "open" -> {
                for (int[] c : stacks(pcs, voices, lo + 12, hi)) {
                    int[] v = c.clone();
                    if (v.length >= 3) {
                        v[v.length - 2] -= 12;
                        Arrays.sort(v);
                    }
                    if (v[0] >= lo) {
                        out.add(v);
                    }
                }
            }
            default -> out.addAll(stacks(pcs, voices, lo, hi));
        }
        return out;
    }

    /** Close positions: every inversion of the chosen tones, stacked upward, inside [lo, hi]. */
    private static List<int[]> stacks(List<Integer> pcs, int voices, int lo, int hi) {
        List<Integer> chosen = new ArrayList<>(pcs);
        if (chosen.size() > voices) {
            // Keep the colour: third, seventh, ninth, then the root (the bass has it), the fifth last.
            chosen = new ArrayList<>();
            for (int index : new int[] {1, 3, 4, 0, 2}) {
                if (index < pcs.size() && chosen.size() < voices) {
                    chosen.add(pcs.get(index));
                }
            }
        }
        while (chosen.size() < voices) {
            chosen.add(chosen.get(0)); // double the root
        }
        int root = pcs.get(0);
        chosen.sort(Comparator.comparingInt(pc -> Math.floorMod(pc - root, 12)));
        List<int[]> out = new ArrayList<>();
        for (int inversion = 0; inversion < chosen.size(); inversion++) {
            for (int bottom = lo; bottom < lo + 12; bottom++) {
                if (Math.floorMod(bottom - chosen.get(inversion), 12) != 0) {
                    continue;
                }
                for (int octave = 0; bottom + octave * 12 <= hi; octave++) {
                    int[] v = new int[chosen.size()];
                    int p = bottom + octave * 12;
                    v[0] = p;
                    for (int k = 1; k < v.length; k++) {
                        int pc = chosen.get((inversion + k) % chosen.size());
                        int next = v[k - 1] + 1 + Math.floorMod(pc - (v[k - 1] + 1), 12);
                        v[k] = next;
                    }
                    if (v[v.length - 1] <= hi) {
                        out.add(v);
                    }
                }
            }
        }
        return out;
    }
}
