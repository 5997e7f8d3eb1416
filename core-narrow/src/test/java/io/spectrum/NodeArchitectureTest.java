package io.spectrum;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The node's layering: the public API (io.spectrum.node.api) knows nothing of the NARROW
 * implementation, so the WIDE core can implement it; the node's tables know nothing of links; the
 * shared FWD side knows no core and the NARROW parts know nothing of the facade that wires them
 * (node -> node.topic -> node.table -> node.fwd); and nothing below the node reaches up into it.
 */
@AnalyzeClasses(packages = "io.spectrum", importOptions = ImportOption.DoNotIncludeTests.class)
class NodeArchitectureTest {
    @ArchTest
    static final ArchRule api_knows_no_implementation = classes().that().resideInAPackage("io.spectrum.node.api..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("io.spectrum.node.api..", "io.spectrum.wire..",
                    "io.spectrum.link..", "io.spectrum.stats..", "io.spectrum.time..", "java.lang", "")
            .because("the WIDE core implements the same API");

    @ArchTest
    static final ArchRule tables_know_no_links = classes()
            .that().resideInAnyPackage("io.spectrum.node.pool..", "io.spectrum.node.table..")
            .should().onlyDependOnClassesThat(resideInAnyPackage("io.spectrum.node.pool..", "io.spectrum.node.table..",
                    "io.spectrum.stats..", "io.spectrum.wire..", "java.lang", "")
                    .or(name("io.spectrum.node.api.VertexSchema"))
                    .or(name("[Lio.spectrum.node.api.VertexSchema;")))
            .because("the vertex and slot tables and the backfill ring are plain primitive columns (protocol constants come from the wire vocabulary; a vertex refers to its immutable declaration)");

    @ArchTest
    static final ArchRule fwd_side_knows_no_core = noClasses().that().resideInAPackage("io.spectrum.node.fwd..")
            .should().dependOnClassesThat().resideInAnyPackage("io.spectrum.node", "io.spectrum.node.topic..",
                    "io.spectrum.node.table..")
            .because("both cores build the same FWD side over their own FwdStore (NarrowNode's tables, WideNode's objects)");

    @ArchTest
    static final ArchRule topic_and_tables_know_no_facade = noClasses()
            .that().resideInAnyPackage("io.spectrum.node.topic..", "io.spectrum.node.table..")
            .should().dependOnClassesThat().resideInAPackage("io.spectrum.node")
            .because("NarrowNode wires its parts; the parts know nothing of it (node -> topic -> table -> fwd)");

    @ArchTest
    static final ArchRule nothing_below_reaches_the_node = noClasses()
            .that().resideInAnyPackage("io.spectrum.wire..", "io.spectrum.link..", "io.spectrum.time..", "io.spectrum.stats..")
            .should().dependOnClassesThat().resideInAPackage("io.spectrum.node..");
}
