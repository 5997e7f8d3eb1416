package io.spectrum;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The module boundaries of DESIGN.md §1, checked over every class host-app sees (all modules but
 * hw-tests and bench), by package prefix:
 * core-narrow = io.spectrum.{wire,node,time,stats}.. and io.spectrum.link (the SPI package only);
 * link-serial = io.spectrum.link.serial..; link-udp = io.spectrum.link.udp..;
 * core-wide = io.spectrum.wide..; vectors = io.spectrum.vectors..
 */
@AnalyzeClasses(packages = "io.spectrum", importOptions = ImportOption.DoNotIncludeTests.class)
class ModuleGraphTest {
    static final String[] CORE_NARROW = {
        "io.spectrum.wire..", "io.spectrum.node..", "io.spectrum.link", "io.spectrum.time..", "io.spectrum.stats.."};

    private static String[] with(String... more) {
        String[] all = new String[CORE_NARROW.length + more.length];
        System.arraycopy(CORE_NARROW, 0, all, 0, CORE_NARROW.length);
        System.arraycopy(more, 0, all, CORE_NARROW.length, more.length);
        return all;
    }

    @ArchTest
    static final ArchRule core_narrow_uses_no_other_spectrum_module = noClasses()
            .that().resideInAnyPackage(CORE_NARROW)
            .should().dependOnClassesThat(com.tngtech.archunit.base.DescribedPredicate.and(
                    com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage("io.spectrum.."),
                    com.tngtech.archunit.base.DescribedPredicate.not(
                            com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage(CORE_NARROW))))
            .because("core-narrow is the bottom of the module graph");

    @ArchTest
    static final ArchRule link_serial_depends_on_core_narrow_and_jserialcomm = classes()
            .that().resideInAPackage("io.spectrum.link.serial..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    with("io.spectrum.link.serial..", "java..", "javax..", "com.fazecast..", ""))
            .allowEmptyShould(true);

    @ArchTest
    static final ArchRule link_udp_depends_on_core_narrow_only = classes()
            .that().resideInAPackage("io.spectrum.link.udp..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(with("io.spectrum.link.udp..", "java..", ""))
            .allowEmptyShould(true);

    @ArchTest
    static final ArchRule core_wide_depends_on_core_narrow_agrona_jctools = classes()
            .that().resideInAPackage("io.spectrum.wide..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    with("io.spectrum.wide..", "java..", "org.agrona..", "org.jctools..", ""))
            .allowEmptyShould(true);

    @ArchTest
    static final ArchRule vectors_depend_on_core_narrow_only = classes()
            .that().resideInAPackage("io.spectrum.vectors..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    with("io.spectrum.vectors..", "java..", "com.fasterxml.jackson..", ""))
            .allowEmptyShould(true);

    @org.junit.jupiter.api.Test
    void theCoreNarrowRuleCatchesAnUpwardDependency() {
        com.tngtech.archunit.core.domain.JavaClasses fixture = new com.tngtech.archunit.core.importer.ClassFileImporter()
                .importPackages("io.spectrum.node.archfixture");
        AssertionError e = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
                () -> core_narrow_uses_no_other_spectrum_module.check(fixture));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("io.spectrum.cli.DecodeCommand"), e.getMessage());
    }
}
