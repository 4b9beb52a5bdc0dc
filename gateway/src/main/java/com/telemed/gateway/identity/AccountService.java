package com.telemed.gateway.identity;

import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.id.Ids;
import com.telemed.common.json.Timestamps;
import com.telemed.gateway.requests.RequestsServiceClient;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.UUID;

/** Local accounts (people-and-pages.md, "Credentials on /ops"): create, list, delete. */
@ApplicationScoped
public class AccountService {

    static final String NOT_FOUND = "Account not found";
    static final String EMAIL_TAKEN = "Account with this email already exists";
    static final String PRESCRIBER_TAKEN = "Account for this prescriber already exists";
    /** operations-api.md: a {@code prescriberId} that names no prescriber. */
    static final String PRESCRIBER_NOT_FOUND = "Prescriber not found";

    private final EntityManager entityManager;
    private final RequestsServiceClient requestsService;
    private final AuditTrail audit;

    public AccountService(EntityManager entityManager, RequestsServiceClient requestsService, AuditTrail audit) {
        this.entityManager = entityManager;
        this.requestsService = requestsService;
        this.audit = audit;
    }

    /**
     * Creates the account, or {@code 400} when a live account has its email (in any letter case) or
     * its prescriber, whether long ago or in a concurrent create: the partial unique indexes decide,
     * so exactly one of several racing creates wins. A prescriber must be one requests-service knows
     * ({@code 400 Prescriber not found}; requests-service not answering {@code 503}), asked before
     * anything is written. The password is hashed before the transaction too (Argon2id takes its time
     * and memory, and holds no connection meanwhile).
     */
    public Account create(IdentitySchemas.NewAccount input) {
        UUID prescriberId = input.prescriberId() == null ? null
                : Ids.uuid(input.prescriberId()).orElseThrow(() -> ApiException.badRequest(PRESCRIBER_NOT_FOUND));
        if (prescriberId != null && !requestsService.prescriberExists(prescriberId)) {
            throw ApiException.badRequest(PRESCRIBER_NOT_FOUND);
        }
        Account account = new Account();
        account.id = UUID.randomUUID();
        account.email = input.email();
        account.name = input.name();
        account.prescriberId = prescriberId;
        account.roles = new LinkedHashSet<>(input.roles());
        account.passwordHash = Passwords.hash(input.password());
        account.createdAt = Timestamps.now();
        QuarkusTransaction.requiringNew().run(() -> insert(account));
        return account;
    }

    /**
     * No statement fails on a duplicate (ON CONFLICT DO NOTHING), so nothing is rolled back and no
     * driver or server message, which would quote the email, is logged.
     */
    private void insert(Account account) {
        int inserted = entityManager.createNativeQuery("""
                        INSERT INTO accounts (id, email, name, prescriber_id, password_hash, created_at)
                        VALUES (:id, :email, :name, CAST(NULLIF(:prescriberId, '') AS uuid), :passwordHash, :createdAt)
                        ON CONFLICT DO NOTHING""")
                .setParameter("id", account.id)
                .setParameter("email", account.email)
                .setParameter("name", account.name)
                // A text parameter always ('' for none): a null one would reach the driver without a type.
                .setParameter("prescriberId", account.prescriberId == null ? "" : account.prescriberId.toString())
                .setParameter("passwordHash", account.passwordHash)
                .setParameter("createdAt", account.createdAt)
                .executeUpdate();
        if (inserted == 0) {
            throw ApiException.badRequest(Account.findLiveByEmail(account.email).isPresent() ? EMAIL_TAKEN : PRESCRIBER_TAKEN);
        }
        for (String role : account.roles) {
            entityManager.createNativeQuery("INSERT INTO account_roles (account_id, role) VALUES (:id, :role)")
                    .setParameter("id", account.id)
                    .setParameter("role", role)
                    .executeUpdate();
        }
        audit.record("account.create", "account", account.id.toString(), null);
    }

    /** Every live account, oldest first. */
    @Transactional
    public List<Account> list() {
        return Account.listLive();
    }

    /**
     * Deletes the account: its sessions end in this transaction, so its token is refused on the
     * very next call on every replica (the edge also refuses a deleted account's sessions).
     */
    @Transactional
    public void delete(String accountId) {
        Account account = Ids.uuid(accountId).flatMap(Account::findLive)
                .orElseThrow(() -> ApiException.notFound(NOT_FOUND));
        Instant now = Timestamps.now();
        account.deletedAt = now;
        AccountSession.update("endedAt = ?1 where accountId = ?2 and endedAt is null", now, account.id);
        audit.record("account.delete", "account", account.id.toString(), null);
    }
}
