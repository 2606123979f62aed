package dev.scorecast.engine.live;

/**
 * How the render loops run. {@code blockFrames}: frames rendered, encoded and sent per turn
 * (1024 = 21.3 ms at 48 kHz, one AAC frame, so the encoder never holds a partial frame);
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
 * plain player's buffer fills at once and it can start playing; from then on it stays that far ahead (see {@link Performance}).
 */
public record LiveSettings(int blockFrames, int lookaheadFrames, int threads, int polyphony, String interpolation, float masterGain,
                           int maxPerformances, int burstFrames) {

    /** One second: a plain {@code <audio>} element in Chromium starts on what it gets at once. */
    public static final int DEFAULT_BURST_FRAMES = Performance.RATE;

    public static final int DEFAULT_RATE = Performance.RATE;
    public static final LiveSettings DEFAULT = new LiveSettings(1024, 4096, Runtime.getRuntime().availableProcessors(), 32, "linear", 1.0f,
            12 * Runtime.getRuntime().availableProcessors(), DEFAULT_BURST_FRAMES);

    /** Without a burst on joining: the performance renders in real time (plus the look-ahead) from its start. */
    public LiveSettings(int blockFrames, int lookaheadFrames, int threads, int polyphony, String interpolation, float masterGain, int maxPerformances) {
        this(blockFrames, lookaheadFrames, threads, polyphony, interpolation, masterGain, maxPerformances, 0);
    }

    public LiveSettings {
        if (blockFrames < 64 || blockFrames > 16384 || lookaheadFrames < 0 || threads < 1 || polyphony < 8 || maxPerformances < 1
                || burstFrames < 0 || burstFrames > 10 * DEFAULT_RATE) {
            throw new IllegalArgumentException("live settings out of range: block " + blockFrames + ", look-ahead " + lookaheadFrames
                    + ", threads " + threads + ", polyphony " + polyphony + ", burst " + burstFrames);
        }
    }
}
