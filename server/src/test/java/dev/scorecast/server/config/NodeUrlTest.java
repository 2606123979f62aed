package dev.scorecast.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.scorecast.engine.error.InvalidParameter;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** SCORECAST_NODE_URL: what other nodes forward player calls to, and its default from the bound address. */
class NodeUrlTest {
    @Test
    void theDefaultIsTheBoundAddressOnTheListeningPort() {
        assertEquals(
                "http://127.0.0.1:41000",
                ServerConfig.from(Map.of()).nodeUrl(41000),
                "all interfaces: reachable on loopback");
        assertEquals(
                "http://10.0.0.5:8080",
                ServerConfig.from(Map.of("SCORECAST_HOST", "10.0.0.5")).nodeUrl(8080));
        assertEquals(
                "http://[fd00::5]:8080",
                ServerConfig.from(Map.of("SCORECAST_HOST", "fd00::5")).nodeUrl(8080));
    }

    @Test
    void aSetUrlIsUsedAsGivenWithoutItsTrailingSlash() {
        assertEquals(
                "https://node-2.internal:9443",
                ServerConfig.from(Map.of("SCORECAST_NODE_URL", " https://node-2.internal:9443/ "))
                        .nodeUrl(8080));
    }

    @Test
    void anythingButAnHttpBaseUrlIsRefusedNamingTheVariable() {
        for (String bad :
                new String[] {"10.0.0.5:8080", "ftp://node-2", "http://", "http://node-2/?x=1", "not a url"}) {
            var e = assertThrows(
                    InvalidParameter.class, () -> ServerConfig.from(Map.of("SCORECAST_NODE_URL", bad)), bad);
            assertEquals("SCORECAST_NODE_URL", e.field());
        }
    }
}
