package io.spectrum.host.runtime;

import io.spectrum.client.PeerClient;
import io.spectrum.client.ValueFormat;
import io.spectrum.host.view.WriteOutcome;
import io.spectrum.node.fwd.RemoteClient;
import io.spectrum.node.ServingNode;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.api.Subscription;
import io.spectrum.node.api.VertexSchema;
import io.spectrum.time.Clock;
import io.spectrum.wire.AccessMask;
import io.spectrum.wire.WireError;

import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;

/**
 * The host's actions on subscriber slots (suspend, resume, clear) and its writes by text, with
 * the wait for a board's answer to a write under a mount.
 *
 * <p>Threading: called from any thread but the node thread's own callbacks (HTTP, terminal); every
 * touch of the node goes through a node-thread task ({@link NodeThread#call}) and this class keeps
 * no state of its own. A board's answer is awaited on the calling thread, polling the node thread
 * with an idle strategy (the one place here that waits), against the injected clock's deadline.
 */
final class SlotActions {
    /** The write's answer for a path under no mount (the host's own vertex). */
    private static final int NOT_A_BOARDS = Integer.MIN_VALUE;
    /** How long a board's write answer is awaited. */
    private static final long WRITE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(3);
    /** How often the waiting caller asks the node thread whether the board answered. */
    private static final long WRITE_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** A slot action. */
    enum Action { SUSPEND, RESUME, CLEAR }

    private final NodeThread loop;
    private final ServingNode node;
    private final Clock clock;
    private final PeerClient owner;
    private final Declarations declarations;
    private final Function<String, Mount> mountOf;
    private final Function<String, VertexSchema> declaration;
    private final BiFunction<String, Integer, Subscription> localSlot;
    private final Runnable changed;

    /**
     * Actions on {@code node} through {@code loop}: {@code owner} reaches remote peers' slots,
     * {@code mountOf} finds a path's mount (node thread), {@code declaration} gives the declaration a
     * write is parsed by (any thread), {@code localSlot} the host's own open subscription at a path
     * and slot or null (node thread), {@code changed} marks the snapshot changed and refreshes it
     * (node thread).
     */
    SlotActions(NodeThread loop, ServingNode node, Clock clock, PeerClient owner, Declarations declarations,
                Function<String, Mount> mountOf, Function<String, VertexSchema> declaration,
                BiFunction<String, Integer, Subscription> localSlot, Runnable changed) {
        this.loop = loop;
        this.node = node;
        this.clock = clock;
        this.owner = owner;
        this.declarations = declarations;
        this.mountOf = mountOf;
        this.declaration = declaration;
        this.localSlot = localSlot;
        this.changed = changed;
    }

    /** Writes {@code text}, parsed by the path's declaration, to the host's vertex or the board's. Any thread. */
    WriteOutcome write(String path, String text) {
        NodePath p;
        try {
            p = NodePath.of(path);
        } catch (IllegalArgumentException e) {
            return WriteOutcome.refused(WireError.PATH_INVALID, "'" + path + "' is not a path");
        }
        VertexSchema schema = declaration.apply(p.toString());
        if (schema == null) {
            return WriteOutcome.refused(WireError.ACCESS_DENIED, path + " has no declaration, so it is not writable here");
        }
        if (!schema.allows(AccessMask.WRITE)) {
            return WriteOutcome.refused(WireError.ACCESS_DENIED, path + " is declared read-only");
        }
        ValueFormat.Parsed parsed = ValueFormat.parse(text == null ? "" : text, schema);
        if (!parsed.ok()) {
            return WriteOutcome.refused(WireError.SCHEMA_TYPE_MISMATCH, parsed.reason());
        }
        byte[] tlv = parsed.tlv();
        int request = loop.call(() -> {
            Mount m = mountOf.apply(p.toString());
            return m == null ? NOT_A_BOARDS
                    : node.remote().write(m.link(), m.peer(), NodePath.of(m.remote(p.toString())), tlv, 0, tlv.length);
        });
        if (request == NOT_A_BOARDS) { // the host's own vertex
            int code = loop.call(() -> node.write(p, tlv, 0, tlv.length));
            return code == WireError.OK ? WriteOutcome.OK
                    : WriteOutcome.refused(code, "write " + path + " refused: " + WireError.identity(code));
        }
        if (request < 0) {
            return WriteOutcome.refused(-request, "write " + path + " not sent: " + WireError.identity(-request));
        }
        return awaitBoard(path, request);
    }

    /** Waits (off the node thread) for the board's answer to a remote write, then frees the request. */
    private WriteOutcome awaitBoard(String path, int request) {
        RemoteClient client = node.remote();
        long deadline = clock.nanoTime() + WRITE_TIMEOUT_NANOS;
        IdleStrategy idle = new SleepingIdleStrategy(WRITE_POLL_NANOS);
        boolean answered = false;
        try {
            while (true) {
                int[] done = loop.call(() -> client.requestState(request) == RemoteClient.DONE
                        ? new int[] {client.requestError(request)} : null);
                if (done != null) {
                    answered = true;
                    return done[0] == WireError.OK ? WriteOutcome.OK : WriteOutcome.refused(done[0],
                            "the board refused " + path + ": " + WireError.identity(done[0]));
                }
                if (clock.nanoTime() > deadline || loop.isNodeThread()) {
                    return WriteOutcome.refused(WireError.FLOW_TIMEOUT, "the board did not answer the write of " + path
                            + " within " + TimeUnit.NANOSECONDS.toSeconds(WRITE_TIMEOUT_NANOS) + " s");
                }
                idle.idle();
                if (Thread.currentThread().isInterrupted()) {
                    return WriteOutcome.refused(WireError.FLOW_TIMEOUT, "interrupted waiting for the board");
                }
            }
        } finally {
            boolean free = answered;
            loop.call(() -> {
                if (free) {
                    client.release(request);
                } else {
                    declarations.abandon(request, clock.nanoTime()); // a late answer must not land on the next request
                }
                return null;
            });
        }
    }

    /**
     * Suspends, resumes or clears subscriber slot {@code slot} of {@code path}: the host's own
     * through its handle, a remote peer's through {@code :subscribers[N]}. Returns a WireError code.
     * Any thread.
     */
    int action(String path, int slot, Action action) {
        NodePath p;
        try {
            p = NodePath.of(path);
        } catch (IllegalArgumentException e) {
            return WireError.PATH_INVALID;
        }
        if (slot < 0 || slot > 65535) {
            return WireError.PATH_INVALID;
        }
        int code = loop.call(() -> {
            Subscription sub = localSlot.apply(p.toString(), slot);
            if (sub != null) {
                return switch (action) {
                    case SUSPEND -> sub.suspend();
                    case RESUME -> sub.resume();
                    case CLEAR -> sub.close();
                };
            }
            return switch (action) {
                case SUSPEND -> owner.suspend(p.toString(), slot, -1).code();
                case RESUME -> owner.resume(p.toString(), slot, -1).code();
                case CLEAR -> owner.clear(p.toString(), slot, -1).code();
            };
        });
        if (code == WireError.OK) {
            loop.call(() -> {
                changed.run();
                return null;
            });
        }
        return code;
    }
}
