package dev.scorecast.engine.render;

/**
 * What the master measured, by this engine's BS.1770-4 meter on the final samples.
 *
 * @param integratedLufs  integrated loudness; -70 (the absolute gate) for silence
 * @param truePeakDbtp    4x-oversampled true peak; -144 for digital silence
 * @param durationSeconds frames / 48000
 * @param gainAppliedDb   the static gain between the raw mix and the limiter (normalisation, on both
 *                        sides of the bus compressor); compressor and limiter reductions not included
 */
public record MasterReport(double integratedLufs, double truePeakDbtp, double durationSeconds, double gainAppliedDb) {}
