package dev.scorecast.engine.style;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.scorecast.engine.io.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Map.Entry;

/**
 * Each genre's {@link Production}, read once from {@code styles/production.json}: a {@code default}
 * block and, per genre, only what differs from it (merged key by key, parts group by group; a
 * part's {@code eq} list replaces the default's whole). A genre the file does not name is produced
 * by the default.
 */
public final class ProductionCatalog {
    private static final ProductionCatalog BUILT_IN = load("/styles/production.json");

    private final Production fallback;
    private final Map<String, Production> genres;

    private ProductionCatalog(Production fallback, Map<String, Production> genres) {
        this.fallback = fallback;
        this.genres = Map.copyOf(genres);
    }

    public static ProductionCatalog builtIn() {
        return BUILT_IN;
    }

    static ProductionCatalog load(String resource) {
        ObjectMapper mapper = Json.mapper();
        try (InputStream in = ProductionCatalog.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("style data " + resource + " is missing from the classpath");
            }
            JsonNode root = mapper.readTree(in);
            JsonNode base = root.get("default");
            if (base == null || !base.isObject()) {
                throw new IllegalStateException(resource + ": the default production is missing");
            }
            Production fallback = mapper.treeToValue(base, Production.class);
            Map<String, Production> genres = new LinkedHashMap<>();
            JsonNode list = root.path("genres");
            for (Iterator<Entry<String, JsonNode>> it = list.fields(); it.hasNext(); ) {
                Entry<String, JsonNode> e = it.next();
                ObjectNode merged = base.deepCopy();
                merge(merged, e.getValue());
                try {
                    genres.put(e.getKey(), mapper.treeToValue(merged, Production.class));
                } catch (IOException | IllegalArgumentException ex) {
                    throw new IllegalStateException(resource + ": genre " + e.getKey() + ": " + ex.getMessage(), ex);
                }
            }
            return new ProductionCatalog(fallback, genres);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read style data " + resource, e);
        }
    }

    /** Objects merge key by key; anything else (numbers, lists) replaces. */
    private static void merge(ObjectNode into, JsonNode from) {
        for (Iterator<Entry<String, JsonNode>> it = from.fields(); it.hasNext(); ) {
            Entry<String, JsonNode> e = it.next();
            JsonNode old = into.get(e.getKey());
            if (old instanceof ObjectNode o && e.getValue().isObject()) {
                merge(o, e.getValue());
            } else {
                into.set(e.getKey(), e.getValue().deepCopy());
            }
        }
    }

    /** The genre's production, or the default for a genre the file does not name. */
    public Production forGenre(String genre) {
        return genre == null ? fallback : genres.getOrDefault(genre, fallback);
    }

    /** The default production, for a mix that names no genre. */
    public Production fallback() {
        return fallback;
    }
}
