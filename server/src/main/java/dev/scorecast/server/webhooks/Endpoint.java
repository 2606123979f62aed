package dev.scorecast.server.webhooks;

import dev.scorecast.engine.error.InvalidParameter;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A webhook URL taken apart and checked: https (http only where local delivery is allowed), a host,
 * no credentials, no fragment. {@link #resolve} looks its host up and refuses it unless every address
 * it has is one the {@link AddressGuard} allows; the delivery then connects to exactly the address
 * checked, so a name that resolves again to another address (DNS rebinding) cannot slip past.
 */
public record Endpoint(String url, boolean tls, String host, int port, String target) {
    public static final int MAX_LENGTH = 2048;

    /** Checks the form of {@code url}; a bad one is a 400 naming {@code field}. */
    public static Endpoint parse(String url, boolean allowHttp, String field) {
        if (url.length() > MAX_LENGTH) {
            throw new InvalidParameter(
                    field, field + " is " + url.length() + " characters long; at most " + MAX_LENGTH + ".");
        }
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new InvalidParameter(
                    field, field + " is not a valid URL (" + e.getReason() + "); send an https:// URL.");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !(allowHttp && scheme.equals("http"))) {
            throw new InvalidParameter(
                    field,
                    field + " must be an https:// URL" + (allowHttp ? " or an http:// one" : "")
                            + ", not \"" + abbreviate(url) + "\""
                            + (scheme.equals("http")
                                    ? "; http:// is allowed only on a development server"
                                            + " (SCORECAST_WEBHOOKS_ALLOW_LOCAL=true)."
                                    : "."));
        }
        if (uri.getRawUserInfo() != null) {
            throw new InvalidParameter(
                    field,
                    field + " must not carry a user name or password; verify the Scorecast-Signature header instead.");
        }
        if (uri.getRawFragment() != null) {
            throw new InvalidParameter(field, field + " must not have a #fragment; it is never sent.");
        }
        String host = uri.getHost();
        if (host == null || host.isBlank()) {
            throw new InvalidParameter(
                    field, field + " has no host name; send a URL such as https://example.com/scorecast-hook.");
        }
        int port = uri.getPort() == -1 ? (scheme.equals("https") ? 443 : 80) : uri.getPort();
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        String target = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        return new Endpoint(uri.toString(), scheme.equals("https"), host.toLowerCase(Locale.ROOT), port, target);
    }

    /** The host as a name to look up: without an IPv6 literal's brackets. */
    public String lookupName() {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** The Host header: the port only when it is not the scheme's own. */
    public String hostHeader() {
        return port == (tls ? 443 : 80) ? host : host + ":" + port;
    }

    /**
     * The addresses to connect to, each allowed by {@code guard}.
     *
     * @throws Refused when the host does not resolve or any of its addresses is refused
     */
    public List<InetAddress> resolve(AddressGuard.Resolver resolver, AddressGuard guard) throws Refused {
        List<InetAddress> addresses;
        try {
            addresses = resolver.resolve(lookupName());
        } catch (UnknownHostException e) {
            throw new Refused("the host " + host + " does not resolve to an address");
        }
        if (addresses.isEmpty()) {
            throw new Refused("the host " + host + " does not resolve to an address");
        }
        // Every address, not only the first: a name with one public and one private address must not reach the private
        // one.
        for (InetAddress address : addresses) {
            Optional<String> refusal = guard.refusal(address);
            if (refusal.isPresent()) {
                throw new Refused(host + " resolves to " + address.getHostAddress() + ", " + refusal.get()
                        + "; webhooks go only to public addresses"
                        + (guard.allowsLocal()
                                ? ""
                                : " (SCORECAST_WEBHOOKS_ALLOW_LOCAL=true"
                                        + " on a development server allows loopback)"));
            }
        }
        return addresses;
    }

    private static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 60) + "...";
    }

    /** A destination webhooks may not reach; the message says why. */
    public static final class Refused extends Exception {
        public Refused(String message) {
            super(message, null, false, false);
        }
    }
}
