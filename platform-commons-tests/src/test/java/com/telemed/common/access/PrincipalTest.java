package com.telemed.common.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.common.access.Principal.Role;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PrincipalTest {

    @Test
    void eachFormIsWrittenAndReadBack() {
        Principal prescriber = Principal.person("acc_1", EnumSet.of(Role.SUPPORT, Role.PRESCRIBER), Optional.of("pr_9"));
        assertEquals("person:acc_1:prescriber,support:pr_9", prescriber.header());
        assertEquals(Optional.of(prescriber), Principal.parse(prescriber.header()));

        Principal admin = Principal.person("acc_2", Set.of(Role.ADMIN), Optional.empty());
        assertEquals("person:acc_2:admin:", admin.header());
        assertEquals(Optional.of(admin), Principal.parse("person:acc_2:admin:"));

        assertEquals("person:acc_3::", Principal.person("acc_3", Set.of(), Optional.empty()).header());
        assertEquals("pharmacy:ph_1", Principal.pharmacy("ph_1").header());
        assertEquals(Optional.of(Principal.pharmacy("ph_1")), Principal.parse("pharmacy:ph_1"));
        assertEquals("operator_key:service", Principal.operatorKey().header());
        assertEquals(Optional.of(Principal.operatorKey()), Principal.parse("operator_key:service"));
        assertEquals("service:requests-service", Principal.service("requests-service").header());
        assertEquals(Optional.of(Principal.service("requests-service")), Principal.parse("service:requests-service"));
        assertTrue(prescriber.has(Role.PRESCRIBER));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "person", "person:acc_1", "person:acc_1:admin", "person:acc_1:admin:pr:extra",
            "person:acc_1:root:", "person:acc_1:admin,,support:", "person::admin:", "pharmacy:", "pharmacy:a:b",
            "operator_key:someone", "robot:x", "service:a b", "person:acc_1:Admin:", "pharmacy:xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "person:acc\n1:admin:"})
    void anythingElseIsNoPrincipal(String header) {
        assertEquals(Optional.empty(), Principal.parse(header));
    }

    @Test
    void onlyAPersonHasRolesOrAPrescriber() {
        assertThrows(IllegalArgumentException.class,
                () -> new Principal(Principal.Type.PHARMACY, "ph_1", Set.of(Role.PHARMACY), Optional.empty()));
        assertThrows(IllegalArgumentException.class,
                () -> new Principal(Principal.Type.SERVICE, "x", Set.of(), Optional.of("pr_1")));
        assertEquals(Optional.empty(), Principal.parse(null));
    }
}
