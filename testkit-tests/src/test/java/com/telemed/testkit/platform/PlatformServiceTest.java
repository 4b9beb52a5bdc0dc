package com.telemed.testkit.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The platform's services as ./stack and the end-to-end platform run them (issue #39: web-service, the pages, without a database). */
class PlatformServiceTest {

    @Test
    void eightServicesOnTheStacksPortsEachFoundByItsKey() {
        assertEquals(List.of("gateway", "requests-service", "members-service", "catalogue-service", "messaging-service",
                "billing-service", "webhook-service", "web-service"), Arrays.stream(PlatformService.values()).map(PlatformService::module).toList());
        assertEquals(List.of(8080, 8081, 8082, 8083, 8084, 8085, 8086, 8087),
                Arrays.stream(PlatformService.values()).map(PlatformService::stackPort).toList());
        assertEquals(List.of(9080, 9081, 9082, 9083, 9084, 9085, 9086, 9087),
                Arrays.stream(PlatformService.values()).map(PlatformService::stackManagementPort).toList());
        assertEquals(List.of("GATEWAY", "REQUESTS", "MEMBERS", "CATALOGUE", "MESSAGING", "BILLING", "WEBHOOK", "WEB"),
                Arrays.stream(PlatformService.values()).map(PlatformService::urlKey).toList());
        assertEquals(8, PlatformOptions.stackPorts().size());
        assertEquals(8087, PlatformOptions.stackPorts().get(PlatformService.WEB));
    }

    @Test
    void webServiceAloneHasNoDatabase() {
        assertEquals(List.of("gateway", "requests", "members", "catalogue", "messaging", "billing", "webhook"),
                PlatformService.withDatabase().stream().map(PlatformService::database).toList());
        assertFalse(PlatformService.WEB.hasDatabase());
        IllegalStateException none = assertThrows(IllegalStateException.class, PlatformService.WEB::database);
        assertEquals("web-service has no database", none.getMessage());
    }

}
