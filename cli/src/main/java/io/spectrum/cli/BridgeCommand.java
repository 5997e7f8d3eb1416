package io.spectrum.cli;

import io.spectrum.bridge.BridgeOptions;
import io.spectrum.bridge.BrokerAddress;
import io.spectrum.bridge.MqttBridge;
import io.spectrum.cli.options.MqttOptions;
import io.spectrum.cli.options.PeerOptions;
import io.spectrum.cli.options.RunOptions;
import io.spectrum.client.PeerClient;
import io.spectrum.runtime.NodeProcess;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** {@code spectrum bridge --peer HOST:PORT --mqtt URL}: bridges a running host (or board) into MQTT. */
@Command(name = "bridge", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Bridge a running host or board into an MQTT broker.",
                "Publishes every vertex of the peer as spectrum/<name>/<board>/<path> (retained, JSON with the --json "
                        + "fields, or raw TLV with --mqtt-raw), keeps them current, says spectrum/<name>/$online, and takes "
                        + "writes on .../set only for --mqtt-writable paths. Survives broker restarts. See docs/mqtt.md.",
                "",
                "Example: spectrum bridge --peer 127.0.0.1:7701 --mqtt mqtt://127.0.0.1 --name plant1 --mqtt-writable '/board*/led'",
                ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped", "1:the peer refused to be followed", "2:bad arguments"})
public final class BridgeCommand implements Callable<Integer> {
    @Mixin
    PeerOptions peer;

    @Mixin
    MqttOptions mqtt;

    @Option(names = "--name", paramLabel = "NAME",
            description = "The host segment of the topics (default: the peer's address, e.g. 127.0.0.1_7701).")
    String name;

    @Mixin
    RunOptions run;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        if (!mqtt.given()) {
            throw new CommandLine.ParameterException(cl, "no broker: give --mqtt mqtt://HOST[:PORT]");
        }
        BrokerAddress address = mqtt.address(cl);
        String host = name != null ? name : peer.peer == null ? "host" : peer.peer.replaceAll("[^A-Za-z0-9_-]", "_");
        BridgeOptions options = mqtt.options(cl, host);
        PrintWriter out = cl.getOut();
        PrintWriter err = cl.getErr();
        PeerClient client = peer.connect(cl);
        CountDownLatch stop = new CountDownLatch(1);
        Thread hook = new Thread(stop::countDown, "bridge-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        if (run.exitWithStdin) {
            NodeProcess.watchStdin(stop);
        }
        try (MqttBridge bridge = MqttOptions.start(client, address, options, err)) {
            out.println("bridging " + peer.peer + " to " + address + " as spectrum/" + host + "/...");
            out.flush();
            long end = run.duration > 0 ? System.nanoTime() + (long) (run.duration * 1e9) : Long.MAX_VALUE;
            while (System.nanoTime() < end && !stop.await(1, TimeUnit.SECONDS)) {
                if (bridge.stopped()) {
                    return 1; // the peer refused to be followed (said on stderr)
                }
            }
            MqttBridge.Stats s = bridge.stats();
            out.println("bridge stopped: " + s.values() + " values, " + s.published() + " published, " + s.coalesced()
                    + " superseded unsent by a newer value, " + s.dropped() + " dropped past the queue's bound");
            out.flush();
            return 0;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down
            }
        }
    }
}
