package dev.scorecast.engine.pipeline;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.music.Part;
import dev.scorecast.engine.music.Score;
import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.Section;
import dev.scorecast.engine.render.MonoTracks;
import dev.scorecast.engine.render.MonoTracks.Clip;
import dev.scorecast.engine.render.Renderer;
import dev.scorecast.engine.render.Stem;
import dev.scorecast.engine.voice.singing.Singer;
import dev.scorecast.engine.voice.speaking.Narration;
import dev.scorecast.engine.voice.singing.SungNote;
import dev.scorecast.engine.voice.singing.Vocal;
import dev.scorecast.engine.voice.speaking.Narrator;
import dev.scorecast.engine.voice.speaking.NarratorSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The voices of an execution: the voiceover spoken before composing (its spans, with the video's
 * own dialogue, are the speech the arrangement and the ducking make room for), and the composed
 * vocal line sung into a stem after it.
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

    /** Speaks every voiceover line of the plan at its start into {@code wav}. */
    Voiceover speak(Plan plan, Path wav) {
        NarratorSettings settings = new NarratorSettings(plan.options().voiceoverVoice(), plan.options().voiceoverWordsPerMinute(), 50);
        List<Clip> clips = new ArrayList<>();
        List<Span> spans = new ArrayList<>();
        for (Section s : plan.sections()) {
            for (Section.VoiceoverLine line : s.voiceover()) {
                Narration narration = narrator.speak(line.text(), settings);
                long at = Math.round(line.start() * Renderer.RATE);
                clips.add(new Clip(at, narration.samples()));
                spans.add(new Span(line.start() + narration.spoken().start(), line.start() + narration.spoken().end()));
            }
        }
        if (clips.isEmpty()) {
            return new Voiceover(Optional.empty(), List.of());
        }
        MonoTracks.track(clips, Math.round(plan.duration() * Renderer.RATE), wav);
        return new Voiceover(Optional.of(wav), List.copyOf(spans));
    }

    /** Speech the music makes room for: the voiceover's, and the video's own when it is kept as dialogue. */
    static List<Span> speech(Plan plan, Analysis analysis, Voiceover voiceover) {
        List<Span> all = new ArrayList<>(voiceover.spans());
        if (plan.options().originalAudioVoiceover() && analysis.audio() != null && analysis.audio().speech() != null) {
            all.addAll(analysis.audio().speech());
        }
        all.sort(Comparator.comparingDouble(Span::start));
        return List.copyOf(all);
    }

    /** The vocal stem and how well it sits on its notes. */
    record Sung(Stem stem, VocalPitch pitch) {}

    /** The vocal stem of {@code score}, sung phrase by phrase; empty when nothing is sung. */
    Optional<Sung> sing(Score score, Path wav) {
        if (score.vocal().isEmpty()) {
            return Optional.empty();
        }
        VocalPitch pitch = VocalPitch.NONE;
        Part part = score.parts().stream().filter(p -> p.group() == InstrumentGroup.VOCALS).findFirst().orElseThrow();
        List<Clip> clips = new ArrayList<>();
        for (List<SungNote> phrase : phrases(score.vocal())) {
            double offset = phrase.getFirst().start();
            List<SungNote> shifted = phrase.stream()
                    .map(n -> new SungNote(n.start() - offset, n.duration(), n.pitch(), n.velocity(), n.syllable(), n.melisma())).toList();
            Vocal vocal = singer.sing(shifted);
            clips.add(new Clip(Math.round(offset * Renderer.RATE), vocal.samples()));
            pitch = pitch.plus(VocalPitch.measure(vocal.samples(), vocal.sampleRateHz(), shifted));
        }
        Stem stem = MonoTracks.stem(InstrumentGroup.VOCALS, clips, Math.round(score.duration() * Renderer.RATE), part.gainDb(),
                part.pan(), wav);
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
