package dev.scorecast.server.webhooks;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Which addresses a webhook may be sent to: public unicast only. Loopback, private (RFC 1918,
 * unique-local IPv6), shared (CGNAT, where some clouds put their metadata service), link-local
 * (169.254.169.254, the usual metadata address), multicast, unspecified and reserved ranges are
 * refused, also when they hide inside an IPv6 address (IPv4-mapped, NAT64, 6to4, IPv4-compatible).
 * With {@code allowLocal} (SCORECAST_WEBHOOKS_ALLOW_LOCAL) loopback is allowed, for development and
 * tests; everything else stays refused, metadata addresses above all.
 */
public final class AddressGuard {
    private final boolean allowLocal;

    public AddressGuard(boolean allowLocal) {
        this.allowLocal = allowLocal;
    }

    public boolean allowsLocal() {
        return allowLocal;
    }

    /** Why {@code address} is refused ("a loopback address"), or empty when a webhook may go there. */
    public Optional<String> refusal(InetAddress address) {
        String kind = classify(address);
        if (kind == null || allowLocal && kind.equals(LOOPBACK)) {
            return Optional.empty();
        }
        return Optional.of(kind);
    }

    private static final String LOOPBACK = "a loopback address";

    /** What kind of non-public address this is, or null for a public unicast one. */
    static String classify(InetAddress address) {
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            return classify4(b);
        }
        if (!(address instanceof Inet6Address)) {
            return "an address of an unknown family";
        }
        // IPv4 inside IPv6: judged as the IPv4 address it reaches.
        if (prefix(b, 0, 10, 0) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
            return classify4(Arrays.copyOfRange(b, 12, 16)); // ::ffff:a.b.c.d, IPv4-mapped
        }
        if ((b[0] & 0xff) == 0x00
                && (b[1] & 0xff) == 0x64
                && (b[2] & 0xff) == 0xff
                && (b[3] & 0xff) == 0x9b
                && prefix(b, 4, 12, 0)) {
            return embedded(Arrays.copyOfRange(b, 12, 16), "NAT64"); // 64:ff9b::a.b.c.d
        }
        if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x02) {
            return embedded(Arrays.copyOfRange(b, 2, 6), "6to4"); // 2002:aabb:ccdd::
        }
        if (address.isAnyLocalAddress()) {
            return "the unspecified address";
        }
        if (address.isLoopbackAddress()) {
            return LOOPBACK;
        }
        if (prefix(b, 0, 12, 0)) {
            return "an IPv4-compatible IPv6 address (deprecated, refused)"; // ::a.b.c.d
        }
        int first = b[0] & 0xff;
        int second = b[1] & 0xff;
        if ((first & 0xfe) == 0xfc) {
            return "a private address (unique local, fc00::/7)";
        }
        if (first == 0xfe && (second & 0xc0) == 0x80) {
            return "a link-local address (fe80::/10)";
        }
        if (first == 0xfe && (second & 0xc0) == 0xc0) {
            return "a site-local address (fec0::/10)";
        }
        if (first == 0xff) {
            return "a multicast address";
        }
        if (first == 0x20 && second == 0x01 && (b[2] & 0xff) == 0x0d && (b[3] & 0xff) == 0xb8) {
            return "a documentation address (2001:db8::/32)";
        }
        if (first == 0x20 && second == 0x01 && b[2] == 0 && b[3] == 0) {
            return "a Teredo address (2001::/32)";
        }
        if (first == 0x01 && second == 0x00 && prefix(b, 2, 8, 0)) {
            return "a discard-only address (100::/64)";
        }
        if ((first & 0xe0) != 0x20) {
            return "an address outside the global unicast range (2000::/3)";
        }
        return null;
    }

    /** An IPv4 address reached through a translation: never loopback that local development may use, only what it is. */
    private static String embedded(byte[] ipv4, String through) {
        String inner = classify4(ipv4);
        return inner == null ? null : inner + " reached through " + through;
    }

    private static String classify4(byte[] b) {
        int a = b[0] & 0xff;
        int s = b[1] & 0xff;
        int t = b[2] & 0xff;
        if (a == 127) {
            return LOOPBACK;
        }
        if (a == 0) {
            return "the unspecified address (0.0.0.0/8)";
        }
        if (a == 10 || a == 172 && (s & 0xf0) == 16 || a == 192 && s == 168) {
            return "a private address (RFC 1918)";
        }
        if (a == 169 && s == 254) {
            return "a link-local address (169.254.0.0/16, where cloud metadata services answer)";
        }
        if (a == 100 && (s & 0xc0) == 64) {
            return "a shared address (100.64.0.0/10, carrier-grade NAT and some metadata services)";
        }
        if (a == 192 && s == 0 && (t == 0 || t == 2)
                || a == 198 && s == 51 && t == 100
                || a == 203 && s == 0 && t == 113) {
            return "a reserved or documentation address";
        }
        if (a == 192 && s == 88 && t == 99) {
            return "a 6to4 relay address (192.88.99.0/24)";
        }
        if (a == 198 && (s & 0xfe) == 18) {
            return "a benchmarking address (198.18.0.0/15)";
        }
        if (a >= 224 && a <= 239) {
            return "a multicast address";
        }
        if (a >= 240) {
            return "a reserved address (240.0.0.0/4, broadcast)";
        }
        return null;
    }

    private static boolean prefix(byte[] b, int from, int to, int value) {
        for (int i = from; i < to; i++) {
            if ((b[i] & 0xff) != value) {
                return false;
            }
        }
        return true;
    }

    /** Looks a host name up: the system's resolver in the service, a table in tests. */
    @FunctionalInterface
    public interface Resolver {
        Resolver SYSTEM = host -> Arrays.asList(InetAddress.getAllByName(host));

        List<InetAddress> resolve(String host) throws UnknownHostException;
    }
}
