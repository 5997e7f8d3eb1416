package io.spectrum.bench.link;

import io.spectrum.link.udp.mmsg.MmsgSocket;
import io.spectrum.node.api.NodePath;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Request rounds over UDP loopback against running nodes, from this separate process: FWD READs of
 * one vertex per target. Window 1 (one request at a time) gives round-trip p50/p90/p99; larger
 * windows keep that many requests in flight and give requests per second. Rounds interleave the
 * targets (round r runs every target once, the order rotating each round), and the summary prints
 * the median of each figure over the rounds, so the targets see the same machine conditions.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar io.spectrum.bench.link.UdpRequestRounds \
 *     --target spectrum=127.0.0.1:47200/temp --target reference=127.0.0.1:47100/sensor/temp \
 *     [--rounds 5] [--requests 20000] [--windows 1,8,32] [--warmup 20000] [--io plain|batched]
 *     [--pid NAME=PID ...]
 * </pre>
 * A lost datagram (no answer within {@code --timeout-ms}, default 200) is counted and its slot in
 * the window refilled; losses are printed with the figures.
 *
 * <p>The load generator shares the machine with the nodes it measures. {@code --io plain} (the
 * default) spends one {@code send} and one {@code receive} system call per request; {@code --io
 * batched} sends a window's refill with one {@code sendmmsg} and reads the answers waiting with one
 * {@code recvmmsg} (Linux, JNA), so it takes less of the CPU the nodes share. {@code --pid NAME=PID}
 * names a target's process: each run then also measures that process's CPU time (the sum over its
 * threads of {@code /proc/PID/task/TID/schedstat}, nanoseconds) and prints it per request, a
 * figure that does not depend on who sets the pace.
 */
public final class UdpRequestRounds {
    private record Target(String name, InetSocketAddress address, byte[] request) { }

    /**
     * One (target, window) run: latency percentiles (ns) for window 1, requests/s otherwise; the
     * target's CPU nanoseconds per answered request, or NaN when its process is not named.
     */
    private record Run(double p50, double p90, double p99, double perSecond, int lost, double cpuNs) {
        Run withCpu(double ns) {
            return new Run(p50, p90, p99, perSecond, lost, ns);
        }
    }

    private UdpRequestRounds() {
    }

