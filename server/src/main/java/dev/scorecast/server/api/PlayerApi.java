package dev.scorecast.server.api;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.NotFound;
import dev.scorecast.engine.live.AppliesAt;
import dev.scorecast.engine.live.Experience;
import dev.scorecast.engine.live.Listener;
import dev.scorecast.engine.live.NowPlaying;
import dev.scorecast.engine.live.Transport;
import dev.scorecast.engine.media.LiveEncoder;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanJson;
import dev.scorecast.engine.plan.PlanValidator;
import dev.scorecast.engine.plan.Section;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.player.LiveStream;
import dev.scorecast.server.player.PlayerService;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The player (spec §4.3, DESIGN.md §8): the thirteen {@code /player/...} paths. Handlers parse,
 * check every field, call the {@link PlayerService} and answer a record; the stream validates
 * everything before its first byte and then sends audio until the stream ends or the client leaves.
 */
public final class PlayerApi {
    private static final List<String> FORMATS =
            Arrays.stream(LiveEncoder.Format.values()).map(f -> f.wire).toList();
    static final LiveEncoder.Format DEFAULT_FORMAT = LiveEncoder.Format.AAC;

    private final PlayerService player;
    private final StreamRouting routing;
    private final GenreCatalog genres;
    private final ObjectMapper mapper;
    private final ObjectMapper lenient;
    private final long maxJsonBytes;

