package dev.scorecast.engine.pipeline;

import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.dsp.LoudnessMeter;
import dev.scorecast.engine.music.Score;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.render.MasterReport;
import java.util.List;
import java.util.Map;

/**
 * What results.json holds: the links, the measured loudness, the sync report and where the time
 * went, and where the music comes from ({@link Provenance}). {@code sync} is measured on the rendered master, not copied from the plan;
 * {@code boundaries} repeats the plan's own residual (bars against section length) per section;
 * {@code markers} is each of the editor's markers measured on the master the same way as the sync
 * report's accents (its {@code error_seconds} is the marker's offset: where it is heard less where it was marked).
 */
public record Results(
        String planId,
        double duration,
        Map<String, String> links,
        Map<String, String> files,
        Loudness loudness,
        SyncReport sync,
        List<Boundary> boundaries,
        Map<String, Double> stageSeconds,
        List<String> parts,
        Voices voices,
        Provenance provenance,
        List<SyncCheck.Point> markers) {

    /**
     * The voices of the mix: how well the sung line sits on its notes (null without vocals) and
     * where the voiceover speaks.
     */
    public record Voices(Vocals vocals, List<Span> voiceoverSpans) {}

    /** YIN over the sung line: voiced frames inside notes, how many within ±50 cents, their share. */
    public record Vocals(int notes, int voicedFrames, int withinFiftyCents, Double pitchAccuracy) {}

    /**
     * The master's loudness and true peak as mastered, and what each download decodes to: the
     * video's AAC ({@code videoMp4}) and the MP3, decoded by FFmpeg and measured the same way.
     */
    public record Loudness(
            double integratedLufs,
            double truePeakDbtp,
            double targetLufs,
            double gainAppliedDb,
            Decoding videoMp4,
            Decoding audioMp3) {}

    /** A download decoded: integrated loudness (null when silent) and true peak. */
    public record Decoding(Double integratedLufs, double truePeakDbtp) {
        static Decoding of(LoudnessMeter.Result r) {
            return new Decoding(
                    r.integratedLufs() == null ? null : round(r.integratedLufs()),
                    Double.isFinite(r.truePeakDbtp()) ? round(r.truePeakDbtp()) : -144);
        }
    }

    /** {@code worstErrorSeconds} over the accents heard; {@code allWithinFrame} when every accent was heard within one frame. */
    public record SyncReport(
            double framePeriodSeconds,
            int accents,
            int heard,
            int withinFrame,
            Double worstErrorSeconds,
            boolean allWithinFrame,
            List<SyncCheck.Point> points) {}

    public record Boundary(int section, double time, double tempo, int bars, double residualSeconds) {}

    static Results of(
            Plan plan,
            Score score,
            MasterDelivery.Delivered delivered,
            List<SyncCheck.Point> points,
            Map<String, String> files,
            Map<String, String> links,
            Map<String, Double> stageSeconds,
            double framePeriodSeconds,
            Voices voices,
            Provenance provenance,
            List<SyncCheck.Point> markers) {
        double frame = Math.round(framePeriodSeconds * 100_000) / 100_000.0;
        int heard = 0;
        int within = 0;
        Double worst = null;
        for (SyncCheck.Point p : points) {
            if (p.errorSeconds() != null) {
                heard++;
                worst = worst == null ? Math.abs(p.errorSeconds()) : Math.max(worst, Math.abs(p.errorSeconds()));
            }
            if (p.withinFrame()) {
                within++;
            }
        }
        List<Boundary> boundaries = plan.sections().stream()
                .map(s -> new Boundary(s.index(), s.start(), s.tempo(), s.bars(), s.residual()))
                .toList();
        MasterReport master = delivered.master();
        return new Results(
                plan.id(),
                score.duration(),
                Map.copyOf(links),
                Map.copyOf(files),
                new Loudness(
                        round(master.integratedLufs()),
                        round(master.truePeakDbtp()),
                        plan.master().targetLufs(),
                        round(master.gainAppliedDb()),
                        Decoding.of(delivered.mp4()),
                        Decoding.of(delivered.mp3())),
                new SyncReport(frame, points.size(), heard, within, worst, within == points.size(), points),
                boundaries,
                stageSeconds,
                Execution.groups(score),
                voices,
                provenance,
                List.copyOf(markers));
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
