package dev.scorecast.server.api;

import dev.scorecast.engine.error.NotFound;
import dev.scorecast.server.player.PlayerService;
import dev.scorecast.server.player.StreamRecord;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.Optional;

/**
 * Runs each player call on the node that plays the caller's stream (DESIGN.md §2, scale-out): a
 * stream's session lives in one node's memory, so a call that lands elsewhere is forwarded there
 * with its credentials, and that node checks them again and answers. The caller, found by this
 * node's authentication, can only ever be sent to their own stream.
 */
public final class StreamRouting {
    private final PlayerService player;
    private final NodeRelay relay;

    public StreamRouting(PlayerService player, NodeRelay relay) {
        this.player = player;
        this.relay = relay;
    }

    /** A call on the caller's stream: answered where it plays; if that node does not answer, the stream has ended (404). */
    public Handler onOwner(Handler here) {
        return ctx -> route(ctx, here, false);
    }

    /** A call that has an answer without a stream (liveliness, create-stream): answered where it plays, or here once that node is gone. */
    public Handler onOwnerElseHere(Handler here) {
        return ctx -> route(ctx, here, true);
    }

    private void route(Context ctx, Handler here, boolean hereWhenGone) throws Exception {
        // A forwarded call is answered here whatever the database says by now: sending it on again could go round in
        // circles.
        Optional<StreamRecord> elsewhere = ctx.header(NodeRelay.FORWARDED_BY) == null
                ? player.playedElsewhere(Authenticator.principal(ctx))
                : Optional.empty();
        if (elsewhere.isEmpty()) {
            here.handle(ctx);
            return;
        }
        StreamRecord stream = elsewhere.get();
        try {
            relay.forward(ctx, stream.nodeUrl());
        } catch (NodeRelay.Unreachable e) {
            player.ownerUnreachable(stream, e.getMessage());
            if (!hereWhenGone) {
                throw new NotFound(
                        "stream",
                        "Your stream " + stream.id() + " has ended: the server node that played it no longer answers. "
                                + "Create a new one with POST /player/create-stream.");
            }
            here.handle(ctx);
        }
    }
}
