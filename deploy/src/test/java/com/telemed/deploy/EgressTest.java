package com.telemed.deploy;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.IPBlock;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import static com.telemed.deploy.Chart.Service.BILLING;
import static com.telemed.deploy.Chart.Service.CATALOGUE;
import static com.telemed.deploy.Chart.Service.GATEWAY;
import static com.telemed.deploy.Chart.Service.MEMBERS;
import static com.telemed.deploy.Chart.Service.MESSAGING;
import static com.telemed.deploy.Chart.Service.REQUESTS;
import static com.telemed.deploy.Chart.Service.WEB;
import static com.telemed.deploy.Chart.Service.WEBHOOK;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue #38: each service connects only to what it uses: DNS, its PostgreSQL port (all but
 * web-service, which has no database), Kafka (all but the gateway and web-service, which have no
 * Kafka client: KafkaTest), the services it calls (ExposureTest.CALLS),
 * SMTP (messaging-service), the OTLP collector when tracing is on, and, for webhook-service (partner
 * webhook URLs) and requests-service (HTTP pharmacies) alone, public addresses outside the cluster.
 * Each policy's egress is compared whole, rule by rule, as "ports -> peers" lines.
 */
class EgressTest {

    /** The services whose code connects outside the platform: webhook-service's Sender, requests-service's HttpPharmacy. */
    static final Set<Chart.Service> OUTSIDE = EnumSet.of(REQUESTS, WEBHOOK);

    private static final String DNS = "UDP/53,TCP/53 -> ns{} pod{k8s-app=kube-dns}";
    private static final String PUBLIC = "ip 0.0.0.0/0 except [10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 169.254.0.0/16]";
    private static final String OUTSIDE_RULE = "TCP/443,TCP/80 -> " + PUBLIC;

    private static final Manifests DEFAULTS = Chart.render(Chart.minimal());

    @Test
    void eachServiceReachesExactlyWhatItUsesWithTheDefaults() {
        for (Chart.Service service : Chart.Service.all()) {
            List<String> expected = new ArrayList<>(List.of(DNS));
            if (service.database()) {
                expected.add("TCP/5432 -> any");
            }
            if (service.kafka()) {
                expected.add("TCP/9092 -> any");
            }
            calls(service).ifPresent(expected::add);
            if (service == MESSAGING) {
                expected.add("TCP/25 -> any");
            }
            if (OUTSIDE.contains(service)) {
                expected.add(OUTSIDE_RULE);
            }
            assertThat(egress(DEFAULTS, service)).as(service.module()).containsExactlyInAnyOrderElementsOf(expected);
        }
        assertThat(egress(DEFAULTS, GATEWAY)).containsExactlyInAnyOrder(DNS, "TCP/5432 -> any",
                "TCP/http -> " + pods(REQUESTS, MEMBERS, CATALOGUE, MESSAGING, BILLING, WEBHOOK, WEB));
        // The pages: requests-service and the gateway's internal endpoint, nothing else (no database, no Kafka).
        assertThat(egress(DEFAULTS, WEB)).containsExactlyInAnyOrder(DNS, "TCP/http -> " + pods(REQUESTS, GATEWAY));
        assertThat(egress(DEFAULTS, WEBHOOK)).containsExactlyInAnyOrder(DNS, "TCP/5432 -> any", "TCP/9092 -> any", OUTSIDE_RULE);
    }

