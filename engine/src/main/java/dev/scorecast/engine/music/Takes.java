package dev.scorecast.engine.music;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Numbers the strikes of each key in a part, in time order: the note's take, which a sampler plays
 * as its round robin ({@code take} modulo the takes it has of that key). Why in the score and not in
 * the sampler's own counter: a re-cut's kept shots play the source score's notes moved in time
 * (conform.ConformedScore), and with a counter in the player a kept passage would play other takes
 * whenever the music before it changed, so it would no longer sound as it did. Pure.
 */
public final class Takes {
    private Takes() {}

    /** {@code part} with each note's take numbered: the n-th strike of a key (by start time) is take n. */
    public static Part numbered(Part part) {
        List<Note> notes = part.notes();
        Integer[] order = new Integer[notes.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(
                order,
                Comparator.comparingDouble((Integer i) -> notes.get(i).start()).thenComparingInt(i -> i));
        int[] strikes = new int[128];
        List<Note> out = new ArrayList<>(notes);
        for (int i : order) {
            Note n = notes.get(i);
            out.set(i, new Note(n.start(), n.duration(), n.pitch(), n.velocity(), strikes[n.pitch()]++));
        }
        return part.withNotes(out);
    }
}
