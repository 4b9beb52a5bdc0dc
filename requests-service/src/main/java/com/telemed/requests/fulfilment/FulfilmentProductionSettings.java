package com.telemed.requests.fulfilment;

import com.telemed.common.config.ProductionRequirement;
import com.telemed.requests.pharmacy.PharmacyConfig;
import com.telemed.requests.pharmacy.PharmacyEndpoint;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * Production refuses to start without knowing whether it is the sandbox or production deployment
 * (platform-commons' {@code ProductionSettings}): the answer decides whether prescriptions reach
 * real pharmacies, so it has no default outside the development profiles. In the production
 * deployment each pharmacy with a URL needs that URL to be https, and its own signing secret, set,
 * not the development one, and at least {@value PharmacyConfig#SECRET_MIN_LENGTH} characters (issue
 * #38: an order carries a prescription and the patient's name, birth date and address).
 */
@Singleton
public class FulfilmentProductionSettings {

    static final String ENVIRONMENT = PharmacyConfig.PREFIX + ".environment";

    @Produces
    @Singleton
    ProductionRequirement environment() {
        return ProductionRequirement.oneOf(ENVIRONMENT, "SERVICE_ENVIRONMENT", "sandbox", "production");
    }

    @Produces
    @Singleton
    ProductionRequirement pharmacies() {
        return FulfilmentProductionSettings::pharmacyRefusals;
    }

    /** Nothing in a sandbox (its orders go to the sandbox pharmacy); in production, every pharmacy given a URL. */
    static List<String> pharmacyRefusals(Config config) {
        if (!config.getOptionalValue(ENVIRONMENT, String.class).map("production"::equals).orElse(false)) {
            return List.of();
        }
        List<String> refusals = new ArrayList<>();
        for (PharmacyEndpoint endpoint : PharmacyEndpoint.values()) {
            Optional<String> url = ProductionRequirement.value(config, endpoint.urlProperty());
            if (url.isEmpty()) {
                continue;
            }
            String urlName = ProductionRequirement.name(endpoint.urlProperty(), endpoint.urlVariable());
            httpsRefusal(url.get()).ifPresent(refusal -> refusals.add(urlName + " " + refusal));
            List<String> secret = ProductionRequirement.secret(endpoint.secretProperty(), endpoint.secretVariable(),
                    PharmacyConfig.DEVELOPMENT_SECRET).refusals(config);
            refusals.addAll(secret);
            if (secret.isEmpty() && ProductionRequirement.value(config, endpoint.secretProperty()).orElseThrow().length()
                    < PharmacyConfig.SECRET_MIN_LENGTH) {
                refusals.add(ProductionRequirement.name(endpoint.secretProperty(), endpoint.secretVariable())
                        + " is shorter than " + PharmacyConfig.SECRET_MIN_LENGTH + " characters");
            }
        }
        return refusals;
    }

    /** What is wrong with a pharmacy URL for production; the URL itself is never quoted (it may carry a credential). */
    private static Optional<String> httpsRefusal(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return Optional.of("is not a URL; production needs https");
        }
        if (uri.getScheme() == null) {
            return Optional.of("has no scheme; production needs https");
        }
        if (!uri.getScheme().equalsIgnoreCase("https")) {
            return Optional.of("has scheme " + ProductionRequirement.quote(uri.getScheme()) + "; production needs https");
        }
        if (uri.getHost() == null) {
            return Optional.of("has no host");
        }
        return Optional.empty();
    }
}
