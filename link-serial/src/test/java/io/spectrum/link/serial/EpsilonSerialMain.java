package io.spectrum.link.serial;

import io.spectrum.time.SystemClock;

/**
 * Runs N round trips through two SerialLinks over an in-memory line, for a child JVM under the
 * Epsilon collector (no GC: any per-frame allocation runs the small heap out). Prints "ok frames=".
 */
public final class EpsilonSerialMain {
    private EpsilonSerialMain() {
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        InMemorySerialPort[] line = InMemorySerialPort.pair("eps", 1 << 16);
        SerialLinkConfig cfg = new SerialLinkConfig().maxFrame(1024);
        SerialLink a = new SerialLink(1, line[0], cfg, SystemClock.INSTANCE);
        SerialLink b = new SerialLink(2, line[1], cfg, SystemClock.INSTANCE);
        SerialLinkAllocationTest.Sink atA = new SerialLinkAllocationTest.Sink();
        SerialLinkAllocationTest.Sink atB = new SerialLinkAllocationTest.Sink();
        a.poll(atA, 1);
        b.poll(atB, 1);
        byte[] f = new byte[68];
        f[0] = 0x01;
        f[2] = 64;
        for (long c = 1; c <= n; c++) {
            for (int i = 0; i < 8; i++) {
                f[4 + i] = (byte) (c >>> (8 * i));
            }
            if (a.send(0, f, 0, f.length) != 0 || b.poll(atB, 1) != 1 || atB.last != c
                    || b.send(0, f, 0, f.length) != 0 || a.poll(atA, 1) != 1 || atA.last != c) {
                System.out.println("lost at " + c);
                System.exit(1);
            }
        }
        Runtime rt = Runtime.getRuntime();
        System.out.println("ok frames=" + (2L * n) + " heapUsed=" + (rt.totalMemory() - rt.freeMemory()));
    }
}
