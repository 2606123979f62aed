package dev.scorecast.engine.music;

import dev.scorecast.engine.core.InstrumentGroup;
import java.util.List;

/**
 * The band's quiet moment before a struck accent: no note starts in it, and what is still sounding
 * is let go at its start, so the hit is a step up heard against releases rather than the top of a
 * crescendo (at least 6 dB in its first 50 ms; docs/PLAN.md "How a hit sounds"). The composer
 * clears it for every part it writes and the conform for every cut it strikes anew.
 */
public final class HitClearance {
    /** How long before a hit the pitched parts start nothing (a pickup or a fill's last note would pre-empt it). */
    public static final double SECONDS = 0.2;
    /**
     * The drums' is longer: a drum is let go by ringing out, not by a note-off, so a tom or a snare
     * struck 0.24 s before a cut (a fill's last sixteenths) still rang 3 to 9 dB under the hit's
     * level in the 150 ms before it (rock, bench/cuts: 6 of 10 cuts felt, 10 of 10 at 250 ms). Not
     * longer: at 300 ms house's delivered MP3 came out at -15.1 LUFS (DeliveredLoudnessTest's -14 +- 1),
     * the master's limiter forecast missing what the emptier run-up changed.
     */
    public static final double DRUM_SECONDS = 0.25;

    private HitClearance() {}

    /** The cleared time before a hit for a group's part. */
    public static double seconds(InstrumentGroup group) {
        return group == InstrumentGroup.BEATS ? DRUM_SECONDS : SECONDS;
    }

    /**
     * Removes the notes starting in the {@code seconds} before each hit (not one struck on the hit
     * itself, nor one a humanised timing put a few milliseconds early: only what is on the hit stays)
     * and shortens what is still sounding then to end there (dropping it when less than 20 ms would be left).
     */
    public static void clear(List<Note> notes, List<Double> hits, double seconds) {
        for (double h : hits) {
            double cut = h - seconds;
            notes.removeIf(n -> n.start() < h - 1e-4 && n.start() > cut);
            for (int k = 0; k < notes.size(); k++) {
                Note n = notes.get(k);
                if (n.start() < cut && n.end() > cut) {
                    if (cut - n.start() >= 0.02) {
                        notes.set(k, n.moved(n.start(), cut - n.start()));
                    } else {
                        notes.remove(k--);
                    }
                }
            }
        }
    }
}
