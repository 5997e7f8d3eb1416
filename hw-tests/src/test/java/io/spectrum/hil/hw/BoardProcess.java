package io.spectrum.hil.hw;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How to launch an emulated board: a java executable (the host JVM's, or the aarch64 runtime under
 * qemu), a class path holding the board application (io.spectrum.board.BoardMain), and JVM options.
 * The board runs {@code BoardMain --serial DEVICE --baud 115200 --name NAME [--config FILE]}, its output
 * appended to a log file next to the pty pair.
 */
public final class BoardProcess {
    /** The board application's main class, the default one a launcher runs. */
    public static final String MAIN = "io.spectrum.board.BoardMain";

    private final String java;
    private final String classPath;
    private final List<String> jvmOptions;
    private final String mainClass;
    private final Path boardFile;

    /** A launcher of {@link #MAIN} with {@code java}, {@code classPath} and {@code jvmOptions}. */
    public BoardProcess(String java, String classPath, List<String> jvmOptions) {
        this(java, classPath, jvmOptions, MAIN);
    }

    /** With another main class taking the same arguments (tests of the target machinery). */
    public BoardProcess(String java, String classPath, List<String> jvmOptions, String mainClass) {
        this(java, classPath, jvmOptions, mainClass, null);
    }

    private BoardProcess(String java, String classPath, List<String> jvmOptions, String mainClass, Path boardFile) {
        this.java = java;
        this.classPath = classPath;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.mainClass = mainClass;
        this.boardFile = boardFile;
    }

    /** The same launcher running the board declared by {@code file} (docs/board.md). */
    public BoardProcess withBoardFile(Path file) {
        return new BoardProcess(java, classPath, jvmOptions, mainClass, file);
    }

    /** The JVM running this code, with this JVM's class path. */
    public static BoardProcess sameJvm() {
        return new BoardProcess(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                System.getProperty("java.class.path"), List.of("-Xmx64m", "-XX:+UseSerialGC"));
    }

    /** The same launcher with another main class. */
    public BoardProcess withMain(String main) {
        return new BoardProcess(java, classPath, jvmOptions, main, boardFile);
    }

    /** The java executable this launcher runs. */
    public String java() {
        return java;
    }

    /**
     * The board's command line on {@code device} (115200 baud) as {@code name}, with {@code tmpDir} as its private
     * java.io.tmpdir (so jSerialComm's native library matches the board's architecture).
     */
    public List<String> command(Path device, String name, Path tmpDir) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(jvmOptions);
        // a private tmpdir: jSerialComm extracts its native library there, and an aarch64 board must
        // not pick up the x86-64 copy the host JVM extracted into the shared /tmp
        cmd.add("-Djava.io.tmpdir=" + tmpDir);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(mainClass);
        cmd.add("--serial");
        cmd.add(device.toString());
        cmd.add("--baud");
        cmd.add("115200");
        cmd.add("--name");
        cmd.add(name);
        if (boardFile != null) {
            cmd.add("--config");
            cmd.add(boardFile.toString());
        }
        return cmd;
    }

    /** Starts the board in {@code workDir} with its output appended to {@code log}. */
    public Process start(Path device, String name, Path workDir, Path log) throws IOException {
        Path tmp = workDir.resolve("board-tmp");
        Files.createDirectories(tmp);
        return new ProcessBuilder(command(device, name, tmp))
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
    }
}
