package io.spectrum.examples.peer;

import io.spectrum.board.Board;
import io.spectrum.client.Delivery;
import io.spectrum.client.PeerClient;
import io.spectrum.client.ValueFormat;
import io.spectrum.link.Link;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.wire.WireError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link PeerClient}, the one request/reply client, against a board: the demo board (docs/board.md)
 * runs on its own node loop in this process, joined to the client by an in-process link pair. The
 * client reads a value and renders it with the vertex's declaration, subscribes to {@code /led},
 * writes it, and sees the write come back as a delivery; a write the declaration forbids is refused.
 *
 * <pre>java -cp … io.spectrum.examples.peer.BoardClient</pre>
 */
public final class BoardClient {
    private BoardClient() {
    }

    /** What the client saw: the board's name, /led's deliveries as text, and the refused write's code. */
    public record Outcome(String name, List<String> ledDeliveries, int refusal) {
    }

    /** Starts the demo board, then reads, subscribes, writes; each request waits at most {@code timeout}. */
    public static Outcome run(Duration timeout) {
        Link[] pair = LinkSpec.inProcessPair(1, 2, new LinkSettings()); // [0] the board's end, [1] ours
        try (Board board = new Board("greenhouse", 0); PeerClient client = new PeerClient(pair[1], 0, timeout)) {
            board.attach(pair[0]);
            board.start();
            String name = client.render("/name", client.read("/name").value()).text();

            List<Delivery> led = new ArrayList<>();
            // deliveries arrive while the client waits or pumps; each is a view valid during the call, so keep a detached one
            client.onDelivery(d -> led.add(d.detach()));
            if (!client.subscribe("/led", "/watch/led", 0, false).ok()) {
                throw new IllegalStateException("the board refused the subscription");
            }
            // the declaration turns text into the TLV the vertex holds (u8 0..1 here)
            client.write("/led", ValueFormat.parse("1", client.declaration("/led")).tlv());
            client.pumpUntil(() -> !led.isEmpty(), timeout);
            int refusal = client.write("/temp", ValueFormat.parse("20", client.declaration("/temp")).tlv()).code();

            List<String> seen = new ArrayList<>();
            led.forEach(d -> seen.add(client.render("/led", d.value()).text()));
            return new Outcome(name, seen, refusal);
        }
    }

    /** Prints what {@link #run} saw: {@code /name greenhouse; /led delivered [1]; write /temp: tr::access::denied}. */
    public static void main(String[] args) {
        Outcome o = run(Duration.ofSeconds(2));
        System.out.println("/name " + o.name() + "; /led delivered " + o.ledDeliveries() + "; write /temp: "
                + WireError.identity(o.refusal()));
    }
}
