package io.spectrum;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * Every package's dependencies point one way: no two packages of the project (each package its own
 * slice, {@code io.spectrum.node} apart from {@code io.spectrum.node.fwd}) depend on each other,
 * directly or through others. A newcomer can then read a package knowing only the ones below it:
 * in the NARROW node {@code node -> node.topic -> node.table -> node.fwd}; in the command line
 * {@code cli -> cli.options -> cli.output}. Checked over every module the cli module sees (all but
 * bench, a tool that is built after it).
 */
@AnalyzeClasses(packages = "io.spectrum",
        importOptions = {ImportOption.DoNotIncludeTests.class, NoTestJars.class})
class PackageCyclesTest {

    @ArchTest
    static final ArchRule packages_depend_one_way = slices().matching("io.spectrum.(**)")
            .should().beFreeOfCycles()
            .because("a package is read and changed knowing only the packages below it");

    @Test
    void theRuleReportsTwoPackagesThatUseEachOther() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.spectrum.cycles.archfixture");
        AssertionError e = Assertions.assertThrows(AssertionError.class, () -> packages_depend_one_way.check(fixture));
        Assertions.assertTrue(e.getMessage().contains("Cycle detected")
                && e.getMessage().contains("io.spectrum.cycles.archfixture.a.Ping")
                && e.getMessage().contains("io.spectrum.cycles.archfixture.b.Pong"), e.getMessage());
    }
}
