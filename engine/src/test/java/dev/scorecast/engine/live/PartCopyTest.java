package dev.scorecast.engine.live;

import static dev.scorecast.engine.live.CopyCheck.assertCopied;
import static dev.scorecast.engine.live.CopyCheck.construct;
import static dev.scorecast.engine.live.CopyCheck.fill;
import static dev.scorecast.engine.live.CopyCheck.nested;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.dsp.GainRamp;
import dev.scorecast.engine.plan.Continuation;
import dev.scorecast.engine.plan.Section;
import dev.scorecast.engine.voice.singing.SungNote;
import dev.scorecast.engine.voice.singing.Vocal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A fork is one {@code copy()} per part of a performance (docs/PLAYER.md): each part's copy holds every field of the
 * original, filled here by reflection ({@link CopyCheck}), except those it leaves by design, each named with why. A
 * field added to a part and forgotten in its copy fails here.
 */
class PartCopyTest {
    private static final LiveContext CONTEXT = LiveHarness.context().build();

    @Test
    void theClock() {
        MusicalClock clock = fill(new MusicalClock(Performance.RATE), Map.of());
        assertCopied(clock, clock.copy(), Map.of());
    }

    @Test
    void thePacing() {
        Pacing pacing = fill(
                new Pacing(LiveHarness.BY_HAND.withLookaheadFrames(4096).withBurstFrames(Performance.RATE), 7),
                Map.of());
        assertCopied(pacing, pacing.copy(), Map.of());
    }

    @Test
    void theSectionFeed() {
        SectionSource source =
                SectionSource.continuation(CONTEXT.genres().find("house").orElseThrow(), 7, 124);
        Section first = source.next(0.5);
        Section second = source.next(0.5);
        Section third = source.next(0.5);
        var composed = new SectionFeed.Composition(first, second, 0, 0, new CompletableFuture<>());
        var ahead = new SectionFeed.Composition(second, third, 32, 8, new CompletableFuture<>());
        var segment = new SectionFeed.Segment(first, 0, 32, 0);
        Map<String, String> notCopied = Map.of(
                "composer", "each feed composes with a Composer of its own (it holds only the read-only style book)",
                "lane",
                        "a copy composes through a lane of its own, so that the composing thread serves it in its turn");
        SectionFeed feed = fill(
                new SectionFeed(CONTEXT),
                Map.ofEntries(
                        Map.entry("context", CONTEXT),
                        Map.entry("source", source),
                        Map.entry("current", segment),
                        Map.entry("upcoming", second),
                        Map.entry("following", third),
                        Map.entry("prepared", ahead),
                        Map.entry("fallback", composed),
                        Map.entry(
                                "cues",
                                List.of(
                                        new Cue.NoteOn(1, 0, 60, 100, 1),
                                        new Cue.NoteOff(2, 0, 60, 1),
                                        new Cue.Program(0, 1, 33, false))),
                        Map.entry(
                                "dues",
                                List.of(
                                        new SectionFeed.Begin(32, null, source.copy(), second, third, ahead),
                                        new SectionFeed.SectionEnd(32),
                                        new SectionFeed.Relevel(4, segment, first, composed))),
                        Map.entry(
                                "late",
                                List.of(construct(nested(SectionFeed.class, "Late"), composed, true, 0.0, 32.0)))),
                notCopied.keySet());
        assertCopied(feed, feed.copy(), notCopied);
    }

    @Test
    void theSectionSource() {
        var house = CONTEXT.genres().find("house").orElseThrow();
        SectionSource source = SectionSource.continuation(house, 7, 124);
        Section first = source.next(0.5);
        source = fill(
                source,
                Map.of(
                        "genre",
                        house,
                        "clientPlan",
                        true,
                        "planned",
                        List.of(first, source.next(0.5)),
                        "home",
                        first.key(),
                        "state",
                        Continuation.after(first, 3, "A")));
        assertCopied(source, source.copy(), Map.of());
    }

