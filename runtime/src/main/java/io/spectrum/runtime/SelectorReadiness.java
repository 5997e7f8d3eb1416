package io.spectrum.runtime;

import io.spectrum.link.Readiness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.function.Consumer;

/**
 * The node loop's one place to sleep, and a bus client's I/O thread's: a NIO {@link Selector}
 * watching the links' channels (UDP, a stream link's sockets), woken by links whose input arrives on
 * another thread (serial data events, an in-process end) and by submitted tasks or requests.
 * Selected keys are consumed through a callback, so a wake-up adds nothing to a key set (no
 * allocation per wake on the node thread).
 */
public final class SelectorReadiness implements Readiness, AutoCloseable {
    private final Selector selector;
    private final Consumer<SelectionKey> onKey = k -> { };

    /** A readiness over a new selector. */
    public SelectorReadiness() {
        try {
            selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector for the node loop", e);
        }
    }

    @Override
    public boolean watch(Object selectableChannel) {
        if (!(selectableChannel instanceof SelectableChannel ch) || ch.isBlocking()) {
            return false;
        }
        try {
            ch.register(selector, SelectionKey.OP_READ);
            return true;
        } catch (ClosedChannelException | RuntimeException e) {
            return false;
        }
    }

    @Override
    public void wake() {
        selector.wakeup();
    }

    /**
     * Blocks until a watched channel is readable, {@link #wake} is called, or {@code timeoutNanos}
     * pass (rounded up to the selector's millisecond); 0 or less only checks.
     *
     * @return channels found readable
     */
    public int await(long timeoutNanos) {
        try {
            if (timeoutNanos <= 0) {
                return selector.selectNow(onKey);
            }
            return selector.select(onKey, Math.max(1, (timeoutNanos + 999_999) / 1_000_000));
        } catch (IOException e) {
            return 0;
        }
    }

    @Override
    public void close() {
        try {
            selector.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }
}
