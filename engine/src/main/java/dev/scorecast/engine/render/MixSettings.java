package dev.scorecast.engine.render;

import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.ScorecastException.FieldProblem;
import dev.scorecast.engine.plan.InstrumentGroup;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How {@link Mixer#master} mixes and levels the stems.
 *
 * @param groupGainDb         extra gain per group on top of the part's own, dB (-60 to +24); absent = 0
 * @param groupPan            extra balance per group on top of the part's own pan, -1 (left) to 1 (right)
 * @param targetLufs          integrated loudness the master is normalised to, LUFS (-60 to 0), -14 for streaming
 * @param gainDb              a gain on top of the target (-40 to +20 dB); the master ends at targetLufs + gainDb
 * @param originalAudioWav    the video's own sound (a 48 kHz WAV), mixed under the music; empty for none
 * @param originalAudioGainDb its gain before the bus, dB (-60 to +24)
 */
public record MixSettings(Map<InstrumentGroup, Double> groupGainDb, Map<InstrumentGroup, Double> groupPan, double targetLufs,
                          double gainDb, Optional<Path> originalAudioWav, double originalAudioGainDb) {

    public MixSettings {
        groupGainDb = groupGainDb == null ? Map.of() : copy(groupGainDb);
        groupPan = groupPan == null ? Map.of() : copy(groupPan);
        originalAudioWav = originalAudioWav == null ? Optional.empty() : originalAudioWav;
        List<FieldProblem> problems = new ArrayList<>();
        groupGainDb.forEach((g, db) -> check(problems, "group_gain_db." + g.wire(), db, -60, 24));
        groupPan.forEach((g, pan) -> check(problems, "group_pan." + g.wire(), pan, -1, 1));
        check(problems, "target_lufs", targetLufs, -60, 0);
        check(problems, "gain_db", gainDb, -40, 20);
        check(problems, "original_audio_gain_db", originalAudioGainDb, -60, 24);
        if (!problems.isEmpty()) {
            throw InvalidParameter.of(problems);
        }
    }

    /** Streaming loudness (-14 LUFS), no extra gains, no original audio. */
    public static MixSettings standard() {
        return new MixSettings(Map.of(), Map.of(), -14, 0, Optional.empty(), 0);
    }

    private static Map<InstrumentGroup, Double> copy(Map<InstrumentGroup, Double> m) {
        Map<InstrumentGroup, Double> out = new EnumMap<>(InstrumentGroup.class);
        m.forEach((k, v) -> {
            if (k != null && v != null) {
                out.put(k, v);
            }
        });
        return java.util.Collections.unmodifiableMap(out);
    }

    private static void check(List<FieldProblem> problems, String field, double value, double min, double max) {
        if (!(value >= min && value <= max)) {
            problems.add(new FieldProblem(field, "must be " + min + " to " + max + ", was " + value));
        }
    }
}
