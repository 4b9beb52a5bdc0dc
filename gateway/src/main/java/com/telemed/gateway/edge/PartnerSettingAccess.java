package com.telemed.gateway.edge;

import com.telemed.common.access.OpsAccess;
import com.telemed.common.access.Principal;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a caller may make a call of a partner setting another service owns, exactly as that
 * service's {@code access.OpsAccessFilter} will decide it (platform-commons' one table,
 * {@link OpsAccess}): the edge looks the partner up only for a call that would get past it, so a
 * refused caller gets its {@code 401}/{@code 403} from the service as before, and the
 * {@code 404 Partner not found} comes after them. The rows are the table's own
 * {@code /ops/v1/partners/{partnerId}/...} operations, each template matched as a path (a
 * placeholder is one segment); a path no row matches is the service's to refuse. Pure: no I/O.
 */
final class PartnerSettingAccess {

    private record Operation(String method, Pattern path, String template) {
    }

    private static final String PARTNER_OPERATIONS = "/ops/v1/partners/{";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{[^}/]+}");

    private static final List<Operation> OPERATIONS = OpsAccess.operations().stream()
            .filter(operation -> operation.substring(operation.indexOf(' ') + 1).startsWith(PARTNER_OPERATIONS))
            .map(operation -> {
                String method = operation.substring(0, operation.indexOf(' '));
                String template = operation.substring(operation.indexOf(' ') + 1);
                return new Operation(method, pattern(template), template);
            })
            .toList();

    private PartnerSettingAccess() {
    }

    /** Whether {@code principal} gets past the access table on {@code method path}; {@code production} as the services judge it. */
    static boolean allowed(String method, String path, Principal principal, boolean production) {
        String verb = method.toUpperCase(Locale.ROOT).equals("HEAD") ? "GET" : method.toUpperCase(Locale.ROOT);
        return OPERATIONS.stream()
                .filter(operation -> operation.method().equals(verb) && operation.path().matcher(path).matches())
                .findFirst()
                .map(operation -> OpsAccess.decide(verb, operation.template(), Optional.ofNullable(principal), production)
                        == OpsAccess.Verdict.ALLOWED)
                .orElse(false);
    }

    private static Pattern pattern(String template) {
        StringBuilder regex = new StringBuilder();
        Matcher placeholders = PLACEHOLDER.matcher(template);
        int at = 0;
        while (placeholders.find()) {
            regex.append(Pattern.quote(template.substring(at, placeholders.start()))).append("[^/]+");
            at = placeholders.end();
        }
        return Pattern.compile(regex.append(Pattern.quote(template.substring(at))).toString());
    }
}
