package dev.scorecast.engine.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanOptions;
import dev.scorecast.engine.plan.Section;
import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.voice.singing.EspeakSinger;
import dev.scorecast.engine.voice.speaking.EspeakNarrator;
import dev.scorecast.engine.voice.speaking.Narration;
import dev.scorecast.engine.voice.speaking.Narrator;
import dev.scorecast.engine.voice.speaking.NarratorSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28: the compose stage reported progress once, before speaking every voiceover line, so a job
 * whose deadline passed while the lines were spoken ran on past it. Progress now comes after each
 * line, where the caller checks its deadline: the run stops at the first line spoken after it.
 */
class VoicingDeadlineTest {
    @TempDir
    Path dir;

    /** Thrown by the progress callback, as the server's job deadline is. */
    private static final class Late extends RuntimeException {
        Late() {
            super("deadline passed", null, false, false);
        }
    }

    @Test
    void aDeadlinePassedWhileSpeakingStopsTheRunAtTheNextLine() throws Exception {
        var spoken = new AtomicInteger();
        Narrator espeak = EspeakNarrator.create();
        Narrator counting = new Narrator() {
            @Override
            public Narration speak(String text, NarratorSettings settings) {
                spoken.incrementAndGet();
                return espeak.speak(text, settings);
            }
        };
        List<Section.VoiceoverLine> lines = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
            lines.add(new Section.VoiceoverLine("Line " + k + " of the voiceover.", k * 0.5));
        }
        Section section = new Section(
                0, 0, 10, "build", 120, "4/4", 5, 0, "C", "major", 0.5, List.of("I"), Map.of(), null, null, lines);
        Plan plan = new Plan(
                Plan.VERSION, "plan_test", 1, "house", 10, PlanOptions.DEFAULT, Plan.Master.DEFAULT, List.of(section));
        var execution = new Execution(
                SoundBank.load(Path.of("/usr/share/sounds/sf2/TimGM6mb.sf2")), EspeakSinger.create(), counting);
        var inputs = new Execution.Inputs(dir.resolve("no-video.mp4"), Optional.empty(), null, plan);
        var composeReports = new AtomicInteger();
        // The deadline passes once three lines are spoken.
        assertThrows(
                Late.class,
                () -> execution.run(inputs, dir.resolve("out"), Map.of(), (stage, fraction) -> {
                    if (stage == Execution.Stage.COMPOSE) {
                        composeReports.incrementAndGet();
                        if (spoken.get() >= 3) {
                            throw new Late();
                        }
                    }
                }));
        assertEquals(3, spoken.get(), "no line is spoken after the deadline");
        assertTrue(
                composeReports.get() >= 4,
                "progress at the stage's start and after each line: " + composeReports.get());
        try (var left = Files.list(dir.resolve("out/.work"))) {
            assertTrue(
                    left.noneMatch(f -> f.getFileName().toString().endsWith(".mix")),
                    "the track being mixed is removed");
        }
    }
}
