package com.telemed.deploy;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
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

/** Only the gateway is reachable from outside; inside, each service admits exactly its callers. */
class ExposureTest {

    /**
     * Who calls whom, from the code: each service's SERVICE_URLS_<NAME> settings (application.properties:
     * platform.service-urls.* (gateway, requests, members, messaging, billing), web.service-urls.*).
     * catalogue-service and webhook-service call no service;
     * web-service calls requests-service and the gateway's internal endpoint.
     */
    static final Map<Chart.Service, Set<Chart.Service>> CALLS = Map.of(
            GATEWAY, EnumSet.of(REQUESTS, MEMBERS, CATALOGUE, MESSAGING, BILLING, WEBHOOK, WEB),
            REQUESTS, EnumSet.of(MEMBERS, CATALOGUE, MESSAGING),
            MEMBERS, EnumSet.of(REQUESTS),
            CATALOGUE, EnumSet.noneOf(Chart.Service.class),
            MESSAGING, EnumSet.of(MEMBERS, REQUESTS),
            BILLING, EnumSet.of(MEMBERS, REQUESTS),
            WEBHOOK, EnumSet.noneOf(Chart.Service.class),
            WEB, EnumSet.of(REQUESTS, GATEWAY));

    private static final Manifests DEFAULTS = Chart.render(Chart.minimal());
    private static final Manifests PRODUCTION = Chart.render(Map.of(), Chart.PRODUCTION);

    @Test
    void onlyTheGatewaysServiceTypeFollowsTheValues() {
        Manifests manifests = Chart.render(Chart.minimal("services.gateway.service.type", "LoadBalancer",
                "services.gateway.service.port", "443"));

        for (Chart.Service service : Chart.Service.all()) {
            Service defaults = DEFAULTS.get(Service.class, service.resourceName());
            assertThat(defaults.getSpec().getType()).isEqualTo("ClusterIP");
            assertThat(defaults.getSpec().getSelector())
                    .isEqualTo(DEFAULTS.deployment(service).getSpec().getSelector().getMatchLabels());
            assertThat(defaults.getSpec().getPorts()).singleElement().satisfies(port -> {
                assertThat(port.getName()).isEqualTo("http");
                assertThat(port.getPort()).isEqualTo(80);
                assertThat(port.getTargetPort()).isEqualTo(new IntOrString("http"));
            });

            Service exposed = manifests.get(Service.class, service.resourceName());
            assertThat(exposed.getSpec().getType()).isEqualTo(service == GATEWAY ? "LoadBalancer" : "ClusterIP");
            assertThat(exposed.getSpec().getPorts().get(0).getPort()).isEqualTo(service == GATEWAY ? 443 : 80);
        }
    }

    @Test
    void theIngressLeadsToTheGatewayOnly() {
        assertThat(DEFAULTS.ofKind(Ingress.class)).isEmpty();

        Ingress ingress = PRODUCTION.get(Ingress.class, GATEWAY.resourceName());
        assertThat(ingress.getSpec().getIngressClassName()).isEqualTo("nginx");
        assertThat(ingress.getSpec().getTls()).singleElement().satisfies(tls -> {
            assertThat(tls.getSecretName()).isEqualTo("api-telemed-example-tls");
            assertThat(tls.getHosts()).containsExactly("api.telemed.example");
        });
        assertThat(ingress.getSpec().getRules()).singleElement().satisfies(rule -> {
            assertThat(rule.getHost()).isEqualTo("api.telemed.example");
            assertThat(rule.getHttp().getPaths()).singleElement().satisfies(path -> {
                assertThat(path.getPath()).isEqualTo("/");
                assertThat(path.getPathType()).isEqualTo("Prefix");
                assertThat(path.getBackend().getService().getName()).isEqualTo("telemed-gateway");
                assertThat(path.getBackend().getService().getPort().getName()).isEqualTo("http");
            });
        });
    }

