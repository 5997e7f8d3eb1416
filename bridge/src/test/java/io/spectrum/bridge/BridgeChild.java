package io.spectrum.bridge;

import io.spectrum.board.Board;

/**
 * A process with an emulated board and a bridge of it (args: broker URL, host name), for the test
 * that kills it: the broker then publishes the bridge's last will. Prints "bridging" once started.
 */
public final class BridgeChild {
    private BridgeChild() { }

    public static void main(String[] args) throws Exception {
        int[] port = new int[1];
        Board board = Fabric.board("child-board", 50, port);
        MqttBridge bridge = MqttBridge.start(Fabric.client(port[0]),
                BrokerAddress.parse(args[0], null, java.util.Map.of()), new BridgeOptions().host(args[1]), System.err::println);
        System.out.println("bridging");
        System.out.flush();
        Thread.sleep(120_000); // killed long before
        bridge.close();
        board.close();
    }
}
