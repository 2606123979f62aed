package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.sound.midi.MetaMessage;
import javax.sound.midi.MidiSystem;
import javax.sound.midi.Sequence;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Steps five to seven of both variants through HTTP: generate, execute, status and the outputs, on a video with known cuts. */
class ScoringFlowTest {
    @TempDir
    static Path data;

    @TempDir
    static Path downloads;

    static TestServer server;
    /** Answers held to /openapi.json, the signed downloads' included (CheckedHttpClient). */
    static final HttpClient CLIENT = CheckedHttpClient.newClient();

    @BeforeAll
    static void start() {
        server = TestServer.start(data);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static String analysedA(Api api) throws InterruptedException {
        Api.Response done = Uploads.uploadA(api, Videos.fourScenes(), "video/mp4", 2);
        Api.Response started = api.postJson(
                "/sync/video_analysis",
                Map.of("video_id", done.body().get("video_id").asText()));
        JsonNode status =
                AnalysisFlowTest.awaitJob(api, started.body().get("job_id").asText());
        assertEquals("finished", status.get("status").asText(), status::toString);
        return started.body().get("analysis_id").asText();
    }

    /** Polls until an execution is done; executions take seconds, so this waits up to three minutes. */
    static JsonNode awaitExecution(Api api, String path, Map<String, String> body) throws InterruptedException {
        for (int i = 0; i < 1800; i++) {
            Api.Response r = api.postJson(path, body);
            assertEquals(200, r.status(), r::toString);
            String status = r.body().get("status").asText();
            if (!status.equals("pending") && !status.equals("processing")) {
                return r.body();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("execution did not finish in 180 s");
    }

    static byte[] fetch(String url) throws Exception {
        HttpResponse<byte[]> r =
                CLIENT.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode(), url + " answered " + r.statusCode() + ": " + new String(r.body()));
        return r.body();
    }

    static String ffmpeg(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    @Test
    void variantAGeneratesExecutesAndDeliversEveryOutput() throws Exception {
        Api api = server.alice();
        String analysisId = analysedA(api);

        Api.Response generated =
                api.postJson("/sync/generate", Map.of("analysis_id", analysisId, "genre", "house", "seed", 7));
        assertEquals(200, generated.status(), generated::toString);
        String planId = generated.body().get("plan_id").asText();
        JsonNode plan = generated.body().get("plan");
        assertEquals("house", plan.get("genre").asText());
        JsonNode sections = plan.get("sections");
        assertTrue(sections.size() >= 2, "sections " + sections);
        assertEquals(0.0, sections.get(0).get("start").asDouble(), 1e-9);
        for (JsonNode section : sections) {
            double start = section.get("start").asDouble();
            boolean onACut =
                    List.of(0.0, 4.0, 8.0, 12.0).stream().anyMatch(cut -> Math.abs(cut - start) <= 0.04 + 1e-9);
            assertTrue(onACut, "section starts at " + start + ", not on a cut");
            assertTrue(Math.abs(section.get("residual").asDouble()) <= 0.04, "residual " + section);
        }

        Api.Response executed = api.postJson("/sync/execute", Map.of("plan_id", planId));
        assertEquals(200, executed.status(), executed::toString);
        JsonNode status = awaitExecution(
                api,
                "/sync/status",
                Map.of("job_id", executed.body().get("job_id").asText()));
        assertEquals("finished", status.get("status").asText(), status::toString);
        assertEquals("execution", status.get("kind").asText());

        JsonNode results = Api.JSON.readTree(fetch(status.get("queryurl").asText()));
        assertEquals(-14, results.at("/loudness/integrated_lufs").asDouble(), 1.0, results::toString);
        assertTrue(results.at("/loudness/true_peak_dbtp").asDouble() <= -1.0 + 0.05, results::toString);
        assertTrue(results.at("/sync/accents").asInt() >= sections.size() - 1, results::toString);
        assertTrue(
                results.at("/sync/all_within_frame").asBoolean(),
                "every accent within one frame: " + results.get("sync"));

        Path video =
                Files.write(downloads.resolve("a.mp4"), fetch(status.get("url").asText()));
        assertEquals(
                ffmpeg("-i", Videos.fourScenes().toString(), "-map", "0:v", "-c", "copy", "-f", "md5", "-"),
                ffmpeg("-i", video.toString(), "-map", "0:v", "-c", "copy", "-f", "md5", "-"),
                "video stream copied bit for bit");
        String audio = probe(video, "a:0", "codec_name,sample_rate,channels");
        assertEquals("aac,48000,2", audio.strip());

        Sequence midi = MidiSystem.getSequence(
                new ByteArrayInputStream(fetch(status.at("/links/midi").asText())));
        assertTrue(midi.getTracks().length >= 3, "a conductor track and one per group");
        int stems = 0;
        try (var zip = new ZipInputStream(
                new ByteArrayInputStream(fetch(status.at("/links/stems").asText())))) {
            for (ZipEntry e; (e = zip.getNextEntry()) != null; ) {
                assertTrue(zip.readAllBytes().length > 48_000 * 4, e.getName() + " is not empty");
                stems++;
            }
        }
        assertTrue(stems >= 3, "stems " + stems);

        // The same plan again gives byte-identical audio.
        Api.Response again = api.postJson("/sync/execute", Map.of("plan_id", planId));
        JsonNode second = awaitExecution(
                api, "/sync/status", Map.of("job_id", again.body().get("job_id").asText()));
        assertEquals(
                Uploads.sha256(fetch(status.at("/links/audio_wav").asText())),
                Uploads.sha256(fetch(second.at("/links/audio_wav").asText())),
                "same seed, same audio");

        // Links are signed: a tampered one is 404, and another user cannot use the plan.
        String tampered = status.get("url").asText().replace("signature=", "signature=x");
        assertEquals(
                404,
                CLIENT.send(
                                HttpRequest.newBuilder(URI.create(tampered)).build(),
                                HttpResponse.BodyHandlers.discarding())
                        .statusCode());
        assertEquals(
                404,
                server.bob()
                        .postJson("/sync/execute", Map.of("plan_id", planId))
                        .status());
    }

    @Test
    void anEditedPlanIsHonouredAndABrokenOneIsRefusedByField() throws Exception {
        Api api = server.alice();
        String analysisId = analysedA(api);
        Api.Response generated =
                api.postJson("/sync/generate", Map.of("analysis_id", analysisId, "genre", "rock", "seed", 3));
        String planId = generated.body().get("plan_id").asText();
        ObjectNode plan = (ObjectNode) generated.body().get("plan");

        ObjectNode broken = plan.deepCopy();
        ((ObjectNode) broken.get("sections").get(0)).put("tempo", 1000);
        assertRefused(api.postJson("/sync/execute", Map.of("plan_id", planId, "plan", broken)), "sections[0].tempo");
        ObjectNode unknownGenre = plan.deepCopy().put("genre", "polka-metal");
        assertRefused(api.postJson("/sync/execute", Map.of("plan_id", planId, "plan", unknownGenre)), "genre");
        ObjectNode badKey = plan.deepCopy();
        ((ObjectNode) badKey.get("sections").get(0)).put("key", "H");
        assertRefused(api.postJson("/sync/execute", Map.of("plan_id", planId, "plan", badKey)), "sections[0].key");
        ObjectNode noTempo = plan.deepCopy();
        ((ObjectNode) noTempo.get("sections").get(0)).put("tempo", 0);
        assertRefused(api.postJson("/sync/execute", Map.of("plan_id", planId, "plan", noTempo)), "sections[0].tempo");
        ObjectNode overlapping = plan.deepCopy();
        ((ObjectNode) overlapping.get("sections").get(1))
                .put("start", overlapping.get("sections").get(1).get("start").asDouble() - 1);
        assertRefused(
                api.postJson("/sync/execute", Map.of("plan_id", planId, "plan", overlapping)), "sections[1].start");
        ObjectNode tooLong = plan.deepCopy();
        ObjectNode lastOfTooLong =
                (ObjectNode) tooLong.get("sections").get(tooLong.get("sections").size() - 1);
        lastOfTooLong.put("end", lastOfTooLong.get("end").asDouble() + 5);
        assertRefused(
                api.postJson("/sync/execute", Map.of("plan_id", planId, "plan", tooLong)),
                "sections[" + (tooLong.get("sections").size() - 1) + "].end");

        // A valid edit of the first section: one bar more at the tempo that fits it, another key, and
        // the lofi genre's instruments; the last section in another key. The plan that runs is this one.
        ObjectNode edited = plan.deepCopy();
        ObjectNode first = (ObjectNode) edited.get("sections").get(0);
        int bars = first.get("bars").asInt() + 1;
        double seconds = first.get("end").asDouble() - first.get("start").asDouble();
        double tempo = Math.round(bars * 4 * 60 / seconds * 1000) / 1000.0;
        first.put("bars", bars)
                .put("tempo", tempo)
                .put("key", first.get("key").asText().equals("F") ? "G" : "F");
        first.get("instruments").properties().forEach(group -> {
            if (group.getValue().isObject()) {
                ((ObjectNode) group.getValue()).put("soundset", "lofi").put("pattern", "lofi/" + group.getKey() + "/2");
            }
        });
        JsonNode last = edited.get("sections").get(edited.get("sections").size() - 1);
        ((ObjectNode) last).put("key", last.get("key").asText().equals("D") ? "E" : "D");
        Api.Response executed = api.postJson("/sync/execute", Map.of("plan_id", planId, "plan", edited));
        assertEquals(200, executed.status(), executed::toString);
        JsonNode status = awaitExecution(
                api,
                "/sync/status",
                Map.of("job_id", executed.body().get("job_id").asText()));
        assertEquals("finished", status.get("status").asText(), status::toString);
        JsonNode ran = Api.JSON.readTree(fetch(status.at("/links/plan").asText()));
        assertEquals(
                last.get("key").asText(),
                ran.get("sections")
                        .get(ran.get("sections").size() - 1)
                        .get("key")
                        .asText());
        JsonNode ranFirst = ran.get("sections").get(0);
        assertEquals(tempo, ranFirst.get("tempo").asDouble(), 1e-9);
        assertEquals(bars, ranFirst.get("bars").asInt());
        assertEquals(first.get("key").asText(), ranFirst.get("key").asText());
        assertTrue(
                ranFirst.get("instruments").findValuesAsText("pattern").stream().allMatch(p -> p.startsWith("lofi/")),
                ranFirst::toString);
        // The score's tempo map carries the edited tempo from the first beat.
        Sequence midi = MidiSystem.getSequence(
                new ByteArrayInputStream(fetch(status.at("/links/midi").asText())));
        assertEquals(tempo, firstTempoBpm(midi), 0.01);
        JsonNode results = Api.JSON.readTree(fetch(status.get("queryurl").asText()));
        assertTrue(
                results.at("/sync/all_within_frame").asBoolean(),
                "the edited plan's accents within a frame: " + results.get("sync"));
    }

    /** The tempo of the first set-tempo meta event (type 0x51) of the conductor track. */
    private static double firstTempoBpm(Sequence midi) {
        for (int i = 0; i < midi.getTracks()[0].size(); i++) {
            if (midi.getTracks()[0].get(i).getMessage() instanceof MetaMessage meta && meta.getType() == 0x51) {
                byte[] d = meta.getData();
                int microsPerQuarter = (d[0] & 0xff) << 16 | (d[1] & 0xff) << 8 | d[2] & 0xff;
                return 60_000_000.0 / microsPerQuarter;
            }
        }
        throw new AssertionError("no tempo in the MIDI file");
    }

    @Test
    void variantBGeneratesFromTheAnalysisFileAndExecutesThePlanFile() throws Exception {
        Api api = server.alice();
        Api.Response done = Uploads.uploadB(api, Videos.fourScenes(), 2);
        String taskId = done.body().get("taskid").asText();
        Api.Response analysed = api.postJson("/sync_video_analysis", Map.of("taskid", taskId));
        assertEquals(200, analysed.status(), analysed::toString);
        String analysis = analysed.body().get("analysis").toString();

        Api.Response generated = api.postMultipart(
                "/sync_generate",
                Map.of("analysis", analysis, "payload", Api.write(Map.of("taskid", taskId, "genre", "lofi"))),
                null,
                null);
        assertEquals(200, generated.status(), generated::toString);
        JsonNode plan = generated.body().get("plan");
        assertEquals("lofi", plan.get("genre").asText());
        assertTrue(plan.get("sections").isArray());

        Api.Response executed = api.postMultipart(
                "/sync_execute",
                Map.of("plan", plan.toString(), "payload", Api.write(Map.of("taskid", taskId))),
                null,
                null);
        assertEquals(200, executed.status(), executed::toString);
        assertEquals(taskId, executed.body().get("taskid").asText());
        String execId = executed.body().get("execid").asText();
        JsonNode status = awaitExecution(api, "/sync_status", Map.of("execid", execId));
        assertEquals("finished", status.get("status").asText(), status::toString);
        assertNotNull(status.get("url").asText());
        assertTrue(Api.JSON.readTree(fetch(status.get("queryurl").asText())).has("sync"));

        JsonNode inactive =
                api.postJson("/sync_status", Map.of("execid", "exe_nothing")).body();
        assertEquals("inactive", inactive.get("status").asText());
        assertTrue(inactive.has("videourl") && inactive.get("videourl").isNull());
        assertFalse(inactive.has("url"));
        assertTrue(inactive.get("message").asText().contains("exe_nothing"));

        UploadErrorsTest.assertError(
                api.postMultipart(
                        "/sync_generate",
                        Map.of("analysis", "{\"version\": 1}", "payload", Api.write(Map.of("taskid", taskId))),
                        null,
                        null),
                400,
                "invalid_parameter",
                "analysis");
        UploadErrorsTest.assertError(
                api.postMultipart("/sync_execute", Map.of("payload", Api.write(Map.of("taskid", taskId))), null, null),
                400,
                "invalid_parameter",
                "plan");
        hostileAnalysesAreRefusedOrPlannedQuickly(
                api, taskId, (ObjectNode) analysed.body().get("analysis"));
    }

    /**
     * What a client may write into the analysis it uploads: a cut without kind (once a 500), cuts piled
     * at one instant under thousands of speech spans (once hours of planning), too many cuts.
     */
    private static void hostileAnalysesAreRefusedOrPlannedQuickly(Api api, String taskId, ObjectNode analysis) {
        Map<String, Object> payload =
                Map.of("taskid", taskId, "genre", "house", "original_audio", true, "original_audio_voiceover", true);
        ObjectNode noKind = analysis.deepCopy();
        noKind.putArray("cuts")
                .addObject()
                .put("time", 1.0)
                .put("frame", 25)
                .put("strength", 0.5)
                .put("start", 1.0)
                .put("end", 1.0);
        UploadErrorsTest.assertError(
                api.postMultipart(
                        "/sync_generate",
                        Map.of("analysis", noKind.toString(), "payload", Api.write(payload)),
                        null,
                        null),
                400,
                "invalid_parameter",
                "analysis.cuts[0].kind");

        double duration = analysis.at("/video/duration").asDouble();
        ObjectNode piled = analysis.deepCopy();
        var cuts = piled.putArray("cuts");
        for (int i = 0; i < 20_000; i++) {
            cuts.addObject()
                    .put("time", duration / 2)
                    .put("frame", 10)
                    .put("kind", "cut")
                    .put("strength", 0.5)
                    .put("start", duration / 2)
                    .put("end", duration / 2);
        }
        var speech = ((ObjectNode) piled.get("audio")).putArray("speech");
        for (int i = 0; i < 20_000; i++) {
            double slot = duration / 20_000;
            speech.addObject().put("start", i * slot).put("end", i * slot + slot / 2);
        }
        // Sent as a form field, 2.6 MB is over Jetty's cap for fields: refused by name; sent as a file it is read.
        UploadErrorsTest.assertError(
                api.postMultipart(
                        "/sync_generate",
                        Map.of("analysis", piled.toString(), "payload", Api.write(payload)),
                        null,
                        null),
                413,
                "too_large",
                "analysis");
        long started = System.nanoTime();
        Api.Response planned = api.postMultipart(
                "/sync_generate",
                Map.of("payload", Api.write(payload)),
                "analysis",
                piled.toString().getBytes(StandardCharsets.UTF_8));
        assertEquals(200, planned.status(), planned::toString);
        assertTrue(System.nanoTime() - started < 20_000_000_000L, "planned within the request's patience");

        cuts.addObject()
                .put("time", duration / 2)
                .put("frame", 10)
                .put("kind", "cut")
                .put("strength", 0.5)
                .put("start", duration / 2)
                .put("end", duration / 2);
        UploadErrorsTest.assertError(
                api.postMultipart(
                        "/sync_generate",
                        Map.of("payload", Api.write(payload)),
                        "analysis",
                        piled.toString().getBytes(StandardCharsets.UTF_8)),
                400,
                "invalid_parameter",
                "analysis.cuts");
    }

    // Tagged slow (bin/test --all): a whole execution with singing and a voiceover, 6 to 9 s; the voice package's
    // engine tests and both variants' flows stay fast.
    @Test
    @Tag("slow")
    void vocalsAndVoiceoverAreSungSpokenAndMeasured() throws Exception {
        Api api = server.alice();
        String analysisId = analysedA(api);
        UploadErrorsTest.assertError(
                api.postJson("/sync/generate", Map.of("analysis_id", analysisId, "with_voiceover", true)),
                400,
                "invalid_parameter",
                "voiceover_script");
        assertRefused(
                api.postJson(
                        "/sync/generate",
                        Map.of(
                                "analysis_id",
                                analysisId,
                                "with_voiceover",
                                true,
                                "voiceover_script",
                                "Hello.",
                                "voiceover_voice",
                                "en us; rm")),
                "voiceover_voice");
        assertRefused(
                api.postJson(
                        "/sync/generate",
                        Map.of(
                                "analysis_id",
                                analysisId,
                                "with_voiceover",
                                true,
                                "voiceover_script",
                                "Hello.",
                                "voiceover_rate",
                                2000)),
                "voiceover_rate");

        Api.Response generated = api.postJson(
                "/sync/generate",
                Map.of(
                        "analysis_id",
                        analysisId,
                        "genre",
                        "pop",
                        "seed",
                        4,
                        "with_vocals",
                        true,
                        "with_voiceover",
                        true,
                        "voiceover_script",
                        "Here is the harbour.",
                        "voiceover_voice",
                        "en-gb"));
        assertEquals(200, generated.status(), generated::toString);
        JsonNode plan = generated.body().get("plan");
        assertEquals("en-gb", plan.at("/options/voiceover_voice").asText());
        List<JsonNode> lines = new ArrayList<>();
        plan.get("sections").forEach(s -> s.get("voiceover").forEach(lines::add));
        assertEquals(1, lines.size(), plan::toString);
        assertTrue(
                plan.findValuesAsText("lyrics").stream().anyMatch(l -> l != null && l.length() > 10),
                "lyrics written: " + plan);

        Api.Response executed = api.postJson(
                "/sync/execute",
                Map.of("plan_id", generated.body().get("plan_id").asText()));
        JsonNode status = awaitExecution(
                api,
                "/sync/status",
                Map.of("job_id", executed.body().get("job_id").asText()));
        assertEquals("finished", status.get("status").asText(), status::toString);
        JsonNode results = Api.JSON.readTree(fetch(status.get("queryurl").asText()));
        JsonNode vocals = results.at("/voices/vocals");
        assertTrue(vocals.get("voiced_frames").asInt() > 50, results.get("voices")::toString);
        assertTrue(vocals.get("pitch_accuracy").asDouble() >= 0.8, "voiced frames within 50 cents: " + vocals);
        JsonNode spoken = results.at("/voices/voiceover_spans");
        assertEquals(1, spoken.size(), results.get("voices")::toString);
        assertEquals(
                lines.getFirst().get("start").asDouble(),
                spoken.get(0).get("start").asDouble(),
                0.3,
                "spoken where planned");
        assertTrue(results.at("/sync/all_within_frame").asBoolean(), results.get("sync")::toString);

        List<String> names = new ArrayList<>();
        try (var zip = new ZipInputStream(
                new ByteArrayInputStream(fetch(status.at("/links/stems").asText())))) {
            for (ZipEntry e; (e = zip.getNextEntry()) != null; ) {
                names.add(e.getName());
            }
        }
        assertTrue(names.containsAll(List.of("vocals.wav", "voiceover.wav")), names.toString());
        Sequence midi = MidiSystem.getSequence(
                new ByteArrayInputStream(fetch(status.at("/links/midi").asText())));
        assertTrue(trackNames(midi).contains("vocals"), "a MIDI track for the vocal: " + trackNames(midi));
    }

    private static List<String> trackNames(Sequence midi) {
        List<String> names = new ArrayList<>();
        for (var track : midi.getTracks()) {
            for (int i = 0; i < track.size(); i++) {
                if (track.get(i).getMessage() instanceof MetaMessage meta && meta.getType() == 0x03) {
                    names.add(new String(meta.getData(), StandardCharsets.US_ASCII));
                }
            }
        }
        return names;
    }

    @Test
    void generateNeedsAFinishedAnalysisOfYourOwn() {
        Api api = server.alice();
        UploadErrorsTest.assertError(api.postJson("/sync/generate", Map.of()), 400, "invalid_parameter", "analysis_id");
        UploadErrorsTest.assertError(
                api.postJson("/sync/generate", Map.of("analysis_id", "ana_nope")), 404, "not_found", "analysis_id");
        UploadErrorsTest.assertError(
                api.postJson("/sync/generate", Map.of("analysis_id", "ana_nope", "with_vocals", "yes")),
                400,
                "invalid_parameter",
                "with_vocals");
        UploadErrorsTest.assertError(
                api.postJson("/sync/execute", Map.of("plan_id", "plan_nope")), 404, "not_found", "plan_id");
        assertNull(api.postJson("/sync/status", Map.of("job_id", "job_nope"))
                .body()
                .get("url"));
    }

    /** A 400 that names {@code field}, alone or among the problems it lists. */
    static void assertRefused(Api.Response r, String field) {
        assertEquals(400, r.status(), r::toString);
        List<String> named = new ArrayList<>();
        named.add(r.body().path("field").asText());
        r.body().path("problems").forEach(p -> named.add(p.path("field").asText()));
        assertTrue(named.contains(field), field + " not named in " + r);
    }

    static String probe(Path file, String stream, String entries) throws Exception {
        Process p = new ProcessBuilder(
                        "ffprobe",
                        "-v",
                        "error",
                        "-select_streams",
                        stream,
                        "-show_entries",
                        "stream=" + entries,
                        "-of",
                        "csv=p=0",
                        file.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), out);
        return out;
    }
}
