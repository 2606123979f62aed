package dev.scorecast.engine.live;

/**
 * How the render loops run, built by name from {@link #DEFAULT} ({@code DEFAULT.withLookaheadFrames(0).withBurstFrames(0)}):
 * eight numbers in a row were easy to pass in the wrong order. {@code blockFrames}: frames rendered, encoded and sent per
 * turn (1024 = 21.3 ms at 48 kHz, one AAC frame, so the encoder never holds a partial frame);
 * {@code lookaheadFrames}: how far ahead of real time a loop renders (what a control waits at
 * most beyond its bar line); {@code threads}: render threads for all performances (one per core);
 * {@code polyphony}: voices per synthesizer (32: a third less synthesizer time than 48, the cost of a
 * stream being about proportional to its voices; past it Gervill takes over the voice released
 * longest ago, the quietest tail, and the live styles measured the same loudness and spectrum);
 * {@code interpolation}: Gervill's resampling
 * ("linear" is cheaper than "cubic" and hard to tell apart at 48 kHz); {@code masterGain}: linear
 * gain after the synthesizer, before a soft knee that rounds peaks off below full scale;
 * {@code maxPerformances}: how many synthesizers may play at once (shared ones count once); past
 * it, a call that needs one more is refused with "busy" rather than making everyone underrun;
 * {@code burstFrames}: how far ahead a performance renders, faster than real time, when a listener joins (0: never), so a
 * plain player's buffer fills at once and it can start playing; from then on it stays that far ahead (see {@link Pacing}).
 */
public final class LiveSettings {

    /** One second: a plain {@code <audio>} element in Chromium starts on what it gets at once. */
    public static final int DEFAULT_BURST_FRAMES = Performance.RATE;

    public static final int DEFAULT_RATE = Performance.RATE;
    public static final LiveSettings DEFAULT = new LiveSettings(
            1024,
            4096,
            Runtime.getRuntime().availableProcessors(),
            32,
            "linear",
            1.0f,
            12 * Runtime.getRuntime().availableProcessors(),
            DEFAULT_BURST_FRAMES);

    private final int blockFrames;
    private final int lookaheadFrames;
    private final int threads;
    private final int polyphony;
    private final String interpolation;
    private final float masterGain;
    private final int maxPerformances;
    private final int burstFrames;

    private LiveSettings(
            int blockFrames,
            int lookaheadFrames,
            int threads,
            int polyphony,
            String interpolation,
            float masterGain,
            int maxPerformances,
            int burstFrames) {
        if (blockFrames < 64
                || blockFrames > 16384
                || lookaheadFrames < 0
                || threads < 1
                || polyphony < 8
                || maxPerformances < 1
                || burstFrames < 0
                || burstFrames > 10 * DEFAULT_RATE) {
            throw new IllegalArgumentException("live settings out of range: block " + blockFrames + ", look-ahead "
                    + lookaheadFrames + ", threads " + threads + ", polyphony " + polyphony + ", burst " + burstFrames);
        }
        this.blockFrames = blockFrames;
        this.lookaheadFrames = lookaheadFrames;
        this.threads = threads;
        this.polyphony = polyphony;
        this.interpolation = interpolation;
        this.masterGain = masterGain;
        this.maxPerformances = maxPerformances;
        this.burstFrames = burstFrames;
    }

    public int blockFrames() {
        return blockFrames;
    }

    public int lookaheadFrames() {
        return lookaheadFrames;
    }

    public int threads() {
        return threads;
    }

    public int polyphony() {
        return polyphony;
    }

    public String interpolation() {
        return interpolation;
    }

    public float masterGain() {
        return masterGain;
    }

    public int maxPerformances() {
        return maxPerformances;
    }

    public int burstFrames() {
        return burstFrames;
    }

    public LiveSettings withBlockFrames(int frames) {
        return new LiveSettings(
                frames, lookaheadFrames, threads, polyphony, interpolation, masterGain, maxPerformances, burstFrames);
    }

    public LiveSettings withLookaheadFrames(int frames) {
        return new LiveSettings(
                blockFrames, frames, threads, polyphony, interpolation, masterGain, maxPerformances, burstFrames);
    }

    public LiveSettings withThreads(int count) {
        return new LiveSettings(
                blockFrames,
                lookaheadFrames,
                count,
                polyphony,
                interpolation,
                masterGain,
                maxPerformances,
                burstFrames);
    }

    public LiveSettings withPolyphony(int voices) {
        return new LiveSettings(
                blockFrames, lookaheadFrames, threads, voices, interpolation, masterGain, maxPerformances, burstFrames);
    }

    public LiveSettings withInterpolation(String name) {
        return new LiveSettings(
                blockFrames, lookaheadFrames, threads, polyphony, name, masterGain, maxPerformances, burstFrames);
    }

    public LiveSettings withMasterGain(float gain) {
        return new LiveSettings(
                blockFrames, lookaheadFrames, threads, polyphony, interpolation, gain, maxPerformances, burstFrames);
    }

    public LiveSettings withMaxPerformances(int count) {
        return new LiveSettings(
                blockFrames, lookaheadFrames, threads, polyphony, interpolation, masterGain, count, burstFrames);
    }

    /** 0: no burst, the performance renders in real time (plus the look-ahead) from its start. */
    public LiveSettings withBurstFrames(int frames) {
        return new LiveSettings(
                blockFrames, lookaheadFrames, threads, polyphony, interpolation, masterGain, maxPerformances, frames);
    }

    @Override
    public String toString() {
        return "LiveSettings[block " + blockFrames + ", look-ahead " + lookaheadFrames + ", threads " + threads
                + ", polyphony " + polyphony + ", " + interpolation + ", gain " + masterGain + ", at most "
                + maxPerformances + " performances, burst " + burstFrames + "]";
    }
}
