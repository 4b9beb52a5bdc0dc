package com.telemed.web.survey;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The {@code return=} rule on its own: which URLs have an origin we accept, and how the response id is added. */
class ReturnUrlsTest {

    @Test
    void anAbsoluteHttpUrlHasItsOriginLowerCasedWithoutItsDefaultPort() {
        assertEquals(Optional.of("https://partner.example"), ReturnUrls.origin("https://partner.example/a/b?c=d#e"));
        assertEquals(Optional.of("https://partner.example"), ReturnUrls.origin("HTTPS://Partner.Example:443/"));
        assertEquals(Optional.of("http://partner.example"), ReturnUrls.origin("http://partner.example:80"));
        assertEquals(Optional.of("http://localhost:3000"), ReturnUrls.origin("http://localhost:3000/done"));
        assertEquals(Optional.of("https://partner.example:8443"), ReturnUrls.origin(" https://partner.example:8443/x "));
    }

    @Test
    void anythingElseHasNone() {
        for (String url : java.util.Arrays.asList(null, "", " ", "/relative", "//partner.example/x", "partner.example/x", "javascript:alert(1)",
                "data:text/html,x", "ftp://partner.example/", "https://user:pw@partner.example/", "https://user@partner.example/",
                "https://partner example/", "https://partner.example/\r\nSet-Cookie: x", "mailto:a@partner.example", "https:///x",
                "https://a;b.example/")) {
            assertEquals(Optional.empty(), ReturnUrls.origin(url), String.valueOf(url));
        }
    }

    @Test
    void allowedOnlyWhenTheOriginIsListedExactly() {
        List<String> allowed = List.of("https://partner.example", "http://localhost:3000/");
        assertEquals(Optional.of("https://partner.example"), ReturnUrls.allowedOrigin("https://PARTNER.example/done", allowed));
        assertEquals(Optional.of("http://localhost:3000"), ReturnUrls.allowedOrigin("http://localhost:3000/x?y=1", allowed));
        assertEquals(Optional.empty(), ReturnUrls.allowedOrigin("http://partner.example/done", allowed));
        assertEquals(Optional.empty(), ReturnUrls.allowedOrigin("https://partner.example:444/done", allowed));
        assertEquals(Optional.empty(), ReturnUrls.allowedOrigin("https://sub.partner.example/done", allowed));
        assertEquals(Optional.empty(), ReturnUrls.allowedOrigin("https://partner.example.evil.example/", allowed));
        assertEquals(Optional.empty(), ReturnUrls.allowedOrigin("http://localhost:3001/", allowed));
        assertEquals(Optional.empty(), ReturnUrls.allowedOrigin("https://partner.example/", List.of()));
        assertEquals(Optional.empty(), ReturnUrls.allowedOrigin("https://partner.example/", List.of("not an origin", "*")));
    }

    @Test
    void theResponseIdJoinsTheQueryBeforeAnyFragment() {
        assertEquals("https://p.example/done?responseId=r1", ReturnUrls.withResponseId("https://p.example/done", "r1"));
        assertEquals("https://p.example/done?a=1&responseId=r1", ReturnUrls.withResponseId("https://p.example/done?a=1", "r1"));
        assertEquals("https://p.example/done?responseId=r1", ReturnUrls.withResponseId("https://p.example/done?", "r1"));
        assertEquals("https://p.example/done?a=1&responseId=r1", ReturnUrls.withResponseId("https://p.example/done?a=1&", "r1"));
        assertEquals("https://p.example/done?a=1&responseId=r1#step", ReturnUrls.withResponseId("https://p.example/done?a=1#step", "r1"));
        assertEquals("https://p.example?responseId=r1#x?y", ReturnUrls.withResponseId("https://p.example#x?y", "r1"));
    }
}
