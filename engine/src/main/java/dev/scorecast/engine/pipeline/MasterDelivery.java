package dev.scorecast.engine.pipeline;

import dev.scorecast.engine.dsp.LoudnessMeter;
import dev.scorecast.engine.io.DiskSync;
import dev.scorecast.engine.io.StereoPipe;
import dev.scorecast.engine.io.StereoSource;
import dev.scorecast.engine.io.WavReader;
import dev.scorecast.engine.media.Mp3Encoder;
import dev.scorecast.engine.media.Muxer;
import dev.scorecast.engine.render.MasterReport;
import dev.scorecast.engine.render.Mixer;
import dev.scorecast.engine.render.Renderer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

/**
 * The master and its two lossy downloads: the MP4 (the video with the master as AAC) and the MP3.
 * The encoders take each block of the master as pass 3 writes it, so they run beside the limiter
 * instead of after it; then both downloads are decoded and their true peaks held to the promise.
 * An encoder that overshoots gets the same master scaled down, encoded again.
 */
final class MasterDelivery {
    /** The true peak promised for the decoded MP4 and MP3 (-1 dBTP), less 0.2 dB for FFmpeg's meter reading differently. */
    static final double DELIVERED_PEAK_DBTP = -1.2;
    /**
     * The limiter's first ceiling for a delivered master: 1 dB under the promise leaves room for the
     * encoders' overshoot, so most executions encode once; a second master and encode costs about as
     * much as the mux again (1.2 s of a 60 s video's 5 s execution). With the production chain's
     * brighter, saturated mixes the overshoot from a -1.6 ceiling was 0.5-0.7 dB (house, rock and
     * techno, the 60 s benchmark clip), so three genres of four mastered twice; from -2.0 none did.
     */
    static final double CEILING_DBTP = -2.0;
    /** Masters again at most this often when an encoder overshoots. */
    static final int RETRIES = 3;
    /**
     * Room beyond the measured overshoot when mastering again lower: the encoders are not linear in
     * level (LAME on a rock master: the same master 0.37 dB lower decoded only 0.19 dB lower).
     */
    static final double RETRY_MARGIN_DB = 0.3;
    /** Blocks of the master waiting for an encoder at most: 64 x 4096 frames, 5.5 s, 2 MB. */
    private static final int WAITING_BLOCKS = 64;

    private static final System.Logger LOG = System.getLogger(MasterDelivery.class.getName());

    /** The master as mastered, and what the two downloads decode to (FFmpeg's decoders, BS.1770). */
    record Delivered(MasterReport master, LoudnessMeter.Result mp4, LoudnessMeter.Result mp3) {}

    private final Path video;
    private final Path masterWav;
    private final Path mp4;
    private final Path mp3;
    private final ExecutorService threads;

    /** The master goes to {@code masterWav}, the downloads to {@code mp4} and {@code mp3}; encoders run on {@code threads}. */
    MasterDelivery(Path video, Path masterWav, Path mp4, Path mp3, ExecutorService threads) {
        this.video = video;
        this.masterWav = masterWav;
        this.mp4 = mp4;
        this.mp3 = mp3;
        this.threads = threads;
    }

