package com.telemed.deploy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

import java.util.List;

/** The kinds the chart renders once per service, always. */
final class Kinds {

    static final List<Class<? extends HasMetadata>> PER_SERVICE = List.of(
            Deployment.class, Service.class, ServiceAccount.class, ConfigMap.class,
            PodDisruptionBudget.class, NetworkPolicy.class);

    private Kinds() {
    }
}
