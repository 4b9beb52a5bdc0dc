package com.telemed.testkit.shape;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.shapefixture.order.OrderDocument;
import com.telemed.shapefixture.order.OrderEndpoint;
import com.telemed.shapefixture.order.OrderEvents;
import com.telemed.shapefixture.order.OrderForms;
import com.telemed.shapefixture.order.OrderInput;
import com.telemed.shapefixture.order.OrderPricing;
import com.telemed.shapefixture.order.OrderResource;
import com.telemed.shapefixture.order.OrderStatusResource;
import com.telemed.shapefixture.order.OrderTransfers;
import com.telemed.shapefixture.order.Orders;
import com.telemed.shapefixture.report.OrderReport;
import com.telemed.shapefixture.stock.StockApi;
import com.telemed.shapefixture.stock.StockClient;
import com.telemed.shapefixture.stock.StockReservations;
import com.telemed.shapefixture.stock.StockRest;
import com.telemed.shapefixture.time.Clocks;
import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.freeze.FreezingArchRule;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Each rule of {@link ServiceShape} shown to pass on a clean service in the platform's shape and to report exactly
 * the violation planted for it (the fixture service {@code com.telemed.shapefixture}, test sources: {@code order}
 * uses {@code stock}), and the freezing a service with known violations uses shown to keep them, drop a fixed one
 * and fail on a new one (issue #43). One thread: the freezing test sets ArchUnit's one configuration for a while.
 */
@Execution(ExecutionMode.SAME_THREAD)
class ServiceShapeRulesTest {

    private static final List<Class<?>> CLEAN = List.of(OrderResource.class, OrderInput.class, Orders.class,
            OrderEvents.class, OrderDocument.class, OrderForms.class, StockApi.class, StockClient.class);

    private static final String PRICING_TAKES_A_TREE = "com.telemed.shapefixture.order.OrderPricing.price(java.lang.String,"
            + " com.fasterxml.jackson.databind.node.ObjectNode) takes a JsonNode";

    private static final List<ArchRule> RULES = List.of(ServiceShape.FEATURES_ARE_FREE_OF_CYCLES,
            ServiceShape.RESOURCES_ARE_NAMED_RESOURCE, ServiceShape.ONLY_RESOURCES_ARE_NAMED_RESOURCE,
            ServiceShape.REST_INTERFACES_ARE_NAMED_API, ServiceShape.BEANS_BELOW_THE_RESOURCE_TAKE_NO_JSON_NODE,
            ServiceShape.NO_REMOTE_CALL_IN_A_TRANSACTION, ServiceShape.NO_TECHNICAL_PACKAGES,
            ServiceShape.EVENTS_STAY_IN_THEIR_FEATURE);

    private static final Map<List<Class<?>>, JavaClasses> IMPORTED = new ConcurrentHashMap<>();

    /** The clean classes and the planted ones, imported once per set. */
    private static JavaClasses cleanWith(Class<?>... planted) {
        return IMPORTED.computeIfAbsent(List.of(planted), extra -> {
            List<Class<?>> classes = new ArrayList<>(CLEAN);
            classes.addAll(extra);
            return new ClassFileImporter().importClasses(classes);
        });
    }

    private static List<String> violations(ArchRule rule, Class<?>... planted) {
        return rule.evaluate(cleanWith(planted)).getFailureReport().getDetails();
    }

    @Test
    void theCleanServicePassesEveryRule() {
        JavaClasses clean = cleanWith();
        for (ArchRule rule : RULES) {
            assertEquals(List.of(), rule.evaluate(clean).getFailureReport().getDetails(), rule.getDescription());
        }
    }

    @Test
    void aFeatureThatNeedsItsUserBackIsACycle() {
        List<String> cycles = violations(ServiceShape.FEATURES_ARE_FREE_OF_CYCLES, StockReservations.class);
        assertEquals(1, cycles.size(), cycles.toString());
        assertTrue(cycles.get(0).startsWith("Cycle detected: order -> \n                stock -> \n                order\n"), cycles.get(0));
        assertTrue(cycles.get(0).contains("Field <com.telemed.shapefixture.stock.StockReservations.orders> has type"
                + " <com.telemed.shapefixture.order.Orders>"), cycles.get(0));
    }

    @Test
    void aResourceIsNamedResourceAndOnlyAResourceIs() {
        assertEquals(List.of("Class <com.telemed.shapefixture.order.OrderEndpoint> does not have simple name ending"
                        + " with 'Resource' in (OrderEndpoint.java:0)"),
                violations(ServiceShape.RESOURCES_ARE_NAMED_RESOURCE, OrderEndpoint.class, OrderStatusResource.class));
        assertEquals(List.of("Class <com.telemed.shapefixture.order.OrderStatusResource> is not annotated with @Path"
                        + " in (OrderStatusResource.java:0)"),
                violations(ServiceShape.ONLY_RESOURCES_ARE_NAMED_RESOURCE, OrderEndpoint.class, OrderStatusResource.class));
    }

    @Test
    void aRestInterfaceIsNamedApi() {
        assertEquals(List.of("com.telemed.shapefixture.stock.StockRest is a REST interface not named *Api"),
                violations(ServiceShape.REST_INTERFACES_ARE_NAMED_API, StockRest.class));
    }

    @Test
    void aBeanBelowTheResourceTakesNoJsonNode() {
        assertEquals(List.of(PRICING_TAKES_A_TREE), violations(ServiceShape.BEANS_BELOW_THE_RESOURCE_TAKE_NO_JSON_NODE, OrderPricing.class));
    }

    @Test
    void aTransactionCallsNoClient() {
        assertEquals(List.of("Method <com.telemed.shapefixture.order.OrderTransfers.transfer(java.lang.String)> calls method"
                + " <com.telemed.shapefixture.stock.StockClient.reserve(java.lang.String)> in (OrderTransfers.java:19)"),
                violations(ServiceShape.NO_REMOTE_CALL_IN_A_TRANSACTION, OrderTransfers.class));
    }

    @Test
    void noPackageIsNamedAfterATechnique() {
        assertEquals(List.of("com.telemed.shapefixture.time.Clocks is in com.telemed.shapefixture.time"),
                violations(ServiceShape.NO_TECHNICAL_PACKAGES, Clocks.class));
    }

    @Test
    void aFeaturesEventsAreItsOwn() {
        assertEquals(List.of("com.telemed.shapefixture.order.OrderEvents is used by com.telemed.shapefixture.report.OrderReport"),
                violations(ServiceShape.EVENTS_STAY_IN_THEIR_FEATURE, OrderReport.class));
    }

    @Test
    void eachPlantedViolationBreaksItsRuleOnly() {
        List<Class<?>> planted = List.of(StockReservations.class, OrderEndpoint.class, OrderStatusResource.class,
                StockRest.class, OrderPricing.class, OrderTransfers.class, Clocks.class, OrderReport.class);
        List<List<Class<?>>> breaking = List.of(List.of(StockReservations.class),
                List.of(OrderEndpoint.class), List.of(OrderStatusResource.class), List.of(StockRest.class),
                List.of(OrderPricing.class), List.of(OrderTransfers.class), List.of(Clocks.class), List.of(OrderReport.class));
        for (Class<?> violation : planted) {
            for (int i = 0; i < RULES.size(); i++) {
                boolean broken = RULES.get(i).evaluate(cleanWith(violation)).hasViolation();
                assertEquals(breaking.get(i).contains(violation), broken, violation.getSimpleName() + " against "
                        + RULES.get(i).getDescription());
            }
        }
    }

    /** What a service's frozen rule does (its archunit.properties and archunit_store): known passes, new fails. */
    @Test
    void aFrozenRuleKeepsItsKnownViolationsDropsFixedOnesAndFailsOnNewOnes(@TempDir Path store) {
        // As a service's archunit.properties says, but in a directory of the test's own, and with creation allowed.
        ArchConfiguration configuration = ArchConfiguration.get();
        configuration.setProperty("freeze.store.default.path", store.toString());
        configuration.setProperty("freeze.store.default.allowStoreCreation", "true");
        try {
            checkFrozen(FreezingArchRule.freeze(ServiceShape.BEANS_BELOW_THE_RESOURCE_TAKE_NO_JSON_NODE));
        } finally {
            configuration.reset();
        }
    }

    private static void checkFrozen(ArchRule frozen) {

        assertFalse(frozen.evaluate(cleanWith(OrderPricing.class)).hasViolation(), "first run: recorded");
        assertFalse(frozen.evaluate(cleanWith(OrderPricing.class)).hasViolation(), "known: passes");
        assertFalse(frozen.evaluate(cleanWith()).hasViolation(), "fixed: passes, and leaves the store");
        EvaluationResult again = frozen.evaluate(cleanWith(OrderPricing.class));
        assertEquals(List.of(PRICING_TAKES_A_TREE), again.getFailureReport().getDetails(), "back again: a new violation");
    }

}
