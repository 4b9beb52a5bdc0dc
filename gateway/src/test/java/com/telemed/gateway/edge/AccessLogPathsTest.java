package com.telemed.gateway.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Paths as the access log writes them: bearer tokens (and attachment file names) never, everything else as received. */
class AccessLogPathsTest {

    private static final String TOKEN = "q3V0b2tlbi1ib29raW5nLWxpbmstMjRi";

    @Test
    void bookingTokensAreRedacted() {
        assertEquals("/ops/v1/bookings/[redacted]/appointment", AccessLogPaths.redact("/ops/v1/bookings/" + TOKEN + "/appointment"));
        assertEquals("/ops/v1/bookings/[redacted]", AccessLogPaths.redact("/ops/v1/bookings/" + TOKEN));
        assertEquals("/book/[redacted]", AccessLogPaths.redact("/book/" + TOKEN));
        assertEquals("/book/[redacted]/", AccessLogPaths.redact("/book/" + TOKEN + "/"));
        // However it is spelt: the path is logged whether or not it is routed.
        assertEquals("/OPS/V1/BOOKINGS/[redacted]/appointment", AccessLogPaths.redact("/OPS/V1/BOOKINGS/" + TOKEN + "/appointment"));
        assertEquals("/ops/v1/bookings//[redacted]/appointment", AccessLogPaths.redact("/ops/v1/bookings//" + TOKEN + "/appointment"));
        assertEquals("/v1/book/[redacted]", AccessLogPaths.redact("/v1/book/" + TOKEN));
    }

    /** Issue #39: a returning member's hosted survey page, {@code /surveys/t/:token}. */
    @Test
    void surveyTokensOfTheHostedSurveyPageAreRedacted() {
        assertEquals("/surveys/t/[redacted]", AccessLogPaths.redact("/surveys/t/" + TOKEN));
        assertEquals("/surveys/t/[redacted]/", AccessLogPaths.redact("/surveys/t/" + TOKEN + "/"));
        assertEquals("/surveys/t/[redacted]/more", AccessLogPaths.redact("/surveys/t/" + TOKEN + "/more"));
        // However it is spelt, as for booking tokens.
        assertEquals("/SURVEYS/T/[redacted]", AccessLogPaths.redact("/SURVEYS/T/" + TOKEN));
        assertEquals("/surveys//t//[redacted]", AccessLogPaths.redact("/surveys//t//" + TOKEN));
        assertEquals("/x/surveys/t/[redacted]", AccessLogPaths.redact("/x/surveys/t/" + TOKEN));
        // The booking page's forms.
        assertEquals("/book/[redacted]/reschedule", AccessLogPaths.redact("/book/" + TOKEN + "/reschedule"));
        assertEquals("/book/[redacted]/cancel", AccessLogPaths.redact("/book/" + TOKEN + "/cancel"));
    }

    @Test
    void attachmentLinkTokensAndFileNamesAreRedacted() {
        String attachmentToken = "q3V0b2tlbi1hdHRhY2htZW50LWxpbmstNDMtY2hhcnM";
        assertEquals("/attachments/[redacted]/[redacted]", AccessLogPaths.redact("/attachments/" + attachmentToken + "/scan%20report.pdf"));
        assertEquals("/attachments/[redacted]", AccessLogPaths.redact("/attachments/" + attachmentToken));
        assertEquals("/attachments/[redacted]/", AccessLogPaths.redact("/attachments/" + attachmentToken + "/"));
        assertEquals("/attachments/[redacted]/[redacted]/more", AccessLogPaths.redact("/attachments/" + attachmentToken + "/a.pdf/more"));
        // However it is spelt, as for booking tokens.
        assertEquals("/ATTACHMENTS//[redacted]//[redacted]", AccessLogPaths.redact("/ATTACHMENTS//" + attachmentToken + "//a.pdf"));
        assertEquals("/v1/attachments/[redacted]/[redacted]", AccessLogPaths.redact("/v1/attachments/" + attachmentToken + "/a.pdf"));
    }

    @Test
    void otherPathsAreWrittenAsReceived() {
        for (String path : new String[] {"/v1/members/7c1f4e2a-0000-4000-8000-000000000001", "/ops/v1/bookings", "/ops/v1/bookings/",
                "/book", "/v1/bookmarks/x", "/ops/v1/appointments/a1/reschedule", "/v2/embed/by-token/survey", "/",
                // The upload routes: nothing after attachments.
                "/v1/messages/conversations/c1/attachments", "/ops/v1/conversations/c1/prescriber-attachments",
                "/attachments", "/attachments/", "/v1/attachmentsx/t/f",
                // A new patient's survey page names a survey, no secret (its key is in the query, never logged).
                "/surveys/intake-1", "/surveys/t", "/surveys/t/", "/surveys/tx/abc", "/v1/surveys/v2/tokens", "/surveyst/t/x",
                "/assets/web/style.css", "/console"}) {
            assertEquals(path, AccessLogPaths.redact(path));
        }
    }
}
