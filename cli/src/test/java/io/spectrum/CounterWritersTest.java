package io.spectrum;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.spectrum.link.LinkStats;
import io.spectrum.link.NodeLinkStats;
import io.spectrum.stats.BoundedResource;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * Every counter has one writer: no main-code field is public and writable (a counter in a public
 * field can be written by whoever holds its object, as the link's and the node's counters once
 * were), and a class behind one of the read-only counter views ({@link BoundedResource},
 * {@link LinkStats}, {@link NodeLinkStats}) keeps its mutable state private, written only through
 * its own methods by its one writer. Checked over every module the cli module sees.
 */
@AnalyzeClasses(packages = "io.spectrum",
        importOptions = {ImportOption.DoNotIncludeTests.class, NoTestJars.class})
class CounterWritersTest {

    @ArchTest
    static final ArchRule public_fields_are_final = fields()
            .that().arePublic()
            .and().areNotAnnotatedWith(picocli.CommandLine.Option.class)
            .and().areNotAnnotatedWith(picocli.CommandLine.Parameters.class)
            .should().beFinal()
            .because("a counter is written through its writer's methods, never through a public field"
                    + " (docs/node.md, \"Counters\"); a command-line option's field is picocli's to set");

    /** Classes behind a read-only counter view. */
    private static final DescribedPredicate<JavaClass> COUNTER_VIEWS = DescribedPredicate.describe(
            "implement BoundedResource, LinkStats or NodeLinkStats",
            c -> c.isAssignableTo(BoundedResource.class) || c.isAssignableTo(LinkStats.class)
                    || c.isAssignableTo(NodeLinkStats.class));

    @ArchTest
    static final ArchRule counter_views_hide_their_state = fields()
            .that().areDeclaredInClassesThat(COUNTER_VIEWS).and().areNotFinal()
            .should().bePrivate()
            .because("the figures behind a read-only view are written only by their one writer's methods"
                    + " (docs/node.md, \"Counters\")");

    @Test
    void theRuleReportsACounterInAPublicMutableField() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.spectrum.counters.archfixture");
        AssertionError e = Assertions.assertThrows(AssertionError.class, () -> public_fields_are_final.check(fixture));
        Assertions.assertTrue(e.getMessage().contains("OpenCounters.framesIn"), e.getMessage());
        Assertions.assertFalse(e.getMessage().contains("OpenCounters.LIMIT"), e.getMessage());
    }

    @Test
    void theRuleReportsAViewWhoseFigureIsNotPrivate() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.spectrum.counters.archfixture");
        AssertionError e = Assertions.assertThrows(AssertionError.class,
                () -> counter_views_hide_their_state.check(fixture));
        Assertions.assertTrue(e.getMessage().contains("LeakyLinkStats.framesIn"), e.getMessage());
        Assertions.assertFalse(e.getMessage().contains("LeakyLinkStats.framesOut"), e.getMessage());
    }
}
