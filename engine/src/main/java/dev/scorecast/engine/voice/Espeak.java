package dev.scorecast.engine.voice;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The espeak-ng command-line program, run as a subprocess. Text always travels on stdin and every
 * option is its own argument (no shell), so nothing a user writes can become a command or an
 * option. Every run is time-limited; a run that overstays is killed. The speaking and the singing
 * voices share it.
 */
public final class Espeak {

    /** espeak-ng's output rate. */
    public static final int SAMPLE_RATE_HZ = 22_050;

    private static final String BINARY = "espeak-ng";
    private static volatile Set<String> voices;

    private final Duration timeout;

    public Espeak(Duration timeout) {
        this.timeout = timeout;
    }

    /** Speaks {@code input} (plain text, or phonemes in {@code [[...]]}) with {@code options}; mono at {@link #SAMPLE_RATE_HZ}. */
    public float[] speak(List<String> options, String input) {
        List<String> command = new ArrayList<>(List.of(BINARY, "--stdout", "--stdin"));
        command.addAll(options);
        return wavToFloats(run(command, input));
    }

    /**
     * espeak-ng's phonemes of each word, tokens separated by {@code _}, stress marks attached; one
     * word per line in, one line out per word (the full stop makes each its own clause).
     */
    public List<String> phonemes(String voice, List<String> words) {
        StringBuilder in = new StringBuilder();
        for (String word : words) {
            in.append(word).append(".\n");
        }
        String out = new String(
                run(List.of(BINARY, "-q", "-x", "--sep=_", "--stdin", "-v", voice), in.toString()),
                StandardCharsets.UTF_8);
        List<String> lines =
                out.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        if (lines.size() != words.size()) {
            throw new IllegalStateException(
                    "espeak-ng gave " + lines.size() + " phoneme lines for " + words.size() + " words: " + out);
        }
        return lines;
    }

    /** Every name {@code -v} accepts: languages, voice names and voice files, each optionally with a {@code +variant}. */
    public Set<String> voices() {
        Set<String> known = voices;
        if (known == null) {
            known = new LinkedHashSet<>();
            for (String line : new String(run(List.of(BINARY, "--voices"), ""), StandardCharsets.UTF_8)
                    .lines()
                    .skip(1)
                    .toList()) {
                String[] cols = line.strip().split("\\s+");
                if (cols.length >= 5) {
                    known.add(cols[1].toLowerCase());
                    known.add(cols[3].toLowerCase());
                    known.add(cols[4].toLowerCase());
                    known.add(cols[4].substring(cols[4].lastIndexOf('/') + 1).toLowerCase());
                    // "Other Languages" lists further codes the voice answers to, e.g. "(fr 5)" on fr-fr.
                    for (int i = 5; i + 1 < cols.length; i += 2) {
                        known.add(cols[i].replace("(", "").toLowerCase());
                    }
                }
            }
            voices = known = Set.copyOf(known);
        }
        return known;
    }

    /** Variant names usable after a {@code +}. */
    public Set<String> variants() {
        Set<String> known = new LinkedHashSet<>();
        for (String line : new String(run(List.of(BINARY, "--voices=variant"), ""), StandardCharsets.UTF_8)
                .lines()
                .skip(1)
                .toList()) {
            String[] cols = line.strip().split("\\s+");
            if (cols.length >= 5) {
                known.add(cols[3].toLowerCase());
                known.add(cols[4].substring(cols[4].indexOf('/') + 1).toLowerCase());
            }
        }
        return known;
    }

    private byte[] run(List<String> command, String stdin) {
        Process process;
        try {
            process = new ProcessBuilder(command).start();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "cannot start espeak-ng (install the Debian package espeak-ng): " + e.getMessage(), e);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // Three pumps, so a full pipe in any direction cannot stall the others.
        Thread writer = Thread.ofVirtual().start(() -> write(process.getOutputStream(), stdin));
        Thread reader = Thread.ofVirtual().start(() -> copy(process.getInputStream(), out));
        Thread errors = Thread.ofVirtual().start(() -> copy(process.getErrorStream(), err));
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(
                        "espeak-ng took longer than " + timeout.toMillis() + " ms and was stopped");
            }
            writer.join();
            reader.join();
            errors.join();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while espeak-ng ran", e);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("espeak-ng failed (exit " + process.exitValue() + "): "
                    + err.toString(StandardCharsets.UTF_8).strip());
        }
        return out.toByteArray();
    }

    private static void write(OutputStream to, String text) {
        try (to) {
            to.write(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException ignored) {
            // The process ended early; its exit code tells why.
        }
    }

    private static void copy(InputStream from, ByteArrayOutputStream to) {
        try (from) {
            from.transferTo(to);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * 16-bit mono WAV to floats. Written to a pipe, the header's sizes are placeholders, so the data
     * runs from after the "data" tag to the end of the bytes.
     */
    static float[] wavToFloats(byte[] wav) {
        ByteBuffer b = ByteBuffer.wrap(wav).order(ByteOrder.LITTLE_ENDIAN);
        if (wav.length < 12 || b.getInt(0) != 0x46464952 || b.getInt(8) != 0x45564157) {
            throw new IllegalStateException("espeak-ng did not write a WAV file");
        }
        int at = 12;
        while (at + 8 <= wav.length) {
            int tag = b.getInt(at);
            int size = b.getInt(at + 4);
            if (tag == 0x20746d66) { // "fmt "
                int channels = b.getShort(at + 10);
                int rate = b.getInt(at + 12);
                int bits = b.getShort(at + 22);
                if (channels != 1 || rate != SAMPLE_RATE_HZ || bits != 16) {
                    throw new IllegalStateException("espeak-ng wrote " + channels + " ch " + rate + " Hz " + bits
                            + " bit; expected mono 22050 Hz 16 bit");
                }
            } else if (tag == 0x61746164) { // "data"
                int start = at + 8;
                float[] x = new float[(wav.length - start) / 2];
                for (int i = 0; i < x.length; i++) {
                    x[i] = b.getShort(start + 2 * i) / 32768f;
                }
                return x;
            }
            at += 8 + size + (size & 1);
        }
        throw new IllegalStateException("espeak-ng's WAV has no data");
    }
}
