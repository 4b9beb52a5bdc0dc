package com.telemed.gateway.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.access.OpsAccess;
import com.telemed.common.access.Principal;
import com.telemed.common.access.Principal.Role;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Issue 45: the edge judges a partner setting's access exactly as the owning service's access table will. */
class PartnerSettingAccessTest {

    private static final String PATH = "/ops/v1/partners/7c1f4e2a-0000-4000-8000-000000000001";

    private static Principal person(Role... roles) {
        return Principal.person("a1", EnumSet.of(roles[0], roles), Optional.empty());
    }

    @Test
    void theOperatorKeyAndAnAdminMayChangeEverySettingSupportOnlyItsDeliveries() {
        for (String call : UnknownPartnerTest.FORWARDED.stream().map(c -> c.method() + " " + PATH + c.setting()).toList()) {
            String method = call.substring(0, call.indexOf(' '));
            String path = call.substring(call.indexOf(' ') + 1);
            assertTrue(PartnerSettingAccess.allowed(method, path, Principal.operatorKey(), true), call);
            assertTrue(PartnerSettingAccess.allowed(method, path, person(Role.ADMIN), true), call);
            assertEquals(path.contains("/webhook/deliveries"), PartnerSettingAccess.allowed(method, path, person(Role.SUPPORT), true), call);
            assertFalse(PartnerSettingAccess.allowed(method, path, person(Role.PRESCRIBER), true), call);
            assertFalse(PartnerSettingAccess.allowed(method, path, Principal.pharmacy("pharm-1"), true), call);
            assertFalse(PartnerSettingAccess.allowed(method, path, null, true), call);
        }
        assertTrue(PartnerSettingAccess.allowed("HEAD", PATH + "/fulfilment", Principal.operatorKey(), true));
        // No row of the table: the service's to refuse, never looked up here.
        assertFalse(PartnerSettingAccess.allowed("DELETE", PATH + "/webhook", Principal.operatorKey(), true));
        assertFalse(PartnerSettingAccess.allowed("GET", PATH + "/webhook/deliveries/d1/redeliver", Principal.operatorKey(), true));
        assertFalse(PartnerSettingAccess.allowed("PUT", PATH + "/webhook/extra", Principal.operatorKey(), true));
    }

    /** Every partner-scoped operation of the access table is in the gateway's test of unknown partners: a new one cannot be missed. */
    @Test
    void everyPartnerScopedOperationOfTheAccessTableIsTestedForAnUnknownPartner() {
        Set<String> table = OpsAccess.operations().stream()
                .filter(operation -> operation.contains(" /ops/v1/partners/{"))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> tested = new TreeSet<>();
        UnknownPartnerTest.FORWARDED.forEach(call -> tested.add(call.method() + " /ops/v1/partners/{partnerId}"
                + call.setting().replaceFirst("/deliveries/[^/]+/", "/deliveries/{deliveryId}/")));
        UnknownPartnerTest.GATEWAYS_OWN.forEach(call -> tested.add(call.method() + " /ops/v1/partners/{id}" + call.setting()));
        assertEquals(table, tested);
    }
}
