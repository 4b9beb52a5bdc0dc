package com.telemed.testkit.shape;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameEndingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noCodeUnits;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md's "Service shape" as rules the build checks (issue #43). Every service runs them on
 * its own main classes with a test of a few lines:
 * <pre>
 * class ServiceShapeTest extends ServiceShape {
 *     ServiceShapeTest() {
 *         super("com.telemed.billing");
 *     }
 * }
 * </pre>
 * A service's packages are its features ({@code com.telemed.<service>.<feature>}); the rules speak of them.
 * Plain Jupiter tests over ArchUnit's core: surefire 3.5.3 does not run ArchUnit's own engine's rule fields
 * (TNG/ArchUnit#1442), and a test per rule names the rule that broke.
 */
public abstract class ServiceShape {

    private static final String TRANSACTIONAL = "jakarta.transaction.Transactional";
    private static final String JSON_NODE = "com.fasterxml.jackson.databind.JsonNode";
    private static final String PATH = "jakarta.ws.rs.Path";
    private static final String REST_CLIENT = "org.eclipse.microprofile.rest.client.inject.RegisterRestClient";
    /** Packages named after a technique, not a feature: what they hold belongs to the feature that owns it. */
    static final Set<String> TECHNICAL_PACKAGES = Set.of("config", "remote", "time", "util", "utils", "common", "helpers");

    private static final Map<String, JavaClasses> IMPORTED = new ConcurrentHashMap<>();

    private final String servicePackage;

    protected ServiceShape(String servicePackage) {
        this.servicePackage = servicePackage;
    }

    /** The service's main classes (not its tests), imported once per test JVM. */
    protected final JavaClasses imported() {
        return IMPORTED.computeIfAbsent(servicePackage, name -> new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages(name));
    }

    @Test
    void featuresAreFreeOfCycles() {
        FEATURES_ARE_FREE_OF_CYCLES.check(imported());
    }

    @Test
    void resourcesAreNamedResource() {
        RESOURCES_ARE_NAMED_RESOURCE.check(imported());
        ONLY_RESOURCES_ARE_NAMED_RESOURCE.check(imported());
    }

    @Test
    void restClientsAreNamedApi() {
        REST_CLIENTS_ARE_NAMED_API.check(imported());
    }

    @Test
    void onlyTheEdgeTakesJsonNodes() {
        ONLY_THE_EDGE_TAKES_JSON_NODES.check(imported());
    }

    @Test
    void noRemoteCallInATransaction() {
        NO_REMOTE_CALL_IN_A_TRANSACTION.check(imported());
    }

    @Test
    void noTechnicalPackages() {
        NO_TECHNICAL_PACKAGES.check(imported());
    }

    @Test
    void eventsStayInTheirFeature() {
        EVENTS_STAY_IN_THEIR_FEATURE.check(imported());
    }

    /** No cycle between a service's features: one feature uses another, never both ways (directly or around). */
    public static final ArchRule FEATURES_ARE_FREE_OF_CYCLES = slices().matching("com.telemed.(*).(*)..").namingSlices("$2")
            .should().beFreeOfCycles()
            .because("a feature package that needs another one's class while that one needs it back is one feature cut in two");

    /** A JAX-RS resource is named so, and only a resource is. */
    public static final ArchRule RESOURCES_ARE_NAMED_RESOURCE = classes().that().areAnnotatedWith(PATH).and().areNotInterfaces()
            .should().haveSimpleNameEndingWith("Resource");

    public static final ArchRule ONLY_RESOURCES_ARE_NAMED_RESOURCE = classes().that().haveSimpleNameEndingWith("Resource")
            .and().areNotInterfaces().and().areTopLevelClasses()
            .should().beAnnotatedWith(PATH);

    /** A neighbour's REST client interface is its {@code *Api}; the class that calls it through the policy is its {@code *Client}. */
    public static final ArchRule REST_CLIENTS_ARE_NAMED_API = classes().that().areAnnotatedWith(REST_CLIENT)
            .should().haveSimpleNameEndingWith("Api");

    /**
     * Resources validate and bind; what they call takes records. A {@code JsonNode} is a parameter only of a
     * resource, a schema, an input's binding, an event (its payload) or a consumer of events.
     */
    public static final ArchRule ONLY_THE_EDGE_TAKES_JSON_NODES = noCodeUnits()
            .that().areDeclaredInClassesThat(not(edgeOfJson()))
            .should(takeAJsonNode())
            .because("a resource binds the body to a record (its *Input) before anything below it sees it");

    /** No remote call inside a transaction: a class or method that is {@code @Transactional} calls no {@code *Client}. */
    public static final ArchRule NO_REMOTE_CALL_IN_A_TRANSACTION = noCodeUnits()
            .that(transactional())
            .should(callAClient())
            .because("a transaction or lock held across a neighbour's call holds the database for the network's time");

    /** No package named after a technique: what is in it belongs to a feature. */
    public static final ArchRule NO_TECHNICAL_PACKAGES = noClasses().should(resideInATechnicalPackage());

    /** Each feature publishes its own events: a {@code *Events} is used by its own package only. */
    public static final ArchRule EVENTS_STAY_IN_THEIR_FEATURE = classes().that().haveSimpleNameEndingWith("Events")
            .and().areTopLevelClasses()
            .should(beAccessedFromTheirOwnPackageOnly());

    private static DescribedPredicate<JavaClass> edgeOfJson() {
        DescribedPredicate<JavaClass> edge = simpleNameEndingWith("Resource").or(simpleNameEndingWith("Schemas"))
                .or(simpleNameEndingWith("Input")).or(simpleNameEndingWith("Binding")).or(simpleNameEndingWith("Events"))
                .or(simpleNameEndingWith("Consumer")).or(simpleNameEndingWith("Views"));
        return DescribedPredicate.describe("resources, schemas, inputs, bindings, events, views or consumers",
                type -> edge.test(type) || type.getEnclosingClass().map(edge::test).orElse(false));
    }

    private static ArchCondition<JavaCodeUnit> takeAJsonNode() {
        return new ArchCondition<>("take a JsonNode") {
            @Override
            public void check(JavaCodeUnit unit, ConditionEvents events) {
                boolean takes = unit.getRawParameterTypes().stream().anyMatch(type -> type.isAssignableTo(JSON_NODE));
                events.add(new SimpleConditionEvent(unit, takes, unit.getFullName() + " takes a JsonNode"));
            }
        };
    }

    private static DescribedPredicate<JavaCodeUnit> transactional() {
        return DescribedPredicate.describe("are @Transactional (or in a @Transactional class)",
                unit -> unit.isAnnotatedWith(TRANSACTIONAL) || unit.getOwner().isAnnotatedWith(TRANSACTIONAL));
    }

    private static ArchCondition<JavaCodeUnit> callAClient() {
        return new ArchCondition<>("call a *Client") {
            @Override
            public void check(JavaCodeUnit unit, ConditionEvents events) {
                for (JavaAccess<?> access : unit.getAccessesFromSelf()) {
                    JavaClass target = access.getTargetOwner();
                    boolean client = target.getSimpleName().endsWith("Client") || target.isAnnotatedWith(REST_CLIENT);
                    if (client && !target.equals(unit.getOwner())) {
                        events.add(SimpleConditionEvent.satisfied(unit, access.getDescription()));
                    }
                }
            }
        };
    }

    private static ArchCondition<JavaClass> resideInATechnicalPackage() {
        return new ArchCondition<>("reside in a package named after a technique " + TECHNICAL_PACKAGES) {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                String[] parts = type.getPackageName().split("\\.");
                // com.telemed.<service>.<feature>...: the feature and anything below it.
                for (int i = 3; i < parts.length; i++) {
                    if (TECHNICAL_PACKAGES.contains(parts[i])) {
                        events.add(SimpleConditionEvent.satisfied(type, type.getName() + " is in " + type.getPackageName()));
                        return;
                    }
                }
            }
        };
    }

    private static ArchCondition<JavaClass> beAccessedFromTheirOwnPackageOnly() {
        return new ArchCondition<>("be used by their own feature's package only") {
            @Override
            public void check(JavaClass events, ConditionEvents conditionEvents) {
                events.getDirectDependenciesToSelf().stream()
                        .filter(dependency -> !dependency.getOriginClass().getPackageName().equals(events.getPackageName()))
                        .map(dependency -> dependency.getOriginClass().getName())
                        .distinct()
                        .forEach(origin -> conditionEvents.add(SimpleConditionEvent.violated(events,
                                events.getSimpleName() + " is used by " + origin)));
            }
        };
    }
}
