package dev.scorecast.engine.plan;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One stretch of music between two chosen cuts. {@code bars} bars of {@code meter} at
 * {@code tempo} beats per minute fill [{@code start}, {@code end}); {@code residual} is the
 * seconds by which those bars miss the end (reported, never more than one video frame).
 * {@code instruments} maps a group ({@link InstrumentGroup}) to its part; a group absent or null
 * is silent. {@code hit} is the accent on this section's first downbeat, null for none.
 * {@code barIntensity} is the intensity of each of its bars (0 to 1, one per bar), the picture's
 * energy under each bar: the music follows it bar by bar (which parts play, the pattern level,
 * how hard they play). Empty: every bar at {@code intensity}; another length than {@code bars}:
 * read across the section in proportion.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Section(
        int index,
        double start,
        double end,
        String label,
        double tempo,
        String meter,
        int bars,
        double residual,
        String key,
        String mode,
        double intensity,
        List<String> progression,
        Map<String, Instrument> instruments,
        Hit hit,
        String lyrics,
        List<VoiceoverLine> voiceover,
        List<Hit> accents,
        List<Double> barIntensity,
        @JsonInclude(JsonInclude.Include.NON_NULL) Origin origin) {

    public Section {
        progression = progression == null ? List.of() : List.copyOf(progression);
        instruments = instruments == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(instruments));
        voiceover = voiceover == null ? List.of() : List.copyOf(voiceover);
        accents = accents == null ? List.of() : List.copyOf(accents);
        barIntensity = barIntensity == null ? List.of() : List.copyOf(barIntensity);
    }

    /** A section composed for this plan (no origin in an earlier cut's music). */
    public Section(
            int index,
            double start,
            double end,
            String label,
            double tempo,
            String meter,
            int bars,
            double residual,
            String key,
            String mode,
            double intensity,
            List<String> progression,
            Map<String, Instrument> instruments,
            Hit hit,
            String lyrics,
            List<VoiceoverLine> voiceover,
            List<Hit> accents,
            List<Double> barIntensity) {
        this(
                index,
                start,
                end,
                label,
                tempo,
                meter,
                bars,
                residual,
                key,
                mode,
                intensity,
                progression,
                instruments,
                hit,
                lyrics,
                voiceover,
                accents,
                barIntensity,
                null);
    }

    /** A section whose bars all play at its intensity. */
    public Section(
            int index,
            double start,
            double end,
            String label,
            double tempo,
            String meter,
            int bars,
            double residual,
            String key,
            String mode,
            double intensity,
            List<String> progression,
            Map<String, Instrument> instruments,
            Hit hit,
            String lyrics,
            List<VoiceoverLine> voiceover,
            List<Hit> accents) {
        this(
                index,
                start,
                end,
                label,
                tempo,
                meter,
                bars,
                residual,
                key,
                mode,
                intensity,
                progression,
                instruments,
                hit,
                lyrics,
                voiceover,
                accents,
                List.of());
    }

    /**
     * The intensity of bar {@code bar}: its own where the plan grades the section bar by bar, else
     * the section's. A {@code barIntensity} of another length than {@code bars} (a client changed
     * the bars and left the curve) is read across the section in proportion, and one whose mean is
     * not the section's {@code intensity} (a client moved the intensity) is moved by the difference.
     */
    public double intensityOfBar(int bar) {
        if (barIntensity.isEmpty() || bars <= 0) {
            return intensity;
        }
        int at = barIntensity.size() == bars ? bar : (int) Math.floor((bar + 0.5) * barIntensity.size() / bars);
        // A client that moved the section's intensity and kept the curve moves the whole curve with it.
        double mean =
                barIntensity.stream().mapToDouble(Double::doubleValue).average().orElse(intensity);
        double shift = Math.abs(intensity - mean) > 0.01 ? intensity - mean : 0;
        return Math.clamp(barIntensity.get(Math.clamp(at, 0, barIntensity.size() - 1)) + shift, 0, 1);
    }

    /** A section without accents inside it. */
    public Section(
            int index,
            double start,
            double end,
            String label,
            double tempo,
            String meter,
            int bars,
            double residual,
            String key,
            String mode,
            double intensity,
            List<String> progression,
            Map<String, Instrument> instruments,
            Hit hit,
            String lyrics,
            List<VoiceoverLine> voiceover) {
        this(
                index,
                start,
                end,
                label,
                tempo,
                meter,
                bars,
                residual,
                key,
                mode,
                intensity,
                progression,
                instruments,
                hit,
                lyrics,
                voiceover,
                List.of(),
                List.of());
    }

    /** This section renumbered and with its residual recomputed from its tempo, meter and bars. */
    public Section withIndexAndResidual(int index, double residual) {
        return toBuilder().index(index).residual(residual).build();
    }

    /** This section singing {@code newLyrics} with {@code newInstruments} (the vocals group among them). */
    public Section withVocals(Map<String, Instrument> newInstruments, String newLyrics) {
        return toBuilder().instruments(newInstruments).lyrics(newLyrics).build();
    }

    /** This section with {@code lines} spoken over it. */
    public Section withVoiceover(List<VoiceoverLine> lines) {
        return toBuilder().voiceover(lines).build();
    }

    /**
     * This section's music alone from {@code start} to {@code end}, numbered {@code index}: its hit
     * moved with it, and nothing that ties it to a plan's other sections (no accents, no bar curve, no
     * origin). What the live player plays one section at a time.
     */
    public Section alone(int index, double start, double end) {
        return toBuilder()
                .index(index)
                .start(start)
                .end(end)
                .residual(0)
                .hit(hit == null ? null : new Hit(start, hit.kind()))
                .accents(List.of())
                .barIntensity(List.of())
                .origin(null)
                .build();
    }

    /** A copy of this section to change by name: {@code section.toBuilder().hit(h).accents(a).build()}. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * A section's fields set by name, starting from a section ({@link #toBuilder}): where a plan
     * stage changes two fields of nineteen, it names those two instead of passing all nineteen in order.
     */
    public static final class Builder {
        private int index;
        private double start;
        private double end;
        private String label;
        private double tempo;
        private String meter;
        private int bars;
        private double residual;
        private String key;
        private String mode;
        private double intensity;
        private List<String> progression;
        private Map<String, Instrument> instruments;
        private Hit hit;
        private String lyrics;
        private List<VoiceoverLine> voiceover;
        private List<Hit> accents;
        private List<Double> barIntensity;
        private Origin origin;

        private Builder(Section s) {
            index = s.index;
            start = s.start;
            end = s.end;
            label = s.label;
            tempo = s.tempo;
            meter = s.meter;
            bars = s.bars;
            residual = s.residual;
            key = s.key;
            mode = s.mode;
            intensity = s.intensity;
            progression = s.progression;
            instruments = s.instruments;
            hit = s.hit;
            lyrics = s.lyrics;
            voiceover = s.voiceover;
            accents = s.accents;
            barIntensity = s.barIntensity;
            origin = s.origin;
        }

        public Builder index(int value) {
            index = value;
            return this;
        }

        public Builder start(double value) {
            start = value;
            return this;
        }

        public Builder end(double value) {
            end = value;
            return this;
        }

        public Builder label(String value) {
            label = value;
            return this;
        }

        public Builder tempo(double value) {
            tempo = value;
            return this;
        }

        public Builder meter(String value) {
            meter = value;
            return this;
        }

        public Builder bars(int value) {
            bars = value;
            return this;
        }

        public Builder residual(double value) {
            residual = value;
            return this;
        }

        public Builder key(String value) {
            key = value;
            return this;
        }

        public Builder mode(String value) {
            mode = value;
            return this;
        }

        public Builder intensity(double value) {
            intensity = value;
            return this;
        }

        public Builder progression(List<String> value) {
            progression = value;
            return this;
        }

        public Builder instruments(Map<String, Instrument> value) {
            instruments = value;
            return this;
        }

        public Builder hit(Hit value) {
            hit = value;
            return this;
        }

        public Builder lyrics(String value) {
            lyrics = value;
            return this;
        }

        public Builder voiceover(List<VoiceoverLine> value) {
            voiceover = value;
            return this;
        }

        public Builder accents(List<Hit> value) {
            accents = value;
            return this;
        }

        public Builder barIntensity(List<Double> value) {
            barIntensity = value;
            return this;
        }

        public Builder origin(Origin value) {
            origin = value;
            return this;
        }

        /**
         * The section's music is to be made again from its fields (another intensity, tempo, key or
         * place): its bar-by-bar intensity and its origin in an earlier cut, both of the music it had,
         * no longer hold, and go together.
         */
        public Builder composedAgain() {
            barIntensity = List.of();
            origin = null;
            return this;
        }

        public Section build() {
            return new Section(
                    index,
                    start,
                    end,
                    label,
                    tempo,
                    meter,
                    bars,
                    residual,
                    key,
                    mode,
                    intensity,
                    progression,
                    instruments,
                    hit,
                    lyrics,
                    voiceover,
                    accents,
                    barIntensity,
                    origin);
        }
    }

    public double durationSeconds() {
        return end - start;
    }

    /** Beats in one bar: the meter's numerator. */
    public int beatsPerBar() {
        return Integer.parseInt(meter.substring(0, meter.indexOf('/')));
    }

    /** Seconds that {@code bars} bars of {@code meter} last at {@code tempo}. */
    public double barsSeconds() {
        return bars * beatsPerBar() * 60.0 / tempo;
    }

    /**
     * One group's part. {@code soundset}: the genre palette it comes from; {@code program}: General
     * MIDI program 0-127 (for beats, the GM kit number, 0 standard); {@code name}: the instrument
     * asked for by name (e.g. "harp"), null when chosen by the style; {@code pattern}: the style's
     * pattern id for this group at this intensity.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Instrument(String soundset, int program, String name, double gainDb, double pan, String pattern) {}

    /** An accent at {@code time}: "impact", "crash", "drop", "swell" or "cadence" (the final one). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Hit(double time, String kind) {}

    /**
     * Where a section of a conformed plan (issue 27) takes its music from: the plan's {@code source}
     * (the earlier cut's plan) from {@code sourceStart} seconds on, so the section plays the notes the
     * earlier render played there, {@code start - sourceStart} seconds later. Its own tempo, key and
     * instruments are the source section's, shown for reading; its bars need not fill it, since the
     * source's bar grid runs through it unchanged.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Origin(double sourceStart) {}

    /** A spoken line starting at {@code start} seconds. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record VoiceoverLine(String text, double start) {}
}
