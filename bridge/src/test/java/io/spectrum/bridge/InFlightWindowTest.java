package io.spectrum.bridge;

import org.eclipse.paho.mqttv5.common.packet.MqttProperties;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The broker side's QoS 1 window: sized by the CONNACK's Receive Maximum, a permit back per completed token. */
class InFlightWindowTest {
    @Test
    void theWindowIsTheBrokersReceiveMaximumOrMqtt5sDefault() {
        MqttProperties p = new MqttProperties();
        p.setReceiveMaximum(20);
        assertEquals(20, BrokerSide.receiveMaximum(p));
        assertEquals(BrokerSide.DEFAULT_RECEIVE_MAXIMUM, BrokerSide.receiveMaximum(new MqttProperties()));
        assertEquals(BrokerSide.DEFAULT_RECEIVE_MAXIMUM, BrokerSide.receiveMaximum(null));
    }

    @Test
    void aFullWindowOpensOnlyByACompletion() {
        BrokerSide.InFlight w = new BrokerSide.InFlight(2);
        assertTrue(w.permits.tryAcquire());
        assertTrue(w.permits.tryAcquire());
        assertFalse(w.permits.tryAcquire(), "a third PUBLISH waits: the broker allows 2 unacknowledged");
        w.onSuccess(null); // a PUBACK
        assertTrue(w.permits.tryAcquire());
        w.onFailure(null, new IllegalStateException("connection lost"));
        assertTrue(w.permits.tryAcquire());
        assertFalse(w.permits.tryAcquire());
    }
}
