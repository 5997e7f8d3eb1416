package io.spectrum.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.client.bus.Artifact;
import io.spectrum.client.bus.ArtifactWriter;
import io.spectrum.client.bus.BusClient;
import io.spectrum.client.bus.Message;
import io.spectrum.client.bus.BusSubscription;
import io.spectrum.bus.protocol.ArtifactRef;
import io.spectrum.bus.protocol.BusException;
import io.spectrum.bus.protocol.BusFields;
import io.spectrum.bus.protocol.BusWire;
import io.spectrum.bus.protocol.Retention;
import io.spectrum.bus.protocol.SubscriptionMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * {@code spectrum artifact put|get|ls}: artifacts on the host bus from the command line. An
 * artifact lives only while something holds it, and a command's process ends, so {@code put}
 * leaves its artifact as the retained value of a topic ({@code --topic T}, declared retained
 * latest): the bus keeps it until the topic is cleared, deleted or replaced. {@code get} takes the
 * artifact by its id (through a topic that retains it) or the retained artifact of a topic;
 * {@code ls} lists what the store holds and which topics retain it.
 */
@Command(name = "artifact", mixinStandardHelpOptions = true,
        description = {"Put, get and list artifacts on the host bus.",
                "An artifact lives while something holds it; put leaves it as the retained value of --topic T (declared "
                        + "retained latest), so it stays until that topic is cleared, deleted or published again.",
                "",
                "Examples:",
                "  spectrum artifact put frame.raw --topic camera.last --bus $XDG_RUNTIME_DIR/spectrum/bus.sock",
                "  spectrum artifact get --topic camera.last -o copy.raw",
                "  spectrum artifact get 7 -o copy.raw",
                "  spectrum artifact ls --json", ""},
        subcommands = {ArtifactCommand.Put.class, ArtifactCommand.Get.class, ArtifactCommand.Ls.class})
