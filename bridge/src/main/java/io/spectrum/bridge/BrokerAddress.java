package io.spectrum.bridge;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where the broker is and who we are to it. {@code mqtt://HOST[:PORT]} (1883) or
 * {@code mqtts://HOST[:PORT]} (TLS, 8883; the JVM's trust store decides which server certificates
 * are trusted: {@code -Djavax.net.ssl.trustStore=…}). User and password come from a file
 * ({@code --mqtt-credentials FILE}: lines {@code username=…} and {@code password=…}) or from the
 * environment ({@code SPECTRUM_MQTT_USERNAME}, {@code SPECTRUM_MQTT_PASSWORD}); a URL carrying
 * {@code user:password@} is refused, so a password never sits on a command line or in a log.
 */
public record BrokerAddress(String url, String serverUri, boolean tls, String username, byte[] password) {
    /** The environment variable the broker's user name is read from when no credentials file is given. */
    public static final String ENV_USERNAME = "SPECTRUM_MQTT_USERNAME";
    /** The environment variable the broker's password is read from when no credentials file is given. */
    public static final String ENV_PASSWORD = "SPECTRUM_MQTT_PASSWORD";

    /** The broker at {@code url}, credentials from {@code credentialsFile} (may be null) or {@code env}. */
    public static BrokerAddress parse(String url, Path credentialsFile, Map<String, String> env) {
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + url + "' is not a URL (give mqtt://HOST[:PORT] or mqtts://HOST[:PORT])");
        }
        String scheme = u.getScheme();
        boolean tls;
        if ("mqtt".equals(scheme) || "tcp".equals(scheme)) {
            tls = false;
        } else if ("mqtts".equals(scheme) || "ssl".equals(scheme)) {
            tls = true;
        } else {
            throw new IllegalArgumentException("'" + url + "': the scheme must be mqtt:// or mqtts://");
        }
        if (u.getRawUserInfo() != null) {
            throw new IllegalArgumentException("the broker URL must not carry user:password (a command line is visible "
                    + "to every user of the machine); use --mqtt-credentials FILE or " + ENV_USERNAME + "/" + ENV_PASSWORD);
        }
        if (u.getHost() == null) {
            throw new IllegalArgumentException("'" + url + "' names no host (give mqtt://HOST[:PORT])");
        }
        int port = u.getPort() > 0 ? u.getPort() : tls ? 8883 : 1883;
        String host = u.getHost().contains(":") && !u.getHost().startsWith("[") ? "[" + u.getHost() + "]" : u.getHost();
        Credentials c = Credentials.of(credentialsFile, env, ENV_USERNAME, ENV_PASSWORD);
        return new BrokerAddress(url, (tls ? "ssl://" : "tcp://") + host + ":" + port, tls, c.username(),
                c.password() == null ? null : c.password().getBytes(StandardCharsets.UTF_8));
    }

    /** Connection options with this address's credentials, a clean start and a {@code timeoutSeconds} connect timeout. */
    org.eclipse.paho.mqttv5.client.MqttConnectionOptions connectionOptions(int timeoutSeconds) {
        org.eclipse.paho.mqttv5.client.MqttConnectionOptions o = new org.eclipse.paho.mqttv5.client.MqttConnectionOptions();
        o.setCleanStart(true);
        o.setConnectionTimeout(timeoutSeconds);
        if (username != null) {
            o.setUserName(username);
        }
        if (password != null) {
            o.setPassword(password.clone());
        }
        return o;
    }

    @Override
    public byte[] password() {
        return password == null ? null : password.clone();
    }

    /** The URL as given (never with a password). */
    @Override
    public String toString() {
        return url;
    }
}
