package com.telemed.messaging.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The allow-list of a prescriber's html (issue #38), input by input; the whole flow is PrescriberMessageTest's. */
class MessageHtmlTest {

    @Test
    void whatRunsOrStylesGoesAndTheFormattingStaysByteForByte() {
        Map<String, String> cleaned = Map.ofEntries(
                Map.entry("<p>Hi <script>alert(1)</script>there</p>", "<p>Hi there</p>"),
                Map.entry("<img src=x onerror=alert(1)><b onclick=\"x()\">bold</b>", "<b>bold</b>"),
                Map.entry("<a href=\"javascript:alert(1)\">x</a><a href=\"JaVaScRiPt:alert(1)\">y</a><a href=\"java&#x09;script:alert(1)\">z</a>",
                        "xyz"),
                Map.entry("<iframe src=\"https://evil.example/\"></iframe>ok", "ok"),
                Map.entry("<p style=\"color:red\">red</p><style>p{}</style>", "<p>red</p>"),
                Map.entry("<svg onload=x>s</svg><form><input></form><object></object><!-- c -->", "s"),
                Map.entry("<a href=\"/relative\">r</a><a href=\"//evil.example/\">p</a><a href=\"data:text/html;base64,PHA+\">d</a>", "rpd"),
                Map.entry("<a href=\"https://book.example/x\" target=\"_blank\" rel=\"opener\">Book</a>",
                        "<a href=\"https://book.example/x\" rel=\"nofollow noopener\">Book</a>"),
                Map.entry("<a href=\"http://clinic.example/\">h</a><a href=\"mailto:care@clinic.example\">m</a>",
                        "<a href=\"http://clinic.example/\" rel=\"nofollow noopener\">h</a>"
                                + "<a href=\"mailto:care&#64;clinic.example\" rel=\"nofollow noopener\">m</a>"),
                Map.entry("<p>a<br>b</p><ul><li>One</li><li>Two &amp; three</li></ul><ol><li>x</li></ol><blockquote>q</blockquote>"
                                + "<strong>s</strong><em>e</em><b>b</b><i>i</i><u>u</u>",
                        "<p>a<br />b</p><ul><li>One</li><li>Two &amp; three</li></ul><ol><li>x</li></ol><blockquote>q</blockquote>"
                                + "<strong>s</strong><em>e</em><b>b</b><i>i</i><u>u</u>"),
                Map.entry("<P>unclosed <a>no link</a>", "<p>unclosed no link</p>"),
                Map.entry("Grüße — “x”", "Grüße — “x”"));
        cleaned.forEach((html, expected) -> {
            assertEquals(expected, MessageHtml.clean(html), html);
            assertEquals(expected, MessageHtml.clean(expected), "cleaning again changes nothing: " + expected);
        });
        assertNull(MessageHtml.clean(null));
    }
}
