package dev.scorecast.engine.music;

import java.util.Map;

/**
 * Beats: the level's 16th-note grid per GM drum note, a fill in the bar before the next section
 * (from the fill grid's first used step; level 0 only its last beat), and on every section's
 * first downbeat a crash and a kick, exactly on time. The final bar is the crash alone.
 */
final class DrumWriter implements GroupWriter {
    static final int KICK = 36;
    static final int CRASH = 49;

    @Override
    public void write(Ctx ctx) {
        Bars bars = ctx.bars();
        Map<String, String> grid = ctx.level().grid() == null ? Map.of() : ctx.level().grid();
        Map<String, String> fill = ctx.group().fill() == null ? Map.of() : ctx.group().fill();
        int fillStart = 16;
        for (String row : fill.values()) {
            for (int i = 0; i < Math.min(16, row.length()); i++) {
                if (row.charAt(i) != '.') {
                    fillStart = Math.min(fillStart, i);
                }
            }
        }
        if (ctx.pattern().levelIndex() == 0) {
            fillStart = Math.max(fillStart, 12);
        }
        fillStart = fillStart * bars.stepsPerBar / 16;
        int accentVelocity = ctx.group().velocity() == null ? 112 : ctx.group().velocity();
        double step = bars.stepSec;
        // The accent on the first downbeat: crash + kick, never humanised.
        ctx.out().add(bars.time(0), step * 16, CRASH, ctx.velocity(accentVelocity - 4));
        ctx.out().add(bars.time(0), step * 2, KICK, ctx.velocity(accentVelocity));
        int lastBar = bars.bars - 1;
        for (int bar = 0; bar < bars.bars; bar++) {
            if (bars.last && bar == lastBar) {
                if (bar > 0) {
                    double t = bars.time(bar, 0);
                    ctx.out().add(t, ctx.duration() - t, CRASH, ctx.velocity(accentVelocity - 8));
                    ctx.out().add(t, step * 2, KICK, ctx.velocity(accentVelocity - 6));
                }
                break;
            }
            boolean fillBar = !bars.last && bar == lastBar;
            for (int s = 0; s < bars.stepsPerBar; s++) {
                boolean inFill = fillBar && s >= fillStart && !fill.isEmpty();
                Map<String, String> rows = inFill ? fill : grid;
                for (Map.Entry<String, String> row : rows.entrySet()) {
                    String pattern = row.getValue();
                    int span = Math.max(1, pattern.length() / 16);
                    char c = pattern.charAt((16 * (bar % span) + s % 16) % pattern.length());
                    if (c < '1' || c > '9') {
                        continue;
                    }
                    int note = Integer.parseInt(row.getKey());
                    if (bar == 0 && s == 0 && (note == KICK || note == CRASH)) {
                        continue; // the accent already plays them
                    }
                    int global = bar * bars.stepsPerBar + s;
                    double length = note == CRASH || note == 46 || note == 51 || note == 57 ? step * 8 : step;
                    ctx.out().add(ctx.onset(global), length, note, ctx.velocity(20 + (c - '0') * 11));
                }
            }
        }
    }
}
