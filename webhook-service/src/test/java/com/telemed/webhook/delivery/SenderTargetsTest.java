package com.telemed.webhook.delivery;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.telemed.webhook.address.WebhookUrls;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** The sender's second-long memory of checked URLs (issue 44) alone: kept for a second, by URL text, bounded. No Quarkus. */
class SenderTargetsTest {

    private static final long SECOND = 1_000_000_000L;

    private static WebhookUrls.Target target(String host) {
        return new WebhookUrls.Target(host, 80, false, "/hooks", InetAddress.getLoopbackAddress());
    }

    @Test
    void aCheckedUrlIsReusedForOneSecondThenLookedUpAgain() {
        Sender.Targets targets = new Sender.Targets();
        WebhookUrls.Target checked = target("127.0.0.1");
        assertNull(targets.fresh("http://127.0.0.1/hooks", 0), "never looked up");
        targets.put("http://127.0.0.1/hooks", checked, 5 * SECOND);
        assertSame(checked, targets.fresh("http://127.0.0.1/hooks", 5 * SECOND));
        assertSame(checked, targets.fresh("http://127.0.0.1/hooks", 6 * SECOND - 1));
        assertNull(targets.fresh("http://127.0.0.1/hooks", 6 * SECOND), "a second old: resolved and checked again");
        assertNull(targets.fresh("http://127.0.0.1/other", 5 * SECOND), "by URL text: another URL is not the same target");
    }

    @Test
    void fullItStartsAgainEmpty() {
        Sender.Targets targets = new Sender.Targets();
        for (int i = 0; i < Sender.Targets.MAX; i++) {
            targets.put("http://h" + i + "/", target("h" + i), 0);
        }
        assertSame(targets.fresh("http://h0/", 0), targets.fresh("http://h0/", 0));
        WebhookUrls.Target last = target("last");
        targets.put("http://last/", last, 0);
        assertNull(targets.fresh("http://h0/", 0), "cleared when full");
        assertSame(last, targets.fresh("http://last/", 0));
    }
}
