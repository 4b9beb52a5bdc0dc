package com.telemed.testkit.shape;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameEndingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noCodeUnits;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.freeze.FreezingArchRule;
import java.util.List;
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
 * A service that still has violations of a rule names the rule in its constructor
 * ({@code super("com.telemed.webhook", ServiceShape.NO_TECHNICAL_PACKAGES)}): that rule is then checked
 * through ArchUnit's {@link FreezingArchRule} against the violation store the service commits under
 * {@code src/test/resources/archunit_store} (its {@code archunit.properties} says where): the violations listed
 * there are the remaining work, any other one fails, and a fixed one leaves the store on the next run.
 * Plain Jupiter tests over ArchUnit's core: surefire 3.5.3 does not run ArchUnit's own engine's rule fields
 * (TNG/ArchUnit#1442), and a test per rule names the rule that broke.
 */
public abstract class ServiceShape {

    private static final String TRANSACTIONAL = "jakarta.transaction.Transactional";
    private static final String JSON_NODE = "com.fasterxml.jackson.databind.JsonNode";
    private static final String PATH = "jakarta.ws.rs.Path";
    /** CDI's scopes (normal and pseudo) are annotated with these: a class carrying one is a bean. */
    private static final List<String> SCOPE_MARKERS = List.of("jakarta.enterprise.context.NormalScope", "jakarta.inject.Scope");
    /** Packages named after a technique, not a feature: what they hold belongs to the feature that owns it. */
    static final Set<String> TECHNICAL_PACKAGES = Set.of("config", "remote", "time", "util", "utils", "common", "helpers");

    private static final Map<String, JavaClasses> IMPORTED = new ConcurrentHashMap<>();

    private final String servicePackage;
    private final Set<ArchRule> frozen;

    /**
     * @param servicePackage the service's root package, {@code com.telemed.<service>}
     * @param frozen the rules this service still breaks, checked against its committed violation store
     */
    protected ServiceShape(String servicePackage, ArchRule... frozen) {
        this.servicePackage = servicePackage;
        this.frozen = Set.of(frozen);
    }

    /** The service's main classes (not its tests), imported once per test JVM. */
    protected final JavaClasses imported() {
        return IMPORTED.computeIfAbsent(servicePackage, name -> new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages(name));
    }

    private void check(ArchRule rule) {
        (frozen.contains(rule) ? FreezingArchRule.freeze(rule) : rule).check(imported());
    }

    @Test
    void featuresAreFreeOfCycles() {
        check(FEATURES_ARE_FREE_OF_CYCLES);
    }

    @Test
    void resourcesAreNamedResource() {
        check(RESOURCES_ARE_NAMED_RESOURCE);
        check(ONLY_RESOURCES_ARE_NAMED_RESOURCE);
    }

    @Test
    void restInterfacesAreNamedApi() {
        check(REST_INTERFACES_ARE_NAMED_API);
    }

    @Test
    void beansBelowTheResourceTakeNoJsonNode() {
        check(BEANS_BELOW_THE_RESOURCE_TAKE_NO_JSON_NODE);
    }

    @Test
    void noRemoteCallInATransaction() {
        check(NO_REMOTE_CALL_IN_A_TRANSACTION);
    }

    @Test
    void noTechnicalPackages() {
        check(NO_TECHNICAL_PACKAGES);
    }

    @Test
    void eventsStayInTheirFeature() {
        check(EVENTS_STAY_IN_THEIR_FEATURE);
    }

    /** No cycle between a service's features: one feature uses another, never both ways (directly or around). */
    public static final ArchRule FEATURES_ARE_FREE_OF_CYCLES = slices().matching("com.telemed.(*).(*)..").namingSlices("$2")
            .should().beFreeOfCycles()
            .because("\"Packages form no cycle: when a lower feature needs something of a higher one, the lower one"
                    + " declares the port and the higher one implements it\"");

    /** A JAX-RS resource is named so, and only a resource is. */
    public static final ArchRule RESOURCES_ARE_NAMED_RESOURCE = classes().that().areAnnotatedWith(PATH).and().areNotInterfaces()
            .should().haveSimpleNameEndingWith("Resource")
            .because("\"`*Resource`: a thin JAX-RS class that reads the input, calls one service method and shapes the answer\"");

    public static final ArchRule ONLY_RESOURCES_ARE_NAMED_RESOURCE = classes().that().haveSimpleNameEndingWith("Resource")
            .and().areNotInterfaces().and().areTopLevelClasses()
            .should().beAnnotatedWith(PATH)
            .allowEmptyShould(true)
            .because("\"`*Resource`: a thin JAX-RS class that reads the input, calls one service method and shapes the answer\"");

    /**
     * A neighbour's REST interface (a JAX-RS interface the REST client is built from) is its {@code *Api}, or is
     * nested in one.
     */
    public static final ArchRule REST_INTERFACES_ARE_NAMED_API = classes().that().areAnnotatedWith(PATH).and().areInterfaces()
            .should(beNamedApi())
            .allowEmptyShould(true)
            .because("\"`*Client` + `*Api`: the one bean through which a service calls another, and its REST interface\"");

    /**
     * Resources validate and bind; the beans below them take records. A CDI bean's non-private method takes no
     * {@code JsonNode} (nor {@code ObjectNode}, {@code ArrayNode} ...) unless the bean is the edge: a resource, a
     * schema, an input's binding, a feature's events, its views, a consumer of events, or a client (which sends a
     * neighbour's body as that neighbour's contract has it). Records and documents that hold JSON, and classes
     * that are not beans (a form's JSON builder, a schema check), are not concerned.
     */
    public static final ArchRule BEANS_BELOW_THE_RESOURCE_TAKE_NO_JSON_NODE = methods()
            .that().areDeclaredInClassesThat(beansBelowTheResource())
            .and().doNotHaveModifier(JavaModifier.PRIVATE)
            .should(takeNoJsonNode())
            .allowEmptyShould(true)
            .because("\"Services below the resource take records and ids, never a `JsonNode`, and never read a field"
                    + " by its name\"");

    /** No remote call inside a transaction: a class or method that is {@code @Transactional} calls no {@code *Client}. */
    public static final ArchRule NO_REMOTE_CALL_IN_A_TRANSACTION = noCodeUnits()
            .that(transactional())
            .should(callAClient())
            .allowEmptyShould(true)
            .because("\"No call to another service is made inside a transaction or under a lock\"");

    /** No package named after a technique: what is in it belongs to a feature. */
    public static final ArchRule NO_TECHNICAL_PACKAGES = noClasses().should(resideInATechnicalPackage())
            .because("\"No package is named after a technique (`time`, `remote`, `config`, `util` ...): what it would hold"
                    + " belongs to the feature that owns it\"");

    /** Each feature publishes its own events: a {@code *Events} is used by its own package only. */
    public static final ArchRule EVENTS_STAY_IN_THEIR_FEATURE = classes().that().haveSimpleNameEndingWith("Events")
            .and().areTopLevelClasses()
            .should(beAccessedFromTheirOwnPackageOnly())
            .allowEmptyShould(true)
            .because("\"`*Events`: what the feature publishes\": each feature publishes through its own");

    private static ArchCondition<JavaClass> beNamedApi() {
        return new ArchCondition<>("be named *Api or be nested in a *Api") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                boolean named = type.getSimpleName().endsWith("Api")
                        || type.getEnclosingClass().map(outer -> outer.getSimpleName().endsWith("Api")).orElse(false);
                events.add(new SimpleConditionEvent(type, named, type.getName() + " is a REST interface not named *Api"));
            }
        };
    }

    private static DescribedPredicate<JavaClass> beansBelowTheResource() {
        DescribedPredicate<JavaClass> edge = simpleNameEndingWith("Resource").or(simpleNameEndingWith("Schemas"))
                .or(simpleNameEndingWith("Input")).or(simpleNameEndingWith("Binding")).or(simpleNameEndingWith("Events"))
                .or(simpleNameEndingWith("Views")).or(simpleNameEndingWith("Consumer")).or(simpleNameEndingWith("Client"));
        return DescribedPredicate.describe("are CDI beans other than resources, schemas, inputs, bindings, events, views,"
                + " consumers or clients", type -> isBean(type) && !edge.test(type));
    }

    private static boolean isBean(JavaClass type) {
        return type.getAnnotations().stream().anyMatch(annotation -> SCOPE_MARKERS.stream()
                .anyMatch(marker -> annotation.getRawType().isAnnotatedWith(marker)));
    }

    private static ArchCondition<JavaMethod> takeNoJsonNode() {
        return new ArchCondition<>("take no JsonNode") {
            @Override
            public void check(JavaMethod method, ConditionEvents events) {
                boolean takes = method.getRawParameterTypes().stream().anyMatch(type -> type.isAssignableTo(JSON_NODE));
                events.add(new SimpleConditionEvent(method, !takes, method.getFullName() + " takes a JsonNode"));
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
                    if (target.getSimpleName().endsWith("Client") && !target.equals(unit.getOwner())) {
                        events.add(SimpleConditionEvent.satisfied(unit, access.getDescription()));
                    }
                }
            }
        };
    }

    private static ArchCondition<JavaClass> resideInATechnicalPackage() {
        return new ArchCondition<>("reside in a package named after a technique " + TECHNICAL_PACKAGES.stream().sorted().toList()) {
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
                                events.getName() + " is used by " + origin)));
            }
        };
    }
}
