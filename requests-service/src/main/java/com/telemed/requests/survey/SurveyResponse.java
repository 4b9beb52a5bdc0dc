package com.telemed.requests.survey;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * A submitted survey (table {@code survey_responses}, V14), owned by the partner it was submitted
 * under. Holds patient data (answers, contact): never log it.
 */
@Entity
@Table(name = "survey_responses")
public class SurveyResponse extends PanacheEntityBase {

    public static final String INITIAL = "initial";
    public static final String REFILL = "refill";

    @Id
    @Column(name = "id", nullable = false, updatable = false)
    public UUID id;

    @Column(name = "partner_id", nullable = false, updatable = false)
    public String partnerId;

    @Column(name = "survey_id", nullable = false, updatable = false)
    public String surveyId;

    @Column(name = "mode", nullable = false, updatable = false)
    public String mode;

    /** The token's member (refill), else the member of the request it backs, else null. */
    @Column(name = "member_id")
    public UUID memberId;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "answers", nullable = false, updatable = false)
    public List<StoredAnswer> answers;

    @Column(name = "contact_first_name", updatable = false)
    public String contactFirstName;

    @Column(name = "contact_last_name", updatable = false)
    public String contactLastName;

    @Column(name = "contact_email", updatable = false)
    public String contactEmail;

    @Column(name = "qualified", nullable = false, updatable = false)
    public boolean qualified;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "drug_ids", nullable = false, updatable = false)
    public List<String> drugIds;

    /** The request it backs; set only by the request's inserting statement ({@link com.telemed.requests.request.NewRequestRows}). */
    @Column(name = "request_id")
    public UUID requestId;

    @Column(name = "linked_at")
    public Instant linkedAt;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;

    SurveyViews.Submitted submitted() {
        return new SurveyViews.Submitted(id, qualified);
    }

    boolean contactCollected() {
        return contactEmail != null;
    }
}
