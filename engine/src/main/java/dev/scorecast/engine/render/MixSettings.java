package dev.scorecast.engine.render;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.ScorecastException.FieldProblem;
import dev.scorecast.engine.style.Production;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 * @param production          the genre's production chain for the stems and its glue, at the score's tempo;
 *                            empty: the stems are mixed as rendered (the mix before issue 14)
 * @param ceilingDbtp         the true-peak limiter's ceiling (-6 to -0.5 dBTP); {@value #CEILING_DBTP} by default, lower
 *                            when an encoder's overshoot must be left room
 */
public record MixSettings(
        Map<InstrumentGroup, Double> groupGainDb,
        Map<InstrumentGroup, Double> groupPan,
        double targetLufs,
        double gainDb,
        Optional<Path> originalAudioWav,
        double originalAudioGainDb,
        OriginalAudioRole originalAudioRole,
        Optional<Path> voiceoverWav,
        double voiceoverGainDb,
        Ducking ducking,
        Optional<Produced> production,
        double ceilingDbtp) {

    /** The limiter aims a little under the promised -1 dBTP: FFmpeg's meter reads slightly differently and the
     * 16-bit dither adds a little. */
    public static final double CEILING_DBTP = -1.3;

    /** A genre's production at a tempo (the echo locks to it). */
    public record Produced(Production production, double bpm) {
        public Produced {
            Objects.requireNonNull(production, "production");
            if (!(bpm >= 20 && bpm <= 400)) {
                throw new InvalidParameter("bpm", "must be 20 to 400, was " + bpm);
            }
        }
    }

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
        production = production == null ? Optional.empty() : production;
        List<FieldProblem> problems = new ArrayList<>();
        check(problems, "ceiling_dbtp", ceilingDbtp, -6, -0.5);
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

    /** No production chain, the standard ceiling. */
    public MixSettings(
            Map<InstrumentGroup, Double> groupGainDb,
            Map<InstrumentGroup, Double> groupPan,
            double targetLufs,
            double gainDb,
            Optional<Path> originalAudioWav,
            double originalAudioGainDb,
            OriginalAudioRole originalAudioRole,
            Optional<Path> voiceoverWav,
            double voiceoverGainDb,
            Ducking ducking) {
        this(
                groupGainDb,
                groupPan,
                targetLufs,
                gainDb,
                originalAudioWav,
                originalAudioGainDb,
                originalAudioRole,
                voiceoverWav,
                voiceoverGainDb,
                ducking,
                Optional.empty(),
                CEILING_DBTP);
    }

    /** The original audio in the background, no voiceover, no ducking: the mix as it was before speech. */
    public MixSettings(
            Map<InstrumentGroup, Double> groupGainDb,
            Map<InstrumentGroup, Double> groupPan,
            double targetLufs,
            double gainDb,
            Optional<Path> originalAudioWav,
            double originalAudioGainDb) {
        this(
                groupGainDb,
                groupPan,
                targetLufs,
                gainDb,
                originalAudioWav,
                originalAudioGainDb,
                OriginalAudioRole.BACKGROUND,
                Optional.empty(),
                0,
                Ducking.off());
    }

    /** Streaming loudness (-14 LUFS), no extra gains, no original audio. */
    public static MixSettings standard() {
        return new MixSettings(Map.of(), Map.of(), -14, 0, Optional.empty(), 0);
    }

    /** The video's own sound as {@code role} at {@code wavGainDb} (see {@code originalAudioGainDb} for what it means per role). */
    public MixSettings withOriginalAudio(Path wav, OriginalAudioRole role, double wavGainDb) {
        return toBuilder()
                .originalAudioWav(Optional.of(wav))
                .originalAudioGainDb(wavGainDb)
                .originalAudioRole(role)
                .build();
    }

    /** A voiceover track, {@code trimDb} relative to the speech level (0 = as loud as the music). */
    public MixSettings withVoiceover(Path wav, double trimDb) {
        return toBuilder()
                .voiceoverWav(Optional.of(wav))
                .voiceoverGainDb(trimDb)
                .build();
    }

    public MixSettings withDucking(Ducking d) {
        return toBuilder().ducking(d).build();
    }

    /** The stems through {@code p}'s chains at {@code bpm}, and the bus glued as {@code p} says. */
    public MixSettings withProduction(Production p, double bpm) {
        return toBuilder().production(Optional.of(new Produced(p, bpm))).build();
    }

    /** The limiter's ceiling, dBTP. */
    public MixSettings withCeiling(double dbtp) {
        return toBuilder().ceilingDbtp(dbtp).build();
    }

    /** A copy to change by name: {@code x.toBuilder().groupGainDb(v).build()}. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** The fields of {@link MixSettings} set by name, starting from a value ({@link #toBuilder}). */
    public static final class Builder {
        private Map<InstrumentGroup, Double> groupGainDb;
        private Map<InstrumentGroup, Double> groupPan;
        private double targetLufs;
        private double gainDb;
        private Optional<Path> originalAudioWav;
        private double originalAudioGainDb;
        private OriginalAudioRole originalAudioRole;
        private Optional<Path> voiceoverWav;
        private double voiceoverGainDb;
        private Ducking ducking;
        private Optional<Produced> production;
        private double ceilingDbtp;

        private Builder(MixSettings from) {
            groupGainDb = from.groupGainDb;
            groupPan = from.groupPan;
            targetLufs = from.targetLufs;
            gainDb = from.gainDb;
            originalAudioWav = from.originalAudioWav;
            originalAudioGainDb = from.originalAudioGainDb;
            originalAudioRole = from.originalAudioRole;
            voiceoverWav = from.voiceoverWav;
            voiceoverGainDb = from.voiceoverGainDb;
            ducking = from.ducking;
            production = from.production;
            ceilingDbtp = from.ceilingDbtp;
        }

        public Builder groupGainDb(Map<InstrumentGroup, Double> value) {
            groupGainDb = value;
            return this;
        }

        public Builder groupPan(Map<InstrumentGroup, Double> value) {
            groupPan = value;
            return this;
        }

        public Builder targetLufs(double value) {
            targetLufs = value;
            return this;
        }

        public Builder gainDb(double value) {
            gainDb = value;
            return this;
        }

        public Builder originalAudioWav(Optional<Path> value) {
            originalAudioWav = value;
            return this;
        }

        public Builder originalAudioGainDb(double value) {
            originalAudioGainDb = value;
            return this;
        }

        public Builder originalAudioRole(OriginalAudioRole value) {
            originalAudioRole = value;
            return this;
        }

        public Builder voiceoverWav(Optional<Path> value) {
            voiceoverWav = value;
            return this;
        }

        public Builder voiceoverGainDb(double value) {
            voiceoverGainDb = value;
            return this;
        }

        public Builder ducking(Ducking value) {
            ducking = value;
            return this;
        }

        public Builder production(Optional<Produced> value) {
            production = value;
            return this;
        }

        public Builder ceilingDbtp(double value) {
            ceilingDbtp = value;
            return this;
        }

        public MixSettings build() {
            return new MixSettings(
                    groupGainDb,
                    groupPan,
                    targetLufs,
                    gainDb,
                    originalAudioWav,
                    originalAudioGainDb,
                    originalAudioRole,
                    voiceoverWav,
                    voiceoverGainDb,
                    ducking,
                    production,
                    ceilingDbtp);
        }
    }

    /** True when the original audio is present and is dialogue. */
    boolean originalIsSpeech() {
        return originalAudioWav.isPresent()
                && switch (originalAudioRole) {
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
        return Collections.unmodifiableMap(out);
    }

    private static void check(List<FieldProblem> problems, String field, double value, double min, double max) {
        if (!(value >= min && value <= max)) {
            problems.add(new FieldProblem(field, "must be " + min + " to " + max + ", was " + value));
        }
    }
}