    /**
     * Masters {@code mix} at {@link #CEILING_DBTP} with both encoders fed as it goes, and again lower
     * while an encoder overshoots; {@code mastered} runs when the first master is written (the rest
     * is waiting for the encoders). Returns when every output is complete.
     */
    Delivered run(Mixer.Mixdown mix, Runnable mastered) {
        double ceiling = CEILING_DBTP;
        double lower = 0;
        for (int attempt = 0; ; attempt++) {
            StereoPipe toAac = new StereoPipe(Renderer.RATE, mix.frames(), WAITING_BLOCKS);
            StereoPipe toMp3 = new StereoPipe(Renderer.RATE, mix.frames(), WAITING_BLOCKS);
            CompletableFuture<Void> written = new CompletableFuture<>();
            CompletableFuture<LoudnessMeter.Result> mp4Decoded =
                    CompletableFuture.supplyAsync(() -> mux(firstThenFile(toAac, written)), threads);
            CompletableFuture<LoudnessMeter.Result> mp3Decoded =
                    CompletableFuture.supplyAsync(() -> encodeMp3(toMp3), threads);
            // An encoder that ends, well or not, stops taking audio: the master never waits on it.
            mp4Decoded.whenComplete((result, failure) -> toAac.close());
            mp3Decoded.whenComplete((result, failure) -> toMp3.close());
            MasterReport report;
            try {
                report = attempt == 0
                        ? mix.master(ceiling, List.of(toAac, toMp3))
                        : mix.remasterLower(lower, List.of(toAac, toMp3));
            } catch (RuntimeException e) {
                // The encoders were told (their audio abandoned); let them end before the work directory goes.
                CompletableFuture.allOf(mp4Decoded, mp3Decoded)
                        .exceptionally(ignored -> null)
                        .join();
                throw e;
            } finally {
                written.complete(null);
            }
            if (attempt == 0) {
                mastered.run();
            }
            LoudnessMeter.Result[] decoded = decoded(mp4Decoded, mp3Decoded);
            LOG.log(
                    System.Logger.Level.DEBUG,
                    () -> String.format(
                            "delivered true peaks: MP4 %.2f, MP3 %.2f dBTP",
                            decoded[0].truePeakDbtp(), decoded[1].truePeakDbtp()));
            double over = Math.max(decoded[0].truePeakDbtp(), decoded[1].truePeakDbtp()) - DELIVERED_PEAK_DBTP;
            if (over <= 0 || attempt == RETRIES) {
                return new Delivered(report, decoded[0], decoded[1]);
            }
            // An encoder overshot the master's peaks: the same master, scaled down by the overshoot
            // and a margin, encoded again. A little quieter, but not limited harder.
            lower = Math.min(over + RETRY_MARGIN_DB, 6 + ceiling);
            ceiling -= lower;
            double by = lower;
            double at = ceiling;
            LOG.log(
                    System.Logger.Level.INFO,
                    () -> String.format(
                            "encoders overshoot by %.2f dB: master %.2f dB lower, ceiling %.2f dBTP", over, by, at));
        }
    }

    /**
     * What both downloads decode to (MP4, MP3). When the master's first pass was not the master
     * after all (it ran again for loudness), the encoders were abandoned, and both encode the
     * finished file instead.
     */
    private LoudnessMeter.Result[] decoded(
            CompletableFuture<LoudnessMeter.Result> mp4, CompletableFuture<LoudnessMeter.Result> mp3) {
        try {
            CompletableFuture.allOf(mp4, mp3).join();
            return new LoudnessMeter.Result[] {mp4.join(), mp3.join()};
        } catch (CompletionException e) {
            CompletableFuture.allOf(mp4, mp3).exceptionally(ignored -> null).join();
            for (CompletableFuture<LoudnessMeter.Result> f : List.of(mp4, mp3)) {
                Throwable failure = f.handle((v, t) -> t instanceof CompletionException c ? c.getCause() : t)
                        .join();
                if (failure != null && !(failure instanceof StereoPipe.Abandoned)) {
                    throw failure instanceof RuntimeException r ? r : e;
                }
            }
            CompletableFuture<LoudnessMeter.Result> fromFile =
                    CompletableFuture.supplyAsync(() -> encodeMp3(file()), threads);
            LoudnessMeter.Result video = mux(this::file);
            return new LoudnessMeter.Result[] {video, fromFile.join()};
        }
    }

    /** The pipe for the first attempt of the mux; the written file for a second (the index outgrew its space). */
    private Supplier<StereoSource> firstThenFile(StereoPipe pipe, CompletableFuture<Void> written) {
        boolean[] first = {true};
        return () -> {
            if (first[0]) {
                first[0] = false;
                return pipe;
            }
            written.join();
            return file();
        };
    }

    private StereoSource file() {
        return WavReader.open(masterWav, "audio", "the encoders");
    }

    private LoudnessMeter.Result mux(Supplier<StereoSource> audio) {
        Muxer.mux(video, audio, mp4);
        // The MP4 (about as large as the video) goes to the disk while it is decoded and measured,
        // rather than when the job publishes it: a minute of 1080p waited 0.09 s for the disk there.
        CompletableFuture<Void> synced = CompletableFuture.runAsync(() -> DiskSync.file(mp4), threads);
        LoudnessMeter.Result decoded = Decoded.measure(mp4);
        synced.join();
        return decoded;
    }

    private LoudnessMeter.Result encodeMp3(StereoSource audio) {
        Mp3Encoder.encode(audio, mp3);
        return Decoded.measure(mp3);
    }
}
