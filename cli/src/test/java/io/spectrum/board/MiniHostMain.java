package io.spectrum.board;

import io.spectrum.runtime.LinkSpec;
import io.spectrum.link.Link;
import io.spectrum.time.SystemClock;

import java.util.Arrays;
import java.util.List;

/**
 * A minimal host process for NodeProcessTest: {@code MiniHostMain HOST:PORT PATH...} dials the
 * board, subscribes to the paths and prints {@code <link> <path> = <value>} per update. Pings every
 * 100 ms, reports the board down after 600 ms; lives at most 60 s.
 */
public final class MiniHostMain {
    private MiniHostMain() {
    }

    public static void main(String[] args) throws Exception {
        Link link = LinkSpec.udpDial(1, args[0], 100, 600, SystemClock.INSTANCE);
        List<String> paths = Arrays.asList(args).subList(1, args.length);
        try (MiniHost host = new MiniHost("mini", (board, path, value, seq, stale) -> {
            System.out.println(board + " " + path + " = " + value + (stale ? " (stale)" : ""));
            System.out.flush();
        })) {
            host.addBoard(link, paths);
            host.start();
            System.out.println("mini ready on " + link.name());
            System.out.flush();
            Thread.sleep(60_000);
        }
    }
}
