package io.spectrum.hil.hw;

import java.util.concurrent.TimeUnit;

/** Stopping child processes this module started: by handle, politely first, never by name. */
final class Processes {
    private Processes() {
    }

    static void stop(Process p) {
        if (p == null) {
            return;
        }
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
