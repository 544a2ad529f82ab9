package io.outboxrelay.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The product's shape as rules on the compiled classes of all three modules: the core knows neither the
 * console nor the example, the console does not know the example, features form no cycle, and a feature's
 * control classes are its own business.
 */
class ArchitectureTest {

    private static final String CONSOLE = "io.outboxrelay.console..";
    private static final String EXAMPLE = "io.outboxrelay.example..";

    private static final JavaClasses PRODUCT = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.outboxrelay");

    @Test
    void theCoreDependsOnNeitherTheConsoleNorTheExample() {
        noClasses().that().resideInAPackage("io.outboxrelay..")
                .and().resideOutsideOfPackages(CONSOLE, EXAMPLE)
                .should().dependOnClassesThat().resideInAnyPackage(CONSOLE, EXAMPLE)
                .check(PRODUCT);
    }

    @Test
    void theConsoleDoesNotDependOnTheExample() {
        noClasses().that().resideInAPackage(CONSOLE)
                .should().dependOnClassesThat().resideInAPackage(EXAMPLE)
                .check(PRODUCT);
    }

    @Test
    void featuresFormNoCycle() {
        slices().matching("io.outboxrelay.(*)..").should().beFreeOfCycles().check(PRODUCT);
        slices().matching("io.outboxrelay.console.(*)..").should().beFreeOfCycles().check(PRODUCT);
        slices().matching("io.outboxrelay.example.(*)..").should().beFreeOfCycles().check(PRODUCT);
    }

    @Test
    void theConsoleUsesTheEventsAndLagFeaturesThroughTheirBoundaries() {
        noClasses().that().resideInAPackage("io.outboxrelay.console.pages..")
                .should().dependOnClassesThat().resideInAnyPackage("io.outboxrelay.console.events.control..",
                        "io.outboxrelay.lag.control..")
                .check(PRODUCT);
    }

    @Test
    void theConsoleAndTheExampleUseTheCoreThroughItsBoundariesAndEntities() {
        classes().that().resideInAnyPackage(CONSOLE, EXAMPLE)
                .should(useNoControlOfAnotherModule())
                .check(PRODUCT);
    }

    /** A class of the console or the example may use a core feature's boundary and entities, never its control. */
    private static ArchCondition<JavaClass> useNoControlOfAnotherModule() {
        return new ArchCondition<>("use no control class of the core") {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                origin.getDirectDependenciesFromSelf().stream()
                        .filter(dependency -> isCoreControl.test(dependency.getTargetClass()))
                        .filter(dependency -> !SHARED_CONTROL.contains(dependency.getTargetClass().getPackageName()))
                        .forEach(dependency -> events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription())));
            }
        };
    }

    /**
     * Control packages of the core that are infrastructure every module shares on purpose: the configured data
     * sources, what a database failure means, the request's trace context.
     */
    private static final java.util.Set<String> SHARED_CONTROL = java.util.Set.of(
            "io.outboxrelay.database.control", "io.outboxrelay.tracing.control");

    private static final DescribedPredicate<JavaClass> isCoreControl = DescribedPredicate.describe("a core control class",
            target -> target.getPackageName().startsWith("io.outboxrelay.")
                    && target.getPackageName().endsWith(".control")
                    && !target.getPackageName().startsWith("io.outboxrelay.console.")
                    && !target.getPackageName().startsWith("io.outboxrelay.example."));
}
