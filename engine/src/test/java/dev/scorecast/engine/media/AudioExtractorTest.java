package dev.scorecast.engine.media;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.UnsupportedMedia;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioSystem;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AudioExtractorTest {

    private static final String PICTURE = "-f lavfi -i testsrc2=size=160x120:rate=25";

    @TempDir
    static Path dir;

    @Test
    void aacMonoBecomes48kHzStereoOfTheSameLength() throws Exception {
        Path video = TestVideos.make(
                dir,
                "mono.mp4",
                PICTURE
                        + " -f lavfi -i sine=frequency=440:sample_rate=44100 -t 2 -c:v libx264 -pix_fmt yuv420p -c:a aac");
        AudioTrack track = extract(video, "mono.wav");

        assertEquals(48_000, track.sampleRate());
        assertEquals(2, track.channels());
        assertEquals(0, track.skippedPackets());
        assertEquals(2.0, track.duration(), 0.05);
        assertWavHeader(track);

        short[][] channels = read(track);
        assertArrayEquals(channels[0], channels[1], "a mono source is copied to both channels");
        assertEquals(440, frequency(channels[0]), 440 * 0.02);
        // Copied at full level, not lowered by 3 dB: the sine generator peaks at 1/8 of full scale.
        assertEquals(32768 / 8.0, peak(channels[0]), 32768 / 8.0 * 0.1);
    }

    @Test
    void stereoChannelsStaySeparate() throws Exception {
        Path video = TestVideos.make(
                dir,
                "stereo.mkv",
                PICTURE + " -f lavfi -i aevalsrc=0.5*sin(440*2*PI*t)|0.5*sin(660*2*PI*t):s=44100:c=stereo -t 1.5 "
                        + "-c:v libx264 -pix_fmt yuv420p -c:a aac");
        AudioTrack track = extract(video, "stereo.wav");
        short[][] channels = read(track);
        assertEquals(440, frequency(channels[0]), 440 * 0.02);
        assertEquals(660, frequency(channels[1]), 660 * 0.02);
        assertEquals(1.5, track.duration(), 0.05);
    }

    @Test
    void surroundIsDownmixedToTwoChannels() throws Exception {
        String six =
                "0.3*sin(440*2*PI*t)|0.3*sin(440*2*PI*t)|0.3*sin(440*2*PI*t)|0|0.3*sin(440*2*PI*t)|0.3*sin(440*2*PI*t)";
        Path video = TestVideos.make(
                dir,
                "surround.mp4",
                PICTURE + " -f lavfi -i aevalsrc=" + six
                        + ":s=48000:c=5.1 -t 1 -c:v libx264 -pix_fmt yuv420p -c:a aac");
        AudioTrack track = extract(video, "surround.wav");
        assertEquals(2, track.channels());
        short[][] channels = read(track);
        assertEquals(440, frequency(channels[0]), 440 * 0.02);
        assertEquals(440, frequency(channels[1]), 440 * 0.02);
        assertEquals(1.0, track.duration(), 0.05);
    }

    @Test
    void opusInWebm() throws Exception {
        Path video = TestVideos.make(
                dir,
                "opus.webm",
                PICTURE + " -f lavfi -i sine=frequency=1000:sample_rate=48000 -t 1 "
                        + "-c:v libvpx-vp9 -deadline realtime -cpu-used 8 -c:a libopus");
        AudioTrack track = extract(video, "opus.wav");
        assertEquals(1.0, track.duration(), 0.05);
        assertEquals(1000, frequency(read(track)[0]), 1000 * 0.02);
    }

    @Test
    void videoWithoutAudioGivesNothing() throws Exception {
        Path video = TestVideos.make(dir, "silent.mp4", PICTURE + " -t 1 -c:v libx264 -pix_fmt yuv420p");
        Path out = Files.createDirectories(dir.resolve("silent-out")).resolve("audio.wav");
        assertEquals(Optional.empty(), AudioExtractor.extractWav(video, out));
        assertFalse(Files.exists(out));
        assertEquals(List.of(), listing(out.getParent()), "no temporary file is left behind");
    }

    @Test
    void decodingStopsAtTheDurationLimitInsteadOfWritingEverything() throws Exception {
        // The stop that keeps a small file of tiny packets from decoding to gigabytes: here the cap
        // is the limit's 2 s against 6 s of sound, so the output must stop near 2 s.
        Path video = TestVideos.make(
                dir,
                "long-sound.mp4",
                PICTURE
                        + " -f lavfi -i sine=frequency=440:sample_rate=48000 -t 6 -c:v libx264 -pix_fmt yuv420p -c:a aac");
        var limits = new MediaLimits(8192, 8192, Duration.ofSeconds(2), 16);
        AudioTrack track = AudioExtractor.extractWav(video, dir.resolve("capped.wav"), limits)
                .orElseThrow();
        assertTrue(track.duration() >= 2.0 && track.duration() < 2.1, "stopped at the cap: " + track.duration() + " s");
        AudioTrack whole =
                AudioExtractor.extractWav(video, dir.resolve("whole.wav")).orElseThrow();
        assertTrue(whole.duration() > 5.9, "uncapped: " + whole.duration() + " s");
    }

    @Test
    void replacesAnExistingFileAndLeavesNoTemporaryFile() throws Exception {
        Path video = TestVideos.make(
                dir,
                "replace.mp4",
                PICTURE
                        + " -f lavfi -i sine=frequency=440:sample_rate=48000 -t 1 -c:v libx264 -pix_fmt yuv420p -c:a aac");
        Path out = Files.createDirectories(dir.resolve("replace-out")).resolve("audio.wav");
        Files.writeString(out, "old");
        AudioTrack track = AudioExtractor.extractWav(video, out).orElseThrow();
        assertWavHeader(track);
        assertEquals(List.of(out), listing(out.getParent()));
    }

    @Test
    void corruptPacketsAreSkippedAndReplacedBySilence() throws Exception {
        // In MP4 a packet's position is its payload (the framing lives in moov), so the garbage
        // reaches the AAC decoder intact.
        Path damaged = damage("payload", "mp4");
        AudioTrack clean = extract(dir.resolve("payload-clean.mp4"), "undamaged.wav");
        AudioTrack track = extract(damaged, "damaged.wav");
        assertEquals(10, track.skippedPackets());
        // The ffmpeg CLI drops the ten packets (0.23 s) and the rest of the track comes early.
        assertEquals(clean.frames(), track.frames(), 48, "skipped packets are replaced by silence of the same length");
        // In step after the damage: the last half second matches the undamaged track. One sample
        // out of step would differ by about 235 (a 440 Hz sine of peak 4096 at 48 kHz); what is
        // left is the resampler's rounding of the injected silence's phase.
        short[] expected = read(clean)[0];
        short[] actual = read(track)[0];
        int worst = 0;
        for (int i = actual.length - 24_000; i < actual.length; i++) {
            worst = Math.max(worst, Math.abs(actual[i] - expected[i]));
        }
        assertTrue(worst <= 20, "largest difference " + worst);
    }

    @Test
    void damagedContainerEndsTheTrackWhereItBreaks() throws Exception {
        // In Matroska a packet's position is its block header: the garbage breaks the framing, the
        // demuxer gives up there, and, as with the ffmpeg CLI, the audio before it is kept.
        AudioTrack track = extract(damage("framing", "mkv"), "framing.wav");
        assertTrue(track.duration() > 1.0 && track.duration() < 2.9, "duration " + track.duration());
    }

    /** A 3 s video whose middle ten audio packets are overwritten with random bytes. */
    private static Path damage(String name, String extension) throws IOException {
        Path clean = TestVideos.make(
                dir,
                name + "-clean." + extension,
                PICTURE
                        + " -f lavfi -i sine=frequency=440:sample_rate=44100 -t 3 -c:v libx264 -pix_fmt yuv420p -c:a aac");
        Path damaged = Files.copy(clean, dir.resolve(name + "-damaged." + extension));
        List<long[]> packets = TestVideos.audioPackets(clean);
        Random random = new Random(3);
        try (RandomAccessFile file = new RandomAccessFile(damaged.toFile(), "rw")) {
            for (long[] packet : packets.subList(packets.size() / 2, packets.size() / 2 + 10)) {
                byte[] garbage = new byte[(int) packet[1]];
                random.nextBytes(garbage);
                file.seek(packet[0]);
                file.write(garbage);
            }
        }
        return damaged;
    }

    @Test
    void randomBytesAreRefused() throws Exception {
        Path noise = TestVideos.randomBytes(dir, "noise.mp4", 16 * 1024, 5);
        Path out = dir.resolve("noise.wav");
        UnsupportedMedia e = assertThrows(UnsupportedMedia.class, () -> AudioExtractor.extractWav(noise, out));
        assertEquals("file", e.field());
        assertFalse(Files.exists(out));
    }

    /** A wall-clock bound (10 s for a minute): tagged slow like the half hour below; the other tests check what is extracted. */
    @Test
    @Tag("slow")
    void sixtySecondsExtractQuickly() throws Exception {
        Path video = TestVideos.make(
                dir,
                "minute.mp4",
                "-f lavfi -i testsrc2=size=1280x720:rate=30 -f lavfi -i sine=frequency=440:sample_rate=44100 -t 60 "
                        + "-c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac");
        long start = System.nanoTime();
        AudioTrack track = extract(video, "minute.wav");
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("extracted 60 s of AAC from 720p H.264 in %.2f s%n", seconds);
        assertEquals(60.0, track.duration(), 0.05);
        assertTrue(seconds < 10, "took " + seconds + " s");
    }

    @Test
    @Tag("slow")
    void halfAnHourExtractsInSeconds() throws Exception {
        Path video = TestVideos.make(
                dir,
                "half-hour.mp4",
                "-f lavfi -i color=size=64x64:rate=5 -f lavfi -i sine=frequency=440:sample_rate=44100 -t 1800 "
                        + "-c:v libx264 -preset ultrafast -c:a aac");
        long start = System.nanoTime();
        AudioTrack track = extract(video, "half-hour.wav");
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("extracted 30 min of AAC in %.2f s%n", seconds);
        assertEquals(1800.0, track.duration(), 0.05);
        assertTrue(seconds < 60, "took " + seconds + " s");
    }

    private static AudioTrack extract(Path video, String wavName) {
        Path out = dir.resolve(wavName);
        AudioTrack track = AudioExtractor.extractWav(video, out).orElseThrow();
        assertEquals(out, track.wav());
        return track;
    }

    private static void assertWavHeader(AudioTrack track) throws Exception {
        AudioFileFormat file = AudioSystem.getAudioFileFormat(track.wav().toFile());
        assertEquals(AudioFileFormat.Type.WAVE, file.getType());
        AudioFormat format = file.getFormat();
        assertEquals(AudioFormat.Encoding.PCM_SIGNED, format.getEncoding());
        assertEquals(48_000f, format.getSampleRate());
        assertEquals(16, format.getSampleSizeInBits());
        assertEquals(2, format.getChannels());
        assertFalse(format.isBigEndian());
        assertEquals(track.frames(), file.getFrameLength());
        assertEquals(44 + track.frames() * 4, Files.size(track.wav()));
    }

    /** The samples of each channel, read straight from the data chunk after the 44-byte header. */
    private static short[][] read(AudioTrack track) throws IOException {
        ByteBuffer data = ByteBuffer.wrap(Files.readAllBytes(track.wav()))
                .order(ByteOrder.LITTLE_ENDIAN)
                .position(44);
        int frames = data.remaining() / 4;
        short[][] channels = new short[2][frames];
        for (int i = 0; i < frames; i++) {
            channels[0][i] = data.getShort();
            channels[1][i] = data.getShort();
        }
        return channels;
    }

    /** Frequency from upward zero crossings over the middle of the signal, away from any fade. */
    private static double frequency(short[] samples) {
        int from = samples.length / 10;
        int to = samples.length - from;
        int crossings = 0;
        for (int i = from + 1; i < to; i++) {
            if (samples[i - 1] < 0 && samples[i] >= 0) {
                crossings++;
            }
        }
        return crossings / ((to - from) / 48_000.0);
    }

    private static double peak(short[] samples) {
        int peak = 0;
        for (int i = samples.length / 10; i < samples.length * 9 / 10; i++) {
            peak = Math.max(peak, Math.abs(samples[i]));
        }
        return peak;
    }

    private static List<Path> listing(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.toList();
        }
    }
}
