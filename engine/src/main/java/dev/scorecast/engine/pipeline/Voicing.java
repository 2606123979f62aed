package dev.scorecast.engine.pipeline;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.music.Part;
import dev.scorecast.engine.music.Score;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.Section;
import dev.scorecast.engine.render.MonoMix;
import dev.scorecast.engine.render.MonoTracks;
import dev.scorecast.engine.render.Renderer;
import dev.scorecast.engine.render.Stem;
import dev.scorecast.engine.voice.singing.Singer;
import dev.scorecast.engine.voice.singing.SungNote;
import dev.scorecast.engine.voice.singing.Vocal;
import dev.scorecast.engine.voice.speaking.Narration;
import dev.scorecast.engine.voice.speaking.Narrator;
import dev.scorecast.engine.voice.speaking.NarratorSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.DoubleConsumer;

/**
 * The voices of an execution: the voiceover spoken before composing (its spans, with the video's
 * own dialogue, are the speech the arrangement and the ducking make room for), and the composed
 * vocal line sung into a stem after it. Each line and phrase is mixed into its track on disk
 * ({@link MonoMix}) as soon as it is made, so a plan holds one line's samples at a time; progress
 * is reported after each, which is where the job's deadline is checked (issue 28).
 */
final class Voicing {
    /** Notes further apart than this are sung in separate calls, so no call holds the whole video's samples. */
    private static final double PHRASE_GAP_SECONDS = 1.0;

    private final Singer singer;
    private final Narrator narrator;

    Voicing(Singer singer, Narrator narrator) {
        this.singer = singer;
        this.narrator = narrator;
    }

    /** The spoken voiceover: its track (none when the plan has no lines) and where it speaks. */
    record Voiceover(Optional<Path> track, List<Span> spans) {}

    /** Speaks every voiceover line of the plan at its start into {@code wav}, reporting the share of lines spoken. */
    Voiceover speak(Plan plan, Path wav, DoubleConsumer progress) {
        NarratorSettings settings = new NarratorSettings(
                plan.options().voiceoverVoice(), plan.options().voiceoverWordsPerMinute(), 50);
        int lines = plan.sections().stream().mapToInt(s -> s.voiceover().size()).sum();
        if (lines == 0) {
            return new Voiceover(Optional.empty(), List.of());
        }
        List<Span> spans = new ArrayList<>();
        try (MonoMix mix = new MonoMix(
                wav.resolveSibling(wav.getFileName() + ".mix"), Math.round(plan.duration() * Renderer.RATE))) {
            int spoken = 0;
            for (Section s : plan.sections()) {
                for (Section.VoiceoverLine line : s.voiceover()) {
                    Narration narration = narrator.speak(line.text(), settings);
                    mix.add(Math.round(line.start() * Renderer.RATE), narration.samples());
                    spans.add(new Span(
                            line.start() + narration.spoken().start(),
                            line.start() + narration.spoken().end()));
                    progress.accept(++spoken / (double) lines);
                }
            }
            MonoTracks.track(mix, wav);
        }
        return new Voiceover(Optional.of(wav), List.copyOf(spans));
    }

    /** Speech the music makes room for: the voiceover's, and the video's own when it is kept as dialogue. */
    static List<Span> speech(Plan plan, Analysis analysis, Voiceover voiceover) {
        List<Span> all = new ArrayList<>(voiceover.spans());
        if (plan.options().originalAudioVoiceover()
                && analysis.audio() != null
                && analysis.audio().speech() != null) {
            all.addAll(analysis.audio().speech());
        }
        all.sort(Comparator.comparingDouble(Span::start));
        return List.copyOf(all);
    }

    /** The vocal stem and how well it sits on its notes. */
    record Sung(Stem stem, VocalPitch pitch) {}

    /** The vocal stem of {@code score}, sung phrase by phrase, reporting the share of phrases sung; empty when nothing is sung. */
    Optional<Sung> sing(Score score, Path wav, DoubleConsumer progress) {
        if (score.vocal().isEmpty()) {
            return Optional.empty();
        }
        VocalPitch pitch = VocalPitch.NONE;
        Part part = score.parts().stream()
                .filter(p -> p.group() == InstrumentGroup.VOCALS)
                .findFirst()
                .orElseThrow();
        List<List<SungNote>> phrases = phrases(score.vocal());
        Stem stem;
        try (MonoMix mix = new MonoMix(
                wav.resolveSibling(wav.getFileName() + ".mix"), Math.round(score.duration() * Renderer.RATE))) {
            int sung = 0;
            for (List<SungNote> phrase : phrases) {
                double offset = phrase.getFirst().start();
                List<SungNote> shifted = phrase.stream()
                        .map(n -> new SungNote(
                                n.start() - offset, n.duration(), n.pitch(), n.velocity(), n.syllable(), n.melisma()))
                        .toList();
                Vocal vocal = singer.sing(shifted);
                mix.add(Math.round(offset * Renderer.RATE), vocal.samples());
                pitch = pitch.plus(VocalPitch.measure(vocal.samples(), vocal.sampleRateHz(), shifted));
                progress.accept(++sung / (double) phrases.size());
            }
            stem = MonoTracks.stem(InstrumentGroup.VOCALS, mix, part.gainDb(), part.pan(), wav);
        }
        return Optional.of(new Sung(stem, pitch));
    }

    /** Runs of notes with less than {@link #PHRASE_GAP_SECONDS} between them; each is sung alone. */
    static List<List<SungNote>> phrases(List<SungNote> notes) {
        List<List<SungNote>> phrases = new ArrayList<>();
        List<SungNote> current = new ArrayList<>();
        for (SungNote n : notes) {
            if (!current.isEmpty() && n.start() - current.getLast().end() >= PHRASE_GAP_SECONDS) {
                phrases.add(current);
                current = new ArrayList<>();
            }
            current.add(n);
        }
        if (!current.isEmpty()) {
            phrases.add(current);
        }
        return phrases;
    }
}
