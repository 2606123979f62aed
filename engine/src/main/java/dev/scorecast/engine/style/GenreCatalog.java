package dev.scorecast.engine.style;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.scorecast.engine.io.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/** The genres the service offers, read once from the {@code styles/genres.json} resource. */
public final class GenreCatalog {
    private static final GenreCatalog BUILT_IN = load("/styles/genres.json");

    private final List<Genre> genres;

    private GenreCatalog(List<Genre> genres) {
        this.genres = List.copyOf(genres);
    }

    public static GenreCatalog builtIn() {
        return BUILT_IN;
    }

    static GenreCatalog load(String resource) {
        try (InputStream in = GenreCatalog.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("style data " + resource + " is missing from the classpath");
            }
            File file = Json.mapper().readValue(in, File.class);
            return new GenreCatalog(file.genres());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read style data " + resource, e);
        }
    }

    public List<Genre> all() {
        return genres;
    }

    public Optional<Genre> find(String id) {
        return genres.stream().filter(g -> g.id().equals(id)).findFirst();
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    private record File(int version, List<Genre> genres) {}
}
