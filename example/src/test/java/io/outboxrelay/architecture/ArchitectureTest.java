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
 * control classes are its own business: other features, the console and the example use its boundary and
 * entities only.
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

    @Test
    void coreFeaturesUseEachOthersBoundariesAndEntitiesOnly() {
        classes().that().resideInAPackage("io.outboxrelay..").and().resideOutsideOfPackages(CONSOLE, EXAMPLE)
                .should(useNoOtherFeaturesControl())
                .check(PRODUCT);
    }

    /** Within the core: a feature's control classes are used by that feature only. */
    private static ArchCondition<JavaClass> useNoOtherFeaturesControl() {
        return new ArchCondition<>("use no control class of another core feature") {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                String feature = feature(origin.getPackageName());
                origin.getDirectDependenciesFromSelf().stream()
                        .filter(dependency -> isCoreControl.test(dependency.getTargetClass()))
                        .filter(dependency -> !feature(dependency.getTargetClass().getPackageName()).equals(feature))
                        .forEach(dependency -> events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription())));
            }
        };
    }

    /** {@code io.outboxrelay.relay.control} → {@code relay}. */
    private static String feature(String packageName) {
        if (!packageName.startsWith("io.outboxrelay.")) {
            return packageName;
        }
        String rest = packageName.substring("io.outboxrelay.".length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    /** A class of the console or the example may use a core feature's boundary and entities, never its control. */
    private static ArchCondition<JavaClass> useNoControlOfAnotherModule() {
        return new ArchCondition<>("use no control class of the core") {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                origin.getDirectDependenciesFromSelf().stream()
                        .filter(dependency -> isCoreControl.test(dependency.getTargetClass()))
                        .forEach(dependency -> events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription())));
            }
        };
    }

    private static final DescribedPredicate<JavaClass> isCoreControl = DescribedPredicate.describe("a core control class",
            target -> target.getPackageName().startsWith("io.outboxrelay.")
                    && target.getPackageName().endsWith(".control")
                    && !target.getPackageName().startsWith("io.outboxrelay.console.")
                    && !target.getPackageName().startsWith("io.outboxrelay.example."));
}
