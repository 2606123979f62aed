package dev.scorecast.engine.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.UnsupportedMedia;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28, untrusted media: a container the service reads may carry any codec, and FFmpeg decoded
 * whatever it carried. Only the listed decoders are used now; a file of another codec is refused
 * naming it and the codecs that are accepted, while the usual ones still pass.
 */
class DecodersTest {
    private static final String PICTURE = "-f lavfi -i testsrc2=size=320x240:rate=25";
    private static final String TONE = "-f lavfi -i sine=frequency=440:sample_rate=44100";

    @TempDir
    static Path dir;

    @Test
    void aVideoOfAnUnlistedCodecIsRefusedNamingIt() {
        // QuickTime Animation in a QuickTime file: an accepted container, a decoder few uploads need.
        Path mov = TestVideos.make(dir, "qtrle.mov", PICTURE + " -t 1 -c:v qtrle");
        UnsupportedMedia e = assertThrows(UnsupportedMedia.class, () -> VideoProbe.probe(mov, MediaLimits.DEFAULT));
        assertEquals("file", e.field());
        assertTrue(e.getMessage().contains("qtrle") && e.getMessage().contains("h264"), e.getMessage());
    }

    @Test
    void audioOfAnUnlistedCodecIsNotDecoded() throws Exception {
        // A listed video with ADPCM sound: the video is accepted, the sound is not decoded (there is no audio to
        // extract).
        Path mkv = TestVideos.make(
                dir, "adpcm.mkv", PICTURE + " " + TONE + " -t 1 -c:v libx264 -pix_fmt yuv420p -c:a adpcm_ms");
        VideoInfo info = VideoProbe.probe(mkv, MediaLimits.DEFAULT);
        assertEquals("h264", info.videoCodec());
        assertTrue(!info.hasAudio(), "the ADPCM sound counts as none");
        assertEquals(Optional.empty(), AudioExtractor.extractWav(mkv, dir.resolve("adpcm.wav"), MediaLimits.DEFAULT));
    }

    @Test
    void theUsualCodecsPass() {
        Path mp4 =
                TestVideos.make(dir, "h264.mp4", PICTURE + " " + TONE + " -t 1 -c:v libx264 -pix_fmt yuv420p -c:a aac");
        Path webm = TestVideos.make(dir, "vp9.webm", PICTURE + " " + TONE + " -t 1 -c:v libvpx-vp9 -c:a libopus");
        assertEquals("h264", VideoProbe.probe(mp4, MediaLimits.DEFAULT).videoCodec());
        assertEquals("vp9", VideoProbe.probe(webm, MediaLimits.DEFAULT).videoCodec());
        assertTrue(Decoders.NAMES.contains("h264") && !Decoders.NAMES.contains("qtrle"), Decoders.NAMES);
    }
}
