package dev.scorecast.engine.live;

/**
 * Where the emitted audio is, taken at the end of the last block handed to listeners: {@code frame}
 * frames at {@code sampleRate} ({@code seconds}), {@code beat} beats and {@code bar} whole bars of
 * music played so far, at {@code tempo} beats per minute (the relative tempo included). Beat and bar
 * stand still while stopped. Immutable, published by the render loop.
 */
public record Transport(
        double tempo,
        double beat,
        long bar,
        long frame,
        double seconds,
        int sampleRate,
        boolean playing,
        String timeSignature) {}
