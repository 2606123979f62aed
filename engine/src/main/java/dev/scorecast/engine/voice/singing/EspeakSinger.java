package dev.scorecast.engine.voice.singing;

import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.voice.Espeak;
import dev.scorecast.engine.voice.PitchFrame;
import dev.scorecast.engine.voice.Yin;
import dev.scorecast.engine.voice.YinSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link Singer} built on espeak-ng. espeak-ng speaks each syllable once (from its own phonemes,
 * so "ti" in "beautiful" sounds as it does in the word), and the speech is resung by
 * {@link Psola}: every voiced grain lands on the note's pitch, the vowel stretches to fill the
 * note, and long notes get vibrato. Lines are joined by breaths. A male voice sings low lines and a
 * female one high lines; espeak-ng's own pitch is set near each note so resynthesis moves it little.
 * Spoken syllables are cached, so a chorus sung twice costs espeak-ng once.
 */
public final class EspeakSinger implements Singer {

    /** A rest at least this long ends a line, and the next line starts with a breath. */
    public static final double BREATH_GAP_SECONDS = 0.3;
    /** Lines whose median note is at or above this MIDI pitch (G3) get the high voice. */
    static final int HIGH_VOICE_FROM = 55;

    private static final int RATE = SAMPLE_RATE_HZ;
    private static final int CACHE_LIMIT = 4096;
    private static final double NUCLEUS_LEVEL = 0.12;

    private final Espeak espeak;
    private final String lowVoice;
    private final String highVoice;
    private final Map<String, String> phonemeCache = new ConcurrentHashMap<>();
    private final Map<String, SourceSyllable> syllableCache = new ConcurrentHashMap<>();
    private final Map<String, double[]> pitchRanges = new ConcurrentHashMap<>();

    /**
     * @param language an espeak-ng language such as {@code en-us} (the lyric tools are English)
     * @param timeout  the longest one espeak-ng run may take
     */
    public EspeakSinger(String language, Duration timeout) {
        this.espeak = new Espeak(timeout);
        if (language == null || !espeak.voices().contains(language.toLowerCase())) {
            throw new InvalidParameter(
                    "language",
                    "'" + language
                            + "' is not an espeak-ng language; use one that `espeak-ng --voices` lists, e.g. en-us");
        }
        this.lowVoice = language + "+m3";
        this.highVoice = language + "+f3";
    }

    /** American English, 10 s per espeak-ng run at most. */
    public static EspeakSinger create() {
        return new EspeakSinger("en-us", Duration.ofSeconds(10));
    }

    @Override
    public Vocal sing(List<SungNote> notes) {
        List<Syllable> syllables = syllables(notes);
        String voice = medianPitch(notes) >= HIGH_VOICE_FROM ? highVoice : lowVoice;
        List<String> phonemes = phonemes(voice, syllables);
        SungNote last = notes.getLast();
        float[] out = new float[(int) Math.round(last.end() * RATE) + RATE / 50];
        List<Integer> starts = notes.stream().map(n -> sampleOf(n.start())).toList();
        for (int s = 0; s < syllables.size(); s++) {
            Syllable syllable = syllables.get(s);
            singInto(out, syllable, phonemes.get(s), voice);
            if (syllable.breathBefore()) {
                Breath.addBefore(out, sampleOf(syllable.notes().getFirst().start()), syllable.gapBefore(), RATE);
            }
        }
        return new Vocal(out, RATE, starts);
    }

