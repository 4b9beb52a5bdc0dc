package com.telemed.web.page;

import com.telemed.common.config.ProductionSettings;
import io.vertx.ext.web.Router;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

/**
 * Runs platform-commons' {@link ProductionSettings#check()} first of all, when Quarkus builds the HTTP
 * router: the web service has no Flyway to run it before anything else (the other services'
 * {@code CheckBeforeMigrations}), and the router's observers (the service proof check builds the trust
 * key) come before {@code StartupEvent}. So a production start without its settings ends with the
 * check's one line naming each of them, not with the first bean that missed one.
 */
@Singleton
public class CheckBeforeServing {

    void check(@Observes @Priority(0) Router router, ProductionSettings settings) {
        settings.check();
    }
}
