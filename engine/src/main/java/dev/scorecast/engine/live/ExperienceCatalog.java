package dev.scorecast.engine.live;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.scorecast.engine.error.NotFound;
import dev.scorecast.engine.io.Json;
import dev.scorecast.engine.style.GenreCatalog;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/** The experiences of {@code live/experiences.json}, each checked against the genre catalogue once at load. */
public final class ExperienceCatalog {
    private final List<Experience> experiences;

    private ExperienceCatalog(List<Experience> experiences) {
        this.experiences = List.copyOf(experiences);
    }

    public static ExperienceCatalog builtIn(GenreCatalog genres) {
        return load("/live/experiences.json", genres);
    }

    static ExperienceCatalog load(String resource, GenreCatalog genres) {
        try (InputStream in = ExperienceCatalog.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("live data " + resource + " is missing from the classpath");
            }
            File file = Json.mapper().readValue(in, File.class);
            for (Experience e : file.experiences()) {
                var genre = genres.find(e.genre())
                        .orElseThrow(() -> new IllegalStateException(
                                "experience " + e.id() + " names genre " + e.genre() + ", which the catalogue lacks"));
                if (e.tempo() < genre.tempoMinBpm() || e.tempo() > genre.tempoMaxBpm()) {
                    throw new IllegalStateException(
                            "experience " + e.id() + ": tempo " + e.tempo() + " is outside " + genre.tempo());
                }
            }
            return new ExperienceCatalog(file.experiences());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read live data " + resource, e);
        }
    }

    public List<Experience> all() {
        return experiences;
    }

    public Experience first() {
        return experiences.getFirst();
    }

    public Optional<Experience> find(String id) {
        return experiences.stream().filter(e -> e.id().equals(id)).findFirst();
    }

    /** The experience, or a 404 naming the ones there are. */
    public Experience require(String id) {
        return find(id).orElseThrow(() -> new NotFound(
                "experience_id",
                "No experience '" + id + "'; GET /player/genres lists the ids, e.g. "
                        + experiences.getFirst().id() + "."));
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    private record File(
            int version, @JsonProperty("experiences") List<RawExperience> raw) {
        List<Experience> experiences() {
            return raw.stream()
                    .map(r -> new Experience(
                            r.id,
                            r.name,
                            r.description,
                            r.genre,
                            r.tempo,
                            r.mood,
                            r.vocals,
                            r.intensity,
                            r.seed,
                            r.gainDb))
                    .toList();
        }
    }

    /** Read apart from {@link Experience} because the seed is data but is never shown to clients. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    private record RawExperience(
            String id,
            String name,
            String description,
            String genre,
            double tempo,
            String mood,
            boolean vocals,
            double intensity,
            long seed,
            @JsonProperty("gain_db") double gainDb) {}
}
