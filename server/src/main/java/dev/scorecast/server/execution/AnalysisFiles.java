package dev.scorecast.server.execution;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.server.storage.BlobStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Analyses read back from their JSON: the server's own results by their key in the store, and
 * those clients send with a plan. Planning and execution jobs both read them, so neither needs the other.
 */
final class AnalysisFiles {
    private final BlobStore blobs;
    private final ObjectMapper mapper;

    AnalysisFiles(BlobStore blobs, ObjectMapper mapper) {
        this.blobs = blobs;
        this.mapper = mapper.copy().configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true);
    }

    /** The analysis stored under {@code key}. */
    Analysis stored(String key) {
        try (InputStream in = blobs.open(key)) {
            return read(in.readAllBytes(), "analysis");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An analysis from its JSON, refused as {@code field} when it is not one this version reads. */
    Analysis read(byte[] json, String field) {
        Analysis analysis;
        try {
            analysis = mapper.readValue(json, Analysis.class);
        } catch (JsonProcessingException e) {
            throw new InvalidParameter(
                    field,
                    "The analysis is not a valid analysis object (" + e.getOriginalMessage()
                            + "); send the analysis exactly as /sync_video_analysis returned it (docs/ANALYSIS.md).");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (analysis == null
                || analysis.version() != Analysis.VERSION
                || analysis.video() == null
                || analysis.cuts() == null
                || analysis.energy() == null
                || analysis.energy().values() == null) {
            throw new InvalidParameter(
                    field,
                    "The analysis must be version " + Analysis.VERSION
                            + " with video, cuts and energy; send it as /sync_video_analysis returned it.");
        }
        return analysis;
    }
}
