package dev.scorecast.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.pipeline.Execution;
import dev.scorecast.engine.plan.EditorMarker;
import dev.scorecast.engine.plan.GenerationOptions;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanJson;
import dev.scorecast.engine.plan.PlanOptions;
import dev.scorecast.engine.plan.PlanValidator;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.engine.voice.speaking.NarratorSettings;
import dev.scorecast.server.execution.ExecutionService;
import dev.scorecast.server.execution.ExecutionService.ExecutionState;
import dev.scorecast.server.jobs.JobStatus;
import dev.scorecast.server.upload.Video;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What both variants share for generate and execute: the options, plan checks and status links. */
final class Scoring {
    private final GenreCatalog genres;
    private final ExecutionService executions;

    Scoring(GenreCatalog genres, ExecutionService executions) {
        this.genres = genres;
        this.executions = executions;
    }

    /** The generation options of DESIGN.md §5 from a request's fields (problems collected, not thrown). */
    GenerationOptions options(JsonFields fields) {
        boolean vocals = fields.optionalBoolean("with_vocals", false);
        boolean voiceover = fields.optionalBoolean("with_voiceover", false);
        boolean instrument = fields.optionalBoolean("with_instrument", false);
        String genre = fields.optionalString("genre");
        if (genre != null && genres.find(genre).isEmpty()) {
            fields.problem(
                    "genre",
                    "genre " + genre + " is not one of "
                            + String.join(
                                    ", ", genres.all().stream().map(g -> g.id()).toList())
                            + "; leave it out to have it chosen from the analysis.");
        }
        boolean originalAudio = fields.optionalBoolean("original_audio", false);
        boolean originalAudioVoiceover = fields.optionalBoolean("original_audio_voiceover", false);
        boolean ducking = !fields.optionalBoolean("no_ducking", false);
        boolean multitrack = fields.optionalBoolean("multitrack", true);
        Long seed = fields.optionalLong("seed");
        String script = fields.optionalString("voiceover_script");
        String voice = fields.optionalString("voiceover_voice");
        Long rate = fields.optionalLong("voiceover_rate");
        try {
            new NarratorSettings(
                    voice == null ? PlanOptions.DEFAULT_VOICE : voice,
                    rate == null
                            ? PlanOptions.DEFAULT_WORDS_PER_MINUTE
                            : (int) Math.clamp(rate, Integer.MIN_VALUE, Integer.MAX_VALUE),
                    50);
        } catch (InvalidParameter e) {
            fields.problem(e.field().equals("voice") ? "voiceover_voice" : "voiceover_rate", e.getMessage());
        }
        return GenerationOptions.DEFAULT
                .withVocals(vocals)
                .withVoiceover(voiceover)
                .withInstrument(instrument)
                .withGenre(genre)
                .withOriginalAudio(originalAudio)
                .withOriginalAudioVoiceover(originalAudioVoiceover)
                .withDucking(ducking)
                .withMultitrack(multitrack)
                .withSeed(seed)
                .withVoiceoverScript(script)
                .withVoiceoverVoice(voice)
                .withVoiceoverWordsPerMinute(rate == null ? null : (int) Math.clamp(rate, 0, 1000));
    }

    /**
     * The editor's markers of a request ({@code markers: [{time, kind}]}, docs/EDITING.md), problems
     * collected by path ({@code markers[2].kind}); empty when absent.
     */
    List<EditorMarker> markers(JsonFields fields) {
        JsonNode node = fields.optionalNode("markers");
        if (node == null) {
            return List.of();
        }
        if (!node.isArray()) {
            fields.problem(
                    "markers", "markers must be a list of {time, kind}, e.g. [{\"time\": 4.2, \"kind\": \"hit\"}].");
            return List.of();
        }
        if (node.size() > EditorMarker.MAX) {
            fields.problem(
                    "markers",
                    "markers holds " + node.size() + " markers; at most " + EditorMarker.MAX + " are accepted.");
            return List.of();
        }
        List<EditorMarker> out = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode m = node.get(i);
            String at = "markers[" + i + "]";
            if (m == null || !m.isObject()) {
                fields.problem(at, at + " must be an object {time, kind}.");
                continue;
            }
            JsonNode time = m.get("time");
            JsonNode kind = m.get("kind");
            if (time == null || !time.isNumber() || !Double.isFinite(time.asDouble())) {
                fields.problem(at + ".time", at + ".time must be seconds from the video's first frame, a number.");
            }
            var parsed = kind != null && kind.isTextual()
                    ? EditorMarker.Kind.parse(kind.asText())
                    : Optional.<EditorMarker.Kind>empty();
            if (parsed.isEmpty()) {
                fields.problem(at + ".kind", at + ".kind must be one of " + EditorMarker.Kind.names() + ".");
            }
            if (time != null && time.isNumber() && parsed.isPresent()) {
                out.add(new EditorMarker(time.asDouble(), parsed.get()));
            }
        }
        return out;
    }

    /** A plan a client sent (edited or not), parsed and checked field by field against the video. */
    Plan clientPlan(String json, Video video) {
        return PlanValidator.validate(PlanJson.parse(json), video.duration(), genres);
    }

    Plan clientPlan(JsonNode node, Video video) {
        return clientPlan(node.toString(), video);
    }

    /** The spec's url: the video once finished, the failure report after an error, null otherwise. */
    String url(ExecutionState state) {
        return switch (state.job().status()) {
            case FINISHED -> executions.linksFor(state.record()).get("video");
            case ERROR -> executions.failureLink(state.record());
            case PENDING, PROCESSING -> null;
        };
    }

    String queryUrl(ExecutionState state) {
        return state.job().status() == JobStatus.FINISHED
                ? executions.linksFor(state.record()).get("results")
                : null;
    }

    /** Links to a finished execution's outputs; no stems link when the plan asked for none (it would only answer 404). */
    Map<String, String> links(ExecutionState state) {
        if (state.job().status() != JobStatus.FINISHED) {
            return null;
        }
        Map<String, String> links = new LinkedHashMap<>(executions.linksFor(state.record()));
        if (executions.blobFor(state.record().id(), Execution.STEMS_ZIP).isEmpty()) {
            links.remove("stems");
        }
        return links;
    }

    /** The plan exactly as {@link PlanJson} writes it, for embedding in a response. */
    JsonNode planNode(Plan plan, ObjectMapper mapper) {
        try {
            return mapper.readTree(PlanJson.write(plan));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
