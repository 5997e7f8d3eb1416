package io.spectrum.board.decl;

import io.spectrum.board.app.BoardApp;
import io.spectrum.board.app.BoardContext;

import java.util.concurrent.atomic.AtomicInteger;

/** A board app that counts how often its class was initialized and how often one was made (a check makes none). */
public final class CountingApp implements BoardApp {
    static final AtomicInteger MADE = new AtomicInteger();
    static final AtomicInteger INITIALIZED = new AtomicInteger();

    static {
        INITIALIZED.incrementAndGet();
    }

    public CountingApp() {
        MADE.incrementAndGet();
    }

    @Override
    public void start(BoardContext board) {
    }

    /** Not an app: it has no public no-argument constructor. */
    public static final class NoDefaultConstructor implements BoardApp {
        public NoDefaultConstructor(int x) {
        }

        @Override
        public void start(BoardContext board) {
        }
    }
}
