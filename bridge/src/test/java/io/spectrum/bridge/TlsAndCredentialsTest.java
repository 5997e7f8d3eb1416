package io.spectrum.bridge;

import io.spectrum.board.Board;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertThrows;

/** mqtts:// with the broker's certificate in the JVM's trust store, and the user and password from a credentials file. */
class TlsAndCredentialsTest {
    @Test
    void aBridgeOverTlsWithCredentialsFromAFilePublishes_andAnonymousIsRefused() throws Exception {
        try (Mosquitto broker = Mosquitto.startTls("spectrum", "s3cret-pw")) {
            System.setProperty("javax.net.ssl.trustStore", broker.trustStore().toString());
            System.setProperty("javax.net.ssl.trustStorePassword", "changeit");
            System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
            Path creds = Files.createTempFile("mqtt-credentials", ".txt");
            Files.writeString(creds, "username=spectrum\npassword=s3cret-pw\n");
            BrokerAddress withCreds = BrokerAddress.parse(broker.url(), creds, Map.of());
            int[] port = new int[1];
            try (Board board = Fabric.board("tls-board", 50, port);
                 MqttBridge bridge = MqttBridge.start(Fabric.client(port[0]), withCreds, new BridgeOptions().host("secure"),
                         note -> { })) {
                try (BrokerView v = BrokerView.open(withCreds, "spectrum/secure/#")) {
                    long deadline = System.nanoTime() + 60_000_000_000L;
                    BrokerView.Value x = null;
                    while (System.nanoTime() < deadline && (x == null || !x.path().equals("/secure/temp"))) {
                        x = v.next(100);
                    }
                    if (x == null || !x.path().equals("/secure/temp")) {
                        throw new AssertionError("no /secure/temp over TLS within 60 s: " + bridge.stats());
                    }
                }
                assertThrows(IOException.class, () -> BrokerView.open(BrokerAddress.parse(broker.url(), null, Map.of()),
                        "spectrum/#").close(), "a client without the password is refused");
            }
        }
    }
}
