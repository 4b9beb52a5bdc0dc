package com.telemed.webhook.address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WebhookUrlsTest {

    /** A DNS of our own: no network in unit tests. */
    private static final Map<String, String[]> DNS = Map.of(
            "hooks.partner.example", new String[] {"93.184.216.34"},
            "internal.partner.example", new String[] {"10.1.2.3"},
            "rebind.partner.example", new String[] {"93.184.216.34", "127.0.0.1"},
            "metadata.partner.example", new String[] {"169.254.169.254"},
            "mapped.partner.example", new String[] {"::ffff:127.0.0.1"},
            "v6.partner.example", new String[] {"2606:4700:4700::1111"});

    private static InetAddress[] resolve(String host) throws UnknownHostException {
        String[] found = DNS.get(host);
        if (found == null) {
            if (Character.isDigit(host.charAt(0)) || host.contains(":")) {
                return new InetAddress[] {InetAddress.getByName(host)}; // literal, no lookup
            }
            throw new UnknownHostException("no such host in the test DNS");
        }
        InetAddress[] addresses = new InetAddress[found.length];
        for (int i = 0; i < found.length; i++) {
            addresses[i] = InetAddress.getByName(found[i]);
        }
        return addresses;
    }

    private final WebhookUrls production = new WebhookUrls(new AddressPolicy(true), WebhookUrlsTest::resolve);
    private final WebhookUrls sandbox = new WebhookUrls(new AddressPolicy(false), WebhookUrlsTest::resolve);

    private String refusal(WebhookUrls urls, String url) {
        return assertThrows(WebhookUrls.Refused.class, () -> urls.target(WebhookUrls.parse(url).orElseThrow())).getMessage();
    }

    @Test
    void parseAcceptsAbsoluteHttpAndHttpsOnly() {
        assertTrue(WebhookUrls.parse("https://hooks.partner.example/x?y=1").isPresent());
        assertTrue(WebhookUrls.parse("http://127.0.0.1:8080").isPresent());
        assertTrue(WebhookUrls.parse("HTTPS://Hooks.Partner.Example/").isPresent());
        for (String bad : new String[] {"", "not a url", "/relative/path", "hooks.partner.example/x", "ftp://host/x",
                "mailto:a@b.example", "javascript:alert(1)", "http://", "https:///path", "http://exa mple.com/"}) {
            assertTrue(WebhookUrls.parse(bad).isEmpty(), bad);
        }
    }

    @Test
    void productionRequiresHttps() {
        assertEquals(WebhookUrls.HTTPS_REQUIRED, refusal(production, "http://hooks.partner.example/x"));
    }

    @Test
    void productionRefusesInternalAddressesAndNamesThatResolveToThem() {
        for (String url : new String[] {"https://internal.partner.example/", "https://rebind.partner.example/",
                "https://metadata.partner.example/", "https://mapped.partner.example/", "https://127.0.0.1/",
                "https://[::1]/", "https://[::ffff:127.0.0.1]/", "https://[::ffff:7f00:1]/", "https://10.0.0.1:8443/",
                "https://0.0.0.0/", "https://[fd00::1]/", "https://[fe80::1]/", "https://2130706433/"}) {
            assertEquals(WebhookUrls.ADDRESS_NOT_ALLOWED, refusal(production, url), url);
        }
    }

    @Test
    void productionRefusesUnresolvableHosts() {
        assertEquals(WebhookUrls.NOT_RESOLVED, refusal(production, "https://nowhere.partner.example/"));
    }

    @Test
    void productionAllowsPublicHttpsAndConnectsToTheCheckedAddress() throws Exception {
        WebhookUrls.Target target = production.target(URI.create("https://hooks.partner.example/hooks?a=b#frag"));
        assertEquals("hooks.partner.example", target.host());
        assertEquals(443, target.port());
        assertTrue(target.ssl());
        assertEquals("/hooks?a=b", target.requestUri());
        assertEquals("93.184.216.34", target.address().getHostAddress());

        WebhookUrls.Target v6 = production.target(URI.create("https://v6.partner.example:8443"));
        assertEquals(8443, v6.port());
        assertEquals("/", v6.requestUri());
    }

    @Test
    void sandboxAllowsHttpAndLoopback() throws Exception {
        WebhookUrls.Target target = sandbox.target(URI.create("http://127.0.0.1:9999/h"));
        assertEquals(9999, target.port());
        assertEquals("127.0.0.1", target.address().getHostAddress());
        sandbox.target(URI.create("http://internal.partner.example/"));
    }
}
