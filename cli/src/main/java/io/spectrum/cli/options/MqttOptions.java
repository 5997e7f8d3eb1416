package io.spectrum.cli.options;

import io.spectrum.bridge.BridgeOptions;
import io.spectrum.bridge.BrokerAddress;
import io.spectrum.bridge.MqttBridge;
import io.spectrum.client.PeerClient;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The bridge's options, shared by {@code spectrum bridge} and {@code spectrum host --mqtt}: the
 * broker ({@link BrokerOptions}), which paths are published and which take {@code …/set} writes,
 * raw payloads, Home Assistant discovery, and the queue bound while the broker is away.
 */
public final class MqttOptions {
    @Mixin
    BrokerOptions broker;

    @Option(names = "--mqtt-include", paramLabel = "GLOB",
            description = "Publish only paths this glob matches (repeatable; * one segment, ** any; default: all).")
    List<String> include = new ArrayList<>();

    @Option(names = "--mqtt-exclude", paramLabel = "GLOB", description = "Do not publish paths this glob matches (repeatable).")
    List<String> exclude = new ArrayList<>();

    @Option(names = "--mqtt-writable", paramLabel = "GLOB",
            description = "Take writes on .../set for paths this glob matches (repeatable; default: none, MQTT is read-only).")
    List<String> writable = new ArrayList<>();

    @Option(names = "--mqtt-raw", description = "Publish the raw TLV bytes instead of JSON.")
    boolean raw;

    @Option(names = "--mqtt-discovery", description = "Publish Home Assistant discovery configs (sensors, switches).")
    boolean discovery;

    @Option(names = "--mqtt-queue", paramLabel = "N", defaultValue = "10000",
            description = "Messages held while the broker is away or behind (a newer state of a topic replaces its unsent one); past it the oldest is dropped and counted (default: ${DEFAULT-VALUE}).")
    int queue;

    /** True when {@code --mqtt} was given. */
    public boolean given() {
        return broker != null && broker.given();
    }

    /** The bridge options for host name {@code host}; a bad glob, name or bound is a usage error. */
    public BridgeOptions options(CommandLine cl, String host) {
        try {
            BridgeOptions o = new BridgeOptions().host(host).raw(raw).discovery(discovery).queue(queue);
            include.forEach(o::include);
            exclude.forEach(o::exclude);
            writable.forEach(o::writable);
            new io.spectrum.bridge.Topics(host); // the name must be one topic level
            return o;
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, "--mqtt: " + e.getMessage());
        }
    }

    /** The broker's address; a bad URL or credentials file is a usage error. */
    public BrokerAddress address(CommandLine cl) {
        return broker.address(cl);
    }

    /** The bridge of {@code spectrum host --mqtt}: handed to the host's configuration, which checks it. */
    public void into(io.spectrum.host.HostConfig.Builder b) {
        if (!given()) {
            return;
        }
        b.mqtt(broker.url).mqttCredentials(broker.credentials).mqttInclude(include).mqttExclude(exclude)
                .mqttWritable(writable).mqttRaw(raw).mqttDiscovery(discovery).mqttQueue(queue);
    }

    /** Starts a bridge of what {@code client} reaches; its notes go to {@code err} as lines. */
    public static MqttBridge start(PeerClient client, BrokerAddress address, BridgeOptions options, PrintWriter err) {
        return MqttBridge.start(client, address, options, note -> {
            synchronized (err) {
                err.println(note);
                err.flush();
            }
        });
    }
}
