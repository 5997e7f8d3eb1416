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
import java.util.function.Consumer;

/**
 * The bus client's one I/O thread: it owns the {@link Transport} (sends queued frames, polls
 * inbound ones), correlates each reply with its request by the reply route the request named
 * ({@code /<client>/r/<n>}), and hands every unasked event to the client. Callers on any thread
 * {@link #request} and wait on the returned future. Idle waiting backs off from spinning to
 * parking (at most 200 µs), so an idle client costs little CPU and a busy one answers fast. The
 * system property {@code spectrum.bus.client.maxParkNanos} changes that bound (0: never park,
 * yield instead — for measuring what parking costs; it burns a core while idle).
 */
final class BusIo implements AutoCloseable {
    /** The longest idle park, {@code spectrum.bus.client.maxParkNanos} (default 200 µs; 0 yields instead). */
    static final long MAX_PARK_NANOS = Long.getLong("spectrum.bus.client.maxParkNanos", 200_000L);

    private final Transport transport;
    private final String route;
    private final Consumer<BusFrames.Decoded> events;
    private final ConcurrentLinkedQueue<Out> outbound = new ConcurrentLinkedQueue<>();
    private final Map<Long, CompletableFuture<BusFrames.Decoded>> pending = new ConcurrentHashMap<>();
    private final AtomicLong requests = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile BusException lost;
    private final Clock clock = SystemClock.INSTANCE;
    /** Send a {@code bus.ping} when nothing was sent for this long (0: never); see {@link #keepalive}. */
    private volatile long keepaliveNanos;
    private long sentAt;

    /** A request frame waiting for the transport, and its number (its future in {@link #pending}). */
    private record Out(long n, byte[] frame) {
    }

    BusIo(Transport transport, String route, Consumer<BusFrames.Decoded> events, String threadName) {
        this.transport = transport;
        this.route = route;
        this.events = events;
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
        LockSupport.unpark(thread);
        return f;
    }

    /**
     * Keeps the connection from the bus's idle timeout: a {@code bus.ping} goes whenever nothing else
     * was sent for {@code periodMillis} (0: never). Its reply is not waited for.
     */
    void keepalive(long periodMillis) {
        keepaliveNanos = Math.max(0, periodMillis) * 1_000_000L;
        LockSupport.unpark(thread);
    }

    /** Marks the connection lost: every waiting request fails with {@code why}. */
    void lose(BusException why) {
        lost = why;
        for (CompletableFuture<BusFrames.Decoded> f : pending.values()) {
            f.completeExceptionally(why);
        }
        pending.clear();
    }

    BusException lost() {
        return lost;
    }

    private void run() {
        Transport.Sink sink = this::onFrame;
        // spin, then park from 1 µs doubling to MAX_PARK_NANOS (or yield when that is 0)
        IdleStrategy idle = MAX_PARK_NANOS <= 0 ? new BackoffIdleStrategy(100, Long.MAX_VALUE, 1, 1)
                : new BackoffIdleStrategy(200, 0, 1_000L, MAX_PARK_NANOS);
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
        BusFrames.Decoded d;
        try {
            d = BusFrames.decode(buf, off, len);
        } catch (BusException e) {
            return; // not a bus frame (e.g. a liveness probe): nothing of ours
        }
        if (d.isReply()) {
            String prefix = route + "/r/";
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

    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        transport.close();
    }
}
