package dev.scorecast.engine.plan;

import dev.scorecast.engine.error.ScorecastException.FieldProblem;
import java.util.List;
import java.util.Locale;

/**
 * How much a plan may give the voices to speak and to sing, relative to the video's length: the
 * voiceover at most twice what the narrator can say in the video at the plan's words per minute
 * (six characters a word), the lyrics at most {@value #LYRIC_CHARS_PER_SECOND} characters a second,
 * each on top of {@value #BASE_CHARS} characters. The per-field caps alone let a plan of half a
 * megabyte ask a 10 s video for hours of speech (200 lines of 2,000 characters once ran an
 * execution out of memory, issue 28); the planner's own plans stay well inside (its voiceover fits
 * the video, its lyrics are a line every few bars).
 */
final class TextBudget {
    static final int BASE_CHARS = 500;
    static final int CHARS_PER_WORD = 6;
    static final int LYRIC_CHARS_PER_SECOND = 40;

    private TextBudget() {}

    /** Adds a problem naming the first voiceover line, and the first lyrics, past their budget for a video of {@code seconds}. */
    static void check(Plan plan, double seconds, List<FieldProblem> problems) {
        if (!(seconds > 0) || plan.options() == null) {
            return;
        }
        int wordsPerMinute = plan.options().voiceoverWordsPerMinute();
        long voiceoverCap = voiceoverCap(seconds, wordsPerMinute);
        long lyricsCap = lyricsCap(seconds);
        long spoken = 0;
        long sung = 0;
        String spokenPast = null;
        String sungPast = null;
        List<Section> sections = plan.sections();
        for (int i = 0; i < sections.size(); i++) {
            Section s = sections.get(i);
            for (int k = 0; k < s.voiceover().size(); k++) {
                String text = s.voiceover().get(k).text();
                spoken += text == null ? 0 : text.length();
                if (spoken > voiceoverCap && spokenPast == null) {
                    spokenPast = "sections[" + i + "].voiceover[" + k + "].text";
                }
            }
            sung += s.lyrics() == null ? 0 : s.lyrics().length();
            if (sung > lyricsCap && sungPast == null) {
                sungPast = "sections[" + i + "].lyrics";
            }
        }
        if (spokenPast != null) {
            problems.add(new FieldProblem(
                    spokenPast,
                    String.format(
                            Locale.ROOT,
                            "the voiceover holds %d characters in all, more than the"
                                    + " %d a %.1f s video takes at %d words per minute (%d + %d a second); shorten or remove lines, or speak faster"
                                    + " (options.voiceover_words_per_minute)",
                            spoken,
                            voiceoverCap,
                            seconds,
                            wordsPerMinute,
                            BASE_CHARS,
                            voiceoverPerSecond(wordsPerMinute))));
        }
        if (sungPast != null) {
            problems.add(new FieldProblem(
                    sungPast,
                    String.format(
                            Locale.ROOT,
                            "the lyrics hold %d characters in all, more than the %d a"
                                    + " %.1f s video takes (%d + %d a second); shorten them",
                            sung,
                            lyricsCap,
                            seconds,
                            BASE_CHARS,
                            LYRIC_CHARS_PER_SECOND)));
        }
    }

    static long voiceoverCap(double seconds, int wordsPerMinute) {
        return BASE_CHARS + (long) Math.floor(seconds * voiceoverPerSecond(wordsPerMinute));
    }

    static long lyricsCap(double seconds) {
        return BASE_CHARS + (long) Math.floor(seconds * LYRIC_CHARS_PER_SECOND);
    }

    /** Twice the characters a second the narrator says at {@code wordsPerMinute}. */
    private static int voiceoverPerSecond(int wordsPerMinute) {
        return 2 * wordsPerMinute * CHARS_PER_WORD / 60;
    }
}
