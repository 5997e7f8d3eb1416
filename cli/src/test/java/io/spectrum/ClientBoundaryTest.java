package io.spectrum;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.spectrum.client.boundaryfixture.ReachesIntoTheServer;
import io.spectrum.client.boundaryfixture.SpeaksTheProtocol;
import org.junit.jupiter.api.Test;

/**
 * The client speaks the host bus's protocol ({@code io.spectrum.bus.protocol}, module bus-protocol)
 * and never reaches into the bus server (io.spectrum.bus.store, .state, .server: module bus) or the
 * WIDE core (io.spectrum.wide, module core-wide): an application that embeds the client carries
 * neither, and a change inside the server cannot break a client. Checked over every class the cli
 * module sees (every module but bench).
 */
@AnalyzeClasses(packages = "io.spectrum", importOptions = {ImportOption.DoNotIncludeTests.class, NoTestJars.class})
class ClientBoundaryTest {
    /** The bus server's packages and the WIDE core: everything of io.spectrum.bus but its protocol, and io.spectrum.wide. */
    static final DescribedPredicate<JavaClass> SERVER_OR_WIDE = resideInAPackage("io.spectrum.wide..")
            .or(resideInAPackage("io.spectrum.bus..").and(DescribedPredicate.not(resideInAPackage("io.spectrum.bus.protocol.."))))
            .as("the bus server (io.spectrum.bus.. but io.spectrum.bus.protocol..) or the WIDE core (io.spectrum.wide..)");

    @ArchTest
    static final ArchRule client_speaks_the_bus_protocol_never_the_server = noClasses()
            .that().resideInAPackage("io.spectrum.client..")
            .should().dependOnClassesThat(SERVER_OR_WIDE)
            .because("a bus client depends on the protocol (spectrum-bus-protocol) alone; the server and the WIDE"
                    + " node are the host's");

    @Test
    void theRuleReportsAClientThatReachesIntoTheServer() {
        JavaClasses bad = new ClassFileImporter().importClasses(ReachesIntoTheServer.class);
        AssertionError e = assertThrows(AssertionError.class, () -> client_speaks_the_bus_protocol_never_the_server.check(bad));
        assertTrue(e.getMessage().contains("io.spectrum.bus.state.HostBus"), e.getMessage());
        assertTrue(e.getMessage().contains("io.spectrum.wide.Grants"), e.getMessage());
        assertTrue(e.getMessage().contains("io.spectrum.wide.AnonymousIds"), e.getMessage());
        assertFalse(e.getMessage().contains("io.spectrum.bus.protocol.BusFields"), e.getMessage());
    }

    @Test
    void theRulePassesAClientThatSpeaksTheProtocol() {
        client_speaks_the_bus_protocol_never_the_server.check(new ClassFileImporter().importClasses(SpeaksTheProtocol.class));
    }
}
