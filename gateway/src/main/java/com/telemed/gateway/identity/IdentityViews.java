package com.telemed.gateway.identity;

import com.telemed.common.access.Principal;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/** What the identity endpoints answer (people-and-pages.md, "Credentials on /ops"): never a hash. */
public final class IdentityViews {

    private IdentityViews() {
    }

    /** {@code { id, email, name, roles, prescriberId, createdAt }}; roles in the order of {@link Principal.Role}. */
    public record AccountView(UUID id, String email, String name, List<String> roles, UUID prescriberId, Instant createdAt) {
        static AccountView of(Account account) {
            return of(account, account.roles.stream().map(role -> Principal.Role.of(role).orElseThrow()).toList());
        }

        /** The account acting with {@code roles} (a person's: {@code pharmacy} is a pharmacy key's, left out). */
        static AccountView of(Account account, Collection<Principal.Role> roles) {
            List<String> names = roles.stream()
                    .filter(role -> role != Principal.Role.PHARMACY)
                    .sorted(Comparator.naturalOrder())
                    .map(Principal.Role::wire)
                    .toList();
            return new AccountView(account.id, account.email, account.name, names, account.prescriberId, account.createdAt);
        }
    }

    public record AccountEnvelope(AccountView account) {
    }

    public record AccountsEnvelope(List<AccountView> accounts) {
    }

    /**
     * {@code GET /ops/v1/sessions/current}: the signed-in person's account, with the roles this call acts
     * with, and when the credential ends (a session's expiry, an OpenID Connect token's {@code exp}).
     */
    public record CurrentSessionView(AccountView account, Instant expiresAt) {
    }

    /** {@code POST /ops/v1/sessions}: the token, shown this once. */
    public record SessionView(String token, Instant expiresAt) {
    }

    /** {@code POST /ops/v1/pharmacies/:pharmacyId/credentials}: the key, shown this once. */
    public record PharmacyKeyView(UUID credentialId, String key) {
    }
}
