package io.spectrum.bridge;

import org.eclipse.paho.mqttv5.client.IMqttToken;
import org.eclipse.paho.mqttv5.client.MqttCallback;
import org.eclipse.paho.mqttv5.client.MqttDisconnectResponse;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.eclipse.paho.mqttv5.common.packet.MqttProperties;

/** A Paho callback that ignores everything; each user overrides what it cares about (the bridge, the view, the bench). */
public abstract class CallbackAdapter implements MqttCallback {
    @Override
    public void disconnected(MqttDisconnectResponse r) {
    }

    @Override
    public void mqttErrorOccurred(MqttException e) {
    }

    @Override
    public void messageArrived(String topic, MqttMessage message) throws Exception {
    }

    @Override
    public void deliveryComplete(IMqttToken token) {
    }

    @Override
    public void connectComplete(boolean reconnect, String serverURI) {
    }

    @Override
    public void authPacketArrived(int reasonCode, MqttProperties properties) {
    }
}
