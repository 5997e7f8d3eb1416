package io.spectrum.examples.peer;

import io.spectrum.board.Board;
import io.spectrum.client.Delivery;
import io.spectrum.client.PeerClient;
import io.spectrum.client.Subscribed;
import io.spectrum.client.ValueFormat;
import io.spectrum.link.Link;
import io.spectrum.runtime.LinkSettings;
import io.spectrum.runtime.LinkSpec;
import io.spectrum.wire.WireError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The generation guard of a remote subscription (docs/extensions.md, "FIELD level generation"): a
 * slot of {@code :subscribers} is addressed as {@code [N@G]}, its position N and the generation G
 * its admission got. A client that announces Spectrum's extensions learns both from the append's
 * answer. Once its subscription is cleared and another takes the same position, the old
 * {@code [N@G]} is refused ({@code tr::path::not_found}) and cannot suspend the new one.
 *
 * <pre>java -cp … io.spectrum.examples.peer.GenerationGuard</pre>
 */
public final class GenerationGuard {
    private GenerationGuard() {
    }

    /** Both identities, the codes the old and the new one got, and the routes /led was delivered to. */
    public record Outcome(Subscribed first, Subscribed second, int oldIdentity, int newIdentity, List<String> routes) {
    }

    /** On the demo board: subscribe, clear, subscribe again, suspend with the old then the new identity. */
    public static Outcome run(Duration timeout) {
        Link[] pair = LinkSpec.inProcessPair(1, 2, new LinkSettings()); // [0] the board's end, [1] ours
        try (Board board = new Board("greenhouse", 0); PeerClient client = new PeerClient(pair[1], 0, timeout)) {
            board.attach(pair[0]);
            board.start();
            client.announceExtensions(true); // so an append is answered with the slot's [N@G]
            List<String> routes = new ArrayList<>();
            client.onDelivery(d -> routes.add(d.route()));

            Subscribed first = client.subscribe("/led", "/watch/first", 0, false);
            client.clear("/led", first.index(), first.generation());
            Subscribed second = client.subscribe("/led", "/watch/second", 0, false);
            // a late toggle through the first identity: refused, whoever holds the position now
            int old = client.suspend("/led", first.index(), first.generation()).code();

            client.write("/led", ValueFormat.parse("1", client.declaration("/led")).tlv());
            client.pumpUntil(() -> !routes.isEmpty(), timeout); // the second subscription still delivers
            int current = client.suspend("/led", second.index(), second.generation()).code();
            return new Outcome(first, second, old, current, routes);
        }
    }

    /** Prints what {@link #run} saw: both identities, what each suspend got, where /led was delivered. */
    public static void main(String[] args) {
        Outcome o = run(Duration.ofSeconds(2));
        String first = "[" + o.first().index() + "@" + o.first().generation() + "]";
        String second = "[" + o.second().index() + "@" + o.second().generation() + "]";
        System.out.println("suspend " + first + ": " + WireError.identity(o.oldIdentity()) + "; suspend " + second + ": "
                + (o.newIdentity() == WireError.OK ? "OK" : WireError.identity(o.newIdentity())) + "; /led went to " + o.routes());
    }
}
