package dev.scorecast.engine.analysis.audio;

import dev.scorecast.engine.dsp.RealFft;
import dev.scorecast.engine.error.InvalidParameter;
import java.util.Arrays;
import java.util.List;

/**
 * Spectral-flux onset detection over a mono stream: a Hann-windowed STFT (frames of about 32 ms,
 * a power of two: 512 samples at 16 kHz; hop 10 ms), magnitudes summed into bands a sixth of an
 * octave wide (one bin each at the bottom, where bins are wider than that), log-compressed, and per
 * frame the mean over bands of how far each band rose above its highest level in the two frames
 * before (falls count 0). Bands rather than bins, and the higher of two frames rather than the
 * last one, because steady noise wobbles from frame to frame in every bin, and those wobbles
 * must not add up to an onset; a real attack clears both easily. Frames are centred
 * on {@code n * hop}, so frame {@code n}'s time is {@code n * hop / rate}. The analyser runs this
 * on the 16 kHz downmix it makes for speech detection anyway: attacks of drums, plucks and hits
 * show plainly below 8 kHz, and a third of the samples is a third of the cost.
 *
 * <p>Magnitudes are scaled so that a full-scale sine reads 1 in its bin, then compressed with
 * {@code log(1 + 1000 m)}: below about -70 dBFS a band hardly moves the flux, so hiss and dither
 * do not make onsets, while above it the response is logarithmic and a hit counts the same in a
 * quiet passage as in a loud one. Keeps one float per frame (1.4 MB per hour).
 */
public final class OnsetDetector {

    private static final double COMPRESSION = 1000;
    private static final double LOWEST_HZ = 40;
    private static final int BANDS_PER_OCTAVE = 6;
    private static final int LOOKBACK = 2; // frames a rise is measured against

    private final int sampleRateHz;
    private final int frameSize;
    private final int hop;
    private final RealFft fft;
    private final double[] window;
    private final double[] frame;
    private final double[] magnitude;
    private final double[][] levels; // band levels of the last LOOKBACK frames and the current one, a ring
    private final int[] bandEdges; // band b covers bins [bandEdges[b], bandEdges[b + 1])
    private final float[] buffer; // the current frame's samples as they arrive
    private int buffered;
    private float[] flux = new float[1024];
    private int frames;

    public OnsetDetector(int sampleRateHz) {
        if (sampleRateHz < 8_000 || sampleRateHz > 384_000 || sampleRateHz % 100 != 0) {
            throw new InvalidParameter(
                    "sampleRateHz", "must be a multiple of 100 in [8000, 384000] Hz, was " + sampleRateHz);
        }
        this.sampleRateHz = sampleRateHz;
        // The power of two nearest (within a factor of 1.5) to 32 ms; 100 frames per second.
        this.frameSize = Integer.highestOneBit((int) Math.round(sampleRateHz * 0.032 * 4 / 3));
        this.hop = sampleRateHz / 100;
        this.fft = new RealFft(frameSize);
        this.window = new double[frameSize];
        double sum = 0;
        for (int i = 0; i < frameSize; i++) {
            window[i] = 0.5 - 0.5 * Math.cos(2 * Math.PI * i / frameSize);
            sum += window[i];
        }
        for (int i = 0; i < frameSize; i++) {
            window[i] *= 2 / sum;
        }
        this.frame = new double[frameSize];
        this.magnitude = new double[frameSize / 2 + 1];
        this.bandEdges = bandEdges(frameSize, sampleRateHz);
        this.levels = new double[LOOKBACK + 1][bandEdges.length - 1];
        this.buffer = new float[frameSize];
        // The first frame is centred on sample 0, so half of it lies before the signal: silence.
        this.buffered = frameSize / 2;
    }

    /** Seconds between frames. */
    public double frameSeconds() {
        return hop / (double) sampleRateHz;
    }

    /** Takes the next {@code length} mono samples. */
    public void accept(float[] samples, int offset, int length) {
        while (length > 0) {
            int n = Math.min(length, frameSize - buffered);
            System.arraycopy(samples, offset, buffer, buffered, n);
            buffered += n;
            offset += n;
            length -= n;
            if (buffered == frameSize) {
                analyseFrame();
            }
        }
    }

    /**
     * Ends the stream and picks the onsets. The last half frame (16 ms) is not analysed: padding
     * it with silence would turn the recording's abrupt end into a click that no one hears.
     */
    public List<Double> finish(OnsetRules rules) {
        return Onsets.pick(flux, frames, frameSeconds(), rules);
    }

    /** The onset strength of every frame so far (for tests and plots). */
    float[] flux() {
        return Arrays.copyOf(flux, frames);
    }

    private void analyseFrame() {
        for (int i = 0; i < frameSize; i++) {
            frame[i] = buffer[i] * window[i];
        }
        fft.magnitudes(frame, magnitude);
        double rise = 0;
        int slot = frames % levels.length; // held the oldest frame, no longer needed
        double[] current = levels[slot];
        int bands = current.length;
        for (int b = 0; b < bands; b++) {
            double sum = 0;
            for (int k = bandEdges[b]; k < bandEdges[b + 1]; k++) {
                sum += magnitude[k];
            }
            double level = Math.log(1 + COMPRESSION * sum);
            double recent = 0;
            for (int f = 0; f < levels.length; f++) {
                recent = f == slot ? recent : Math.max(recent, levels[f][b]);
            }
            rise += Math.max(0, level - recent);
            current[b] = level;
        }
        // The first frame has nothing before it to differ from.
        record(frames == 0 ? 0f : (float) (rise / bands));
        System.arraycopy(buffer, hop, buffer, 0, frameSize - hop);
        buffered = frameSize - hop;
    }

    /** Bin edges of bands a sixth of an octave wide from 40 Hz to Nyquist, each at least one bin. */
    private static int[] bandEdges(int frameSize, int sampleRateHz) {
        double binHz = sampleRateHz / (double) frameSize;
        int top = frameSize / 2 + 1;
        int[] edges = new int[top + 1];
        int count = 0;
        int edge = (int) Math.ceil(LOWEST_HZ / binHz);
        edges[count++] = edge;
        for (double f = LOWEST_HZ; edge < top; f *= Math.pow(2, 1.0 / BANDS_PER_OCTAVE)) {
            int next = Math.min(top, (int) Math.round(f / binHz));
            if (next > edge) {
                edges[count++] = next;
                edge = next;
            }
        }
        return Arrays.copyOf(edges, count);
    }

    private void record(float value) {
        if (frames == flux.length) {
            flux = Arrays.copyOf(flux, frames * 2);
        }
        flux[frames++] = value;
    }
}
