package io.spectrum.board.decl;

import com.pi4j.context.Context;
import io.spectrum.board.app.AppHost;
import io.spectrum.board.app.BoardApp;

import io.spectrum.node.NarrowNode;
import io.spectrum.node.api.NodeConfig;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.WireError;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
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
        List<Class<? extends BoardApp>> classes = file.apps().isEmpty() ? List.of()
                : appClasses(file, loader(file, appJars), appJars);
        for (int i = 0; i < classes.size(); i++) {
            BoardFile.App a = file.apps().get(i);
            BoardApp app;
            try {
                app = classes.get(i).getConstructor().newInstance();
            } catch (ReflectiveOperationException | LinkageError e) {
                throw new BoardFileError(file.file(), a.line(), "apps[" + i + "].class", "cannot make a " + a.className()
                        + ": " + DeclaredBoard.message(e instanceof InvocationTargetException t ? t.getCause() : e));
            }
            entries.add(new AppHost.Entry(a.className(), app, a.settings()));
        }
        return new AppHost(boardName, entries, pi4j(file), file.sys(), file.proc());
    }

    /**
     * What {@code board --check} and {@code flash --config} do: resolves and validates a parsed file
     * the way {@link #host} would run it, and touches nothing. Its vertices are declared on a
     * node of its own (the node's own rules: pool sizes, paths), and its apps' classes are found in
     * {@code appJars} with a public no-argument constructor; no class is initialized, no app made,
     * no pin, bus, device, file or command opened. (Whether the hardware is there is known only
     * when the board starts.)
     */
    public static void check(BoardFile file, List<Path> appJars) throws BoardFileError {
        try (NarrowNode node = new NarrowNode(NodeConfig.defaults())) {
            for (int i = 0; i < file.vertices().size(); i++) {
                BoardFile.Vertex v = file.vertices().get(i);
                int r = node.declare(NodePath.of(v.path()), v.schema());
                if (r != WireError.OK) {
                    throw new BoardFileError(file.file(), v.line(), "vertices[" + i + "]",
                            "the board's node refuses to declare " + v.path() + ": " + WireError.identity(r));
                }
            }
        }
        if (!file.apps().isEmpty()) {
            ClassLoader loader = loader(file, appJars);
            try {
                appClasses(file, loader, appJars);
            } finally {
                if (loader instanceof URLClassLoader u) {
                    try {
                        u.close();
                    } catch (IOException e) {
                        // only the jars' file handles; nothing was loaded from them that runs
                    }
                }
            }
        }
    }

    /**
     * The file's app classes in order, loaded by {@code loader} (the app jars) without initializing them (their
     * static code does not run): each a {@link BoardApp} with a public no-argument constructor.
     */
    private static List<Class<? extends BoardApp>> appClasses(BoardFile file, ClassLoader loader, List<Path> appJars)
            throws BoardFileError {
        List<Class<? extends BoardApp>> classes = new ArrayList<>();
        for (int i = 0; i < file.apps().size(); i++) {
            BoardFile.App a = file.apps().get(i);
            String field = "apps[" + i + "].class";
            try {
                Class<?> c = Class.forName(a.className(), false, loader);
                if (!BoardApp.class.isAssignableFrom(c)) {
                    throw new BoardFileError(file.file(), a.line(), field, a.className() + " is not a io.spectrum.board.app.BoardApp");
                }
                if (c.isInterface() || Modifier.isAbstract(c.getModifiers()) || !Modifier.isPublic(c.getModifiers())
                        || c.getEnclosingClass() != null && !Modifier.isStatic(c.getModifiers())) {
                    throw new BoardFileError(file.file(), a.line(), field, a.className()
                            + " cannot be made: an app is a public, concrete, top-level or static class");
                }
                c.getConstructor();
                classes.add(c.asSubclass(BoardApp.class));
            } catch (ClassNotFoundException e) {
                throw new BoardFileError(file.file(), a.line(), field, a.className()
                        + " is not in the app jars " + appJars + " (spectrum flash --app JAR, or --app JAR)");
            } catch (NoSuchMethodException e) {
                throw new BoardFileError(file.file(), a.line(), field, a.className()
                        + " has no public no-argument constructor (a board app needs one)");
            } catch (LinkageError e) {
                throw new BoardFileError(file.file(), a.line(), field, "cannot load " + a.className()
                        + ": " + DeclaredBoard.message(e));
            }
        }
        return classes;
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