    /**
     * Runs the rounds against every {@code --target} and prints the medians; exits 2 on a usage error and 1 when a
     * target does not answer.
     */
    public static void main(String[] args) throws Exception {
        List<Target> targets = new ArrayList<>();
        int rounds = 5;
        int requests = 20_000;
        int warmup = 20_000;
        int timeoutMs = 200;
        int[] windows = {1, 8, 32};
        boolean batched = false;
        Map<String, Long> pids = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--target" -> targets.add(target(args[++i]));
                case "--io" -> batched = switch (args[++i]) {
                    case "plain" -> false;
                    case "batched" -> true;
                    default -> throw new IllegalArgumentException("--io is plain or batched, not " + args[i]);
                };
                case "--pid" -> {
                    String[] kv = args[++i].split("=", 2);
                    pids.put(kv[0], Long.parseLong(kv[1]));
                }
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--requests" -> requests = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--timeout-ms" -> timeoutMs = Integer.parseInt(args[++i]);
                case "--windows" -> windows = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                default -> {
                    System.err.println("usage: UdpRequestRounds --target NAME=HOST:PORT/PATH ... [--rounds N] "
                            + "[--requests N] [--warmup N] [--windows 1,8,32] [--timeout-ms MS] [--io plain|batched] "
                            + "[--pid NAME=PID ...]");
                    System.exit(2);
                }
            }
        }
        if (targets.isEmpty()) {
            System.err.println("at least one --target NAME=HOST:PORT/PATH is needed");
            System.exit(2);
        }
        if (batched && MmsgSocket.unavailableReason() != null) {
            System.err.println("--io batched needs recvmmsg/sendmmsg: " + MmsgSocket.unavailableReason());
            System.exit(2);
        }
        System.out.println("load generator: " + (batched ? "batched (sendmmsg/recvmmsg)" : "plain (send/receive per request)"));
        Map<String, List<Run>> results = new LinkedHashMap<>();
        List<Client> clients = new ArrayList<>();
        try {
            for (Target t : targets) {
                Client c = new Client(t, timeoutMs, batched);
                clients.add(c);
                if (run(c, 1, 10).lost() == 10) {
                    System.err.println(t.name() + " at " + t.address() + " does not answer");
                    System.exit(1);
                }
                run(c, 1, warmup);
                run(c, 32, warmup);
            }
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < targets.size(); k++) {
                    int ti = (k + r) % targets.size();
                    Target t = targets.get(ti);
                    for (int w : windows) {
                        Long pid = pids.get(t.name());
                        long cpu0 = pid == null ? 0 : cpuNanos(pid);
                        Run run = run(clients.get(ti), w, requests);
                        if (pid != null) {
                            run = run.withCpu((cpuNanos(pid) - cpu0) / (double) Math.max(1, requests - run.lost()));
                        }
                        results.computeIfAbsent(t.name() + " w" + w, x -> new ArrayList<>()).add(run);
                        System.out.println("round " + (r + 1) + " " + t.name() + " " + describe(w, run));
                    }
                }
            }
        } finally {
            for (Client c : clients) {
                c.close();
            }
        }
        System.out.println();
        System.out.println("medians over " + rounds + " rounds, " + requests + " requests each:");
        for (Map.Entry<String, List<Run>> e : results.entrySet()) {
            List<Run> runs = e.getValue();
            Run m = new Run(median(runs, Run::p50), median(runs, Run::p90), median(runs, Run::p99),
                    median(runs, Run::perSecond), runs.stream().mapToInt(Run::lost).sum(), median(runs, Run::cpuNs));
            int w = Integer.parseInt(e.getKey().substring(e.getKey().lastIndexOf('w') + 1));
            System.out.println("  " + e.getKey().substring(0, e.getKey().lastIndexOf(' ')) + " " + describe(w, m));
        }
    }

    private static String describe(int window, Run r) {
        String cpu = Double.isNaN(r.cpuNs()) ? "" : String.format(Locale.ROOT, "  cpu %.2f us/req", r.cpuNs() / 1e3);
        if (window == 1) {
            return String.format(Locale.ROOT, "w1: p50 %.1f us  p90 %.1f us  p99 %.1f us  (p99/p50 %.2f)  lost %d",
                    r.p50() / 1e3, r.p90() / 1e3, r.p99() / 1e3, r.p99() / r.p50(), r.lost()) + cpu;
        }
        return String.format(Locale.ROOT, "w%d: %.0f req/s  lost %d", window, r.perSecond(), r.lost()) + cpu;
    }

    /** CPU time of process {@code pid} so far: the first field of each thread's schedstat, summed. */
    private static long cpuNanos(long pid) throws IOException {
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path t : tasks) {
                try {
                    String s = Files.readString(t.resolve("schedstat")).trim();
                    sum += Long.parseLong(s.substring(0, s.indexOf(' ')));
                } catch (IOException e) {
                    // the thread ended while we looked: its time is the process's no longer
                }
            }
        }
        return sum;
    }

    private interface Field {
        double of(Run r);
    }

    private static double median(List<Run> runs, Field f) {
        double[] v = runs.stream().mapToDouble(f::of).sorted().toArray();
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /** NAME=HOST:PORT/PATH, e.g. spectrum=127.0.0.1:47200/temp. */
    private static Target target(String spec) {
        int eq = spec.indexOf('=');
        int slash = spec.indexOf('/', eq);
        if (eq <= 0 || slash < 0) {
            throw new IllegalArgumentException("expected NAME=HOST:PORT/PATH, got " + spec);
        }
        String hostPort = spec.substring(eq + 1, slash);
        int colon = hostPort.lastIndexOf(':');
        InetSocketAddress a = new InetSocketAddress(hostPort.substring(0, colon),
                Integer.parseInt(hostPort.substring(colon + 1)));
        return new Target(spec.substring(0, eq), a, readRequest(spec.substring(slash)));
    }

    /** FWD{READ, dst = path, src = /r}. */
    static byte[] readRequest(String path) {
        byte[] b = new byte[512];
        TlvWriter w = new TlvWriter(4).wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(0, 1).raw(NodePath.of(path).tlv()).raw(NodePath.of("/r").tlv()).end();
        return Arrays.copyOf(b, w.length());
    }

    /** One connected, non-blocking channel per target; waits for answers in a selector. */
    private static final class Client implements AutoCloseable {
        final DatagramChannel ch;
        final Selector sel;
        final ByteBuffer out;
        final ByteBuffer in = ByteBuffer.allocateDirect(2048);
        final long timeoutMs;
        final byte[] request;
        /** Batched I/O on the same socket, or null for one call per datagram. */
        final MmsgSocket mmsg;

        Client(Target t, long timeoutMs, boolean batched) throws IOException {
            ch = DatagramChannel.open(StandardProtocolFamily.INET);
            ch.setOption(StandardSocketOptions.SO_RCVBUF, 1 << 20);
            ch.bind(new InetSocketAddress("127.0.0.1", 0));
            ch.connect(t.address());
            ch.configureBlocking(false);
            sel = Selector.open();
            ch.register(sel, SelectionKey.OP_READ);
            out = ByteBuffer.allocateDirect(t.request().length);
            out.put(t.request()).flip();
            this.timeoutMs = timeoutMs;
            request = t.request();
            mmsg = batched ? MmsgSocket.attach(ch, 64, 2048, request.length) : null;
        }

        /** Sends one request now, or queues it for {@link #flush} when batched. */
        void send() throws IOException {
            if (mmsg != null) {
                if (mmsg.full()) {
                    mmsg.flush();
                }
                mmsg.queue(false, 0, 0, 0, 0, request, 0, request.length);
                return;
            }
            out.rewind();
            ch.write(out);
        }

        /** Sends what {@link #send} queued (batched); nothing otherwise. */
        void flush() {
            if (mmsg != null) {
                mmsg.flush();
            }
        }

        /** Waits for at least one answer; returns answers read (0 = timed out). */
        int receive() throws IOException {
            int got = drainNow();
            if (got > 0) {
                return got;
            }
            if (sel.select(k -> { }, timeoutMs) == 0) {
                return 0;
            }
            return drainNow();
        }

        int drainNow() throws IOException {
            if (mmsg != null) {
                int got = 0;
                while (true) {
                    int n = mmsg.receive(); // an ICMP error (-1) reads as nothing waiting, as below
                    if (n <= 0) {
                        return got;
                    }
                    got += n;
                    if (n < mmsg.batch()) {
                        return got;
                    }
                }
            }
            int got = 0;
            while (true) {
                in.clear();
                int n;
                try {
                    n = ch.read(in);
                } catch (java.net.PortUnreachableException e) {
                    continue;
                }
                if (n <= 0) {
                    return got;
                }
                got++;
            }
        }

        @Override
        public void close() throws IOException {
            sel.close();
            ch.close();
        }
    }

    /** Sends {@code n} requests keeping {@code window} in flight. */
    private static Run run(Client c, int window, int n) throws IOException {
        c.drainNow();
        long[] rtt = window == 1 ? new long[n] : null;
        int sent = 0;
        int done = 0;
        int lost = 0;
        long start = System.nanoTime();
        long sentAt = start;
        while (done < n) {
            while (sent < n && sent - done < window) {
                sentAt = System.nanoTime();
                c.send();
                sent++;
            }
            c.flush();
            int got = c.receive();
            long now = System.nanoTime();
            if (got == 0) {
                lost += sent - done; // whatever is in flight is gone; refill the window
                done = sent;
                continue;
            }
            if (window == 1) {
                rtt[done] = now - sentAt;
            }
            done = Math.min(sent, done + got);
        }
        long elapsed = System.nanoTime() - start;
        if (window == 1) {
            long[] got = Arrays.copyOf(rtt, n);
            Arrays.sort(got);
            long[] v = Arrays.copyOfRange(got, lost, n); // lost ones stay 0 and sort first
            return new Run(pct(v, 0.50), pct(v, 0.90), pct(v, 0.99), n * 1e9 / elapsed, lost, Double.NaN);
        }
        return new Run(0, 0, 0, (n - lost) * 1e9 / elapsed, lost, Double.NaN);
    }

    private static double pct(long[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
    }

}
