package com.telemed.common.access;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Who an {@code /ops} call acts as (people-and-pages.md, "Principals and roles"; docs/security.md,
 * "People on /ops"): authenticated by the gateway, carried to the services in one header,
 * {@value #HEADER}, which the service proof covers. Ids and role names only: never a name, an email
 * or a credential.
 *
 * <p>The header's forms:
 * <ul>
 *   <li>{@code person:<accountId>:<role>,<role>:<prescriberId>} (the prescriber id empty when the
 *       account names none), e.g. {@code person:3f0c...:prescriber:pr_123};</li>
 *   <li>{@code pharmacy:<pharmacyId>};</li>
 *   <li>{@code operator_key:service} (the operator key, {@code OPS_API_KEY});</li>
 *   <li>{@code service:<module>} (a service calling another; no {@code /ops} route admits it).</li>
 * </ul>
 * An id is 1 to 128 characters of letters, digits, {@code _}, {@code -} and {@code .}.
 */
public record Principal(Type type, String id, Set<Role> roles, Optional<String> prescriberId) {

    /** The header the gateway sets (and drops when a client sends it). */
    public static final String HEADER = "X-Principal";

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.-]{1,128}");

    /** The kinds of caller; {@link #wire()} is the header's first field. */
    public enum Type {
        PERSON("person"), PHARMACY("pharmacy"), OPERATOR_KEY("operator_key"), SERVICE("service");

        private final String wire;

        Type(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }
    }

    /** The roles of people-and-pages.md; {@link #wire()} is the name in the header and the API. */
    public enum Role {
        ADMIN, PRESCRIBER, SUPPORT, PHARMACY;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The role named so in the API, if any. */
        public static Optional<Role> of(String wire) {
            return Arrays.stream(values()).filter(role -> role.wire().equals(wire)).findFirst();
        }
    }

    public Principal {
        if (type == null || id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("a principal needs a type and an id of 1 to 128 plain characters");
        }
        roles = roles == null || roles.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(roles));
        prescriberId = prescriberId == null ? Optional.empty() : prescriberId;
        prescriberId.ifPresent(value -> {
            if (!ID.matcher(value).matches()) {
                throw new IllegalArgumentException("a prescriber id of 1 to 128 plain characters");
            }
        });
        if (type != Type.PERSON && (!roles.isEmpty() || prescriberId.isPresent())) {
            throw new IllegalArgumentException("only a person has roles and a prescriber");
        }
    }

    public static Principal person(String accountId, Set<Role> roles, Optional<String> prescriberId) {
        return new Principal(Type.PERSON, accountId, roles, prescriberId);
    }

    public static Principal pharmacy(String pharmacyId) {
        return new Principal(Type.PHARMACY, pharmacyId, Set.of(), Optional.empty());
    }

    public static Principal operatorKey() {
        return new Principal(Type.OPERATOR_KEY, "service", Set.of(), Optional.empty());
    }

    public static Principal service(String module) {
        return new Principal(Type.SERVICE, module, Set.of(), Optional.empty());
    }

    /** The header's value. */
    public String header() {
        if (type != Type.PERSON) {
            return type.wire() + ":" + id;
        }
        String roleList = roles.stream().map(Role::wire).collect(Collectors.joining(","));
        return "person:" + id + ":" + roleList + ":" + prescriberId.orElse("");
    }

    /** The principal a header names; empty for anything that is not exactly one of its forms. */
    public static Optional<Principal> parse(String header) {
        if (header == null) {
            return Optional.empty();
        }
        String[] fields = header.split(":", -1);
        try {
            if (fields.length == 2) {
                for (Type type : Type.values()) {
                    if (type != Type.PERSON && type.wire().equals(fields[0])) {
                        if (type == Type.OPERATOR_KEY && !fields[1].equals("service")) {
                            return Optional.empty();
                        }
                        return Optional.of(new Principal(type, fields[1], Set.of(), Optional.empty()));
                    }
                }
                return Optional.empty();
            }
            if (fields.length != 4 || !fields[0].equals(Type.PERSON.wire())) {
                return Optional.empty();
            }
            EnumSet<Role> roles = EnumSet.noneOf(Role.class);
            if (!fields[2].isEmpty()) {
                for (String name : fields[2].split(",", -1)) {
                    Optional<Role> role = Role.of(name);
                    if (role.isEmpty()) {
                        return Optional.empty();
                    }
                    roles.add(role.get());
                }
            }
            return Optional.of(person(fields[1], roles, fields[3].isEmpty() ? Optional.empty() : Optional.of(fields[3])));
        } catch (IllegalArgumentException malformed) {
            return Optional.empty();
        }
    }

    public boolean has(Role role) {
        return roles.contains(role);
    }
}
