package com.telemed.webhook.delivery;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.webhook.address.WebhookUrls;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/**
 * The sender's second-long memory of checked URLs (issue 44) alone: kept for a second, by URL text, bounded; checked
 * again from half a second on while in use (round 3). No Quarkus.
 */
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
    void aUrlInUseIsCheckedAgainFromHalfASecondOnOnceAtATime() {
        Sender.Targets targets = new Sender.Targets();
        String url = "http://127.0.0.1/hooks";
        assertFalse(targets.refreshDue(url, 0), "never looked up: the attempt looks it up itself");
        targets.put(url, target("127.0.0.1"), 5 * SECOND);
        assertFalse(targets.refreshDue(url, 5 * SECOND + SECOND / 2 - 1), "younger than half a second");
        assertTrue(targets.refreshDue(url, 5 * SECOND + SECOND / 2), "half a second old: checked again");
        assertFalse(targets.refreshDue(url, 5 * SECOND + SECOND / 2 + 1), "one refresh at a time");
        WebhookUrls.Target rechecked = target("127.0.0.1");
        targets.put(url, rechecked, 5 * SECOND + SECOND / 2 + 2);
        targets.refreshed(url);
        assertSame(rechecked, targets.fresh(url, 6 * SECOND + SECOND / 2), "the refreshed check counts from its own time");
        assertTrue(targets.refreshDue(url, 6 * SECOND + 2), "and is refreshed again half a second later");
        assertFalse(targets.refreshDue("http://127.0.0.1/other", 6 * SECOND), "by URL text");
    }

    @Test
    void aUrlRefusedOnItsRefreshIsLookedUpAgainByItsNextAttempt() {
        Sender.Targets targets = new Sender.Targets();
        String url = "http://127.0.0.1/hooks";
        targets.put(url, target("127.0.0.1"), 0);
        assertTrue(targets.refreshDue(url, SECOND / 2));
        targets.forget(url);
        targets.refreshed(url);
        assertNull(targets.fresh(url, SECOND / 2 + 1), "a refusal is never kept: the next attempt looks again");
        assertFalse(targets.refreshDue(url, SECOND / 2 + 1));
    }

    @Test
    void anOldEntryIsNotRefreshedButLookedUpByTheAttempt() {
        Sender.Targets targets = new Sender.Targets();
        targets.put("http://127.0.0.1/hooks", target("127.0.0.1"), 0);
        assertFalse(targets.refreshDue("http://127.0.0.1/hooks", SECOND), "a second old: the attempt itself looks it up");
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
