package io.spectrum.board.decl;

import com.pi4j.context.Context;
import io.spectrum.board.app.AppHost;
import io.spectrum.board.app.BoardApp;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * From a board file to what the board runs: the {@link AppHost} with the declared vertices and the
 * file's apps (loaded from the app jars), on the pi4j platform the file names.
 */
public final class BoardSetup {
    /** The demo board's file, shipped in the board jar: what {@code spectrum board} runs without --config. */
    public static final String DEMO_RESOURCE = "/io/spectrum/board/demo-board.yaml";

    private BoardSetup() {
    }

    /** The shipped demo board file (the demo's five vertices on sim sources). */
    public static BoardFile demo(long periodOverride) {
        try (InputStream in = BoardSetup.class.getResourceAsStream(DEMO_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(DEMO_RESOURCE + " is missing from the board jar (a broken build?)");
            }
            return new BoardFileParser(periodOverride).parse("demo-board.yaml",
                    new String(in.readAllBytes(), StandardCharsets.UTF_8), Path.of("."));
        } catch (IOException | BoardFileError e) {
            throw new IllegalStateException("the shipped demo board file is broken: " + e.getMessage(), e);
        }
    }

    /**
     * The program for {@code file}: its vertices first, then its apps, loaded from {@code appJars}
     * (and this class path). A class that is missing or not a {@link BoardApp} is a
     * {@link BoardFileError} on its line.
     */
    public static AppHost host(BoardFile file, String boardName, List<Path> appJars) throws BoardFileError {
        List<AppHost.Entry> entries = new ArrayList<>();
        entries.add(new AppHost.Entry("board file", new DeclaredBoard(file), Map.of()));
        if (!file.apps().isEmpty()) {
            ClassLoader loader = loader(file, appJars);
            for (int i = 0; i < file.apps().size(); i++) {
                BoardFile.App a = file.apps().get(i);
                String field = "apps[" + i + "].class";
                BoardApp app;
                try {
                    Class<?> c = Class.forName(a.className(), true, loader);
                    if (!BoardApp.class.isAssignableFrom(c)) {
                        throw new BoardFileError(file.file(), a.line(), field, a.className() + " is not a io.spectrum.board.app.BoardApp");
                    }
                    app = (BoardApp) c.getConstructor().newInstance();
                } catch (ClassNotFoundException e) {
                    throw new BoardFileError(file.file(), a.line(), field, a.className()
                            + " is not in the app jars " + appJars + " (spectrum flash --app JAR, or --app JAR)");
                } catch (ReflectiveOperationException | LinkageError e) {
                    throw new BoardFileError(file.file(), a.line(), field, "cannot make a " + a.className()
                            + " (it needs a public no-argument constructor): " + DeclaredBoard.message(e));
                }
                entries.add(new AppHost.Entry(a.className(), app, a.settings()));
            }
        }
        return new AppHost(boardName, entries, pi4j(file), file.sys(), file.proc());
    }

    private static ClassLoader loader(BoardFile file, List<Path> appJars) throws BoardFileError {
        List<URL> urls = new ArrayList<>();
        for (Path jar : appJars) {
            if (!Files.isRegularFile(jar)) {
                throw new BoardFileError(file.file(), 0, "apps", "app jar " + jar + " does not exist");
            }
            try {
                urls.add(jar.toUri().toURL());
            } catch (IOException e) {
                throw new BoardFileError(file.file(), 0, "apps", "app jar " + jar + ": " + e.getMessage());
            }
        }
        ClassLoader parent = BoardSetup.class.getClassLoader();
        return urls.isEmpty() ? parent : new URLClassLoader(urls.toArray(new URL[0]), parent);
    }

    /**
     * The pi4j context the file's platform names, made on first use only: a board without pins never
     * loads pi4j ({@link Pi4jPlatform} holds the pi4j types).
     */
    static Supplier<Context> pi4j(BoardFile file) {
        boolean mock = file.platform().equals("mock");
        int chip = file.pwmChip();
        return () -> Pi4jPlatform.context(mock, chip);
    }
}