    private void singInto(float[] out, Syllable syllable, String phonemes, String voice) {
        SungNote first = syllable.notes().getFirst();
        int from = sampleOf(first.start());
        int to = sampleOf(syllable.notes().getLast().end());
        SourceSyllable source = spoken(voice, phonemes, PitchFrame.midiToHz(first.pitch()));
        if (source == null) {
            return;
        }
        List<PitchCurve.Segment> segments = new ArrayList<>();
        for (SungNote note : syllable.notes()) {
            int start = sampleOf(note.start()) - from;
            int next = sampleOf(note.end()) - from;
            segments.add(new PitchCurve.Segment(start, next - start, note.pitch()));
        }
        float[] sung = Psola.render(source, to - from, new PitchCurve(segments, RATE), RATE);
        double gain = NUCLEUS_LEVEL / Math.max(1e-4, source.nucleusRms()) * velocityGain(first.velocity());
        int fadeIn = Math.min(sung.length / 4, RATE / 250);
        int fadeOut = Math.min(sung.length / 4, RATE / 60);
        for (int i = 0; i < sung.length; i++) {
            double envelope = 1;
            if (i < fadeIn) {
                envelope = Math.sin(0.5 * Math.PI * i / fadeIn);
            } else if (i >= sung.length - fadeOut) {
                envelope = Math.sin(0.5 * Math.PI * (sung.length - i) / fadeOut);
            }
            int o = from + i;
            if (o < out.length) {
                out[o] += (float) (sung[i] * gain * envelope);
            }
        }
    }

    /** Velocity 1-127 to gain: 127 is full, 64 about -6 dB, 1 about -18 dB. */
    private static double velocityGain(int velocity) {
        return Math.pow(10, (-18 + 18 * Math.sqrt((velocity - 1) / 126.0)) / 20);
    }

    private SourceSyllable spoken(String voice, String phonemes, double targetHz) {
        double[] range = pitchRanges.computeIfAbsent(voice, this::measurePitchRange);
        // espeak-ng's -p runs roughly exponentially from the voice's lowest to highest base pitch.
        double p = 99 * Math.log(targetHz / range[0]) / Math.log(range[1] / range[0]);
        int pitch = (int) Math.max(0, Math.min(99, Math.round(p / 10) * 10));
        String key = voice + "|" + pitch + "|" + phonemes;
        SourceSyllable cached = syllableCache.get(key);
        if (cached != null) {
            return cached;
        }
        float[] speech =
                espeak.speak(List.of("-v", voice, "-s", "140", "-p", Integer.toString(pitch)), "[[" + phonemes + "]]");
        SourceSyllable source = SourceSyllable.analyse(speech, RATE);
        if (source != null) {
            if (syllableCache.size() > CACHE_LIMIT) {
                syllableCache.clear();
            }
            syllableCache.put(key, source);
        }
        return source;
    }

    /** The voice's base pitch at -p 0 and -p 99, from a sung "ah". */
    private double[] measurePitchRange(String voice) {
        return new double[] {medianHz(voice, 0), medianHz(voice, 99)};
    }

    private double medianHz(String voice, int pitch) {
        float[] ah = espeak.speak(List.of("-v", voice, "-s", "140", "-p", Integer.toString(pitch)), "[[A:]]");
        double[] hz = Yin.track(ah, Espeak.SAMPLE_RATE_HZ, YinSettings.DEFAULT.withHop(0.01)).stream()
                .filter(PitchFrame::voiced)
                .mapToDouble(PitchFrame::hz)
                .sorted()
                .toArray();
        if (hz.length == 0) {
            throw new IllegalStateException("espeak-ng voice " + voice + " produced no voiced sound");
        }
        return hz[hz.length / 2];
    }

    /** The phonemes each syllable is spoken from, looking each word up once. */
    private List<String> phonemes(String voice, List<Syllable> syllables) {
        List<List<Syllable>> words = new ArrayList<>();
        for (Syllable s : syllables) {
            if (words.isEmpty() || !words.getLast().getLast().continuesWord()) {
                words.add(new ArrayList<>());
            }
            words.getLast().add(s);
        }
        LinkedHashSet<String> missing = new LinkedHashSet<>();
        for (List<Syllable> word : words) {
            String text = wordText(word);
            if (!text.isEmpty() && !phonemeCache.containsKey(voice + "|" + text)) {
                missing.add(text);
            }
        }
        if (!missing.isEmpty()) {
            List<String> asked = List.copyOf(missing);
            List<String> answers = espeak.phonemes(voice, asked);
            for (int i = 0; i < asked.size(); i++) {
                if (phonemeCache.size() > CACHE_LIMIT) {
                    phonemeCache.clear();
                }
                phonemeCache.put(voice + "|" + asked.get(i), answers.get(i));
            }
        }
        List<String> out = new ArrayList<>();
        for (List<Syllable> word : words) {
            String text = wordText(word);
            String known = text.isEmpty() ? null : phonemeCache.get(voice + "|" + text);
            List<String> parts = known == null ? List.of() : PhonemeSyllables.split(known);
            out.addAll(align(parts, word.size()));
        }
        return out;
    }

