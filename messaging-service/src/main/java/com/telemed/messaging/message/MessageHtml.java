package com.telemed.messaging.message;

import java.util.Locale;
import java.util.regex.Pattern;
import org.owasp.html.ElementPolicy;
import org.owasp.html.HtmlPolicyBuilder;
import org.owasp.html.PolicyFactory;

/**
 * The html of a prescriber's templated message, cleaned against an allow-list (issue #38) before it
 * is stored, answered or sent in {@code message.new}'s {@code messageHtml}: partners show it to
 * patients, so it may hold formatting and links, nothing that runs. OWASP Java HTML Sanitizer:
 * {@code p}, {@code br}, {@code strong}, {@code em}, {@code b}, {@code i}, {@code u}, {@code ul},
 * {@code ol}, {@code li}, {@code blockquote}, and {@code a} with an {@code href} of {@code http},
 * {@code https} or {@code mailto} only (relative and every other scheme dropped, the link's text
 * kept), always {@code rel="nofollow noopener"}. Everything else goes: elements not listed
 * ({@code script}, {@code style}, {@code iframe}, {@code object}, {@code svg}, {@code form} with
 * their content; others keep their text), every other attribute ({@code style}, {@code on*},
 * {@code target}, a sent {@code rel}), comments. The output is well-formed and entity-encoded the
 * library's way ({@code <br />}, {@code &#61;} for {@code =}, {@code &#64;} for {@code @}), the
 * same HTML to a browser; cleaning it again changes nothing. Never refuses: the message is posted
 * with what is left, possibly nothing.
 */
public final class MessageHtml {

    /** A link's scheme, before the library's own URL checks (which would also let relative links through). */
    private static final Pattern ALLOWED_HREF = Pattern.compile("(?:https?|mailto):.*", Pattern.DOTALL);

    /**
     * A link's {@code rel}, set here rather than with the library's {@code requireRelsOnLinks}, whose
     * words come out in an order that changes from one JVM to the next (a {@code Set.copyOf}).
     */
    static final String REL = "nofollow noopener";

    /** An {@code a} that kept its {@code href} gets {@link #REL}; the attributes reach it already filtered. */
    private static final ElementPolicy LINK = (element, attributes) -> {
        if (attributes.contains("href")) {
            attributes.add("rel");
            attributes.add(REL);
        }
        return element;
    };

    private static final PolicyFactory POLICY = new HtmlPolicyBuilder()
            .allowElements("p", "br", "strong", "em", "b", "i", "u", "ul", "ol", "li", "blockquote")
            .allowElements(LINK, "a")
            .allowUrlProtocols("http", "https", "mailto")
            .allowAttributes("href")
            .matching((element, attribute, value) -> ALLOWED_HREF.matcher(value.strip().toLowerCase(Locale.ROOT)).matches() ? value : null)
            .onElements("a")
            .toFactory();

    private MessageHtml() {
    }

    /** The allowed part of {@code html}; null stays null (a text message). */
    public static String clean(String html) {
        return html == null ? null : POLICY.sanitize(html);
    }
}
