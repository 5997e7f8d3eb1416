package io.spectrum;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.spectrum.node.fwd.RemoteClient;
import io.spectrum.oneclient.archfixture.FrontDoor;
import io.spectrum.oneclient.archfixture.SideDoor;
import org.junit.jupiter.api.Test;

/**
 * One request client. An application, a command, the MQTT bridge or an example asks a node through
 * {@link io.spectrum.client.PeerClient}, the one client; the host's own dashboard, slot actions and
 * in-process bridge use it too, over an in-memory link into the host's node. {@link RemoteClient} is
 * the node's allocation-free routing engine under it: only code that runs on a node's own thread
 * touches it (the cores, the host runtime's tasks on the node loop, the runtime's capability probe,
 * and the HIL scenarios that check a board node's remote subscription states). Checked over every
 * module the cli module sees (all but bench, whose node-side loads drive the engine on purpose).
 */
@AnalyzeClasses(packages = "io.spectrum", importOptions = {ImportOption.DoNotIncludeTests.class, NoTestJars.class})
class OneClientTest {

    @ArchTest
    static final ArchRule only_node_thread_code_drives_the_routing_engine = noClasses()
            .that().resideOutsideOfPackages("io.spectrum.node..", "io.spectrum.wide..", "io.spectrum.host.runtime..",
                    "io.spectrum.runtime..", "io.spectrum.hil..")
            .should().dependOnClassesThat().areAssignableTo(RemoteClient.class)
            .because("everything above a node asks through PeerClient; RemoteClient is the node's engine under it");

    @Test
    void theRuleReportsACommandThatAsksThroughTheEngine() {
        AssertionError e = assertThrows(AssertionError.class, () -> only_node_thread_code_drives_the_routing_engine
                .check(new ClassFileImporter().importClasses(SideDoor.class)));
        assertTrue(e.getMessage().contains("SideDoor") && e.getMessage().contains("RemoteClient"), e.getMessage());
    }

    @Test
    void theRulePassesACommandThatAsksThroughTheClient() {
        only_node_thread_code_drives_the_routing_engine.check(new ClassFileImporter().importClasses(FrontDoor.class));
    }
}
