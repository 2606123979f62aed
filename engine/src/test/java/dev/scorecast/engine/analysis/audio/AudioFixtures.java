package dev.scorecast.engine.analysis.audio;

import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.io.WavEncoding;
import dev.scorecast.engine.io.WavFiles;
import dev.scorecast.engine.io.WavWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Sound fixtures made at test time (Java, ffmpeg CLI, espeak-ng), so no audio sits in git. */
public final class AudioFixtures {

    private static final long TIMEOUT_SECONDS = 600;
    private static final Pattern INTEGRATED = Pattern.compile("I:\\s+(-?[0-9.]+|-inf) LUFS");
    private static final Pattern PEAK = Pattern.compile("Peak:\\s+(-?[0-9.]+|-inf) dBFS");

    private AudioFixtures() {}

    /** Runs {@code ffmpeg <args> out}, overwriting {@code out}. */
    public static Path ffmpeg(Path out, String... args) {
        List<String> cmd = new ArrayList<>(List.of("ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"));
        cmd.addAll(Arrays.asList(args));
        cmd.add(out.toString());
        run(cmd);
        return out;
    }

    /** A 48 kHz 16-bit stereo WAV, as {@code AudioExtractor} writes, from an ffmpeg filter graph source. */
    public static Path lavfi(Path out, String source, double seconds) {
        return ffmpeg(
                out,
                "-f",
                "lavfi",
                "-i",
                source,
                "-t",
                Double.toString(seconds),
                "-ar",
                "48000",
                "-ac",
                "2",
                "-c:a",
                "pcm_s16le");
    }

    /** espeak-ng's rendering of {@code text} (22.05 kHz mono WAV). */
    public static Path speak(Path out, String voice, String text) {
        run(List.of("espeak-ng", "-v", voice, "-w", out.toString(), text));
        return out;
    }

    /** Where a clean recording is audible: the first and last sample above -50 dBFS. */
    public static Span audibleExtent(Path wav) {
        WavFiles.Sound sound = WavFiles.read(wav);
        float[][] all = sound.stereo();
        double limit = Math.pow(10, -50 / 20.0);
        int first = -1;
        int last = -1;
        for (int i = 0; i < all[0].length; i++) {
            for (float[] channel : all) {
                if (Math.abs(channel[i]) > limit) {
                    first = first < 0 ? i : first;
                    last = i;
                }
            }
        }
        return new Span(first / (double) sound.rateHz(), (last + 1) / (double) sound.rateHz());
    }

    /** Writes 16-bit PCM (rounded, clipped), one array per channel. */
    public static Path write(Path out, int sampleRateHz, float[]... channels) {
        int frames = channels[0].length;
        ByteBuffer b = ByteBuffer.allocate(frames * channels.length * 2).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < frames; i++) {
            for (float[] channel : channels) {
                b.putShort((short) Math.clamp(Math.round(channel[i] * 32768.0), -32768, 32767));
            }
        }
        try (WavWriter w = WavWriter.create(out, WavEncoding.PCM16, sampleRateHz, channels.length)) {
            w.write(b.flip());
            w.commit();
        }
        return out;
    }

    /** FFmpeg's own EBU R128 reading of a file: integrated LUFS (null for its -70 "nothing") and true peak. */
    public record Ebur128(Double integratedLufs, double truePeakDbtp) {}

    public static Ebur128 ebur128(Path wav) {
        String log = run(List.of(
                "ffmpeg",
                "-nostdin",
                "-hide_banner",
                "-nostats",
                "-i",
                wav.toString(),
                "-af",
                "ebur128=peak=true",
                "-f",
                "null",
                "-"));
        String summary = log.substring(log.lastIndexOf("Summary:"));
        Matcher i = INTEGRATED.matcher(summary);
        Matcher p = PEAK.matcher(summary);
        if (!i.find() || !p.find()) {
            throw new IllegalStateException("no ebur128 summary in:\n" + summary);
        }
        double integrated = number(i.group(1));
        return new Ebur128(integrated <= -70 ? null : integrated, number(p.group(1)));
    }

    private static double number(String text) {
        return text.equals("-inf") ? Double.NEGATIVE_INFINITY : Double.parseDouble(text);
    }

    /** Runs a command, returning its combined output; fails with that output when it fails. */
    public static String run(List<String> cmd) {
        try {
            Path log = Files.createTempFile("fixture", ".log");
            try {
                Process p = new ProcessBuilder(cmd)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
                if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IllegalStateException("timed out: " + cmd);
                }
                String output = Files.readString(log);
                if (p.exitValue() != 0) {
                    throw new IllegalStateException("failed (" + p.exitValue() + "): " + cmd + "\n" + output);
                }
                return output;
            } finally {
                Files.deleteIfExists(log);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