    /**
     * The synthesizer's channel is copied by playing the original's state into a new synthesizer, so its state here is
     * played, not set: a sound on every kind of channel (Gervill's and the sampler's) and notes held on them.
     */
    @Test
    void theSynthChannel() {
        int kit = IntStream.range(0, 128 * 16)
                .filter(a -> CONTEXT.bank().sampled(a, true).isPresent())
                .findFirst()
                .orElseThrow(
                        () -> new AssertionError("no instrument of the sampler's: SCORECAST_INSTRUMENTS is not set"));
        SynthChannel synth = new SynthChannel(CONTEXT);
        synth.open();
        synth.play(new Cue.ChannelSound(0, 0, 0, false, 100, 40), 0);
        synth.play(new Cue.ChannelSound(0, 9, kit, true, 90, 64), 0);
        synth.play(new Cue.NoteOn(0, 0, 60, 100, 1), 0);
        synth.play(new Cue.NoteOn(0, 9, 36, 80, 2), 0);
        SynthChannel copy = synth.copy();
        try {
            assertCopied(
                    synth,
                    copy,
                    Map.of(
                            "synth",
                                    "the copy's own synthesizer, opened anew and played the original's sounds and held notes",
                            "sampler", "the copy's own sampler, likewise"));
        } finally {
            synth.close();
            copy.close();
        }
    }

    @Test
    void theOutputStage() {
        GainRamp ramp = new GainRamp(0.5, 0.3);
        ramp.setTarget(0.2, 100);
        Map<String, String> notCopied = Map.of(
                "outlets", "listeners move to a fork on their own, and open its outlets there",
                "recent", "a fork's listeners continue their streams: none needs the original's last blocks",
                "keepBlocks", "the performance sets it from the copy's pacing (its lead)",
                "sealed", "a fork is open to listeners",
                "interleaved", "scratch for the encoders, written whole each block",
                "production", "rebuilt for the genre: its filter state is not taken over");
        OutputStage stage = fill(
                new OutputStage(0.8f, LiveHarness.BLOCK),
                Map.of("gain", ramp, "knee", new SoftKnee(), "genre", "house"),
                notCopied.keySet());
        assertCopied(stage, stage.copy(), notCopied);
    }

    @Test
    void theSungLayer() {
        VocalPhrase phrase = new VocalPhrase(4, 110, List.of(new SungNote(0, 1, 60, 100, "la", false)), -3, 0.2);
        Object line = fill(
                construct(nested(LiveVocals.class, "Line"), phrase),
                Map.of("phrase", phrase, "asked", phrase.notes(), "sung", new CompletableFuture<Vocal>()));
        Object sounding = fill(
                construct(nested(LiveVocals.class, "SoundingLine"), new float[] {0.1f, 0.2f}, 0.5f, 0.4f, 0.3f, 7),
                Map.of());
        Object change = construct(nested(LiveVocals.class, "Switch"), 8.0, true);
        Map<String, String> notCopied = Map.of(
                "performance", "the copy's own id, given",
                "pacing", "the copy's own pacing, given (a copy of the original's)",
                "mono", "scratch for the reverb's send, written whole each block",
                "reverb", "starts empty: the tail of what it held stays with the original");
        LiveVocals vocals = fill(
                new LiveVocals("perf-a", CONTEXT.phrases(), new Pacing(LiveHarness.BY_HAND, 0), LiveHarness.BLOCK),
                Map.of(
                        "singer",
                        CONTEXT.phrases(),
                        "lines",
                        List.of(line),
                        "sounding",
                        List.of(sounding),
                        "switches",
                        List.of(change),
                        "offered",
                        List.of(phrase)),
                notCopied.keySet());
        assertCopied(vocals, vocals.copyFor("perf-b", new Pacing(LiveHarness.BY_HAND, 0)), notCopied);
    }

    /** A part whose copy forgets a field. */
    private static final class Forgetful {
        long kept;
        long forgotten;

        Forgetful copy() {
            Forgetful c = new Forgetful();
            c.kept = kept;
            return c;
        }
    }

    @Test
    void aCopyThatForgetsAFieldFails() {
        Forgetful part = fill(new Forgetful(), Map.of());
        AssertionError e = assertThrows(AssertionError.class, () -> assertCopied(part, part.copy(), Map.of()));
        assertTrue(e.getMessage().contains("Forgetful.forgotten"), e.getMessage());
        assertThrows(
                AssertionError.class, () -> fill(new SectionFeed(CONTEXT), Map.of()), "a field it cannot fill fails");
    }
}
