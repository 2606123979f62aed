package dev.scorecast.engine.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.ScorecastException;
import dev.scorecast.engine.error.Unprocessable;
import dev.scorecast.engine.error.UnsupportedMedia;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VideoProbeTest {

    private static final String PICTURE = "-f lavfi -i testsrc2=size=320x240:rate=25";
    private static final String TONE = "-f lavfi -i sine=frequency=440:sample_rate=44100";

    @TempDir
    static Path dir;

    private static Path mp4;

    @BeforeAll
    static void fixtures() {
        mp4 = TestVideos.make(
                dir, "h264-aac.mp4", PICTURE + " " + TONE + " -t 2 -c:v libx264 -pix_fmt yuv420p -c:a aac");
    }

    private static VideoInfo probe(Path file) {
        return VideoProbe.probe(file, MediaLimits.DEFAULT);
    }

    private static <T extends ScorecastException> T refused(Class<T> kind, Path file, String... words) {
        T e = assertThrows(kind, () -> probe(file));
        assertEquals("file", e.field());
        String message = e.getMessage().toLowerCase(Locale.ROOT);
        for (String word : words) {
            assertTrue(
                    message.contains(word.toLowerCase(Locale.ROOT)),
                    () -> "\"" + e.getMessage() + "\" lacks \"" + word + "\"");
        }
        return e;
    }

    @Test
    void h264AacMp4() {
        VideoInfo info = probe(mp4);
        assertEquals("mp4", info.container());
        assertEquals("h264", info.videoCodec());
        assertEquals(320, info.width());
        assertEquals(240, info.height());
        assertEquals(25.0, info.fps(), 1e-9);
        assertEquals(2.0, info.duration(), 0.1);
        assertEquals(50, info.frames());
        assertEquals(0, info.rotation());
        assertTrue(info.hasAudio());
        assertEquals("aac", info.audioCodec());
        assertEquals(1, info.audioChannels());
        assertEquals(44100, info.audioSampleRate());
    }

    @Test
    void vp9OpusWebm() {
        Path webm = TestVideos.make(
                dir,
                "vp9-opus.webm",
                PICTURE + " " + TONE + " -t 1 -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 200k -c:a libopus");
        VideoInfo info = probe(webm);
        assertEquals("webm", info.container());
        assertEquals("vp9", info.videoCodec());
        assertEquals("opus", info.audioCodec());
        assertEquals(48000, info.audioSampleRate());
        assertEquals(25.0, info.fps(), 1e-9);
        assertEquals(1.0, info.duration(), 0.1);
    }

    @Test
    void mpeg4InMov() {
        Path mov = TestVideos.make(dir, "mpeg4.mov", PICTURE + " " + TONE + " -t 1 -c:v mpeg4 -c:a pcm_s16le");
        VideoInfo info = probe(mov);
        assertEquals("mov", info.container());
        assertEquals("mpeg4", info.videoCodec());
        assertEquals("pcm_s16le", info.audioCodec());
    }

    @Test
    void h264FlacMkv() {
        Path mkv = TestVideos.make(
                dir, "h264-flac.mkv", PICTURE + " " + TONE + " -t 1 -c:v libx264 -pix_fmt yuv420p -c:a flac");
        VideoInfo info = probe(mkv);
        assertEquals("matroska", info.container());
        assertEquals("h264", info.videoCodec());
        assertEquals("flac", info.audioCodec());
        assertEquals(25, info.frames()); // Matroska has no frame count: estimated from duration and rate
    }

    @Test
    void mp4WithoutAudio() {
        Path silent = TestVideos.make(dir, "no-audio.mp4", PICTURE + " -t 1 -c:v libx264 -pix_fmt yuv420p");
        VideoInfo info = probe(silent);
        assertFalse(info.hasAudio());
        assertNull(info.audioCodec());
        assertEquals(0, info.audioChannels());
        assertEquals(0, info.audioSampleRate());
    }

    @Test
    void rotationFromDisplayMatrix() {
        // Debian's ffmpeg 5.1 has no -display_rotation, but its mov muxer still turns the legacy
        // "rotate" tag into a display matrix. It writes "rotate=90" as a quarter turn
        // counter-clockwise (checked: its own autorotate moves the picture's left edge to the
        // bottom), i.e. 270 degrees clockwise in VideoInfo's convention.
        Path upright = TestVideos.make(dir, "upright.mp4", PICTURE + " -t 1 -c:v libx264 -pix_fmt yuv420p");
        Path counterClockwise =
                TestVideos.make(dir, "rotate90.mp4", "-i " + upright + " -c copy -metadata:s:v:0 rotate=90");
        Path clockwise = TestVideos.make(dir, "rotate270.mp4", "-i " + upright + " -c copy -metadata:s:v:0 rotate=270");
        Path halfTurn = TestVideos.make(dir, "rotate180.mp4", "-i " + upright + " -c copy -metadata:s:v:0 rotate=180");

        VideoInfo turned = probe(counterClockwise);
        assertEquals(270, turned.rotation());
        assertEquals(320, turned.width());
        assertEquals(240, turned.displayWidth());
        assertEquals(320, turned.displayHeight());
        assertEquals(90, probe(clockwise).rotation());
        assertEquals(180, probe(halfTurn).rotation());
        assertEquals(0, probe(upright).rotation());
    }

    @Test
    void randomBytesAreNotMedia() throws Exception {
        refused(UnsupportedMedia.class, TestVideos.randomBytes(dir, "noise.mp4", 64 * 1024, 1), "not a video");
    }

    @Test
    void emptyFileIsNotMedia() throws Exception {
        refused(UnsupportedMedia.class, Files.createFile(dir.resolve("empty.mp4")), "not a video");
    }

    @Test
    void truncatedMp4() throws Exception {
        refused(UnsupportedMedia.class, TestVideos.firstBytes(mp4, dir, "truncated.mp4", 2048), "truncated");
    }

    @Test
    void pngIsAnImage() {
        Path png = TestVideos.make(dir, "picture.png", PICTURE + " -frames:v 1");
        refused(UnsupportedMedia.class, png, "image", "upload a video");
    }

    @Test
    void jpegIsAnImage() {
        Path jpeg = TestVideos.make(dir, "picture.jpg", PICTURE + " -frames:v 1");
        refused(UnsupportedMedia.class, jpeg, "image");
    }

    @Test
    void animatedGifIsAnImage() {
        Path gif = TestVideos.make(dir, "animated.gif", PICTURE + " -t 1");
        refused(UnsupportedMedia.class, gif, "image");
    }

    @Test
    void singlePictureInAVideoContainerIsAnImage() {
        Path mkv = TestVideos.make(dir, "png-in.mkv", PICTURE + " -frames:v 1 -c:v png");
        refused(UnsupportedMedia.class, mkv, "single picture", "png");
    }

    @Test
    void audioOnlyM4a() {
        Path m4a = TestVideos.make(dir, "tone.m4a", TONE + " -t 1 -c:a aac");
        refused(UnsupportedMedia.class, m4a, "no video stream", "only audio");
    }

    @Test
    void audioOnlyWav() {
        Path wav = TestVideos.make(dir, "tone.wav", TONE + " -t 1");
        refused(UnsupportedMedia.class, wav, "no video stream");
    }

    @Test
    void coverArtIsNotAVideoStream() {
        Path png = TestVideos.make(dir, "cover.png", PICTURE + " -frames:v 1");
        Path m4a = TestVideos.make(
                dir,
                "with-cover.m4a",
                TONE + " -i " + png + " -t 1 -map 0:a -map 1:v -c:a aac -c:v png -disposition:v:0 attached_pic");
        refused(UnsupportedMedia.class, m4a, "no video stream");
    }

    @Test
    void hlsPlaylistIsRefusedWithoutOpeningWhatItNames() throws Exception {
        // The segment is a FIFO with no writer: if FFmpeg tried to read it, open() would block and
        // the timeout below would fail the test.
        Path segment = dir.resolve("secret.ts");
        TestVideos.run(List.of("mkfifo", segment.toString()));
        Path playlist = Files.writeString(dir.resolve("index.m3u8"), """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-TARGETDURATION:2
                #EXT-X-MEDIA-SEQUENCE:0
                #EXTINF:2.0,
                %s
                #EXT-X-ENDLIST
                """.formatted(segment));
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> refused(UnsupportedMedia.class, playlist, "playlist"));
    }

    @Test
    void concatListIsRefused() throws Exception {
        Path list = Files.writeString(dir.resolve("list.txt"), "ffconcat version 1.0\nfile '" + mp4 + "'\n");
        refused(UnsupportedMedia.class, list, "playlist");
    }

    @Test
    void pictureLargerThanTheLimit() {
        MediaLimits small = new MediaLimits(100, 100, Duration.ofMinutes(30), 16);
        Unprocessable e = assertThrows(Unprocessable.class, () -> VideoProbe.probe(mp4, small));
        assertEquals("file", e.field());
        assertTrue(e.getMessage().contains("320x240"), e.getMessage());
        assertTrue(e.getMessage().contains("100x100"), e.getMessage());
    }

    @Test
    void longerThanTheLimit() {
        MediaLimits short_ = new MediaLimits(8192, 8192, Duration.ofSeconds(1), 16);
        Unprocessable e = assertThrows(Unprocessable.class, () -> VideoProbe.probe(mp4, short_));
        assertTrue(e.getMessage().contains("longer than the limit"), e.getMessage());
    }

    @Test
    void moreStreamsThanTheLimit() {
        MediaLimits one = new MediaLimits(8192, 8192, Duration.ofMinutes(30), 1);
        Unprocessable e = assertThrows(Unprocessable.class, () -> VideoProbe.probe(mp4, one));
        assertTrue(e.getMessage().contains("2 streams"), e.getMessage());
    }

    @Test
    void manyProbesAtOnceOnVirtualThreads() throws Exception {
        VideoInfo expected = probe(mp4);
        Path noise = TestVideos.randomBytes(dir, "noise-concurrent.bin", 32 * 1024, 7);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<VideoInfo>> good = new ArrayList<>();
            List<Future<VideoInfo>> bad = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                good.add(pool.submit(() -> probe(mp4)));
                bad.add(pool.submit(() -> probe(noise)));
            }
            for (Future<VideoInfo> f : good) {
                assertEquals(expected, f.get());
            }
            for (Future<VideoInfo> f : bad) {
                Exception e = assertThrows(Exception.class, f::get);
                assertTrue(e.getCause() instanceof UnsupportedMedia, e.toString());
            }
        }
    }
}
