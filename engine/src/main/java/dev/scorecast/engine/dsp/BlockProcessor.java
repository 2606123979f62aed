package dev.scorecast.engine.dsp;

/**
 * One stage of audio processing run block by block, the same way offline (the {@code Renderer} and
 * {@code Mixer} over a whole piece) and live (a performance's output stage, one render-loop block at
 * a time), so both paths share one gain ramp, one limiter and one set of effects.
 *
 * <p>The contract, which every implementation keeps:
 * <ul>
 *   <li><b>Planar float channels:</b> {@code channels[c][i]} is sample {@code i} of channel
 *       {@code c}, full scale ±1.0. The number of channels is fixed when the processor is built
 *       (stereo for every bus today); a processor may check it but never reshapes the array.</li>
 *   <li><b>In place:</b> the processor reads frames {@code offset .. offset + frames - 1} of each
 *       channel and writes its output over them; nothing outside that range is read or written.</li>
 *   <li><b>Sample time:</b> state advances by exactly {@code frames} per call and by nothing else;
 *       a processor never looks at the wall clock. Parameters that change (a gain target, a
 *       threshold) are smoothed over samples so that a change never clicks, and take effect from
 *       the next sample processed.</li>
 *   <li><b>One block at a time, any size:</b> the output does not depend on how a run of audio is
 *       cut into blocks (one call of 48 000 frames or 150 calls of 320 give the same samples), so
 *       the offline path can use big blocks and the live path small ones. {@code frames} may be 0.</li>
 *   <li><b>No allocation while processing:</b> buffers are sized when the processor is built (or
 *       grown on the first block larger than any before, never again at a steady block size), so a
 *       live render loop running many performances produces no garbage per block.</li>
 *   <li><b>One thread at a time:</b> a processor is not thread-safe; its owner (a render loop, an
 *       offline render) calls it from one thread at a time.</li>
 * </ul>
 *
 * <p>A processor that delays its output (a look-ahead limiter) says by how much in
 * {@link #latencyFrames()}; its first output frames are then silence and the owner compensates.
 */
public interface BlockProcessor {

    /**
     * Processes frames {@code offset .. offset + frames - 1} of every channel in place.
     *
     * @param channels planar audio, one array per channel, all at least {@code offset + frames} long
     * @param offset   the first frame of the block in each channel array
     * @param frames   the number of frames in the block, 0 or more
     */
    void process(float[][] channels, int offset, int frames);

    /** Frames between a sample going in and the same sample coming out; 0 for most processors. */
    default int latencyFrames() {
        return 0;
    }
}