    @Test
    void productionNarrowsPostgresqlAndKafkaToThePlatformsSubnets() {
        Manifests production = Chart.render(Map.of(), Chart.PRODUCTION);

        for (Chart.Service service : Chart.Service.all()) {
            List<String> expected = new ArrayList<>(List.of(DNS));
            if (service.database()) {
                expected.add("TCP/5432 -> ip 10.20.0.0/24");
            }
            if (service.kafka()) {
                expected.add("TCP/9096 -> ip 10.20.1.0/24");
            }
            calls(service).ifPresent(expected::add);
            if (service == MESSAGING) {
                expected.add("TCP/587 -> any");
            }
            if (OUTSIDE.contains(service)) {
                expected.add(OUTSIDE_RULE);
            }
            if (service == GATEWAY || service == WEB) {
                // values-production.yaml's OpenID Connect provider (identity.oidc.issuer, https): the gateway's,
                // and the console's (identity.oidc.consoleClientId).
                expected.add("TCP/443 -> any");
            }
            NetworkPolicy policy = production.get(NetworkPolicy.class, service.resourceName());
            assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
            assertThat(egress(production, service)).as(service.module()).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    /** The gateway and web-service have no Kafka client (their application.properties: platform.kafka.enabled=false). */
    @Test
    void theGatewayAndWebServiceHaveNoKafkaRule() {
        Manifests manifests = Chart.render(Chart.minimal("kafka.bootstrapServers", "kafka-0.care.example:9093"));

        assertThat(egress(manifests, GATEWAY)).noneMatch(rule -> rule.contains("9093"));
        assertThat(egress(manifests, WEB)).noneMatch(rule -> rule.contains("9093"));
        for (Chart.Service service : Chart.Service.all()) {
            if (service.kafka()) {
                assertThat(egress(manifests, service)).as(service.module()).contains("TCP/9093 -> any");
            }
        }
    }

    /**
     * Only webhook-service and requests-service reach beyond the cluster, and then not its private
     * ranges nor the cloud's metadata endpoint (169.254.169.254): a webhook URL naming an internal
     * address finds no route even where the application's own check would let it through (sandbox).
     */
    @Test
    void onlyWebhookAndRequestsReachTheOutsideAndNotThePrivateRanges() {
        for (Chart.Service service : Chart.Service.all()) {
            List<NetworkPolicyPeer> ipBlocks = rules(DEFAULTS, service).stream()
                    .flatMap(rule -> rule.getTo().stream()).filter(peer -> peer.getIpBlock() != null).toList();
            if (!OUTSIDE.contains(service)) {
                assertThat(ipBlocks).as(service.module()).isEmpty();
                continue;
            }
            assertThat(ipBlocks).as(service.module()).singleElement().satisfies(peer -> {
                IPBlock block = peer.getIpBlock();
                assertThat(block.getCidr()).isEqualTo("0.0.0.0/0");
                assertThat(block.getExcept()).containsExactly("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16");
            });
        }

        Manifests proxied = Chart.render(Chart.minimal("networkPolicy.egress.outside.ports[0]", "3128",
                "networkPolicy.egress.outside.to[0].namespaceSelector.matchLabels.role", "egress-proxy"));
        for (Chart.Service service : OUTSIDE) {
            assertThat(egress(proxied, service)).contains("TCP/3128 -> ns{role=egress-proxy}").doesNotContain(OUTSIDE_RULE);
        }
    }

    @Test
    void messagingReachesItsSmtpServerAndNoOtherServiceDoes() {
        Manifests manifests = Chart.render(Chart.minimal("smtp.port", "2525",
                "networkPolicy.egress.smtp.to[0].ipBlock.cidr", "10.30.0.25/32"));

        for (Chart.Service service : Chart.Service.all()) {
            if (service == MESSAGING) {
                assertThat(egress(manifests, service)).contains("TCP/2525 -> ip 10.30.0.25/32");
            } else {
                assertThat(egress(manifests, service)).as(service.module()).noneMatch(rule -> rule.contains("2525"));
            }
        }
    }

    @Test
    void eachServiceReachesItsOwnDatabasePort() {
        Manifests manifests = Chart.render(Chart.minimal("services.billing.database.port", "6432",
                "networkPolicy.egress.postgresql.to[0].ipBlock.cidr", "10.40.0.0/24"));

        assertThat(egress(manifests, WEB)).noneMatch(rule -> rule.contains("5432") || rule.contains("10.40.0.0/24"));
        for (Chart.Service service : Chart.Service.withDatabase()) {
            String port = service == BILLING ? "6432" : "5432";
            assertThat(egress(manifests, service)).as(service.module())
                    .contains("TCP/" + port + " -> ip 10.40.0.0/24")
                    .noneMatch(rule -> rule.contains(service == BILLING ? "5432" : "6432"));
        }
    }

    @Test
    void kafkasPortsComeFromTheBootstrapServersOrAreListed() {
        Manifests parsed = Chart.render(Chart.minimal("kafka.bootstrapServers",
                "b-1.kafka.example:9094, b-2.kafka.example:9094,[2001:db8::7]:9095"));
        assertThat(egress(parsed, REQUESTS)).contains("TCP/9094,TCP/9095 -> any");

        Manifests listed = Chart.render(Chart.minimal("networkPolicy.egress.kafka.ports[0]", "19092",
                "networkPolicy.egress.kafka.ports[1]", "19093"));
        assertThat(egress(listed, REQUESTS)).contains("TCP/19092,TCP/19093 -> any").noneMatch(rule -> rule.contains("9092 "));

        assertThat(Chart.renderFailure(Chart.minimal("kafka.bootstrapServers", "kafka-0.care.example:9092,kafka-1.care.example")))
                .contains("kafka.bootstrapServers: \"kafka-1.care.example\" has no port (host:port); "
                        + "or list the brokers' ports in networkPolicy.egress.kafka.ports");
    }

    @Test
    void everyServiceReachesTheOtlpCollectorWhenTracingIsOn() {
        Manifests grpc = Chart.render(Chart.minimal("tracing.otlpEndpoint", "http://otel-collector.observability:4317",
                "networkPolicy.egress.tracing.to[0].namespaceSelector.matchLabels.team", "observability"));
        Manifests https = Chart.render(Chart.minimal("tracing.otlpEndpoint", "https://otlp.example.com/v1"));

        for (Chart.Service service : Chart.Service.all()) {
            assertThat(egress(grpc, service)).as(service.module()).contains("TCP/4317 -> ns{team=observability}");
            assertThat(egress(https, service)).as(service.module()).contains("TCP/443 -> any");
            assertThat(egress(DEFAULTS, service)).as(service.module()).noneMatch(rule -> rule.contains("4317"));
        }
    }

    /** Issue #40: the gateway reaches its OpenID Connect provider's port (discovery, signing keys), and no other service does. */
    @Test
    void theGatewayReachesItsOpenIdConnectProviderWhenOneIsSet() {
        Manifests keycloak = Chart.render(Chart.minimal("identity.oidc.issuer", "http://keycloak.identity:8180/realms/telemed",
                "identity.oidc.audience", "telemed-ops",
                "networkPolicy.egress.identity.to[0].namespaceSelector.matchLabels.team", "identity"));
        Manifests https = Chart.render(Chart.minimal("identity.oidc.issuer", "https://login.example.com/realms/telemed",
                "identity.oidc.audience", "telemed-ops"));

        assertThat(egress(keycloak, GATEWAY)).contains("TCP/8180 -> ns{team=identity}");
        assertThat(egress(https, GATEWAY)).contains("TCP/443 -> any");
        assertThat(egress(DEFAULTS, GATEWAY)).noneMatch(rule -> rule.contains("443") || rule.contains("8180"));
        for (Chart.Service service : Chart.Service.all()) {
            if (service != GATEWAY) {
                assertThat(egress(keycloak, service)).as(service.module()).noneMatch(rule -> rule.contains("8180"));
            }
        }
    }

    /**
     * Issue #41: web-service reaches the same provider's port (discovery, token endpoint, signing keys) when the
     * console signs people in with OpenID Connect (identity.oidc.consoleClientId), and only then.
     */
    @Test
    void webServiceReachesTheProviderWhenTheConsoleHasAClient() {
        Manifests keycloak = Chart.render(Chart.minimal("identity.oidc.issuer", "http://keycloak.identity:8180/realms/telemed",
                "identity.oidc.audience", "telemed-ops", "identity.oidc.consoleClientId", "telemed-console",
                "secrets.consoleOidcClient.existingSecret", "console-client",
                "networkPolicy.egress.identity.to[0].namespaceSelector.matchLabels.team", "identity"));
        Manifests https = Chart.render(Chart.minimal("identity.oidc.issuer", "https://login.example.com/realms/telemed",
                "identity.oidc.audience", "telemed-ops", "identity.oidc.consoleClientId", "telemed-console",
                "secrets.consoleOidcClient.existingSecret", "console-client"));
        Manifests gatewayOnly = Chart.render(Chart.minimal("identity.oidc.issuer", "http://keycloak.identity:8180/realms/telemed",
                "identity.oidc.audience", "telemed-ops"));

        assertThat(egress(keycloak, WEB)).containsExactlyInAnyOrder(DNS, "TCP/http -> " + pods(REQUESTS, GATEWAY),
                "TCP/8180 -> ns{team=identity}");
        assertThat(egress(keycloak, GATEWAY)).contains("TCP/8180 -> ns{team=identity}");
        assertThat(egress(https, WEB)).containsExactlyInAnyOrder(DNS, "TCP/http -> " + pods(REQUESTS, GATEWAY), "TCP/443 -> any");
        assertThat(egress(gatewayOnly, WEB)).isEqualTo(egress(DEFAULTS, WEB));
        for (Chart.Service service : Chart.Service.all()) {
            if (service != GATEWAY && service != WEB) {
                assertThat(egress(keycloak, service)).as(service.module()).noneMatch(rule -> rule.contains("8180"));
            }
        }
    }

    @Test
    void dnsAndExtraPeersAreTheValues() {
        Manifests manifests = Chart.render(Chart.minimal(
                "networkPolicy.egress.dns.to[0].ipBlock.cidr", "169.254.20.10/32",
                "networkPolicy.egress.extraTo[0].namespaceSelector.matchLabels.team", "vault"));

        for (Chart.Service service : Chart.Service.all()) {
            assertThat(egress(manifests, service)).as(service.module())
                    .contains("UDP/53,TCP/53 -> ip 169.254.20.10/32", "any -> ns{team=vault}")
                    .doesNotContain(DNS);
        }
    }

    @Test
    void egressCanBeTurnedOffKeepingTheIngressPolicies() {
        Manifests off = Chart.render(Chart.minimal("networkPolicy.egress.enabled", "false"));

        for (Chart.Service service : Chart.Service.all()) {
            NetworkPolicy policy = off.get(NetworkPolicy.class, service.resourceName());
            assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
            assertThat(policy.getSpec().getEgress()).isEmpty();
            assertThat(policy.getSpec().getIngress())
                    .isEqualTo(DEFAULTS.get(NetworkPolicy.class, service.resourceName()).getSpec().getIngress());
            assertThat(DEFAULTS.get(NetworkPolicy.class, service.resourceName()).getSpec().getPolicyTypes())
                    .containsExactly("Ingress", "Egress");
        }
    }

    @Test
    void theSchemaRefusesAnEmptyOutsidePortListAndUnknownKeys() {
        assertThat(Chart.renderFailure(Chart.minimal("networkPolicy.egress.outside.ports", "{}")))
                .startsWith(SchemaTest.SCHEMA_FAILURE).contains("/networkPolicy/egress/outside/ports");
        assertThat(Chart.renderFailure(Chart.minimal("networkPolicy.egress.extraPorts[0]", "1")))
                .startsWith(SchemaTest.SCHEMA_FAILURE).contains("/networkPolicy/egress");
    }

    /** The topics Job's pod (component kafka-topics) matches no policy, so none restricts it. */
    @Test
    void theKafkaTopicsJobIsCoveredByNoPolicy() {
        Manifests manifests = Chart.render(Chart.minimal("kafka.topics.create", "true", "kafka.topics.job.helmHook", "false"));

        Map<String, String> podLabels = manifests.ofKind(Job.class).get(0).getSpec().getTemplate().getMetadata().getLabels();
        assertThat(podLabels).containsEntry("app.kubernetes.io/component", "kafka-topics");
        for (NetworkPolicy policy : manifests.ofKind(NetworkPolicy.class)) {
            assertThat(podLabels.entrySet().containsAll(policy.getSpec().getPodSelector().getMatchLabels().entrySet()))
                    .as(policy.getMetadata().getName()).isFalse();
        }
    }

    private static Optional<String> calls(Chart.Service service) {
        Set<Chart.Service> called = ExposureTest.CALLS.get(service);
        return called.isEmpty() ? Optional.empty()
                : Optional.of("TCP/http -> " + pods(called.toArray(Chart.Service[]::new)));
    }

    /** The peers of a rule to the given services: their Deployments' selector labels, sorted as {@link #describe} sorts. */
    private static String pods(Chart.Service... services) {
        return Arrays.stream(services)
                .map(s -> "pod" + new TreeMap<>(DEFAULTS.deployment(s).getSpec().getSelector().getMatchLabels()))
                .sorted().collect(Collectors.joining(", "));
    }

    private static List<NetworkPolicyEgressRule> rules(Manifests manifests, Chart.Service service) {
        return manifests.get(NetworkPolicy.class, service.resourceName()).getSpec().getEgress();
    }

    /** Each egress rule as "PROTOCOL/port,... -> peer, ..." ("any" for no ports or no peers; peers sorted). */
    static List<String> egress(Manifests manifests, Chart.Service service) {
        return rules(manifests, service).stream().map(EgressTest::describe).toList();
    }

    private static String describe(NetworkPolicyEgressRule rule) {
        String ports = rule.getPorts().isEmpty() ? "any" : rule.getPorts().stream().map(EgressTest::port).collect(Collectors.joining(","));
        String peers = rule.getTo().isEmpty() ? "any" : rule.getTo().stream().map(EgressTest::peer).sorted().collect(Collectors.joining(", "));
        return ports + " -> " + peers;
    }

    private static String port(NetworkPolicyPort port) {
        assertThat(port.getEndPort()).isNull();
        Object value = port.getPort().getStrVal() != null ? port.getPort().getStrVal() : port.getPort().getIntVal();
        return port.getProtocol() + "/" + value;
    }

    private static String peer(NetworkPolicyPeer peer) {
        if (peer.getIpBlock() != null) {
            assertThat(peer.getNamespaceSelector()).isNull();
            assertThat(peer.getPodSelector()).isNull();
            IPBlock block = peer.getIpBlock();
            return "ip " + block.getCidr() + (block.getExcept().isEmpty() ? "" : " except " + block.getExcept());
        }
        Function<LabelSelector, String> selector = s -> {
            assertThat(s.getMatchExpressions()).isEmpty();
            return new TreeMap<>(s.getMatchLabels()).toString();
        };
        List<String> parts = new ArrayList<>();
        if (peer.getNamespaceSelector() != null) {
            parts.add("ns" + selector.apply(peer.getNamespaceSelector()));
        }
        if (peer.getPodSelector() != null) {
            parts.add("pod" + selector.apply(peer.getPodSelector()));
        }
        return String.join(" ", parts);
    }
}
