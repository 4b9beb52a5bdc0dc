package com.telemed.gateway.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class RequestTargetTest {

    @ParameterizedTest
    @ValueSource(strings = {"/v1/members", "/v1/members/", "/v1/members?search=ann+lee&page=2", "/v1/members?search=",
            "/v1/members?", "/v1/members/%C3%A9", "/v1/members?search=%E2%80%AE", "/v1/members?search=%F0%9F%92%8A",
            "/v1/members/%ED%A0%80", "/v1/members/%00", "/v1/members?flag", "/v1/members?a=1&&b=2", "/v1/members?x=[", "*"})
    void acceptsTargetsThatAreUrisWithUtf8Parameters(String target) {
        assertEquals(new RequestTarget.Accepted(), RequestTarget.check(target));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/v1/members/%ZZ", "/v1/members/%", "/v1/members/a%2", "/v1/members?x=%ZZ", "/v1/members?x=%",
            "/v1/members?#frag", "/v1/members#frag", "/v1/me mbers", "/v1/members?x=a b", "/v1/members\u0001", "",
            // Issue #38: raw bytes outside printable ASCII, as the HTTP codec hands them on (one char per byte).
            "/v1/members/\u00e9", "/v1/members?search=\u00c3\u00a9", "/attachments/t/\u00ff.pdf", "/v1/members\u007f",
            "/v1/members/\u0080", "/v1/members?x=\u00a0"})
    void refusesTargetsThatAreNotUris(String target) {
        assertEquals(new RequestTarget.NotAUri(), RequestTarget.check(target));
    }

    @Test
    void namesEachParameterWhoseEscapesAreNotUtf8() {
        assertEquals(new RequestTarget.InvalidParameters(List.of("search", "memberId")),
                RequestTarget.check("/v1/members?search=%ED%A0%80&page=1&memberId=%FF&search=%C0%AF"));
    }

    @Test
    void namesAParameterWhoseNameDoesNotDecodeAsSent() {
        assertEquals(new RequestTarget.InvalidParameters(List.of("%FFname", "flag%FE")),
                RequestTarget.check("/v1/requests?%FFname=1&flag%FE"));
    }

    @Test
    void decodesFormEncodingStrictly() {
        assertEquals("ann lee+é💊", RequestTarget.decode("ann+lee%2B%C3%A9%F0%9F%92%8A"));
        assertEquals("é", RequestTarget.decode("é"));
        assertNull(RequestTarget.decode("%ED%A0%80"));
        assertNull(RequestTarget.decode("%C3"));
    }
}
