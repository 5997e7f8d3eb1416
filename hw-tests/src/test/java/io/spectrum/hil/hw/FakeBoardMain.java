package io.spectrum.hil.hw;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Stands in for {@code BoardMain} in the target-machinery test: checks it got the board
 * arguments (and, when given, an existing board file), appends its pid to {@code starts.txt} in its working directory, then idles until killed.
 */
public final class FakeBoardMain {
    public static void main(String[] args) throws Exception {
        boolean config = args.length == 8 && args[6].equals("--config") && Files.exists(Path.of(args[7]));
        if ((args.length != 6 && !config) || !args[0].equals("--serial") || !Files.exists(Path.of(args[1]))) {
            System.exit(3);
        }
        Files.writeString(Path.of("starts.txt"), ProcessHandle.current().pid() + "\n",
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        Thread.sleep(Long.MAX_VALUE);
    }
}