public final class ArtifactCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "give put, get or ls");
    }

    @Command(name = "put", mixinStandardHelpOptions = true,
            description = {"Copy FILE into the bus's store, seal it (SHA-256) and publish it as the retained value of "
                    + "--topic T; prints its ref.", "Without --topic it refuses: nothing would hold the artifact once "
                    + "this command ends."},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:published", "1:refused by the bus", "2:bad arguments, an unreadable FILE, or no bus"})
    static final class Put implements java.util.concurrent.Callable<Integer> {
        @Parameters(index = "0", paramLabel = "FILE")
        Path file;

        @Option(names = "--topic", paramLabel = "T", description = "The topic that keeps the artifact (retained latest).")
        String topic;

        @Option(names = "--content-type", paramLabel = "TYPE", defaultValue = "application/octet-stream",
                description = "The artifact's content type (default: ${DEFAULT-VALUE}).")
        String contentType;

        @Mixin
        BusOptions bus;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            CommandLine cl = spec.commandLine();
            bus.check(cl);
            if (topic == null) {
                throw new CommandLine.ParameterException(cl, "give --topic T: the artifact lives only while held, and "
                        + "this command ends; the bus keeps it as T's retained value");
            }
            long size;
            try {
                size = Files.size(file);
            } catch (IOException e) {
                return bus.print(cl, new BusOptions.Failure(BusOptions.UNREACHABLE, "io", "cannot read " + file
                        + ": " + e.getMessage()));
            }
            return bus.run(cl, c -> {
                BusFields d = c.declare(topic, Retention.LATEST);
                ArtifactWriter w = c.allocate(size, contentType);
                String digest;
                try {
                    digest = copy(file, w);
                } catch (IOException e) {
                    w.release();
                    throw new BusOptions.Failure(BusOptions.UNREACHABLE, "io", "cannot copy " + file + ": "
                            + e.getMessage());
                }
                Artifact a = w.seal(digest);
                BusFields p = c.publish(topic, file.getFileName().toString().getBytes(StandardCharsets.UTF_8),
                        a.attachment(file.getFileName().toString()));
                a.release(); // the topic's retained value holds it now
                print(cl.getOut(), a.ref(), d, p);
                return 0;
            });
        }

        /** Copies {@code file} into the writer's staging and returns its SHA-256 (hex). */
        private static String copy(Path file, ArtifactWriter w) throws IOException, BusException {
            MessageDigest sha = sha256();
            ByteBuffer buf = ByteBuffer.allocate(1 << 16);
            try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ); FileChannel out = w.channel()) {
                long pos = 0;
                while (in.read(buf) >= 0) {
                    buf.flip();
                    sha.update(buf.duplicate());
                    while (buf.hasRemaining()) {
                        pos += out.write(buf, pos);
                    }
                    buf.clear();
                }
                if (pos != w.byteLength()) {
                    throw new IOException("it changed size while being copied (" + w.byteLength() + " -> " + pos + " B)");
                }
            }
            return HexFormat.of().formatHex(sha.digest());
        }

        private void print(PrintWriter out, ArtifactRef ref, BusFields declared, BusFields published)
                throws BusException {
            if (bus.json) {
                ObjectNode o = ClientOutput.JSON.createObjectNode();
                o.put("topic", topic);
                o.put("topicSequence", published.u64("topicSequence"));
                o.set("ref", BusJson.ref(ref));
                out.println(o);
            } else {
                out.println(topic + " #" + published.u64("topicSequence") + ": artifact " + BusJson.text(ref));
            }
            out.flush();
        }
    }

    @Command(name = "get", mixinStandardHelpOptions = true,
            description = {"Write an artifact to -o FILE (or stdout): the one with id ID (as put and ls print it, "
                    + "N or N@GENERATION), or the one retained on --topic T.",
                    "A command reads an artifact through a topic that retains it (ls shows retainedBy); one held "
                    + "only by other connections' deliveries or holds is theirs to read, and is refused."},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:written", "1:refused by the bus, no such artifact, or T retains no artifact",
                    "2:bad arguments, an unwritable FILE, or no bus"})
    static final class Get implements java.util.concurrent.Callable<Integer> {
        @Parameters(index = "0", arity = "0..1", paramLabel = "ID", description = "The artifact's id: N or N@GENERATION.")
        String id;

        @Option(names = "--topic", paramLabel = "T", description = "The topic whose retained artifact to get.")
        String topic;

        @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write it here (default: stdout).")
        Path output;

        @Mixin
        BusOptions bus;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            CommandLine cl = spec.commandLine();
            bus.check(cl);
            if ((id == null) == (topic == null)) {
                throw new CommandLine.ParameterException(cl, "give an artifact ID (spectrum artifact ls lists them) "
                        + "or --topic T, not both");
            }
            long[] wanted = id == null ? null : parseId(cl, id);
            return bus.run(cl, c -> {
                String from = wanted == null ? topic : retainingTopic(c, wanted);
                BusSubscription s = c.subscribe(from, SubscriptionMode.LATEST, 1, 1, true);
                Message m = s.next(bus.timeoutMillis);
                if (m == null || m.artifacts().isEmpty()) {
                    throw new BusOptions.Failure(BusOptions.REFUSED, "NO_ARTIFACT", from
                            + (m == null ? " retains no value" : " retains a value without an artifact"));
                }
                Artifact a = wanted == null ? m.artifacts().get(0) : find(m, wanted);
                if (a == null) {
                    throw new BusOptions.Failure(BusOptions.REFUSED, "ARTIFACT_GONE", "artifact " + id
                            + " was replaced on " + from + " before it could be read");
                }
                try {
                    write(a.map(), a.length());
                } catch (IOException e) {
                    throw new BusOptions.Failure(BusOptions.UNREACHABLE, "io", "cannot write "
                            + (output == null ? "stdout" : output) + ": " + e.getMessage());
                }
                m.consume();
                s.unsubscribe();
                if (output != null) {
                    cl.getErr().println("spectrum artifact get: " + a.length() + " B to " + output);
                    cl.getErr().flush();
                }
                return 0;
            });
        }

        /** {@code N} or {@code N@GENERATION} as {@code {id, generation or -1}}. */
        private static long[] parseId(CommandLine cl, String text) {
            int at = text.indexOf('@');
            try {
                long n = Long.parseLong(at < 0 ? text : text.substring(0, at));
                long g = at < 0 ? -1 : Long.parseLong(text.substring(at + 1));
                if (n >= 0 && (at < 0 || g >= 0)) {
                    return new long[] {n, g};
                }
            } catch (NumberFormatException e) {
                // said below
            }
            throw new CommandLine.ParameterException(cl, "ID is N or N@GENERATION as spectrum artifact ls prints it, "
                    + "was " + text);
        }

        private static boolean matches(ArtifactRef r, long[] wanted) {
            return r.artifactId() == wanted[0] && (wanted[1] < 0 || r.generation() == wanted[1]);
        }

        /** The first topic (by name) whose retained value carries the wanted artifact. */
        private String retainingTopic(BusClient c, long[] wanted) throws BusException, BusOptions.Failure {
            for (BusFields f : c.artifacts()) {
                if (matches(BusWire.ref(f.record("ref")), wanted)) {
                    List<String> by = retainedBy(f);
                    if (by.isEmpty()) {
                        throw new BusOptions.Failure(BusOptions.REFUSED, "OWNER_INVALID", "artifact " + id
                                + " is held only by other connections' deliveries or holds; a command reads an "
                                + "artifact a topic retains (spectrum artifact ls shows retainedBy)");
                    }
                    return by.get(0);
                }
            }
            throw new BusOptions.Failure(BusOptions.REFUSED, "ARTIFACT_GONE", "artifact " + id
                    + " is not in the store; spectrum artifact ls lists what it holds");
        }

        private static Artifact find(Message m, long[] wanted) {
            for (Artifact a : m.artifacts()) {
                if (matches(a.ref(), wanted)) {
                    return a;
                }
            }
            return null;
        }

        private void write(MappedByteBuffer in, long length) throws IOException {
            ByteBuffer b = in.duplicate().limit((int) length).position(0);
            if (output != null) {
                try (FileChannel out = FileChannel.open(output, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
                    while (b.hasRemaining()) {
                        out.write(b);
                    }
                }
            } else {
                OutputStream os = System.out;
                WritableByteChannel out = Channels.newChannel(os);
                while (b.hasRemaining()) {
                    out.write(b);
                }
                os.flush();
            }
        }
    }

    @Command(name = "ls", mixinStandardHelpOptions = true,
            description = "List the artifacts the bus's store holds: ref, content type, roots (holds).",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:listed", "1:refused by the bus", "2:bad arguments, or no bus at --bus"})
    static final class Ls implements java.util.concurrent.Callable<Integer> {
        @Mixin
        BusOptions bus;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            CommandLine cl = spec.commandLine();
            bus.check(cl);
            PrintWriter out = cl.getOut();
            return bus.run(cl, c -> {
                List<BusFields> list = c.artifacts();
                ArrayNode a = ClientOutput.JSON.createArrayNode();
                for (BusFields f : list) {
                    ArtifactRef ref = BusWire.ref(f.record("ref"));
                    if (bus.json) {
                        ObjectNode o = BusJson.ref(ref);
                        o.put("contentType", f.string("contentType", null));
                        o.put("roots", f.u64("roots"));
                        ArrayNode by = o.putArray("retainedBy");
                        retainedBy(f).forEach(by::add);
                        a.add(o);
                    } else {
                        List<String> by = retainedBy(f);
                        out.println("artifact " + BusJson.text(ref) + "  " + f.string("contentType", "")
                                + "  roots " + f.u64("roots") + (by.isEmpty() ? "" : "  retained by "
                                + String.join(", ", by)));
                    }
                }
                if (bus.json) {
                    out.println(a);
                }
                out.flush();
                return 0;
            });
        }
    }

    private static List<String> retainedBy(BusFields f) throws BusException {
        return f.has("retainedBy") ? f.strings("retainedBy") : List.of();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
