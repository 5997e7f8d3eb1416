package io.spectrum;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The module boundaries, checked over every class the cli module sees (every module
 * but bench), by package prefix:
 * core-narrow = io.spectrum.{wire,node,time,stats}.. and io.spectrum.link (the SPI package only);
 * link-serial = io.spectrum.link.serial..; link-udp = io.spectrum.link.udp..; link-dtls = io.spectrum.link.dtls..;
 * link-local = io.spectrum.link.local..;
 * core-wide = io.spectrum.wide..; bus-protocol = io.spectrum.bus.protocol..;
 * bus = io.spectrum.bus.{store,state,server}..; vectors = io.spectrum.vectors..; runtime = io.spectrum.runtime..;
 * client = io.spectrum.client..; bridge = io.spectrum.bridge..; board = io.spectrum.board..; host = io.spectrum.host..;
 * packaging = io.spectrum.packaging..; hw-tests (the HIL suite) = io.spectrum.hil..; cli = io.spectrum.cli..
 */
@AnalyzeClasses(packages = "io.spectrum",
        importOptions = {ImportOption.DoNotIncludeTests.class, NoTestJars.class})
class ModuleGraphTest {

    static final String[] CORE_NARROW = {
        "io.spectrum.wire..", "io.spectrum.node..", "io.spectrum.link", "io.spectrum.time..", "io.spectrum.stats.."};
    static final String LINKS = "io.spectrum.link..";

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
            .and().resideOutsideOfPackage("io.spectrum.link.serial.pty..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    with("io.spectrum.link.serial", "java..", "javax..", "com.fazecast..", ""))
            .allowEmptyShould(true);

    /** Pseudo-terminal pairs (demo, emulated HIL board): JNA and nothing else; the serial link never uses them. */
    @ArchTest
    static final ArchRule link_serial_pty_depends_on_jna_only = classes()
            .that().resideInAPackage("io.spectrum.link.serial.pty..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("io.spectrum.link.serial.pty..", "java..", "com.sun.jna..", "")
            .allowEmptyShould(true);

    @ArchTest
    static final ArchRule link_udp_depends_on_core_narrow_only = classes()
            .that().resideInAPackage("io.spectrum.link.udp..")
            .and().resideOutsideOfPackage("io.spectrum.link.udp.mmsg..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(with("io.spectrum.link.udp..", "java..", ""))
            .allowEmptyShould(true);

    /** Batched datagram I/O (recvmmsg/sendmmsg): JNA and the JDK, nothing of Spectrum. */
    @ArchTest
    static final ArchRule link_udp_mmsg_depends_on_jna_only = classes()
            .that().resideInAPackage("io.spectrum.link.udp.mmsg..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("io.spectrum.link.udp.mmsg..", "java..", "com.sun.jna..", "")
            .allowEmptyShould(true);

    /** The local link (Unix socket / TCP stream, the host bus's transport): the JDK's sockets and nothing else. */
    @ArchTest
    static final ArchRule link_local_depends_on_core_narrow_only = classes()
            .that().resideInAPackage("io.spectrum.link.local..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(with("io.spectrum.link.local..", "java..", ""))
            .allowEmptyShould(true);

    /** The DTLS link: the UDP link's sockets and the JDK's SSLEngine; no library (a board runs it with the JDK alone). */
    @ArchTest
    static final ArchRule link_dtls_depends_on_core_narrow_link_udp_and_the_jdk = classes()
            .that().resideInAPackage("io.spectrum.link.dtls..")
            .and().resideOutsideOfPackage("io.spectrum.link.dtls.keys..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    with("io.spectrum.link.dtls..", "io.spectrum.link.udp..", "java..", "javax..", "com.sun.management..", ""))
            .allowEmptyShould(true);

    /** The fleet CA tools: Bouncy Castle PKIX, used by the cli's keys command only. */
    @ArchTest
    static final ArchRule link_dtls_keys_depends_on_link_dtls_and_bouncy_castle = classes()
            .that().resideInAPackage("io.spectrum.link.dtls.keys..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    "io.spectrum.link.dtls..", "java..", "org.bouncycastle..", "")
            .allowEmptyShould(true);

    @ArchTest
    static final ArchRule core_wide_depends_on_core_narrow_agrona_jctools = classes()
            .that().resideInAPackage("io.spectrum.wide..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    with("io.spectrum.wide..", "java..", "org.agrona..", "org.jctools..", ""))
            .allowEmptyShould(true);

    /** The host bus moved out of the WIDE core into modules of its own (bus-protocol, bus). */
    @ArchTest
    static final ArchRule core_wide_holds_no_bus = noClasses()
            .should().resideInAPackage("io.spectrum.wide.bus..")
            .because("the host bus is the bus module's (io.spectrum.bus..), its protocol bus-protocol's");

    /** The bus protocol: what the server and every client share; it knows no server, no WIDE node, no link. */
    @ArchTest
    static final ArchRule bus_protocol_depends_on_core_narrow_only = classes()
            .that().resideInAPackage("io.spectrum.bus.protocol..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(with("io.spectrum.bus.protocol..", "java..", ""))
            .allowEmptyShould(true);

    /** The bus server: its protocol, the WIDE core's anonymous ids, the in-process link and agrona's bus thread. */
    @ArchTest
    static final ArchRule bus_depends_on_its_protocol_core_wide_link_local_and_agrona = classes()
            .that().resideInAPackage("io.spectrum.bus..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    with("io.spectrum.bus..", "io.spectrum.wide..", "io.spectrum.link.local..", "java..", "org.agrona..", ""))
            .allowEmptyShould(true);

    /** The bus's packages depend one way: server on state on store on protocol. */
    @ArchTest
    static final ArchRule bus_store_knows_no_state_or_server = noClasses()
            .that().resideInAPackage("io.spectrum.bus.store..")
            .should().dependOnClassesThat().resideInAnyPackage("io.spectrum.bus.state..", "io.spectrum.bus.server..")
            .because("the artifact store keeps bytes; who owns them is the state machine's");

    @ArchTest
    static final ArchRule bus_state_knows_no_server = noClasses()
            .that().resideInAPackage("io.spectrum.bus.state..")
            .should().dependOnClassesThat().resideInAPackage("io.spectrum.bus.server..")
            .because("the state machine has no I/O and no transport; the server drives it");

    @ArchTest
    static final ArchRule vectors_depend_on_core_narrow_only = classes()
            .that().resideInAPackage("io.spectrum.vectors..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    with("io.spectrum.vectors..", "java..", "com.fasterxml.jackson..", ""))
            .allowEmptyShould(true);

    @ArchTest
    static final ArchRule runtime_depends_on_cores_links_and_agrona = classes()
            .that().resideInAPackage("io.spectrum.runtime..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    with("io.spectrum.runtime..", LINKS, "java..", "org.agrona..", "org.snakeyaml..", ""));

    @ArchTest
    static final ArchRule client_depends_on_core_narrow_links_and_runtime = classes()
            .that().resideInAPackage("io.spectrum.client..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    with("io.spectrum.client..", LINKS, "io.spectrum.runtime..", "io.spectrum.bus.protocol..", "java..",
                            "org.agrona.concurrent..", ""))
            .because("the host bus's client (io.spectrum.client.bus) speaks the bus protocol (bus-protocol) and"
                    + " nothing of the bus server or the WIDE node (ClientBoundaryTest); a client's waits idle"
                    + " through agrona's idle strategies, as the node loop does");

    /** The MQTT bridge is a client (issue 15): never the host's internals, never in the board bundle. */
    @ArchTest
    static final ArchRule bridge_depends_on_client_jackson_and_paho = classes()
            .that().resideInAPackage("io.spectrum.bridge..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    with("io.spectrum.bridge..", "io.spectrum.client..", "java..", "javax..", "com.fasterxml.jackson..",
                            "org.eclipse.paho.mqttv5..", ""));

    @ArchTest
    static final ArchRule board_application_is_runtime_core_narrow_links_pi4j_and_yaml_only = classes()
            .that().resideInAPackage("io.spectrum.board..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    with("io.spectrum.board..", LINKS, "io.spectrum.runtime..", "java..", "com.pi4j..",
                            "org.snakeyaml.engine..", "com.sun.jna..", ""))
            .because("the board bundle carries the board application (its pins through pi4j, its board file"
                    + " through snakeyaml-engine, its SMBus reads through JNA, which pi4j's linuxfs needs too)"
                    + " and nothing of the host's products");

    /** The host product, assembled from one HostConfig: its node, the bus, its bridges (a client of it), the dashboard. */
    @ArchTest
    static final ArchRule host_depends_on_runtime_client_bridge_and_cores = classes()
            .that().resideInAPackage("io.spectrum.host..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    with("io.spectrum.host..", LINKS, "io.spectrum.runtime..", "io.spectrum.client..", "io.spectrum.wide..",
                            "io.spectrum.bus..",
                            "io.spectrum.bridge..", "java..", "com.sun.net.httpserver..", "com.fasterxml.jackson..",
                            "org.agrona..", "org.jctools..", "org.snakeyaml.engine..", "io.prometheus.metrics..", ""));

    /** Prometheus's client library is the metrics listener's alone (io.spectrum.host.metrics; docs/host.md, "Metrics"). */
    @ArchTest
    static final ArchRule only_the_metrics_listener_knows_prometheus = noClasses()
            .that().resideOutsideOfPackage("io.spectrum.host.metrics..")
            .should().dependOnClassesThat().resideInAPackage("io.prometheus..");

    /** The dashboard and the node's side of the host know no bridge: only the host's assembly (io.spectrum.host) does. */
    @ArchTest
    static final ArchRule host_views_and_runtime_know_no_bridge = noClasses()
            .that().resideInAnyPackage("io.spectrum.host.runtime..", "io.spectrum.host.view..", "io.spectrum.host.dashboard..")
            .should().dependOnClassesThat().resideInAPackage("io.spectrum.bridge..");

    @ArchTest
    static final ArchRule packaging_depends_on_the_jdk_only = classes()
            .that().resideInAPackage("io.spectrum.packaging..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("io.spectrum.packaging..", "java..", "");

    /** The suite's own targets that drive pi4j (a reset line) or start processes are test code (hw-tests' test jar). */
    @ArchTest
    static final ArchRule hil_suite_depends_on_client_board_and_runtime = classes()
            .that().resideInAPackage("io.spectrum.hil..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    with("io.spectrum.hil..", LINKS, "io.spectrum.runtime..", "io.spectrum.client..", "io.spectrum.board..",
                            "java..", ""));

    @ArchTest
    static final ArchRule only_the_cli_uses_the_cli = noClasses()
            .that().resideOutsideOfPackage("io.spectrum.cli..")
            .and().resideOutsideOfPackage("io.spectrum.node.archfixture..")
            .should().dependOnClassesThat().resideInAPackage("io.spectrum.cli..");

    @org.junit.jupiter.api.Test
    void theCoreNarrowRuleCatchesAnUpwardDependency() {
        com.tngtech.archunit.core.domain.JavaClasses fixture = new com.tngtech.archunit.core.importer.ClassFileImporter()
                .importPackages("io.spectrum.node.archfixture");
        AssertionError e = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
                () -> core_narrow_uses_no_other_spectrum_module.check(fixture));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("io.spectrum.cli.DecodeCommand"), e.getMessage());
    }
}