    public PlayerApi(PlayerService player, StreamRouting routing, GenreCatalog genres, Requests requests) {
        this.player = player;
        this.routing = routing;
        this.genres = genres;
        this.mapper = requests.mapper();
        // NaN and Infinity are read as numbers so that the answer can name the field they were sent for.
        this.lenient = requests.mapper().copy().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS.mappedFeature());
        this.maxJsonBytes = requests.maxJsonBytes();
    }

    /**
     * Every call on a stream goes through {@link StreamRouting}, so it is answered by the node that
     * plays the stream wherever it lands; the genres are the same catalogue on every node.
     */
    public void register(RoutesConfig routes) {
        routes.post("/player/create-stream", routing.onOwnerElseHere(this::create));
        routes.post("/player/end_stream", routing.onOwner(this::end));
        routes.get("/player/current_experience", routing.onOwner(this::current));
        routes.get("/player/genres", this::genres);
        routes.get("/player/stream_ttl", routing.onOwner(this::ttl));
        routes.get("/player/transport", routing.onOwner(this::transport));
        routes.get("/player/liveliness", routing.onOwnerElseHere(this::liveliness));
        routes.post("/player/start", routing.onOwner(this::start));
        routes.post("/player/stop", routing.onOwner(this::stop));
        routes.post("/player/replace_plan", routing.onOwner(this::replacePlan));
        routes.post("/player/set_intensity", routing.onOwner(this::setIntensity));
        routes.get(PlayerService.STREAM_PATH, routing.onOwner(this::stream));
        routes.post("/player/toggle_vocals", routing.onOwner(this::toggleVocals));
    }

    record Created(
            String streamId,
            String sessionToken,
            String streamUrl,
            Map<String, String> streamUrls,
            double ttl,
            List<String> formats,
            String defaultFormat) {}

    private void create(Context ctx) {
        var created = player.create(Authenticator.principal(ctx));
        ctx.status(201)
                .json(new Created(
                        created.streamId(),
                        created.sessionToken(),
                        created.streamUrls().get(DEFAULT_FORMAT.wire),
                        created.streamUrls(),
                        created.ttl(),
                        FORMATS,
                        DEFAULT_FORMAT.wire));
    }

    record Ended(boolean ended, String streamId) {}

    private void end(Context ctx) {
        Principal owner = Authenticator.principal(ctx);
        String id = player.active(owner).id();
        player.end(owner);
        ctx.json(new Ended(true, id));
    }

    record Current(
            String streamId,
            String experienceId,
            String name,
            String genre,
            boolean playing,
            double intensity,
            boolean vocals,
            double tempo,
            String key,
            String mode,
            String section,
            JsonNode plan) {}

    private void current(Context ctx) throws IOException {
        var stream = player.activeWithoutTouch(Authenticator.principal(ctx));
        NowPlaying now = stream.session().now();
        Experience e =
                now.experience() != null ? now.experience() : stream.session().experience();
        Section s = now.section();
        ctx.json(new Current(
                stream.id(),
                e == null ? null : e.id(),
                e == null ? null : e.name(),
                now.genre(),
                now.playing(),
                now.intensity(),
                now.vocals(),
                now.tempo(),
                s == null ? null : s.key(),
                s == null ? null : s.mode(),
                s == null ? null : s.label(),
                s == null ? null : planNode(now)));
    }

    /** The section playing and the one after it, as a plan a client can edit and send to replace_plan. */
    private JsonNode planNode(NowPlaying now) throws IOException {
        List<Section> sections = new ArrayList<>();
        double start = 0;
        for (Section s : new Section[] {now.section(), now.upcoming()}) {
            if (s == null) {
                continue;
            }
            double end = start + s.barsSeconds();
            sections.add(s.alone(sections.size(), start, end).withVoiceover(List.of()));
            start = end;
        }
        Plan plan = new Plan(
                Plan.VERSION,
                null,
                now.experience() == null ? 0 : now.experience().seed(),
                now.genre(),
                Math.round(start * 1e6) / 1e6,
                null,
                Plan.Master.DEFAULT,
                sections);
        return mapper.readTree(PlanJson.write(plan));
    }

    record Genres(List<Experience> genres) {}

    private void genres(Context ctx) {
        ctx.json(new Genres(player.experiences().all()));
    }

    record Ttl(String streamId, double ttl) {}

    private void ttl(Context ctx) {
        var stream = player.activeWithoutTouch(Authenticator.principal(ctx));
        ctx.json(new Ttl(stream.id(), player.ttlLeft(stream)));
    }

    private void transport(Context ctx) {
        Transport t = player.activeWithoutTouch(Authenticator.principal(ctx))
                .session()
                .transport();
        ctx.json(t);
    }

    record Liveliness(boolean alive, String stream, String streamId) {}

    private void liveliness(Context ctx) {
        var stream = player.find(Authenticator.principal(ctx));
        ctx.json(new Liveliness(
                true,
                stream.isPresent() ? "active" : "none",
                stream.map(s -> s.id()).orElse(null)));
    }

    private void start(Context ctx) throws IOException {
        JsonFields fields = optionalBody(ctx);
        String experienceId = fields == null ? null : fields.optionalString("experience_id");
        if (fields != null) {
            fields.check();
        }
        var stream = player.active(Authenticator.principal(ctx));
        player.start(stream, experienceId);
        current(ctx);
    }

    record Stopped(boolean stopped, double fadeSeconds, long appliesByFrame) {}

    private void stop(Context ctx) {
        var stream = player.active(Authenticator.principal(ctx));
        double tempo = stream.session().transport().tempo();
        stream.session().stop();
        ctx.json(new Stopped(true, tempo > 0 ? Math.round(60_000 / tempo) / 1000.0 : 0, appliesByFrame(stream)));
    }

    /**
     * The performance frame by which a control just queued is in the audio: controls are drained at
     * the start of each block, so it sounds from the block after the last one rendered, or from the
     * one after that when a block was being rendered as it was queued. A client that numbers its
     * samples by {@code X-Scorecast-Frame} knows when it hears that frame (the studio measures its
     * control-to-ear time so).
     */
    private long appliesByFrame(LiveStream stream) {
        return stream.session().transport().frame() + player.engine().settings().blockFrames();
    }

    record Replaced(AppliesAt appliesAt, double tempo, String key, String mode) {}

    private void replacePlan(Context ctx) {
        JsonFields fields =
                requiredBody(ctx, "plan", "{\"plan\": {...}} with the plan object from current_experience or generate");
        JsonNode node = fields.optionalNode("plan");
        if (node == null) {
            fields.problem(
                    "plan",
                    "plan is required: send {\"plan\": {...}}, e.g. the plan of GET /player/current_experience, edited.");
        } else if (!node.isObject()) {
            fields.problem("plan", "plan must be a JSON object with version, genre, duration and sections.");
        }
        fields.check();
        Plan parsed = PlanJson.parseLive(node.toString()); // sections may come as tempo, meter and bars alone
        Plan plan = PlanValidator.validateLive(parsed, genres);
        var stream = player.active(Authenticator.principal(ctx));
        AppliesAt at = player.replacePlan(stream, plan);
        Section first = plan.sections().getFirst();
        ctx.json(new Replaced(at, first.tempo(), first.key(), first.mode()));
    }

    record Intensity(double intensity, double relativeTempo, double tempo, double glideBeats, long appliesByFrame) {}

    private void setIntensity(Context ctx) {
        JsonFields fields = requiredBody(ctx, "intensity", "{\"intensity\": 0.7}, a number from 0 to 1");
        JsonNode node = fields.optionalNode("intensity");
        double intensity = 0;
        if (node == null) {
            fields.problem("intensity", "intensity is required: send {\"intensity\": 0.7}, a number from 0 to 1.");
        } else if (!node.isNumber()) {
            fields.problem(
                    "intensity",
                    "intensity must be a number from 0 to 1, not "
                            + (node.isTextual()
                                    ? "the string \"" + node.asText() + "\""
                                    : node.getNodeType().name().toLowerCase(Locale.ROOT))
                            + ".");
        } else {
            intensity = node.asDouble();
            if (!(intensity >= 0 && intensity <= 1)) {
                fields.problem("intensity", "intensity must be a number from 0 to 1, not " + node.asText() + ".");
            }
        }
        fields.check();
        var stream = player.active(Authenticator.principal(ctx));
        stream.session().setIntensity(intensity);
        double relative = 0.8 + 0.4 * intensity;
        ctx.json(new Intensity(
                intensity,
                Math.round(relative * 1000) / 1000.0,
                stream.session().now().tempo(),
                1,
                appliesByFrame(stream)));
    }

    record Vocals(boolean vocals, AppliesAt appliesAt) {}

    private void toggleVocals(Context ctx) {
        JsonFields fields = optionalBody(ctx);
        var stream = player.active(Authenticator.principal(ctx));
        boolean now = stream.session().now().vocals();
        boolean wanted = fields == null ? !now : fields.optionalBoolean("vocals", !now);
        if (fields != null) {
            fields.check();
        }
        AppliesAt at = stream.session().setVocals(wanted);
        ctx.json(new Vocals(wanted, at));
    }

    private static final long FLUSH_INTERVAL_MILLIS = 40;

    private void stream(Context ctx) throws IOException {
        String name = ctx.queryParam("format");
        LiveEncoder.Format format = name == null || name.isBlank()
                ? DEFAULT_FORMAT
                : LiveEncoder.Format.fromWire(name)
                        .orElseThrow(() -> new InvalidParameter(
                                "format",
                                "format must be one of " + String.join(", ", FORMATS) + ", not \"" + name + "\"."));
        var stream = player.active(Authenticator.principal(ctx));
        String linked = ctx.queryParam("stream_id");
        if (linked != null && !linked.equals(stream.id())) {
            throw new NotFound(
                    "stream_id", "Stream " + linked + " has ended; create a new one with POST /player/create-stream.");
        }
        Listener listener = player.listen(stream, format);
        HttpServletResponse res = ctx.res();
        res.setStatus(200);
        // Which frame of the performance the audio starts at, so a client can line it up with the transport.
        for (int i = 0; i < 100 && listener.firstFrame() < 0 && !listener.closed(); i++) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        res.setHeader("X-Scorecast-Frame", Long.toString(listener.firstFrame()));
        res.setContentType(format.mediaType);
        res.setHeader("Cache-Control", "no-store");
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("Access-Control-Allow-Origin", "*");
        try {
            OutputStream out = res.getOutputStream();
            while (true) {
                byte[] chunk = listener.next(1000);
                if (chunk == null) {
                    break;
                }
                if (chunk.length > 0) {
                    out.write(chunk);
                    // Whatever else is already waiting goes out in the same flush: fewer system calls for a listener
                    // catching up.
                    byte[] more;
                    while ((more = listener.next(0)) != null && more.length > 0) {
                        out.write(more);
                    }
                    out.flush();
                    if (more == null) {
                        break;
                    }
                    // Two blocks per write instead of one: half the system calls and wake-ups for
                    // every listener, while the stream stays the look-ahead (85 ms) ahead less this.
                    Thread.sleep(FLUSH_INTERVAL_MILLIS);
                }
            }
        } catch (IOException gone) {
            // The client left; nothing to answer.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            player.disconnected(stream, listener);
        }
    }

    /** The body's fields, or null when there is no body at all. */
    private JsonFields optionalBody(Context ctx) {
        byte[] raw = ctx.bodyAsBytes();
        if (raw.length == 0 || new String(raw, StandardCharsets.UTF_8).isBlank()) {
            return null;
        }
        return JsonFields.parse(lenient, new ByteArrayInputStream(raw), maxJsonBytes, "request body");
    }

    /** The body's fields; a missing body is a problem of {@code field}, the one thing the call needs. */
    private JsonFields requiredBody(Context ctx, String field, String example) {
        JsonFields fields = optionalBody(ctx);
        if (fields == null) {
            throw new InvalidParameter(field, field + " is required: send " + example + ".");
        }
        return fields;
    }
}