    /**
     * Issue #38: ingress-nginx's access log writes each request line whole (search terms, survey
     * and attachment tokens, file names), which the gateway's own access log redacts. Off by
     * default, beside the values' own annotations; on only when asked.
     */
    @Test
    void theIngressControllersAccessLogIsOffUnlessAskedFor() {
        Ingress ingress = PRODUCTION.get(Ingress.class, GATEWAY.resourceName());
        assertThat(ingress.getMetadata().getAnnotations()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "nginx.ingress.kubernetes.io/enable-access-log", "false",
                "nginx.ingress.kubernetes.io/proxy-body-size", "12m"));

        Ingress logged = Chart.render(Map.of("ingress.accessLog", "true"), Chart.PRODUCTION).get(Ingress.class, GATEWAY.resourceName());
        assertThat(logged.getMetadata().getAnnotations()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "nginx.ingress.kubernetes.io/proxy-body-size", "12m"));
    }

    /**
     * Issue #38: behind the Ingress the gateway's peer is a controller pod; the gateway believes the
     * X-Forwarded-For of the controller's addresses and no one else's, so the Ingress needs them.
     */
    @Test
    void theGatewayBelievesForwardedAddressesOfTheIngressControllerOnly() {
        assertThat(PRODUCTION.config(GATEWAY)).containsEntry("GATEWAY_PROXY_FORWARDING", "true")
                .containsEntry("GATEWAY_TRUSTED_PROXIES", "10.244.0.0/16");
        Manifests two = Chart.render(Map.of("ingress.trustedProxies[0]", "10.0.1.0/24", "ingress.trustedProxies[1]", "10.0.2.7"),
                Chart.PRODUCTION);
        assertThat(two.config(GATEWAY)).containsEntry("GATEWAY_TRUSTED_PROXIES", "10.0.1.0/24,10.0.2.7");
        for (Chart.Service service : Chart.Service.all()) {
            if (service != GATEWAY) {
                assertThat(PRODUCTION.config(service)).doesNotContainKeys("GATEWAY_PROXY_FORWARDING", "GATEWAY_TRUSTED_PROXIES");
            }
            assertThat(DEFAULTS.config(service)).doesNotContainKeys("GATEWAY_PROXY_FORWARDING", "GATEWAY_TRUSTED_PROXIES");
        }
        assertThat(Chart.renderFailure(Chart.minimal("ingress.enabled", "true", "ingress.hosts[0].host", "api.care.example")))
                .contains("ingress.trustedProxies: the Ingress controller's pod addresses (CIDRs) are required when ingress.enabled");
    }

    @Test
    void theCallGraphIsTheOneTheServicesConfigurationNames() throws IOException {
        Pattern url = Pattern.compile("\\$\\{SERVICE_URLS_([A-Z]+)");
        for (Chart.Service service : Chart.Service.all()) {
            String properties = Files.readString(Path.of("..", service.module(), "src/main/resources/application.properties"));
            Set<String> named = url.matcher(properties).results().map(m -> m.group(1)).collect(Collectors.toSet());
            assertThat(named).as(service.module()).isEqualTo(
                    CALLS.get(service).stream().map(s -> s.key().toUpperCase()).collect(Collectors.toSet()));
        }
    }

    @Test
    void eachServiceFindsTheServicesItCallsInsideTheNamespace() {
        for (Chart.Service service : Chart.Service.all()) {
            Map<String, String> urls = DEFAULTS.config(service).entrySet().stream()
                    .filter(e -> e.getKey().startsWith("SERVICE_URLS_"))
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
            Map<String, String> expected = new HashMap<>();
            CALLS.get(service).forEach(called -> expected.put("SERVICE_URLS_" + called.key().toUpperCase(),
                    "http://" + called.resourceName() + ":80"));
            assertThat(urls).as(service.module()).isEqualTo(expected);
        }
    }

    @Test
    void eachNetworkPolicyAdmitsExactlyTheGatewayAndTheServicesThatCallIt() {
        for (Chart.Service service : Chart.Service.all()) {
            NetworkPolicy policy = DEFAULTS.get(NetworkPolicy.class, service.resourceName());
            // Egress as well: EgressTest.
            assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
            assertThat(policy.getSpec().getPodSelector().getMatchLabels())
                    .isEqualTo(DEFAULTS.deployment(service).getSpec().getSelector().getMatchLabels());
            NetworkPolicyIngressRule rule = onlyRule(policy);
            if (service == GATEWAY) {
                // From anywhere: no peer list at all.
                assertThat(rule.getFrom()).isEmpty();
                continue;
            }
            Set<String> expected = CALLS.entrySet().stream()
                    .filter(e -> e.getValue().contains(service))
                    .map(e -> e.getKey().module())
                    .collect(Collectors.toSet());
            assertThat(expected).contains("gateway");
            assertThat(rule.getFrom()).allSatisfy(peer -> {
                assertThat(peer.getNamespaceSelector()).isNull();
                assertThat(peer.getIpBlock()).isNull();
                assertThat(peer.getPodSelector().getMatchLabels()).containsOnlyKeys(
                        "app.kubernetes.io/name", "app.kubernetes.io/instance", "app.kubernetes.io/component");
                assertThat(peer.getPodSelector().getMatchLabels())
                        .containsEntry("app.kubernetes.io/name", "telemed")
                        .containsEntry("app.kubernetes.io/instance", Chart.RELEASE);
            });
            assertThat(rule.getFrom().stream().map(ExposureTest::component).toList())
                    .as(service.module()).containsExactlyInAnyOrderElementsOf(expected);
        }
        assertThat(callers(REQUESTS)).containsExactlyInAnyOrder("gateway", "members-service", "messaging-service", "billing-service",
                "web-service");
        assertThat(callers(MEMBERS)).containsExactlyInAnyOrder("gateway", "requests-service", "messaging-service", "billing-service");
        assertThat(callers(CATALOGUE)).containsExactlyInAnyOrder("gateway", "requests-service");
        assertThat(callers(MESSAGING)).containsExactlyInAnyOrder("gateway", "requests-service");
        assertThat(callers(BILLING)).containsExactly("gateway");
        assertThat(callers(WEBHOOK)).containsExactly("gateway");
        assertThat(callers(WEB)).containsExactly("gateway");
    }

    @Test
    void productionAdmitsTheIngressControllerToTheGatewayAndPrometheusToEveryService() {
        for (Chart.Service service : Chart.Service.all()) {
            List<NetworkPolicyIngressRule> rules = PRODUCTION.get(NetworkPolicy.class, service.resourceName()).getSpec().getIngress();
            assertThat(rules).hasSize(2);
            if (service == GATEWAY) {
                // The ingress controller, and the services that call the gateway's internal endpoint (web-service).
                assertThat(rules.get(0).getFrom()).hasSize(2);
                assertThat(rules.get(0).getFrom().get(0).getNamespaceSelector().getMatchLabels())
                        .containsExactlyEntriesOf(Map.of("kubernetes.io/metadata.name", "ingress-nginx"));
                assertThat(rules.get(0).getFrom().get(0).getPodSelector()).isNull();
                assertThat(rules.get(0).getFrom().get(1).getNamespaceSelector()).isNull();
                assertThat(rules.get(0).getFrom().get(1).getPodSelector().getMatchLabels())
                        .isEqualTo(PRODUCTION.deployment(WEB).getSpec().getSelector().getMatchLabels());
            }
            assertThat(rules.get(1).getFrom()).singleElement().satisfies(peer ->
                    assertThat(peer.getNamespaceSelector().getMatchLabels())
                            .containsExactlyEntriesOf(Map.of("kubernetes.io/metadata.name", "monitoring")));
            // Prometheus reaches the management port (/q/metrics) alone, not the service's API.
            assertThat(rules.get(1).getPorts()).singleElement().satisfies(port -> {
                assertThat(port.getPort()).isEqualTo(new IntOrString("management"));
                assertThat(port.getProtocol()).isEqualTo("TCP");
            });
            assertThat(rules.get(0).getPorts()).singleElement()
                    .satisfies(port -> assertThat(port.getPort()).isEqualTo(new IntOrString("http")));
        }
    }

    /** deploy/README.md, "Who may reach the gateway": a LoadBalancer gateway admits only its source ranges. */
    @Test
    void aLoadBalancerGatewayTakesItsSourceRanges() {
        Manifests manifests = Chart.render(Chart.minimal("services.gateway.service.type", "LoadBalancer",
                "services.gateway.service.loadBalancerSourceRanges[0]", "203.0.113.0/24",
                "services.gateway.service.loadBalancerSourceRanges[1]", "198.51.100.17/32"));

        assertThat(manifests.get(Service.class, GATEWAY.resourceName()).getSpec().getLoadBalancerSourceRanges())
                .containsExactly("203.0.113.0/24", "198.51.100.17/32");
        assertThat(DEFAULTS.get(Service.class, GATEWAY.resourceName()).getSpec().getLoadBalancerSourceRanges()).isEmpty();
    }

    @Test
    void prometheusScrapesEveryServiceAtQMetricsOnItsManagementPort() {
        assertThat(DEFAULTS.ofKind(ServiceMonitor.class)).isEmpty();
        assertThat(DEFAULTS.ofKind(Service.class)).extracting(service -> service.getMetadata().getName())
                .noneMatch(name -> name.endsWith("-management"));

        List<ServiceMonitor> monitors = PRODUCTION.ofKind(ServiceMonitor.class);
        assertThat(monitors).extracting(monitor -> monitor.getMetadata().getName())
                .containsExactlyInAnyOrderElementsOf(Chart.Service.all().stream().map(Chart.Service::resourceName).toList());
        for (ServiceMonitor monitor : monitors) {
            // The service's own ClusterIP Service of its management port; its http Service (the gateway's is
            // the public one) has no port of that name, so the monitor finds its targets on the former only.
            Service service = PRODUCTION.get(Service.class, monitor.getMetadata().getName() + "-management");
            Service http = PRODUCTION.get(Service.class, monitor.getMetadata().getName());
            assertThat(monitor.getSpec().getSelector().getMatchLabels()).isEqualTo(service.getSpec().getSelector());
            assertThat(service.getMetadata().getLabels()).containsAllEntriesOf(monitor.getSpec().getSelector().getMatchLabels());
            assertThat(service.getSpec().getType()).isEqualTo("ClusterIP");
            assertThat(service.getSpec().getPorts()).singleElement().satisfies(port -> {
                assertThat(port.getName()).isEqualTo("management");
                assertThat(port.getPort()).isEqualTo(9000);
                assertThat(port.getTargetPort()).isEqualTo(new IntOrString("management"));
            });
            assertThat(http.getSpec().getPorts()).extracting(port -> port.getName()).containsExactly("http");
            assertThat(monitor.getSpec().getEndpoints()).singleElement().satisfies(endpoint -> {
                assertThat(endpoint.getPort()).isEqualTo("management");
                assertThat(endpoint.getPath()).isEqualTo("/q/metrics");
                assertThat(endpoint.getInterval()).isEqualTo("30s");
            });
        }
    }

    @Test
    void networkPoliciesCanBeLeftToThePlatformTeam() {
        assertThat(Chart.render(Chart.minimal("networkPolicy.enabled", "false")).ofKind(NetworkPolicy.class)).isEmpty();
    }

    private static List<String> callers(Chart.Service service) {
        return onlyRule(DEFAULTS.get(NetworkPolicy.class, service.resourceName())).getFrom().stream()
                .map(ExposureTest::component).toList();
    }

    private static NetworkPolicyIngressRule onlyRule(NetworkPolicy policy) {
        assertThat(policy.getSpec().getIngress()).hasSize(1);
        NetworkPolicyIngressRule rule = policy.getSpec().getIngress().get(0);
        assertThat(rule.getPorts()).singleElement().satisfies(port -> {
            assertThat(port.getPort()).isEqualTo(new IntOrString("http"));
            assertThat(port.getProtocol()).isEqualTo("TCP");
        });
        return rule;
    }

    private static String component(NetworkPolicyPeer peer) {
        return peer.getPodSelector().getMatchLabels().get("app.kubernetes.io/component");
    }
}
