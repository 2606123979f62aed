package dev.scorecast.server.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingSupplier;

/** Which addresses webhooks may reach, with and without SCORECAST_WEBHOOKS_ALLOW_LOCAL, and the check after name resolution. */
class AddressGuardTest {
    private static final List<String> REFUSED_ALWAYS = List.of(
            "10.0.0.1",
            "172.16.5.4",
            "172.31.255.255",
            "192.168.1.1", // RFC 1918
            "169.254.169.254",
            "169.254.0.1", // link-local: AWS, GCP, Azure metadata
            "100.100.100.200",
            "100.64.0.1", // shared (Alibaba's metadata)
            "0.0.0.0",
            "0.1.2.3",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.255",
            "192.0.2.1",
            "198.51.100.7",
            "203.0.113.9",
            "198.18.0.1",
            "192.0.0.170",
            "::",
            "fd00:ec2::254",
            "fc00::1",
            "fe80::1",
            "fec0::1",
            "ff02::1",
            "2001:db8::1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "2002:a9fe:a9fe::1",
            "2002:7f00:1::1",
            "::10.0.0.1",
            "2001:0:4136:e378::1",
            "64:ff9b::7f00:1");
    private static final List<String> LOOPBACK = List.of("127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1");
    private static final List<String> PUBLIC = List.of(
            "93.184.216.34",
            "8.8.8.8",
            "1.1.1.1",
            "172.32.0.1",
            "100.128.0.1",
            "169.255.0.1",
            "2606:4700:4700::1111",
            "2a00:1450:4001:80b::200e",
            "::ffff:8.8.8.8",
            "2002:808:808::1",
            "64:ff9b::808:808");

    @Test
    void publicAddressesOnlyAndLoopbackOnlyWhenLocalIsAllowed() throws UnknownHostException {
        var strict = new AddressGuard(false);
        var local = new AddressGuard(true);
        for (String text : REFUSED_ALWAYS) {
            InetAddress address = InetAddress.getByName(text);
            assertTrue(strict.refusal(address).isPresent(), text + " must be refused");
            assertTrue(local.refusal(address).isPresent(), text + " must be refused even for local development");
        }
        for (String text : LOOPBACK) {
            InetAddress address = InetAddress.getByName(text);
            assertTrue(strict.refusal(address).orElse("").contains("loopback"), text + " is loopback");
            assertEquals(Optional.empty(), local.refusal(address), text + " is allowed for local development");
        }
        for (String text : PUBLIC) {
            InetAddress address = InetAddress.getByName(text);
            assertEquals(Optional.empty(), strict.refusal(address), text + " is public");
        }
        assertTrue(strict.refusal(InetAddress.getByName("169.254.169.254"))
                .orElseThrow()
                .contains("metadata"));
    }

    @Test
    void aNameIsJudgedByEveryAddressItResolvesTo() {
        Map<String, List<String>> dns = Map.of(
                "metadata.example", List.of("169.254.169.254"),
                "mixed.example", List.of("93.184.216.34", "10.1.2.3"),
                "public.example", List.of("93.184.216.34"),
                "localhost.example", List.of("127.0.0.1"));
        AddressGuard.Resolver resolver = host -> {
            List<String> found = dns.get(host);
            if (found == null) {
                throw new UnknownHostException(host);
            }
            var out = new ArrayList<InetAddress>();
            for (String a : found) {
                out.add(InetAddress.getByName(a));
            }
            return out;
        };
        var strict = new AddressGuard(false);
        var local = new AddressGuard(true);
        assertThrows(
                Endpoint.Refused.class,
                () -> Endpoint.parse("https://metadata.example/x", false, "url").resolve(resolver, local));
        var mixed = assertThrows(
                Endpoint.Refused.class,
                () -> Endpoint.parse("https://mixed.example/", false, "url").resolve(resolver, strict));
        assertTrue(mixed.getMessage().contains("10.1.2.3"), mixed.getMessage());
        assertThrows(
                Endpoint.Refused.class,
                () -> Endpoint.parse("https://localhost.example/", false, "url").resolve(resolver, strict));
        assertThrows(
                Endpoint.Refused.class,
                () -> Endpoint.parse("https://nowhere.example/", false, "url").resolve(resolver, strict));
        assertEquals(
                1,
                assertDoesNotThrow(() -> Endpoint.parse("https://public.example/", false, "url")
                                .resolve(resolver, strict))
                        .size());
        assertEquals(
                1,
                assertDoesNotThrow(() -> Endpoint.parse("http://localhost.example:8080/", true, "url")
                                .resolve(resolver, local))
                        .size());
    }

    private static <T> T assertDoesNotThrow(ThrowingSupplier<T> supplier) {
        return Assertions.assertDoesNotThrow(supplier);
    }
}
