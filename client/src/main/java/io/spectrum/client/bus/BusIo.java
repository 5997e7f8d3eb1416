package io.spectrum.client.bus;

import io.spectrum.wire.BusError;
import io.spectrum.client.Transport;
import io.spectrum.time.Clock;
import io.spectrum.time.SystemClock;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.protocol.BusFrames;
import io.spectrum.wire.WireError;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import io.spectrum.runtime.SelectorReadiness;
import io.spectrum.runtime.WakeIdleStrategy;
import java.util.function.Consumer;

/**
 * The bus client's one I/O thread: it owns the {@link Transport} (sends queued frames, polls
 * inbound ones), correlates each reply with its request by the reply route the request named
 * ({@code /<client>/r/<n>}), and hands every unasked event to the client. Callers on any thread
 * {@link #request} and wait on the returned future. Idle waiting backs off from spinning to
 * parking (at most 200 µs), so an idle client costs little CPU and a busy one answers fast. The
 * system property {@code spectrum.bus.client.maxParkNanos} changes that bound (0: never park,
 * yield instead — for measuring what parking costs; it burns a core while idle).
 *
 * <p>The same connection is a door to the host's node ({@link NodeTransport}, docs/bus.md "The host's
 * node through the bus"): frames for the node join the request queue ({@link #sendNode}), and an
 * inbound frame that is neither a bus event (dst under {@code /$bus}) nor a reply to one of this
 * client's bus routes is the node's; it waits in a queue bounded by {@link #NODE_INBOUND_BYTES}
 * (dropped and counted past it, as a full socket drops a datagram) until the node client polls.
 */
final class BusIo implements AutoCloseable {
    /** The longest idle park, {@code spectrum.bus.client.maxParkNanos} (default 200 µs; 0 yields instead). */
    static final long MAX_PARK_NANOS = Long.getLong("spectrum.bus.client.maxParkNanos", 200_000L);

    /** Bytes of frames from the node that wait for the node client's poll, at most (8 MiB). */
    static final long NODE_INBOUND_BYTES = 8L << 20;
    /** Frames for the node that wait for this thread to send them, at most; one more is FLOW_BACKPRESSURE. */
    static final int NODE_OUTBOUND_FRAMES = 1024;

    private final Transport transport;
    /** The node's frames, from this thread to the node client's. */
    private final ConcurrentLinkedQueue<byte[]> nodeInbound = new ConcurrentLinkedQueue<>();
    private final AtomicLong nodeInboundBytes = new AtomicLong();
    private final AtomicLong nodeOutbound = new AtomicLong();
    private final AtomicLong nodeDropped = new AtomicLong();
    /** Whether a node client takes the node's frames (before it does, they are dropped). */
    private volatile boolean nodeOpen;
    /** The node client's thread while it parks in {@link NodeWait}, else null: woken by {@link #wakeNode}. */
    private volatile Thread nodeWaiter;
    private final String route;
    private final Consumer<BusFrames.Decoded> events;
    private final ConcurrentLinkedQueue<Out> outbound = new ConcurrentLinkedQueue<>();
    private final Map<Long, CompletableFuture<BusFrames.Decoded>> pending = new ConcurrentHashMap<>();
    private final AtomicLong requests = new AtomicLong();
    private final Thread thread;
    /** The selector this thread sleeps in when the transport wakes it on every arrival, else null. */
    private final SelectorReadiness sleeper;
    /** How long after work the thread spins and yields before it sleeps in {@link #sleeper}. */
    static final long SPIN_NANOS = 20_000L;
    /** The longest sleep in {@link #sleeper}: a full socket's writability does not wake it. */
    static final long MAX_SLEEP_NANOS = 10_000_000L;
    /** The sleep while a frame waits for room in the link's lane. */
    static final long BUSY_SLEEP_NANOS = 200_000L;
    private volatile boolean running = true;
    private volatile BusException lost;
    private final Clock clock = SystemClock.INSTANCE;
    /** Send a {@code bus.ping} when nothing was sent for this long (0: never); see {@link #keepalive}. */
    private volatile long keepaliveNanos;
    private long sentAt;

    /**
     * A frame waiting for the transport: a request and its number (its future in {@link #pending}), or
     * (number 0) a frame for the node.
     */
    private record Out(long n, byte[] frame) {
    }

