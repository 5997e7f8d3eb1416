package io.spectrum.examples.node;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.Node;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.List;

/**
 * The in-process node API ({@code io.spectrum.node.api}, docs/node.md): declare a vertex, subscribe a
 * callback, write, suspend and resume. A suspended subscription is one bit in its slot: a write meanwhile
 * still spends a sequence number but is not delivered, and resuming replays nothing. The declaration
 * gates every write, the owner's too: a value outside its range is refused and changes nothing.
 *
 * <pre>java -cp … io.spectrum.examples.node.NodeBasics</pre>
 */
public final class NodeBasics {
    /** The vertex: VALUE i16 in centi-degrees Celsius, -40..85 °C. */
    public static final NodePath TEMP = NodePath.of("/greenhouse/temp");

    private NodeBasics() {
    }

    /** What a run saw: each delivery ({@code seq 1: 21.5 °C}), the refused write's code and the last sequence. */
    public record Outcome(List<String> delivered, int refused, long sequence) {
    }

    /** Declares {@link #TEMP}, subscribes, writes 21.5, 22 (suspended), 22.5 (resumed) and 90 °C (refused). */
    public static Outcome run() {
        try (Node node = new NarrowNode(NodeConfig.defaults())) {
            VertexSchema schema = VertexSchema.value(2, true).unit("Cel").scale(0.01).range(-4000, 8500)
                    .description("greenhouse air").build();
            if (node.declare(TEMP, schema) != WireError.OK) {
                throw new IllegalStateException("cannot declare " + TEMP);
            }
            List<String> delivered = new ArrayList<>();
            // called on the node's thread, inside write; the value is valid only during the call
            Subscription sub = node.subscribe(TEMP, 0, (s, v, seq, stale) -> {
                byte[] tlv = v.copy();
                delivered.add("seq " + seq + ": " + schema.toUnit(schema.rawValue(tlv, tlv.length - schema.width()))
                        + " " + schema.unitSymbol());
            });
            byte[] buf = new byte[16];
            TlvWriter w = new TlvWriter();
            write(node, w, buf, 2150);             // seq 1, delivered
            sub.suspend();
            write(node, w, buf, 2200);             // seq 2, not delivered
            sub.resume();                          // nothing replayed
            write(node, w, buf, 2250);             // seq 3, delivered
            int refused = write(node, w, buf, 9000); // above 85 °C: refused, no seq spent
            sub.close();
            return new Outcome(delivered, refused, node.sequence(TEMP));
        }
    }

    private static int write(Node node, TlvWriter w, byte[] buf, long centiDegrees) {
        int len = w.wrap(buf, 0, buf.length).value(centiDegrees, 2).length(); // VALUE i16
        return node.write(TEMP, buf, 0, len);
    }

    /** Prints each delivery, the refusal and the last sequence. */
    public static void main(String[] args) {
        Outcome o = run();
        o.delivered().forEach(System.out::println);
        System.out.println("90 °C: " + WireError.identity(o.refused()) + "; last sequence " + o.sequence());
    }
}
