package com.telemed.requests.survey;

import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * An intake survey definition (table {@code surveys}, V14), named by the operator. The drugs it
 * covers are rows of {@code survey_drugs} ({@link #drugIds}, {@link #forDrug}): a drug has at
 * most one intake survey. Definitions are platform-wide; partners only read them.
 */
@Entity
@Table(name = "surveys")
public class Survey extends PanacheEntityBase {

    @Id
    @Column(name = "id", nullable = false, updatable = false)
    public String id;

    @Column(name = "title", nullable = false)
    public String title;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "questions", nullable = false)
    public List<Question> questions;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** The drugs this survey covers, in the definition's order. */
    @SuppressWarnings("unchecked")
    public List<String> drugIds() {
        return Panache.getEntityManager()
                .createNativeQuery("SELECT drug_id FROM survey_drugs WHERE survey_id = :survey ORDER BY position")
                .setParameter("survey", id)
                .getResultList();
    }

    /** The intake survey covering the drug, if any. */
    @SuppressWarnings("unchecked")
    static Optional<String> forDrug(String drugId) {
        List<String> found = Panache.getEntityManager()
                .createNativeQuery("SELECT survey_id FROM survey_drugs WHERE drug_id = :drug")
                .setParameter("drug", drugId)
                .getResultList();
        return found.stream().findFirst();
    }
}
