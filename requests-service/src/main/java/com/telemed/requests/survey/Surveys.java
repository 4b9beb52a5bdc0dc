package com.telemed.requests.survey;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.telemed.common.audit.AuditTrail;
import com.telemed.common.error.ApiException;
import com.telemed.common.validation.Issues;
import com.telemed.requests.catalogue.CatalogueClient;
import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Survey definitions (operations-api.md, "Intake surveys"): the operator's upsert and read, the
 * partner's lookup by drug, and the definition as partners and browsers read it.
 *
 * <p>An upsert is checked in three steps, nothing written before the last: the body (every issue
 * at once), then each drug at catalogue-service with no transaction open (one issue per unknown
 * drug), then, in one short transaction holding the survey writers' advisory lock, that no drug
 * already has another survey (one issue per such drug). A drug has at most one intake survey: the
 * operator removes it from the other survey first.
 */
@ApplicationScoped
public class Surveys {

    static final String NOT_FOUND = "Survey not found";
    static final String DRUG_NOT_FOUND = "Drug not found";
    static final String DRUG_TAKEN = "Drug already has an intake survey: ";
    /**
     * The partner id the operator's drug checks name at catalogue-service (its lookup needs one):
     * a survey is platform-wide, and only whether the drug exists counts, not who may order it.
     */
    static final String OPERATOR = "operator";

    private static final Logger LOG = Logger.getLogger(Surveys.class);

    private final CatalogueClient catalogue;
    private final Clock clock;
    private final AuditTrail audit;

    public Surveys(CatalogueClient catalogue, Clock clock, AuditTrail audit) {
        this.catalogue = catalogue;
        this.audit = audit;
        this.clock = clock;
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    /** Creates or replaces the survey; {@code 200 {survey}} either way. */
    public SurveyViews.SurveyView put(String surveyId, SurveyDefinitionInput definition) {
        List<String> drugIds = definition.drugIds();
        checkDrugsExist(drugIds);
        List<Question> questions = definition.questions().stream().map(Surveys::stored).toList();
        SurveyViews.SurveyView saved = QuarkusTransaction.requiringNew().call(() -> {
            lockWriters();
            refuseDrugsOfOtherSurveys(surveyId, drugIds);
            Instant now = now();
            Survey survey = Survey.findById(surveyId);
            if (survey == null) {
                survey = new Survey();
                survey.id = surveyId;
                survey.createdAt = now;
            }
            survey.title = definition.title();
            survey.questions = questions;
            survey.updatedAt = now;
            survey.persist();
            audit.record("survey.update", "survey", surveyId, null);
            Panache.getEntityManager().flush();
            Panache.getEntityManager().createNativeQuery("DELETE FROM survey_drugs WHERE survey_id = :survey")
                    .setParameter("survey", surveyId).executeUpdate();
            for (int position = 0; position < drugIds.size(); position++) {
                Panache.getEntityManager()
                        .createNativeQuery("INSERT INTO survey_drugs (drug_id, survey_id, position) VALUES (:drug, :survey, :position)")
                        .setParameter("drug", drugIds.get(position))
                        .setParameter("survey", surveyId)
                        .setParameter("position", position)
                        .executeUpdate();
            }
            return SurveyViews.SurveyView.of(survey, drugIds, true);
        });
        LOG.infof("Survey %s saved: %d question(s), %d drug(s)", surveyId, questions.size(), drugIds.size());
        return saved;
    }

    /** A disqualifying number is kept as written back ({@code 42.50} is {@code 42.5}). */
    private static Question stored(Question question) {
        Question.DisqualifyWhen rule = question.disqualifyWhen();
        if (rule == null || !rule.value().isNumber()) {
            return question;
        }
        return new Question(question.id(), question.text(), question.type(), question.options(), question.required(),
                new Question.DisqualifyWhen(SurveyAnswers.shown(rule.value())));
    }

    /** Every drug named must exist at catalogue-service: a {@code custom} issue {@code Drug not found} at each unknown one. */
    private void checkDrugsExist(List<String> drugIds) {
        Map<String, Boolean> exists = new HashMap<>();
        Issues issues = new Issues();
        for (int index = 0; index < drugIds.size(); index++) {
            String drugId = drugIds.get(index);
            if (!exists.computeIfAbsent(drugId, id -> catalogue.lookup(OPERATOR, id).isPresent())) {
                issues.custom(List.of("drugIds", index), DRUG_NOT_FOUND);
            }
        }
        issues.throwIfAny();
    }

    /** Every survey write holds this lock until it commits, so two surveys never both take one drug. */
    private static void lockWriters() {
        Panache.getEntityManager()
                .createNativeQuery("SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtext('requests.surveys'))) AS locked")
                .getSingleResult();
    }

    @SuppressWarnings("unchecked")
    private static void refuseDrugsOfOtherSurveys(String surveyId, List<String> drugIds) {
        List<Object[]> taken = Panache.getEntityManager()
                .createNativeQuery("SELECT drug_id, survey_id FROM survey_drugs WHERE drug_id IN (:drugs) AND survey_id <> :survey")
                .setParameter("drugs", new ArrayList<>(new LinkedHashSet<>(drugIds)))
                .setParameter("survey", surveyId)
                .getResultList();
        if (taken.isEmpty()) {
            return;
        }
        Map<String, String> owners = taken.stream().collect(Collectors.toMap(row -> (String) row[0], row -> (String) row[1]));
        Issues issues = new Issues();
        Set<String> reported = new HashSet<>();
        for (int index = 0; index < drugIds.size(); index++) {
            String owner = owners.get(drugIds.get(index));
            if (owner != null && reported.add(drugIds.get(index))) {
                issues.custom(List.of("drugIds", index), DRUG_TAKEN + owner);
            }
        }
        issues.throwIfAny();
    }

    /** {@code GET /ops/v1/surveys/:surveyId} and {@code GET /v2/public/surveys/:surveyId}: the whole definition. */
    public SurveyViews.SurveyView get(String surveyId) {
        return read(surveyId, true);
    }

    /** The browser's read ({@code GET /v2/embed/surveys/:surveyId}): the definition without its {@code disqualifyWhen} rules. */
    public SurveyViews.SurveyView forBrowser(String surveyId) {
        return read(surveyId, false);
    }

    private static SurveyViews.SurveyView read(String surveyId, boolean withRules) {
        return QuarkusTransaction.requiringNew().call(() -> {
            Survey survey = Survey.findById(surveyId);
            if (survey == null) {
                throw ApiException.notFound(NOT_FOUND);
            }
            return SurveyViews.SurveyView.of(survey, survey.drugIds(), withRules);
        });
    }

    /** The survey in a transaction already open, or {@code 404 Survey not found}. */
    static Survey existing(String surveyId) {
        return Optional.ofNullable(Survey.<Survey>findById(surveyId)).orElseThrow(() -> ApiException.notFound(NOT_FOUND));
    }

    /**
     * {@code GET /v1/surveys/v2/lookup?drugId=}: the drug's intake survey, else {@code 404 Survey
     * not found}; no {@code drugId} (an empty one counts as absent) is a {@code Required} issue.
     */
    public SurveyViews.Lookup lookup(String drugId) {
        ObjectNode query = JsonNodeFactory.instance.objectNode();
        if (drugId != null && !drugId.isEmpty()) {
            query.put("drugId", drugId);
        }
        SurveySchemas.LOOKUP.validate(query);
        return QuarkusTransaction.requiringNew().call(() -> Survey.forDrug(drugId))
                .map(SurveyViews.Lookup::new)
                .orElseThrow(() -> ApiException.notFound(NOT_FOUND));
    }
}
