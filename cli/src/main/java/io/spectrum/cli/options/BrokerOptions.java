package io.spectrum.cli.options;

import io.spectrum.bridge.BrokerAddress;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * Where the MQTT broker is ({@code --mqtt URL}) and the file with the user and password to give it
 * ({@code --mqtt-credentials FILE}; else {@code SPECTRUM_MQTT_USERNAME} / {@code SPECTRUM_MQTT_PASSWORD}).
 * Never a password on the command line: a URL with {@code user:password@} is refused.
 */
public final class BrokerOptions {
    @Option(names = "--mqtt", paramLabel = "URL",
            description = "The MQTT broker: mqtt://HOST[:PORT] (1883) or mqtts://HOST[:PORT] (TLS, 8883). See docs/mqtt.md.")
    String url;

    @Option(names = "--mqtt-credentials", paramLabel = "FILE",
            description = "A file with username=... and password=... lines for the broker (default: $"
                    + BrokerAddress.ENV_USERNAME + " / $" + BrokerAddress.ENV_PASSWORD + "; never on the command line).")
    Path credentials;

    /** True when a broker URL was given. */
    public boolean given() {
        return url != null;
    }

    /** The broker address; a bad URL or credentials file is a usage error (exit 2) with the reason. */
    public BrokerAddress address(CommandLine cl) {
        try {
            return BrokerAddress.parse(url, credentials, System.getenv());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, "--mqtt: " + e.getMessage());
        }
    }
}