    /**
     * Phoneme syllables to the word's written syllables: extra phoneme syllables join the last
     * written one; written syllables beyond the phonemes hold the last vowel.
     */
    static List<String> align(List<String> parts, int count) {
        if (parts.isEmpty()) {
            return Collections.nCopies(count, "'A:");
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (i < count - 1 && i < parts.size()) {
                out.add(parts.get(i));
            } else if (i == count - 1 && i < parts.size()) {
                out.add(String.join("", parts.subList(i, parts.size())));
            } else {
                out.add(vowelOf(parts.getLast()));
            }
        }
        return out;
    }

    private static String vowelOf(String syllable) {
        // The vowel is what follows the stress mark; a syllable without one is sung whole.
        int stress = syllable.indexOf('\'');
        return stress >= 0 ? syllable.substring(stress) : syllable;
    }

    private static String wordText(List<Syllable> word) {
        StringBuilder b = new StringBuilder();
        for (Syllable s : word) {
            b.append(s.text());
        }
        return b.toString().toLowerCase().replaceAll("[^\\p{L}']", "");
    }

    /** Groups notes into sung syllables and checks their order. */
    private static List<Syllable> syllables(List<SungNote> notes) {
        if (notes == null || notes.isEmpty()) {
            throw new InvalidParameter("notes", "give at least one note to sing");
        }
        if (notes.getFirst().melisma()) {
            throw new InvalidParameter(
                    "notes[0].melisma", "the first note must carry a syllable, a melisma continues one");
        }
        List<Syllable> out = new ArrayList<>();
        SungNote previous = null;
        for (int i = 0; i < notes.size(); i++) {
            SungNote note = notes.get(i);
            if (note == null) {
                throw new InvalidParameter("notes[" + i + "]", "must not be null");
            }
            double gap = previous == null ? note.start() : note.start() - previous.end();
            if (previous != null && gap < -1e-6) {
                throw new InvalidParameter(
                        "notes[" + i + "].start",
                        "starts at " + note.start() + " s, before the previous note ends at " + previous.end()
                                + " s; notes of one vocal line must not overlap");
            }
            if (note.melisma()) {
                if (gap > 0.05) {
                    throw new InvalidParameter(
                            "notes[" + i + "].melisma",
                            "a melisma must follow its syllable without a rest; give it a syllable");
                }
                out.getLast().notes().add(note);
            } else {
                boolean breath = previous != null && gap >= BREATH_GAP_SECONDS;
                out.add(new Syllable(
                        note.syllable().replaceAll("-$", ""),
                        note.wordContinues(),
                        breath,
                        gap,
                        new ArrayList<>(List.of(note))));
            }
            previous = note;
        }
        return out;
    }

    private static double medianPitch(List<SungNote> notes) {
        int[] pitches = notes.stream().mapToInt(SungNote::pitch).sorted().toArray();
        return pitches[pitches.length / 2];
    }

    private static int sampleOf(double seconds) {
        return (int) Math.round(seconds * RATE);
    }

    /** One syllable and the notes it is sung on (more than one for a melisma). */
    private record Syllable(
            String text, boolean continuesWord, boolean breathBefore, double gapBefore, List<SungNote> notes) {}

    /** Deterministic noise for breaths, so the same line always renders the same samples. */
    static Random noise(long seed) {
        return new Random(seed);
    }
}
