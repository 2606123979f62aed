package dev.scorecast.engine.render;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.dsp.GainRamp;
import dev.scorecast.engine.dsp.LoudnessMeter;
import dev.scorecast.engine.dsp.SidechainKey;
import dev.scorecast.engine.io.WavEncoding;
import dev.scorecast.engine.io.WavReader;
import dev.scorecast.engine.io.WavWriter;
import dev.scorecast.engine.style.Production;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleConsumer;
import java.util.stream.IntStream;

/**
 * The {@link Mixer}'s pass 1: the bed's sum and its loudness. With a production, each stem goes
 * through its {@link PartChain} (the kick's key read from the beats stem as it was rendered), then
 * its group gain and balance, and is written as a produced stem before it is added: the produced
 * stems are exactly the terms of the sum. Background recordings in the bed are added at their gain.
 *
 * <p>The chains are most of the work and independent of each other once the key is read: on two
 * cores or more a second thread sums, measures and writes the block before, and then both threads
 * take the block's chains one at a time, the costliest first ({@link PartChain#cost()}), until none
 * is left. So a block is read and produced while the one before it is summed, and neither thread
 * waits for a share fixed in advance: a part that rests (its chain idles through silence) or a
 * reverb's tail costs what it costs in that block. Which thread runs a chain changes nothing it
 * computes: each chain, reader and writer is used by one thread per block, and the sum adds the
 * stems in their order. {@link #block} does one such step and {@link #finish} sums the last.
 */
final class StemSum implements AutoCloseable {
    /** What the pass gives: the bed's loudness (null when silent) and the stems as mixed. */
    record Summed(Double lufs, List<Stem> stems) {}

    private static final System.Logger LOG = System.getLogger(StemSum.class.getName());

    private final List<Stem> stems;
    private final boolean producing;
    private final List<WavReader> inputs = new ArrayList<>();
    private final List<GainRamp> gains = new ArrayList<>();
    private final List<PartChain> chains = new ArrayList<>();
    private final List<WavWriter> produced = new ArrayList<>();
    private final float[] peaks;
    private final SidechainKey key;
    /** The beats stem, whose blocks are read first for the key (-1: no key). */
    private final int keyStem;
    /** The chains' indices, costliest first: the order in which the two threads take them. */
    private final int[] order;
    /** The next entry of {@link #order} to take in this block. */
    private final AtomicInteger next = new AtomicInteger();

    private final ExecutorService helper;
    /** Two sets of block buffers: the chains fill one while the other, the block before, is summed. */
    private final float[][][][] reads;

    private final float[][] mix = new float[2][Mixer.BLOCK];
    private final LoudnessMeter meter = new LoudnessMeter(Mixer.RATE, 2);
    private final WavWriter out;
    /** The block before, waiting to be summed, and its length (0: none). */
    private float[][][] last;

    private int before;

    /** Runs pass 1 over {@code frames}, writing the sum to {@code out} and telling {@code progress} the fraction done. */
    static Summed run(
            List<Stem> stems,
            List<Mixer.Input> bed,
            Optional<MixSettings.Produced> production,
            long frames,
            Path out,
            DoubleConsumer progress) {
        try (StemSum sum = new StemSum(stems, bed, production, out)) {
            for (long pos = 0; pos < frames; ) {
                int n = (int) Math.min(Mixer.BLOCK, frames - pos);
                sum.block(n);
                pos += n;
                progress.accept(pos / (double) frames);
            }
            return sum.finish();
        }
    }

    private StemSum(List<Stem> stems, List<Mixer.Input> bed, Optional<MixSettings.Produced> production, Path sumWav) {
        this.stems = stems;
        this.producing = production.isPresent();
        this.peaks = new float[stems.size()];
        boolean built = false;
        try {
            int beats = -1;
            SidechainKey k = null;
            if (producing) {
                Production p = production.get().production();
                for (int s = 0; s < stems.size(); s++) {
                    if (stems.get(s).group() == InstrumentGroup.BEATS) {
                        beats = s;
                    }
                }
                boolean anyDucks =
                        stems.stream().anyMatch(st -> p.part(st.group()).sidechain());
                k = beats >= 0 && anyDucks ? new SidechainKey(Mixer.RATE) : null;
                for (Stem stem : stems) {
                    chains.add(new PartChain(
                            p, p.part(stem.group()), k, production.get().bpm(), Mixer.RATE, Mixer.BLOCK));
                    Path wav = Mixer.producedPath(stem);
                    createDirectories(wav.getParent());
                    produced.add(WavWriter.scratch(wav, WavEncoding.FLOAT32, Mixer.RATE, 2));
                }
            }
            this.key = k;
            this.keyStem = k != null ? beats : -1;
            for (Mixer.Input in : bed) {
                inputs.add(Mixer.open(in));
                gains.add(new GainRamp(Mixer.dbToGain(in.gainDb()), in.pan()));
            }
            this.reads = new float[2][inputs.size()][2][Mixer.BLOCK];
            this.last = reads[1];
            this.order = IntStream.range(0, chains.size())
                    .boxed()
                    .sorted((a, b) ->
                            Double.compare(chains.get(b).cost(), chains.get(a).cost()))
                    .mapToInt(Integer::intValue)
                    .toArray();
            this.helper = chains.size() > 1 && Runtime.getRuntime().availableProcessors() > 1 ? helperThread() : null;
            this.out = WavWriter.scratch(sumWav, WavEncoding.FLOAT32, Mixer.RATE, 2);
            built = true;
        } finally {
            if (!built) {
                close();
            }
        }
    }