    BusIo(Transport transport, String route, Consumer<BusFrames.Decoded> events, String threadName) {
        this.transport = transport;
        this.route = route;
        this.events = events;
        SelectorReadiness r = new SelectorReadiness();
        if (transport.wakes(r)) {
            sleeper = r;
        } else {
            r.close();
            sleeper = null;
        }
        thread = new Thread(this::run, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    /** Sends {@code command} and returns the future of its decoded reply. */
    CompletableFuture<BusFrames.Decoded> request(String command, BusFields body) {
        CompletableFuture<BusFrames.Decoded> f = new CompletableFuture<>();
        BusException gone = lost;
        if (gone != null) {
            f.completeExceptionally(gone);
            return f;
        }
        long n = requests.incrementAndGet();
        pending.put(n, f);
        outbound.add(new Out(n, BusFrames.request(command, route + "/r/" + n, body)));
        wake();
        return f;
    }

    /**
     * Queues one frame for the host's node (copied): OK, TRANSPORT_DOWN once the connection is lost,
     * FLOW_BACKPRESSURE while {@link #NODE_OUTBOUND_FRAMES} wait to be sent (send it again later).
     */
    int sendNode(byte[] frame, int off, int len) {
        if (lost != null) {
            return WireError.TRANSPORT_DOWN;
        }
        if (nodeOutbound.incrementAndGet() > NODE_OUTBOUND_FRAMES) {
            nodeOutbound.decrementAndGet();
            return WireError.FLOW_BACKPRESSURE;
        }
        byte[] copy = new byte[len];
        System.arraycopy(frame, off, copy, 0, len);
        outbound.add(new Out(0, copy));
        wake();
        return WireError.OK;
    }

    /** Starts (or stops) taking the node's frames for the node client; stopping drops those waiting. */
    void nodeOpen(boolean open) {
        nodeOpen = open;
        if (!open) {
            for (byte[] f; (f = nodeInbound.poll()) != null; ) {
                nodeInboundBytes.addAndGet(-f.length);
            }
        }
    }

    /** The next frame from the node, or null. */
    byte[] pollNode() {
        byte[] f = nodeInbound.poll();
        if (f != null) {
            nodeInboundBytes.addAndGet(-f.length);
        }
        return f;
    }

    /** True while frames from the node wait for the node client's poll. */
    boolean hasNodeFrames() {
        return !nodeInbound.isEmpty();
    }

    /** Names the node client's thread as parked until woken ({@link NodeWait}); null when it is not. */
    void nodeWaiter(Thread t) {
        nodeWaiter = t;
    }

    /** Unparks the node client's thread if it waits: a frame from the node came, or one of its own went out. */
    private void wakeNode() {
        Thread t = nodeWaiter;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Frames for or from the node that were dropped: over the inbound bound, or refused by the link. */
    long nodeDropped() {
        return nodeDropped.get();
    }

    /**
     * Keeps the connection from the bus's idle timeout: a {@code bus.ping} goes whenever nothing else
     * was sent for {@code periodMillis} (0: never). Its reply is not waited for.
     */
    void keepalive(long periodMillis) {
        keepaliveNanos = Math.max(0, periodMillis) * 1_000_000L;
        wake();
    }

    /** Marks the connection lost: every waiting request fails with {@code why}. */
    void lose(BusException why) {
        lost = why;
        wakeNode();
        for (CompletableFuture<BusFrames.Decoded> f : pending.values()) {
            f.completeExceptionally(why);
        }
        pending.clear();
    }

    BusException lost() {
        return lost;
    }

    /** Wakes this I/O thread: a request or a frame for the node to send, a keepalive change, a close. */
    private void wake() {
        if (sleeper != null) {
            sleeper.wake();
        } else {
            LockSupport.unpark(thread);
        }
    }

    /**
     * How this thread idles. When the transport wakes a selector on every arrival ({@link Transport#wakes}),
     * it spins for {@link #SPIN_NANOS} (the node loop's {@link WakeIdleStrategy}) and then sleeps in
     * that selector until a frame comes, a
     * request is made, or at most {@link #MAX_SLEEP_NANOS} (a socket that was full becoming writable
     * cannot wake it; the keepalive's deadline is nearer). Else it spins, then parks from 1 µs
     * doubling to {@link #MAX_PARK_NANOS} (or yields when that is 0), woken by a request.
     */
    private IdleStrategy idleStrategy() {
        if (sleeper != null) {
            return new WakeIdleStrategy(this::sleep, SPIN_NANOS);
        }
        return MAX_PARK_NANOS <= 0 ? new BackoffIdleStrategy(100, Long.MAX_VALUE, 1, 1)
                : new BackoffIdleStrategy(200, 0, 1_000L, MAX_PARK_NANOS);
    }

    /** One sleep in {@link #sleeper}: until a frame or a wake, at most until the next thing this thread must do. */
    private void sleep() {
        long sleep = MAX_SLEEP_NANOS;
        long keepalive = keepaliveNanos;
        if (keepalive > 0) {
            sleep = Math.max(1, Math.min(sleep, sentAt + keepalive - clock.nanoTime()));
        }
        if (!outbound.isEmpty()) {
            sleep = Math.min(sleep, BUSY_SLEEP_NANOS); // the link's lane was full: try again soon
        }
        sleeper.await(sleep);
    }

    private void run() {
        Transport.Sink sink = this::onFrame;
        IdleStrategy idle = idleStrategy();
        sentAt = clock.nanoTime();
        while (running) {
            int work = 0;
            byte[] f;
            long keepalive = keepaliveNanos;
            if (keepalive > 0 && lost == null && outbound.isEmpty() && clock.nanoTime() - sentAt >= keepalive) {
                request("bus.ping", BusFields.of()).exceptionally(e -> null);
            }
            for (Out o; (o = outbound.peek()) != null; ) {
                f = o.frame;
                int rc = transport.send(f, 0, f.length);
                if (rc == WireError.FLOW_BACKPRESSURE) {
                    break; // the link's lane is full: try again on the next turn
                }
                outbound.poll();
                if (o.n == 0) {
                    nodeOutbound.decrementAndGet();
                    wakeNode(); // a node client waiting for room in this queue sends again
                    if (rc != WireError.OK) {
                        nodeDropped.incrementAndGet(); // e.g. over the link's frame limit: the node client times out
                    }
                }
                if (rc == WireError.FRAME_INVALID) {
                    CompletableFuture<BusFrames.Decoded> p = pending.remove(o.n);
                    if (p != null) {
                        p.completeExceptionally(new BusException(BusError.INVALID_ENVELOPE, "a request of " + f.length
                                + " bytes is over the bus link's frame limit (docs/bus.md, \"Limits\")"));
                    }
                    continue;
                }
                sentAt = clock.nanoTime();
                work++;
                if (rc == WireError.TRANSPORT_DOWN) {
                    lose(new BusException(BusError.ROUTER_LOST, "the link to the bus is down"));
                }
            }
            work += transport.poll(sink, 64);
            idle.idle(work);
        }
    }

    private void onFrame(byte[] buf, int off, int len) {
        String prefix = route + "/r/";
        String dst = BusFrames.fwdDst(buf, off, len);
        if (dst == null || !BusFrames.isBusPath(dst) && !dst.startsWith(prefix)) {
            // the node's (a reply to one of the node client's routes, a delivery, its liveness ping),
            // told by its dst alone and never read as a bus message
            toNode(buf, off, len);
            return;
        }
        BusFrames.Decoded d;
        try {
            d = BusFrames.decode(buf, off, len);
        } catch (BusException e) {
            return; // addressed to the bus's paths or this client's bus routes, but no bus message
        }
        if (!BusFrames.isBusPath(d.dst()) && !d.isReply()) {
            toNode(buf, off, len); // a request to one of this client's bus routes is none of the bus's
            return;
        }
        if (d.isReply()) {
            if (d.dst().startsWith(prefix)) {
                try {
                    CompletableFuture<BusFrames.Decoded> f = pending.remove(Long.parseLong(d.dst().substring(prefix.length())));
                    if (f != null) {
                        f.complete(d);
                    }
                } catch (NumberFormatException ignored) {
                    // a reply to a route we never used
                }
            }
            return;
        }
        events.accept(d);
    }

    /** Keeps a frame from the node for the node client (copied), or drops it: no node client, or over the bound. */
    private void toNode(byte[] buf, int off, int len) {
        if (!nodeOpen) {
            return;
        }
        if (nodeInboundBytes.addAndGet(len) > NODE_INBOUND_BYTES) {
            nodeInboundBytes.addAndGet(-len);
            nodeDropped.incrementAndGet();
            return;
        }
        byte[] copy = new byte[len];
        System.arraycopy(buf, off, copy, 0, len);
        nodeInbound.add(copy);
        wakeNode();
    }

    @Override
    public void close() {
        running = false;
        wake();
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        transport.close();
        if (sleeper != null) {
            sleeper.close();
        }
    }
}
