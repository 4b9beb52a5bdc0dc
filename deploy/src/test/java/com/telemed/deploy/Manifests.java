package com.telemed.deploy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The documents of a rendered chart, each read into the fabric8 class of its apiVersion and kind
 * with unknown properties refused: Jackson fails on a property no class declares, and since fabric8
 * classes catch the rest in {@code additionalProperties}, every object of the tree is walked and
 * must have none. A misspelt or misplaced field ({@code spec.replica}, {@code readinessProbe} under
 * the pod) therefore fails the parse, naming its path.
 */
record Manifests(List<HasMetadata> all) {

    private static final ObjectMapper STRICT = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
    private static final YAMLMapper YAML = new YAMLMapper();

    private static final Map<String, Class<? extends HasMetadata>> TYPES = Map.ofEntries(
            Map.entry("v1/ConfigMap", ConfigMap.class),
            Map.entry("v1/Secret", Secret.class),
            Map.entry("v1/Service", Service.class),
            Map.entry("v1/ServiceAccount", ServiceAccount.class),
            Map.entry("apps/v1/Deployment", Deployment.class),
            Map.entry("autoscaling/v2/HorizontalPodAutoscaler", HorizontalPodAutoscaler.class),
            Map.entry("policy/v1/PodDisruptionBudget", PodDisruptionBudget.class),
            Map.entry("networking.k8s.io/v1/NetworkPolicy", NetworkPolicy.class),
            Map.entry("networking.k8s.io/v1/Ingress", Ingress.class),
            Map.entry("batch/v1/Job", Job.class),
            Map.entry("monitoring.coreos.com/v1/ServiceMonitor", ServiceMonitor.class));

    static Manifests parse(String rendered) {
        List<HasMetadata> resources = new ArrayList<>();
        try (MappingIterator<JsonNode> documents = YAML.readerFor(JsonNode.class).readValues(rendered)) {
            while (documents.hasNext()) {
                JsonNode document = documents.next();
                if (document == null || document.isNull() || document.isEmpty()) {
                    continue;
                }
                String type = document.path("apiVersion").asText() + "/" + document.path("kind").asText();
                Class<? extends HasMetadata> kind = TYPES.get(type);
                if (kind == null) {
                    throw new AssertionError("a document of an unexpected type: " + type);
                }
                HasMetadata resource = STRICT.treeToValue(document, kind);
                String where = type + " " + resource.getMetadata().getName();
                List<String> unknown = new ArrayList<>();
                collectUnknown(resource, where, unknown);
                if (!unknown.isEmpty()) {
                    throw new AssertionError("unknown fields: " + unknown);
                }
                resources.add(resource);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Manifests(List.copyOf(resources));
    }

    /** Every non-empty {@code additionalProperties} in the object tree, as path: keys. */
    static void collectUnknown(Object value, String path, List<String> unknown) {
        if (value == null) {
            return;
        }
        if (value instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                collectUnknown(item, path + "[" + i++ + "]", unknown);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((key, item) -> collectUnknown(item, path + "." + key, unknown));
            return;
        }
        if (!value.getClass().getPackageName().startsWith("io.fabric8.")) {
            return;
        }
        for (Method getter : value.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || Modifier.isStatic(getter.getModifiers())
                    || !getter.getName().startsWith("get") || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object child = invoke(getter, value);
            if (getter.getName().equals("getAdditionalProperties")) {
                if (child instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    unknown.add(path + ": " + extra.keySet());
                }
            } else {
                collectUnknown(child, path + "." + property(getter), unknown);
            }
        }
    }

    private static String property(Method getter) {
        String name = getter.getName().substring(3);
        return Character.toLowerCase(name.charAt(0)) + name.substring(1);
    }

    private static Object invoke(Method getter, Object target) {
        try {
            return getter.invoke(target);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException(getter + " on " + target.getClass(), e);
        }
    }

    <T extends HasMetadata> List<T> ofKind(Class<T> kind) {
        return all.stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    <T extends HasMetadata> Optional<T> find(Class<T> kind, String name) {
        return ofKind(kind).stream().filter(r -> r.getMetadata().getName().equals(name)).findFirst();
    }

    <T extends HasMetadata> T get(Class<T> kind, String name) {
        return find(kind, name).orElseThrow(() -> new AssertionError("no " + kind.getSimpleName() + " " + name
                + " among " + ofKind(kind).stream().map(r -> r.getMetadata().getName()).toList()));
    }

    Deployment deployment(Chart.Service service) {
        return get(Deployment.class, service.resourceName());
    }

    Map<String, String> config(Chart.Service service) {
        return get(ConfigMap.class, service.resourceName()).getData();
    }
}
