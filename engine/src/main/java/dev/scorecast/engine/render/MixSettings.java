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
 * How {@link Mixer#master} mixes and levels the stems, the video's own sound and a voiceover.
 *
 * <p>Two kinds of source besides the music: the <em>bed</em> (the stems, and the original audio when
 * it is {@link OriginalAudioRole#BACKGROUND}) is compressed and ducked together; the <em>speech</em>
 * (the voiceover, and the original audio when it is {@link OriginalAudioRole#DIALOGUE}) is levelled
 * by loudness to the target, so it sits as loud as the unducked music and {@code ducking.depthDb}
 * above the ducked music, and is never ducked.
 *
 * @param groupGainDb         extra gain per group on top of the part's own, dB (-60 to +24); absent = 0
 * @param groupPan            extra balance per group on top of the part's own pan, -1 (left) to 1 (right)
 * @param targetLufs          integrated loudness the master is normalised to, LUFS (-60 to 0), -14 for streaming
 * @param gainDb              a gain on top of the target (-40 to +20 dB); the master ends at targetLufs + gainDb
 * @param originalAudioWav    the video's own sound (a 48 kHz WAV, mono or stereo); empty for none
 * @param originalAudioGainDb dB (-60 to +24). BACKGROUND: its plain gain into the bed (-6 puts a typical
 *                            recording under the music). DIALOGUE: a trim on the speech level, 0 = as loud
 *                            as the music
 * @param originalAudioRole   under the music, or dialogue
 * @param voiceoverWav        a spoken track (48 kHz WAV, mono or stereo, silence between lines) at the
 *                            video's time; empty for none
 * @param voiceoverGainDb     a trim on the speech level, dB (-60 to +24), 0 = as loud as the music
 * @param ducking             where speech is and how the bed gives way; {@link Ducking#off()} for none
 */
public record MixSettings(Map<InstrumentGroup, Double> groupGainDb, Map<InstrumentGroup, Double> groupPan, double targetLufs,
                          double gainDb, Optional<Path> originalAudioWav, double originalAudioGainDb,
                          OriginalAudioRole originalAudioRole, Optional<Path> voiceoverWav, double voiceoverGainDb, Ducking ducking) {

    /** What the video's own sound is in the mix. */
    public enum OriginalAudioRole {
        /** Part of the bed, under the music at its plain gain; ducked with the music. */
        BACKGROUND,
        /** Speech: levelled to be clearly intelligible and never ducked. */
        DIALOGUE
    }

    public MixSettings {
        groupGainDb = groupGainDb == null ? Map.of() : copy(groupGainDb);
        groupPan = groupPan == null ? Map.of() : copy(groupPan);
        originalAudioWav = originalAudioWav == null ? Optional.empty() : originalAudioWav;
        originalAudioRole = originalAudioRole == null ? OriginalAudioRole.BACKGROUND : originalAudioRole;
        voiceoverWav = voiceoverWav == null ? Optional.empty() : voiceoverWav;
        ducking = ducking == null ? Ducking.off() : ducking;
        List<FieldProblem> problems = new ArrayList<>();
        groupGainDb.forEach((g, db) -> check(problems, "group_gain_db." + g.wire(), db, -60, 24));
        groupPan.forEach((g, pan) -> check(problems, "group_pan." + g.wire(), pan, -1, 1));
        check(problems, "target_lufs", targetLufs, -60, 0);
        check(problems, "gain_db", gainDb, -40, 20);
        check(problems, "original_audio_gain_db", originalAudioGainDb, -60, 24);
        check(problems, "voiceover_gain_db", voiceoverGainDb, -60, 24);
        if (!problems.isEmpty()) {
            throw InvalidParameter.of(problems);
        }
    }

    /** The original audio in the background, no voiceover, no ducking: the mix as it was before speech. */
    public MixSettings(Map<InstrumentGroup, Double> groupGainDb, Map<InstrumentGroup, Double> groupPan, double targetLufs,
                       double gainDb, Optional<Path> originalAudioWav, double originalAudioGainDb) {
        this(groupGainDb, groupPan, targetLufs, gainDb, originalAudioWav, originalAudioGainDb, OriginalAudioRole.BACKGROUND,
                Optional.empty(), 0, Ducking.off());
    }

    /** Streaming loudness (-14 LUFS), no extra gains, no original audio. */
    public static MixSettings standard() {
        return new MixSettings(Map.of(), Map.of(), -14, 0, Optional.empty(), 0);
    }

    /** The video's own sound as {@code role} at {@code wavGainDb} (see {@code originalAudioGainDb} for what it means per role). */
    public MixSettings withOriginalAudio(Path wav, OriginalAudioRole role, double wavGainDb) {
        return new MixSettings(groupGainDb, groupPan, targetLufs, gainDb, Optional.of(wav), wavGainDb, role, voiceoverWav,
                voiceoverGainDb, ducking);
    }

    /** A voiceover track, {@code trimDb} relative to the speech level (0 = as loud as the music). */
    public MixSettings withVoiceover(Path wav, double trimDb) {
        return new MixSettings(groupGainDb, groupPan, targetLufs, gainDb, originalAudioWav, originalAudioGainDb,
                originalAudioRole, Optional.of(wav), trimDb, ducking);
    }

    public MixSettings withDucking(Ducking d) {
        return new MixSettings(groupGainDb, groupPan, targetLufs, gainDb, originalAudioWav, originalAudioGainDb,
                originalAudioRole, voiceoverWav, voiceoverGainDb, d);
    }

    /** True when the original audio is present and is dialogue. */
    boolean originalIsSpeech() {
        return originalAudioWav.isPresent() && switch (originalAudioRole) {
            case BACKGROUND -> false;
            case DIALOGUE -> true;
        };
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