    private static ExecutorService helperThread() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "scorecast-mix");
            t.setDaemon(true);
            return t;
        });
    }

    /** One block of {@code n} frames: read and produced, and (here or, with a helper, one block behind) summed. */
    void block(int n) {
        float[][][] now = last == reads[0] ? reads[1] : reads[0];
        if (key != null) {
            inputs.get(keyStem).readStereo(now[keyStem], n);
            key.analyse(now[keyStem], 0, n);
        }
        next.set(0);
        if (helper != null) {
            float[][][] waitingBlock = last;
            int waiting = before;
            Future<?> other = helper.submit(() -> {
                add(waitingBlock, waiting);
                produce(now, n);
            });
            produce(now, n);
            join(other);
            last = now;
            before = n;
        } else {
            produce(now, n);
            add(now, n);
        }
    }

    /** Sums the last block (when the helper sums behind), commits the files and says what was mixed. */
    Summed finish() {
        add(last, before);
        before = 0;
        out.commit();
        List<Stem> mixed = new ArrayList<>();
        for (int s = 0; s < produced.size(); s++) {
            produced.get(s).commit();
            Stem stem = stems.get(s);
            mixed.add(new Stem(stem.group(), Mixer.producedPath(stem), 20 * Math.log10(peaks[s])));
            PartChain c = chains.get(s);
            if (c.ducks()) {
                LOG.log(
                        System.Logger.Level.DEBUG,
                        () -> String.format(
                                "sidechain %s: deepest %.1f dB", stem.group().wire(), c.maxSidechainDb()));
            }
        }
        return new Summed(meter.finish().integratedLufs(), producing ? mixed : stems);
    }

    /**
     * Takes the block's chains not yet taken, one at a time, and produces each one's stem: read (the
     * key stem is already read), chain, group gain and balance, written; its peak kept.
     */
    private void produce(float[][][] block, int n) {
        for (int k = next.getAndIncrement(); k < order.length; k = next.getAndIncrement()) {
            int s = order[k];
            float[][] read = block[s];
            if (s != keyStem) {
                inputs.get(s).readStereo(read, n);
            }
            chains.get(s).process(read, 0, n);
            gains.get(s).apply(read, n);
            produced.get(s).write(read, n);
            peaks[s] = Math.max(peaks[s], peak(read, n));
        }
    }

    /** The serial end of a block: the produced stems (and background recordings) summed, measured and written. */
    private void add(float[][][] block, int n) {
        if (n == 0) {
            return;
        }
        Arrays.fill(mix[0], 0, n, 0f);
        Arrays.fill(mix[1], 0, n, 0f);
        for (int s = 0; s < inputs.size(); s++) {
            if (s < chains.size()) {
                for (int c = 0; c < 2; c++) {
                    float[] a = block[s][c];
                    float[] b = mix[c];
                    for (int i = 0; i < n; i++) {
                        b[i] += a[i];
                    }
                }
            } else {
                inputs.get(s).readStereo(block[s], n);
                gains.get(s).addTo(block[s], mix, n);
            }
        }
        meter.accept(mix, n);
        out.write(mix, n);
    }

    private static float peak(float[][] buf, int n) {
        float p = 0;
        for (int c = 0; c < 2; c++) {
            for (int i = 0; i < n; i++) {
                p = Math.max(p, Math.abs(buf[c][i]));
            }
        }
        return p;
    }

    private static void join(Future<?> f) {
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while mixing", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("mixing failed", e.getCause());
        }
    }

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
    }

    @Override
    public void close() {
        if (helper != null) {
            helper.shutdownNow();
        }
        for (WavReader in : inputs) {
            in.close();
        }
        for (WavWriter o : produced) {
            o.close();
        }
        if (out != null) {
            out.close();
        }
    }
}
