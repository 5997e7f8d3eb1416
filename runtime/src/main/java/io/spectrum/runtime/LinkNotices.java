package io.spectrum.runtime;

import io.spectrum.link.Link;
import io.spectrum.link.serial.SerialLink;
import io.spectrum.link.udp.UdpLink;
import io.spectrum.node.ServingNode;

import java.util.ArrayList;
import java.util.List;

/**
 * The warnings a node process prints once when a link is opened: a
 * listener bound to a wildcard address (0.0.0.0, ::) says what every network it is on can now do,
 * a UDP receive buffer the OS capped says by how much and which sysctl to raise, a process whose
 * UDP links fell back from batched I/O to one system call per datagram says why (once per process),
 * and a serial port that could not be opened says why (the link keeps trying, and serves nothing
 * until it opens: the process is up, but nobody on the line hears it).
 */
public final class LinkNotices {
    private LinkNotices() {
    }

    /** The batched-I/O fallback is a property of the process: said once, at the first UDP link. */
    private static volatile boolean batchNoticeGiven;

    /** The warning lines for {@code link} attached to {@code node} (empty when there is nothing to say). */
    public static List<String> atStart(Link link, ServingNode node) {
        List<String> out = new ArrayList<>();
        if (link instanceof UdpLink u) {
            String noBatch = UdpLink.batchUnavailableReason();
            if (noBatch != null && !batchNoticeGiven) {
                batchNoticeGiven = true;
                out.add("note: UDP links use one system call per datagram: batched I/O (recvmmsg/sendmmsg) is "
                        + "unavailable: " + noBatch);
            }
            if (u.isWildcard()) {
                out.add(exposure(link.name(), node.remotelyWritable()));
            }
            if (u.receiveBufferCapped()) {
                out.add(String.format("warning: %s: receive buffer %d KiB granted of %d KiB requested (capped by "
                                + "net.core.rmem_max); bursts beyond it are dropped by the kernel. Raise it: "
                                + "sysctl -w net.core.rmem_max=%d",
                        link.name(), granted(u) / 1024, u.receiveBufferRequested() / 1024, u.receiveBufferRequested()));
            }
        } else if (link instanceof SerialLink s && !s.isPortOpen()) {
            String why = s.openFailure();
            out.add("warning: " + link.name() + " is not open" + (why != null ? ": " + why : "")
                    + "; it is tried again every " + Math.max(1, s.reopenMaxMillis() / 1000) + " s at most, and nothing"
                    + " is served over it until it opens");
        } else if (link instanceof io.spectrum.link.local.LocalLink l
                && l.localAddress() instanceof java.net.InetSocketAddress a && a.getAddress().isAnyLocalAddress()) {
            out.add(exposure(link.name(), node.remotelyWritable())); // a tcp:// listener on 0.0.0.0 or ::
        }
        return out;
    }

    /** Linux reports twice the usable size it granted; show what the sockets can hold. */
    private static int granted(UdpLink u) {
        return System.getProperty("os.name", "").startsWith("Linux") ? u.receiveBufferGranted() / 2 : u.receiveBufferGranted();
    }

    /** The one line naming what a wildcard listener exposes. */
    static String exposure(String linkName, String writable) {
        return "warning: " + linkName + " listens on every interface: anyone who can reach this port can read "
                + "every vertex (and $node/stats), subscribe to any of them, and write " + writable
                + ". Bind 127.0.0.1 (the default for :PORT) or one interface address unless that is intended; "
                + "see docs/security.md.";
    }
}
