package dev.scorecast.engine.sampler;

import dev.scorecast.engine.core.AudioRate;
import dev.scorecast.engine.error.UnsupportedMedia;
import dev.scorecast.engine.io.Riff;
import dev.scorecast.engine.media.AudioExtractor;
import dev.scorecast.engine.media.AudioTrack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The samples of every sampled instrument of a process, each decoded once and kept as a 16-bit WAV
 * in a cache directory beside the sources, then memory-mapped: a sample costs the Java heap a few
 * dozen bytes however long it is, pages are read from disk when a voice first plays them, and every
 * sampler in the process (an offline render's groups, the live player's 48 streams) reads the same
 * mapping. Decoding is FFmpeg's (Ogg Vorbis, FLAC, WAV), to 48 kHz, so no voice resamples for the
 * rate; the cached file's name carries a hash of the source's path, size and modification time, so a
 * changed source is decoded anew. Thread-safe.
 */
public final class SampleStore {
    private final Path cache;
    private final ConcurrentHashMap<Path, Sample> samples = new ConcurrentHashMap<>();
    // Mappings live as long as the process: the store is one per node and samples are never unloaded.
    private final Arena arena = Arena.ofShared();

    /** A store whose decoded samples go to {@code cacheDir}. */
    public SampleStore(Path cacheDir) {
        this.cache = cacheDir.toAbsolutePath().normalize();
    }

    /** The sample decoded from {@code source}, decoding and caching it the first time any sampler asks. */
    Sample get(Path source) {
        Path key = source.toAbsolutePath().normalize();
        Sample s = samples.get(key);
        if (s != null) {
            return s;
        }
        return samples.computeIfAbsent(key, this::load);
    }

    /** Samples mapped so far. */
    public int size() {
        return samples.size();
    }

    /** Bytes of sample data mapped so far (off the heap). */
    public long mappedBytes() {
        return samples.values().stream()
                .mapToLong(s -> (long) s.frames * s.channels * 2)
                .sum();
    }

    private Sample load(Path source) {
        if (!Files.isRegularFile(source)) {
            throw new UnsupportedMedia(
                    "SCORECAST_INSTRUMENTS",
                    "the sample " + source + " is missing; run bin/scorecast serve or"
                            + " bin/test once (they install Scorecast's instrument sources)");
        }
        try {
            Path wav = cache.resolve(hash(source) + ".wav");
            if (!Files.isRegularFile(wav)) {
                Files.createDirectories(cache);
                Path part = Files.createTempFile(cache, wav.getFileName().toString(), ".part");
                try {
                    AudioTrack track = AudioExtractor.extractWav(source, part)
                            .orElseThrow(() -> new UnsupportedMedia("sample", source + " has no audio"));
                    if (track.sampleRate() != AudioRate.HZ) {
                        throw new UnsupportedMedia(
                                "sample", source + " decoded at " + track.sampleRate() + " Hz, not 48000");
                    }
                    Files.move(part, wav, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } finally {
                    Files.deleteIfExists(part);
                }
            }
            return map(source.getFileName().toString(), wav);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot decode the sample " + source, e);
        }
    }

    /** Maps the {@code data} chunk of a 16-bit PCM WAV. */
    private Sample map(String name, Path wav) throws IOException {
        try (FileChannel ch = FileChannel.open(wav, StandardOpenOption.READ)) {
            ByteBuffer head = Riff.read(ch, 0, 12);
            if (head == null
                    || !Riff.tag(head, 0).equals("RIFF")
                    || !Riff.tag(head, 8).equals("WAVE")) {
                throw new IOException(wav + " is not a WAV file");
            }
            long pos = 12;
            int channels = 0;
            int rate = 0;
            while (pos + 8 <= ch.size()) {
                ByteBuffer chunk = Riff.read(ch, pos, 8);
                long size = Integer.toUnsignedLong(
                        chunk.order(ByteOrder.LITTLE_ENDIAN).getInt(4));
                String tag = Riff.tag(chunk, 0);
                if (tag.equals("fmt ")) {
                    ByteBuffer fmt = Riff.read(ch, pos + 8, 16).order(ByteOrder.LITTLE_ENDIAN);
                    channels = fmt.getShort(2);
                    rate = fmt.getInt(4);
                    if (fmt.getShort(14) != 16) {
                        throw new IOException(wav + " is not 16-bit PCM");
                    }
                } else if (tag.equals("data")) {
                    long bytes = Math.min(size, ch.size() - pos - 8);
                    MemorySegment seg = ch.map(FileChannel.MapMode.READ_ONLY, pos + 8, bytes, arena);
                    return new Sample(name, seg, channels, rate);
                }
                pos += 8 + size + (size & 1);
            }
            throw new IOException(wav + " has no data chunk");
        }
    }

    private static String hash(Path source) throws IOException {
        try {
            String id = source + "|" + Files.size(source) + "|"
                    + Files.getLastModifiedTime(source).toMillis();
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8)), 0, 10);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
