package com.telemed.common.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.Config;

/**
 * Transport that fails closed (issue #38): a service deployed with {@code SERVICE_ENVIRONMENT} exactly
 * {@code production} refuses to start, with the rest of {@link ProductionSettings}' refusals, unless
 * every connection that carries patient data or credentials is encrypted and its server verified:
 * <ul>
 *   <li>its datasource ({@code QUARKUS_DATASOURCE_JDBC_URL}): pgjdbc's {@code sslmode=verify-full},
 *       or {@code require} / {@code verify-ca} with {@code sslrootcert} (pgjdbc's default, {@code prefer},
 *       falls back to plain text);</li>
 *   <li>Kafka, when the service has a broker ({@code kafka.bootstrap.servers}): {@code SSL} or
 *       {@code SASL_SSL} ({@code KAFKA_SECURITY_PROTOCOL}; the client's default is {@code PLAINTEXT});</li>
 *   <li>SMTP, when the service mails ({@code quarkus.mailer.start-tls} set): STARTTLS {@code REQUIRED}
 *       ({@code SMTP_START_TLS}).</li>
 * </ul>
 * A sandbox keeps what it is given. The Helm chart refuses the same values at render time.
 */
final class TransportSettings implements ProductionRequirement {

    static final String ENVIRONMENT = "SERVICE_ENVIRONMENT";
    private static final Set<String> VERIFIED_WITH_A_ROOT = Set.of("require", "verify-ca");
    private static final Set<String> ENCRYPTED_KAFKA = Set.of("SSL", "SASL_SSL");

    @Override
    public List<String> refusals(Config config) {
        if (!config.getOptionalValue(ENVIRONMENT, String.class).map("production"::equals).orElse(false)) {
            return List.of();
        }
        List<String> refusals = new ArrayList<>();
        config.getOptionalValue("quarkus.datasource.jdbc.url", String.class).ifPresent(url -> {
            Map<String, String> parameters = parameters(url);
            String sslmode = parameters.getOrDefault("sslmode", "prefer");
            boolean verified = sslmode.equals("verify-full")
                    || VERIFIED_WITH_A_ROOT.contains(sslmode) && parameters.containsKey("sslrootcert");
            if (!verified) {
                refusals.add("quarkus.datasource.jdbc.url (QUARKUS_DATASOURCE_JDBC_URL) has sslmode " + sslmode
                        + "; production needs verify-full, or require or verify-ca with sslrootcert");
            }
        });
        if (config.getOptionalValue("kafka.bootstrap.servers", String.class).isPresent()) {
            String protocol = config.getOptionalValue("kafka.security.protocol", String.class).orElse("PLAINTEXT");
            if (!ENCRYPTED_KAFKA.contains(protocol)) {
                refusals.add("kafka.security.protocol (KAFKA_SECURITY_PROTOCOL) is " + ProductionRequirement.quote(protocol)
                        + "; production needs SSL or SASL_SSL");
            }
        }
        Optional<String> startTls = config.getOptionalValue("quarkus.mailer.start-tls", String.class);
        if (startTls.isPresent() && !startTls.get().equals("REQUIRED")) {
            refusals.add("quarkus.mailer.start-tls (SMTP_START_TLS) is " + ProductionRequirement.quote(startTls.get())
                    + "; production needs REQUIRED");
        }
        return refusals;
    }

    /** The query parameters of a JDBC URL, as pgjdbc reads them (the last of a repeated name wins). */
    static Map<String, String> parameters(String url) {
        Map<String, String> parameters = new HashMap<>();
        int question = url.indexOf('?');
        if (question < 0) {
            return parameters;
        }
        for (String pair : url.substring(question + 1).split("&")) {
            int equals = pair.indexOf('=');
            if (equals > 0) {
                parameters.put(pair.substring(0, equals), pair.substring(equals + 1));
            }
        }
        return parameters;
    }
}
