package io.spectrum;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The NARROW core's main code uses java.lang only (no java.util, java.io, java.nio, no third-party
 * jar), and the wire layer knows nothing of the layers above it.
 */
@AnalyzeClasses(packages = "io.spectrum", importOptions = ImportOption.DoNotIncludeTests.class)
class NarrowArchitectureTest {
    static ArchRule onlyJavaLang(String pkg) {
        return classes().that().resideInAPackage(pkg)
                .should().onlyDependOnClassesThat().resideInAnyPackage("io.spectrum..", "java.lang", "")
                .because("the NARROW core is java.lang only: fixed pools, no collections, no I/O");
    }

    @ArchTest
    static final ArchRule narrow_core_uses_only_java_lang = onlyJavaLang("io.spectrum..");

    @ArchTest
    static final ArchRule wire_knows_nothing_above_it = classes().that().resideInAPackage("io.spectrum.wire..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("io.spectrum.wire..", "java.lang", "")
            .because("the wire layer knows nothing of the graph, links or time");

    @Test
    void theRuleCatchesJavaUtil() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.spectrum.archfixture");
        AssertionError e = assertThrows(AssertionError.class, () -> onlyJavaLang("io.spectrum.archfixture..").check(fixture));
        assertTrue(e.getMessage().contains("java.util.ArrayList"), e.getMessage());
    }
}
