package com.telemed.requests.catalogue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * requests-service's copy of the catalogue (issue 23, V17__catalogue_copy.sql): a drug's partner-visible
 * record and pharmacy, and each partner's access, as catalogue-service last published them. A create reads
 * the copy instead of calling catalogue-service; a drug the copy does not have is still asked for
 * ({@link CatalogueClient}).
 *
 * <p>Every write carries the catalogue version of the state it brings and changes a row only when that
 * version is higher than the row's: an event redelivered, events of different drugs in any order, and a
 * snapshot read while events arrive all end at catalogue-service's state.
 *
 * <p>A change reaches creates once catalogue-service's outbox relay and this service's consumer have
 * passed it on: milliseconds normally, longer while Kafka or this consumer is down (docs/architecture.md,
 * "Catalogue copy").
 */
@ApplicationScoped
public class CatalogueCopy {

    private static final String UPSERT_DRUG = """
            INSERT INTO catalogue_drugs (drug_id, version, drug, pharmacy_id, pharmacy_method)
            VALUES (?1, ?2, cast(?3 as json), ?4, ?5)
            ON CONFLICT (drug_id) DO UPDATE
            SET version = excluded.version, drug = excluded.drug, pharmacy_id = excluded.pharmacy_id,
                pharmacy_method = excluded.pharmacy_method
            WHERE catalogue_drugs.version < excluded.version""";

    private static final String UPSERT_ACCESS = """
            INSERT INTO catalogue_access (partner_id, version, drug_ids)
            VALUES (?1, ?2, %s)
            ON CONFLICT (partner_id) DO UPDATE
            SET version = excluded.version, drug_ids = excluded.drug_ids
            WHERE catalogue_access.version < excluded.version""";
    private static final String UPSERT_RESTRICTED = UPSERT_ACCESS.formatted("cast(?3 as text[])");
    private static final String UPSERT_OPENED = UPSERT_ACCESS.formatted("NULL");

    /**
     * The drug and whether the partner may order it: no access row, or a null list, is the full catalogue.
     * bench/requests.sh's same-statements ceiling replays a copy (SameStatementsCeiling).
     */
    public static final String LOOKUP = """
            SELECT d.drug::text, d.pharmacy_id, d.pharmacy_method, a.drug_ids IS NULL OR d.drug_id = ANY (a.drug_ids)
            FROM catalogue_drugs d LEFT JOIN catalogue_access a ON a.partner_id = ?
            WHERE d.drug_id = ?""";

    private final EntityManager entityManager;
    private final AgroalDataSource dataSource;
    private final ObjectMapper json;
    private final AtomicBoolean synced = new AtomicBoolean();

    public CatalogueCopy(EntityManager entityManager, AgroalDataSource dataSource, ObjectMapper json) {
        this.entityManager = entityManager;
        this.dataSource = dataSource;
        this.json = json;
    }

    /** Whether the copy answers lookups: a snapshot was applied (by any replica, at any earlier time). */
    public boolean synced() {
        return synced.get();
    }

    /** Reads whether a snapshot was ever applied; true from then on in this process. */
    public boolean syncedBefore() {
        boolean before = QuarkusTransaction.requiringNew().call(() -> !entityManager
                .createNativeQuery("SELECT 1 FROM catalogue_copy_synced").getResultList().isEmpty());
        if (before) {
            synced.set(true);
        }
        return before;
    }

    /**
     * The drug as the partner sees it, from the copy; empty when the copy has no such drug. One statement
     * on a pooled connection: in the caller's transaction when there is one (the pool enlists it), else on
     * its own, with no transaction around it (issue 23: a transaction and a Hibernate query made the copy's
     * lookup cost as much CPU as the call to catalogue-service it replaces).
     */
    public Optional<DrugLookup> lookup(String partnerId, String drugId) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(LOOKUP)) {
            statement.setString(1, partnerId);
            statement.setString(2, drugId);
            try (ResultSet row = statement.executeQuery()) {
                return row.next() ? read(row, 1, drugId) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new PersistenceException("Reading the catalogue copy failed", e);
        }
    }

    /**
     * The drug of a row of {@link #LOOKUP}'s four columns, starting at column {@code first}; empty when they
     * are null (a statement that joins the lookup found no drug).
     */
    public Optional<DrugLookup> read(ResultSet row, int first, String drugId) throws SQLException {
        String drug = row.getString(first);
        if (drug == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(new DrugLookup(json.readTree(drug), row.getBoolean(first + 3),
                    new DrugLookup.Pharmacy(row.getString(first + 1), row.getString(first + 2))));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("catalogue_drugs holds a drug that is not JSON: " + drugId, e);
        }
    }

    @Transactional
    public void apply(CatalogueChanges.Drug drug) {
        entityManager.createNativeQuery(UPSERT_DRUG)
                .setParameter(1, drug.drugId())
                .setParameter(2, drug.version())
                .setParameter(3, drug.drug().toString())
                .setParameter(4, drug.pharmacy().id())
                .setParameter(5, drug.pharmacy().method())
                .executeUpdate();
    }

    @Transactional
    public void apply(CatalogueChanges.Access access) {
        var upsert = entityManager.createNativeQuery(access.drugIds() == null ? UPSERT_OPENED : UPSERT_RESTRICTED)
                .setParameter(1, access.partnerId())
                .setParameter(2, access.version());
        if (access.drugIds() != null) {
            upsert.setParameter(3, arrayLiteral(access.drugIds()));
        }
        upsert.executeUpdate();
    }

    /**
     * Every entry of the snapshot, then the mark that the copy answers lookups, in one transaction; the
     * caller marks this process {@link #markSynced} once it committed.
     */
    @Transactional
    public void apply(CatalogueChanges.Snapshot snapshot) {
        snapshot.drugs().forEach(this::apply);
        snapshot.access().forEach(this::apply);
        entityManager.createNativeQuery("""
                        INSERT INTO catalogue_copy_synced (id, synced_at) VALUES (1, ?1)
                        ON CONFLICT (id) DO UPDATE SET synced_at = excluded.synced_at""")
                .setParameter(1, Instant.now())
                .executeUpdate();
    }

    /** A snapshot was applied and committed: lookups read the copy from now on. */
    public void markSynced() {
        synced.set(true);
    }

    /** A PostgreSQL array literal of the ids, each quoted and escaped (ids are free text to this service). */
    static String arrayLiteral(List<String> ids) {
        StringBuilder literal = new StringBuilder("{");
        for (int i = 0; i < ids.size(); i++) {
            literal.append(i == 0 ? "" : ",").append('"');
            String id = ids.get(i);
            for (int c = 0; c < id.length(); c++) {
                char ch = id.charAt(c);
                if (ch == '"' || ch == '\\') {
                    literal.append('\\');
                }
                literal.append(ch);
            }
            literal.append('"');
        }
        return literal.append('}').toString();
    }
}
