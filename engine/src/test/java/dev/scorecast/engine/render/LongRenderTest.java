package dev.scorecast.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ten minutes, five stems, in a 64 MB heap: five stems of ten minutes in floats alone would be 1.15 GB. */
@Tag("slow")
class LongRenderTest {

    @Test
    void tenMinutesRenderAndMasterInASmallHeap(@TempDir Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(
                        java,
                        "-Xmx64m",
                        "--enable-native-access=ALL-UNNAMED",
                        "--add-exports",
                        "java.desktop/com.sun.media.sound=ALL-UNNAMED",
                        "-Djava.util.prefs.userRoot=" + dir.resolve("prefs"),
                        "-cp",
                        System.getProperty("java.class.path"),
                        RenderInSmallHeap.class.getName(),
                        dir.toString(),
                        "600")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(600, TimeUnit.SECONDS));
        System.out.println("-Xmx64m: " + out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("rendered 5 stems of 600 s"), out);
        assertTrue(out.contains("with a voiceover and 60 ducked lines"), out);
    }
}
