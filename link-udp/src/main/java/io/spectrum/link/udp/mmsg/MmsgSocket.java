package io.spectrum.link.udp.mmsg;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Batched datagram I/O on the descriptor of an open, bound JDK {@link DatagramChannel}: one
 * {@code recvmmsg} fills up to {@link #batch()} preallocated receive slots, and datagrams queued
 * with {@link #queue} leave with one {@code sendmmsg} per {@link #flush()}.
 *
 * <p><b>The descriptor.</b> The JDK does not expose a channel's descriptor. Rather than open the
 * socket natively (which would lose the loop's selector, the JDK's bind errors and options, and the
 * DTLS link's shared opener) or reach into JDK internals by reflection, {@link #attach} finds it
 * once: among the process's descriptors ({@code /proc/self/fd}) the one datagram socket whose
 * {@code getsockname} (and, for a connected channel, {@code getpeername}) equals the channel's.
 * A bound UDP address belongs to one socket unless address reuse was asked for, so exactly one
 * must match; otherwise attach refuses and the link keeps its NIO path. The channel stays the owner
 * of the descriptor: it opens, configures, is watched by the selector and closes it; this class only
 * reads from and writes to it while the link is open.
 *
 * <p><b>Memory.</b> Each direction has one native block laid out as {@code batch} {@code mmsghdr}
 * entries, their {@code iovec}s, their socket-address slots and their data slots, written and read
 * through direct {@link ByteBuffer} views. Receive and send calls pass only primitives (the block's
 * address), so a call allocates nothing on the Java heap.
 *
 * <p><b>Addresses.</b> A peer address is handed out as a primitive key: the 16 address bytes as two
 * longs (IPv4 as the IPv4-mapped IPv6 address {@code ::ffff:a.b.c.d}, so a v4 sender has one key on
 * either kind of socket), the port and the IPv6 scope. {@link #keyHi}/{@link #keyLo} compute the same
 * key from a JDK address, so a caller can match datagrams against addresses it already knows.
 *
 * <p>Layout offsets are those of 64-bit Linux (glibc and musl agree); {@link #unavailableReason()}
 * refuses anything else. One thread drives an instance.
 */
public final class MmsgSocket {
    /** {@code sizeof(struct mmsghdr)} on 64-bit Linux: a 56-byte msghdr, then msg_len, padded. */
    private static final int HDR = 64;
    private static final int NAME = 0;
    private static final int NAMELEN = 8;
    private static final int IOV = 16;
    private static final int IOVLEN = 24;
    private static final int FLAGS = 48;
    private static final int MSGLEN = 56;
    /** {@code sizeof(struct iovec)}: base pointer, length. */
    private static final int IOVEC = 16;
    /** Room for a {@code sockaddr_in6} (28 bytes). */
    private static final int NAME_BYTES = 32;
    private static final int SOCKADDR_IN = 16;
    private static final int SOCKADDR_IN6 = 28;
    /** The IPv4-mapped prefix {@code ::ffff:0:0/96} in the low key word. */
    private static final long V4_MAPPED = 0x0000_FFFF_0000_0000L;
    /** The largest batch the kernel takes in one call ({@code UIO_MAXIOV}). */
    public static final int MAX_BATCH = 1024;

    private static final String UNAVAILABLE = probe();

    private final int fd;
    private final int batch;
    private final boolean inet6;
    private final Block rx;
    private final int txSlotBytes;
    private Block tx;
    private final int[] txLen;
    private int queued;
    private long calls;
    private int lastError;
    private long flushedBytes;
    private int flushFailed;
    /** The shortest run sent as one segmented message; 0 (or 1) sends one datagram a message. */
    private int minRun;
    /** The longest datagram a segmented send may carry: lowered when the kernel refuses a length. */
    private int segmentMaxLen = MAX_SEGMENTED_BYTES;
    private long segmentedSends;
    private SegBlock seg;
    private final int[] groupFirst;
    private final int[] groupSize;

    private static final int CONTROL = 32;
    private static final int CONTROLLEN = 40;
    /** {@code CMSG_SPACE(sizeof(uint16_t))}: a 16-byte cmsghdr and the u16, padded to 8. */
    private static final int CMSG_SPACE = 24;
    private static final int CMSG_DATA = 16;
    /** {@code IPPROTO_UDP}: the control message's level. */
    private static final int SOL_UDP = 17;
    /** {@code UDP_SEGMENT}: the control message's type. */
    private static final int UDP_SEGMENT = 103;
    /** Segments in one send at most: the kernel's {@code UDP_MAX_SEGMENTS}, 64 before Linux 5.5 (128 since). */
    public static final int MAX_SEGMENTS = 64;
    /** A segmented send is one UDP payload of at most this many bytes before segmentation. */
    private static final int MAX_SEGMENTED_BYTES = 65_000;
    private static final int EIO = 5;
    private static final int EINVAL = 22;
    private static final int EOPNOTSUPP = 95;
    private static final int ENOPROTOOPT = 92;

    /** The segmented sends' headers and control messages. */
    private static final class SegBlock {
        final Memory memory;
        final ByteBuffer hdr;
        final ByteBuffer cmsg;
        final long base;
        final long cmsgAt;

        SegBlock(int batch) {
            long hdrBytes = (long) batch * HDR;
            long cmsgBytes = (long) batch * CMSG_SPACE;
            memory = new Memory(hdrBytes + cmsgBytes);
            memory.clear();
            base = Pointer.nativeValue(memory);
            cmsgAt = base + hdrBytes;
            hdr = memory.getByteBuffer(0, hdrBytes).order(ByteOrder.nativeOrder());
            cmsg = memory.getByteBuffer(hdrBytes, cmsgBytes).order(ByteOrder.nativeOrder());
            for (int i = 0; i < batch; i++) {
                cmsg.putLong(i * CMSG_SPACE, CMSG_DATA + 2); // cmsg_len = CMSG_LEN(2)
                cmsg.putInt(i * CMSG_SPACE + 8, SOL_UDP);
                cmsg.putInt(i * CMSG_SPACE + 12, UDP_SEGMENT);
            }
        }
    }

    /** One direction's native block: headers, iovecs, address slots, data slots. */
    private static final class Block {
        final Memory memory;
        final long base;
        final ByteBuffer hdr;
        final ByteBuffer iov;
        final ByteBuffer names;
        final ByteBuffer namesBe;
        final ByteBuffer data;
        final int slot;

        Block(int batch, int slotBytes) {
            long hdrBytes = (long) batch * HDR;
            long iovBytes = (long) batch * IOVEC;
            long nameBytes = (long) batch * NAME_BYTES;
            long dataBytes = (long) batch * slotBytes;
            memory = new Memory(hdrBytes + iovBytes + nameBytes + dataBytes);
            memory.clear();
            base = Pointer.nativeValue(memory);
            slot = slotBytes;
            hdr = memory.getByteBuffer(0, hdrBytes).order(ByteOrder.nativeOrder());
            iov = memory.getByteBuffer(hdrBytes, iovBytes).order(ByteOrder.nativeOrder());
            names = memory.getByteBuffer(hdrBytes + iovBytes, nameBytes).order(ByteOrder.nativeOrder());
            namesBe = memory.getByteBuffer(hdrBytes + iovBytes, nameBytes).order(ByteOrder.BIG_ENDIAN);
            data = memory.getByteBuffer(hdrBytes + iovBytes + nameBytes, dataBytes);
            long iovAt = base + hdrBytes;
            long nameAt = iovAt + iovBytes;
            long dataAt = nameAt + nameBytes;
            for (int i = 0; i < batch; i++) {
                iov.putLong(i * IOVEC, dataAt + (long) i * slotBytes);
                iov.putLong(i * IOVEC + 8, slotBytes);
                hdr.putLong(i * HDR + NAME, nameAt + (long) i * NAME_BYTES);
                hdr.putInt(i * HDR + NAMELEN, NAME_BYTES);
                hdr.putLong(i * HDR + IOV, iovAt + (long) i * IOVEC);
                hdr.putLong(i * HDR + IOVLEN, 1);
            }
        }
    }

    private MmsgSocket(int fd, boolean inet6, int batch, int rxSlotBytes, int txSlotBytes) {
        this.fd = fd;
        this.inet6 = inet6;
        this.batch = batch;
        this.rx = new Block(batch, rxSlotBytes);
        this.txSlotBytes = txSlotBytes;
        this.txLen = new int[batch];
        this.groupFirst = new int[batch];
        this.groupSize = new int[batch];
    }

    /**
     * Why batched I/O cannot run in this process (not Linux, not a 64-bit JVM, JNA or libc's
     * {@code recvmmsg}/{@code sendmmsg} missing), or null when it can. Probed once per process.
     */
    public static String unavailableReason() {
        return UNAVAILABLE;
    }

    private static String probe() {
        String os = System.getProperty("os.name", "");
        if (!os.startsWith("Linux")) {
            return "not Linux (" + os + ")";
        }
        try {
            if (Native.POINTER_SIZE != 8) {
                return "not a 64-bit JVM";
            }
            // binds the calls (MmsgLibc's initializer) and proves them callable: a bad descriptor
            // answers -1 without touching memory
            MmsgLibc.sendmmsg(-1, 0, 0, 0);
            return null;
        } catch (LinkageError | RuntimeException e) {
            return "JNA or libc's recvmmsg/sendmmsg is not available (" + e + ")";
        }
    }

    /**
     * Attaches batched I/O to {@code channel}'s descriptor (see the class comment for how it is
     * found). The channel must be open and bound, and connected for a dialer.
     *
     * @param batch datagrams per call, 1..{@link #MAX_BATCH}
     * @param rxSlotBytes bytes of one receive slot (a longer datagram is truncated to it)
     * @param txSlotBytes bytes of one send slot (the largest datagram {@link #queue} takes)
     * @throws IOException when batched I/O is unavailable or the descriptor is not found exactly once
     */
    public static MmsgSocket attach(DatagramChannel channel, int batch, int rxSlotBytes, int txSlotBytes)
            throws IOException {
        if (UNAVAILABLE != null) {
            throw new IOException(UNAVAILABLE);
        }
        if (batch < 1 || batch > MAX_BATCH) {
            throw new IllegalArgumentException("batch must be 1.." + MAX_BATCH + ": " + batch);
        }
        InetSocketAddress local = (InetSocketAddress) channel.getLocalAddress();
        if (local == null) {
            throw new IOException("the channel is not bound");
        }
        InetSocketAddress remote = (InetSocketAddress) channel.getRemoteAddress();
        Memory scratch = new Memory(NAME_BYTES + 8);
        int found = -1;
        int family = 0;
        int matches = 0;
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path p : fds) {
                int fd;
                try {
                    fd = Integer.parseInt(p.getFileName().toString());
                    if (!Files.readSymbolicLink(p).toString().startsWith("socket:")) {
                        continue;
                    }
                } catch (NumberFormatException | IOException e) {
                    continue; // not a descriptor, or closed while we looked
                }
                int f = addressFamilyIfSame(fd, false, local, scratch);
                if (f == 0 || (remote != null && addressFamilyIfSame(fd, true, remote, scratch) == 0)) {
                    continue;
                }
                scratch.setInt(0, 0);
                scratch.setInt(8, 4);
                long at = Pointer.nativeValue(scratch);
                if (MmsgLibc.getsockopt(fd, MmsgLibc.SOL_SOCKET, MmsgLibc.SO_TYPE, at, at + 8) != 0
                        || scratch.getInt(0) != MmsgLibc.SOCK_DGRAM) {
                    continue;
                }
                matches++;
                found = fd;
                family = f;
            }
        }
        if (matches != 1) {
            throw new IOException(matches == 0 ? "the channel's socket descriptor was not found"
                    : matches + " datagram sockets share the channel's address");
        }
        return new MmsgSocket(found, family == MmsgLibc.AF_INET6, batch, rxSlotBytes, txSlotBytes);
    }

    /** The socket's address family when {@code fd}'s local (or peer) address equals {@code want}, else 0. */
    private static int addressFamilyIfSame(int fd, boolean peer, InetSocketAddress want, Memory scratch) {
        scratch.setInt(NAME_BYTES, NAME_BYTES);
        long at = Pointer.nativeValue(scratch);
        int r = peer ? MmsgLibc.getpeername(fd, at, at + NAME_BYTES) : MmsgLibc.getsockname(fd, at, at + NAME_BYTES);
        if (r != 0) {
            return 0;
        }
        ByteBuffer n = scratch.getByteBuffer(0, NAME_BYTES).order(ByteOrder.nativeOrder());
        ByteBuffer be = scratch.getByteBuffer(0, NAME_BYTES).order(ByteOrder.BIG_ENDIAN);
        int family = n.getShort(0) & 0xFFFF;
        if (family != MmsgLibc.AF_INET && family != MmsgLibc.AF_INET6) {
            return 0;
        }
        InetAddress a = want.getAddress();
        boolean same = port(be, 0) == want.getPort() && hi(n, be, 0) == keyHi(a) && lo(n, be, 0) == keyLo(a);
        return same ? family : 0;
    }

    // ---- keys ----

    /** The high word of {@code a}'s key: bytes 0..7 of its IPv6 form (0 for IPv4). */
    public static long keyHi(InetAddress a) {
        byte[] b = a.getAddress();
        return b.length == 16 ? word(b, 0) : 0;
    }

    /** The low word of {@code a}'s key: bytes 8..15 of its IPv6 form (IPv4 as {@code ::ffff:a.b.c.d}). */
    public static long keyLo(InetAddress a) {
        byte[] b = a.getAddress();
        return b.length == 16 ? word(b, 8) : V4_MAPPED | (word4(b) & 0xFFFF_FFFFL);
    }

    /** The IPv6 scope of {@code a} (0 for IPv4 or no scope). */
    public static int keyScope(InetAddress a) {
        return a instanceof Inet6Address v6 ? v6.getScopeId() : 0;
    }

    private static long word(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xFF);
        }
        return v;
    }

    private static int word4(byte[] b) {
        return ((b[0] & 0xFF) << 24) | ((b[1] & 0xFF) << 16) | ((b[2] & 0xFF) << 8) | (b[3] & 0xFF);
    }

    private static int port(ByteBuffer be, int at) {
        return be.getShort(at + 2) & 0xFFFF;
    }

    private static long hi(ByteBuffer n, ByteBuffer be, int at) {
        return (n.getShort(at) & 0xFFFF) == MmsgLibc.AF_INET6 ? be.getLong(at + 8) : 0;
    }

    private static long lo(ByteBuffer n, ByteBuffer be, int at) {
        return (n.getShort(at) & 0xFFFF) == MmsgLibc.AF_INET6 ? be.getLong(at + 16)
                : V4_MAPPED | (be.getInt(at + 4) & 0xFFFF_FFFFL);
    }

    // ---- receive ----

    /** Datagrams per call. */
    public int batch() {
        return batch;
    }

    /**
     * One {@code recvmmsg} without waiting: fills receive slots 0..n-1.
     *
     * @return datagrams received (0 when none was waiting), or -1 on another error ({@link #lastError()})
     */
    public int receive() {
        Block b = rx;
        ByteBuffer h = b.hdr;
        for (int i = 0; i < batch; i++) {
            h.putInt(i * HDR + NAMELEN, NAME_BYTES); // the kernel wrote back the last length
        }
        calls++;
        int n = MmsgLibc.recvmmsg(fd, b.base, batch, MmsgLibc.MSG_DONTWAIT, 0);
        if (n < 0) {
            int e = Native.getLastError();
            lastError = e;
            return e == MmsgLibc.EAGAIN || e == MmsgLibc.EINTR ? 0 : -1;
        }
        return n;
    }

    /** Bytes of received datagram {@code i} (at most the receive slot; a longer one was truncated). */
    public int length(int i) {
        return rx.hdr.getInt(i * HDR + MSGLEN);
    }

    /** Copies the first {@code len} bytes of received datagram {@code i} into {@code dst} at 0. */
    public void copy(int i, byte[] dst, int len) {
        rx.data.get(i * rx.slot, dst, 0, len);
    }

    /** Key high word of datagram {@code i}'s sender ({@link #keyHi}). */
    public long senderHi(int i) {
        return hi(rx.names, rx.namesBe, i * NAME_BYTES);
    }

    /** Key low word of datagram {@code i}'s sender ({@link #keyLo}). */
    public long senderLo(int i) {
        return lo(rx.names, rx.namesBe, i * NAME_BYTES);
    }

    /** Port of datagram {@code i}'s sender. */
    public int senderPort(int i) {
        return port(rx.namesBe, i * NAME_BYTES);
    }

    /** IPv6 scope of datagram {@code i}'s sender (0 for IPv4). */
    public int senderScope(int i) {
        int at = i * NAME_BYTES;
        return (rx.names.getShort(at) & 0xFFFF) == MmsgLibc.AF_INET6 ? rx.names.getInt(at + 24) : 0;
    }

    /** Datagram {@code i}'s sender as a JDK address (allocates: for learning a new peer only). */
    public InetSocketAddress sender(int i) {
        long hi = senderHi(i);
        long lo = senderLo(i);
        byte[] b = new byte[16];
        for (int k = 0; k < 8; k++) {
            b[k] = (byte) (hi >>> (56 - 8 * k));
            b[8 + k] = (byte) (lo >>> (56 - 8 * k));
        }
        try {
            int scope = senderScope(i);
            // an IPv4-mapped address comes back as an Inet4Address, as the JDK's receive hands it
            InetAddress a = scope != 0 ? Inet6Address.getByAddress(null, b, scope) : InetAddress.getByAddress(b);
            return new InetSocketAddress(a, senderPort(i));
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException("16 address bytes are always an address", e);
        }
    }

    // ---- send ----

    /** Datagrams queued for the next {@link #flush()}. */
    public int queued() {
        return queued;
    }

    /** True when the send queue holds {@link #batch()} datagrams: {@link #flush()} before queueing more. */
    public boolean full() {
        return queued == batch;
    }

    /**
     * Queues one datagram (copied now). {@code named} false sends on the connected peer; true to the
     * address given by its key ({@link #keyHi}, {@link #keyLo}, port, scope).
     *
     * @return false when the queue is full or {@code len} exceeds the send slot (nothing queued)
     */
    public boolean queue(boolean named, long hi, long lo, int port, int scope, byte[] buf, int off, int len) {
        if (queued == batch || len > txSlotBytes) {
            return false;
        }
        Block b = tx;
        if (b == null) {
            b = new Block(batch, txSlotBytes); // the first send: a receive-only link never pays for it
            tx = b;
        }
        int i = queued;
        b.data.put(i * b.slot, buf, off, len);
        ByteBuffer h = b.hdr;
        int hp = i * HDR;
        // iovec i holds the slot's base and length
        b.iov.putLong(i * IOVEC + 8, len);
        if (!named) {
            h.putInt(hp + NAMELEN, 0);
        } else {
            ByteBuffer n = b.names;
            ByteBuffer be = b.namesBe;
            int at = i * NAME_BYTES;
            if (inet6) {
                n.putShort(at, (short) MmsgLibc.AF_INET6);
                be.putShort(at + 2, (short) port);
                be.putInt(at + 4, 0);
                be.putLong(at + 8, hi);
                be.putLong(at + 16, lo);
                n.putInt(at + 24, scope);
                h.putInt(hp + NAMELEN, SOCKADDR_IN6);
            } else {
                n.putShort(at, (short) MmsgLibc.AF_INET);
                be.putShort(at + 2, (short) port);
                be.putInt(at + 4, (int) lo);
                be.putLong(at + 8, 0);
                h.putInt(hp + NAMELEN, SOCKADDR_IN);
            }
        }
        txLen[i] = len;
        queued = i + 1;
        return true;
    }

    /**
     * Sends the queue with as few {@code sendmmsg} calls as the kernel allows, without waiting. A
     * datagram the kernel refuses is skipped and counted in {@link #flushFailed()}; when the socket's
     * send buffer is full (EAGAIN) the rest of the queue is dropped and counted there too; a run sent
     * segmented ({@link #segmentRuns(int)}) is sent or refused whole. The queue is empty afterwards.
     *
     * @return datagrams sent; {@link #flushedBytes()} their payload bytes
     */
    public int flush() {
        int n = queued;
        int sent = 0;
        int failed = 0;
        long bytes = 0;
        int i = 0;
        long base = n > 0 ? tx.base : 0;
        if (minRun > 1 && n >= minRun) {
            int groups = group(n);
            if (groups < n) {
                int g = 0;
                while (g < groups) {
                    calls++;
                    int r = MmsgLibc.sendmmsg(fd, seg.base + (long) g * HDR, groups - g,
                            MmsgLibc.MSG_DONTWAIT | MmsgLibc.MSG_NOSIGNAL);
                    if (r > 0) {
                        for (int k = g; k < g + r; k++) {
                            int first = groupFirst[k];
                            for (int d = first; d < first + groupSize[k]; d++) {
                                bytes += txLen[d];
                            }
                            sent += groupSize[k];
                            if (groupSize[k] > 1) {
                                segmentedSends++;
                            }
                        }
                        g += r;
                        continue;
                    }
                    int e = r < 0 ? Native.getLastError() : MmsgLibc.EAGAIN;
                    lastError = e;
                    if (groupSize[g] > 1 && (e == EINVAL || e == EIO || e == EOPNOTSUPP || e == ENOPROTOOPT)) {
                        // The kernel will not segment this send: a segment longer than the route's MTU
                        // takes EINVAL (no run of this length again), a socket or route without the
                        // feature EIO/EOPNOTSUPP/ENOPROTOOPT (no runs on this socket at all). Either way
                        // the rest of the queue leaves one datagram a message, below.
                        if (e == EINVAL) {
                            segmentMaxLen = txLen[groupFirst[g]] - 1;
                        } else {
                            minRun = 0;
                        }
                        break;
                    }
                    if (e == MmsgLibc.EAGAIN) {
                        for (int k = g; k < groups; k++) {
                            failed += groupSize[k];
                        }
                        g = groups;
                        break;
                    }
                    failed += groupSize[g]; // refused (an unreachable port): the run went to one place
                    g++;
                }
                if (g == groups) {
                    queued = 0;
                    flushedBytes = bytes;
                    flushFailed = failed;
                    return sent;
                }
                i = groupFirst[g];
            }
        }
        while (i < n) {
            calls++;
            int r = MmsgLibc.sendmmsg(fd, base + (long) i * HDR, n - i, MmsgLibc.MSG_DONTWAIT | MmsgLibc.MSG_NOSIGNAL);
            if (r > 0) {
                for (int k = i; k < i + r; k++) {
                    bytes += txLen[k];
                }
                sent += r;
                i += r;
                continue;
            }
            int e = r < 0 ? Native.getLastError() : MmsgLibc.EAGAIN;
            lastError = e;
            if (e == MmsgLibc.EAGAIN) {
                failed += n - i; // the send buffer is full: the rest cannot go now
                break;
            }
            failed++; // this datagram was refused (an unreachable port, a size the route refuses): skip it
            i++;
        }
        queued = 0;
        flushedBytes = bytes;
        flushFailed = failed;
        return sent;
    }

    /**
     * Lays out the segmented headers for queue entries 0..n-1: each run of datagrams to one
     * destination, all of one length but the last (which may be shorter), becomes one message whose
     * iovecs are the run's slots and whose {@code UDP_SEGMENT} control message gives the length.
     *
     * @return messages laid out (n when no run formed: nothing to gain)
     */
    private int group(int n) {
        Block b = tx;
        long iovAt = b.base + (long) batch * HDR;
        int groups = 0;
        int i = 0;
        while (i < n) {
            int len = txLen[i];
            int j = i + 1;
            int limit = Math.min(n, i + MAX_SEGMENTS);
            if (len <= segmentMaxLen) {
                while (j < limit && txLen[j] <= len && (long) (j - i + 1) * len <= MAX_SEGMENTED_BYTES
                        && txLen[j - 1] == len && sameDestination(b, i, j)) {
                    j++;
                }
            }
            if (j - i < minRun) {
                j = i + 1;
            }
            int k = j - i;
            int hp = groups * HDR;
            ByteBuffer h = seg.hdr;
            h.putLong(hp + NAME, b.hdr.getLong(i * HDR + NAME));
            h.putInt(hp + NAMELEN, b.hdr.getInt(i * HDR + NAMELEN));
            h.putLong(hp + IOV, iovAt + (long) i * IOVEC);
            h.putLong(hp + IOVLEN, k);
            if (k > 1) {
                int cp = groups * CMSG_SPACE;
                seg.cmsg.putShort(cp + CMSG_DATA, (short) len);
                h.putLong(hp + CONTROL, seg.cmsgAt + cp);
                h.putLong(hp + CONTROLLEN, CMSG_SPACE);
            } else {
                h.putLong(hp + CONTROL, 0);
                h.putLong(hp + CONTROLLEN, 0);
            }
            groupFirst[groups] = i;
            groupSize[groups] = k;
            groups++;
            i = j;
        }
        return groups;
    }

    private static boolean sameDestination(Block b, int i, int j) {
        int nl = b.hdr.getInt(i * HDR + NAMELEN);
        if (nl != b.hdr.getInt(j * HDR + NAMELEN)) {
            return false;
        }
        int a = i * NAME_BYTES;
        int c = j * NAME_BYTES;
        for (int k = 0; k < nl; k += 4) {
            if (b.names.getInt(a + k) != b.names.getInt(c + k)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Sends each run of at least {@code datagrams} queued datagrams to one destination, all of one
     * length but the last (which may be shorter), as one message the kernel segments
     * ({@code UDP_SEGMENT}): one pass through the IP stack for the run instead of one per datagram.
     * The receiver gets the same datagrams; only a capture on the sending host's loopback interface
     * sees the run as one oversized packet. 0 turns it off. A kernel that does not know the option
     * leaves it off ({@link #segmentRuns()} reads 0); a route that cannot segment is found at the
     * first such send, and that send and every later one leave one datagram a message.
     *
     * @param datagrams 0 (off) or 2..64
     * @return this
     * @throws IllegalArgumentException outside those
     */
    public MmsgSocket segmentRuns(int datagrams) {
        if (datagrams != 0 && (datagrams < 2 || datagrams > MAX_SEGMENTS)) {
            throw new IllegalArgumentException("a segmented run is 0 (off) or 2.." + MAX_SEGMENTS + " datagrams: " + datagrams);
        }
        if (datagrams > 1 && !kernelSegments()) {
            minRun = 0;
            return this;
        }
        if (datagrams > 1 && seg == null) {
            seg = new SegBlock(batch); // now, not at the first run's flush: sending allocates nothing
        }
        minRun = datagrams;
        return this;
    }

    /**
     * Whether this socket's kernel knows {@code UDP_SEGMENT}: it reads the option back (Linux 4.18
     * and later). A kernel before that would not refuse the control message but ignore it, and send a
     * run as one long datagram, so a run is never sent where the option cannot be read.
     */
    private boolean kernelSegments() {
        try (Memory m = new Memory(8)) {
            m.setInt(0, -1);
            m.setInt(4, 4);
            long at = Pointer.nativeValue(m);
            return MmsgLibc.getsockopt(fd, SOL_UDP, UDP_SEGMENT, at, at + 4) == 0 && m.getInt(0) >= 0;
        }
    }

    /** The shortest run sent segmented, 0 when segmented sends are off (or the kernel refused them). */
    public int segmentRuns() {
        return minRun;
    }

    /** Segmented messages sent so far (each carried a run of datagrams); a test's and a benchmark's figure. */
    public long segmentedSends() {
        return segmentedSends;
    }

    /** Payload bytes the last {@link #flush()} sent. */
    public long flushedBytes() {
        return flushedBytes;
    }

    /** Datagrams the last {@link #flush()} could not send. */
    public int flushFailed() {
        return flushFailed;
    }

    /** The errno of the last failed call. */
    public int lastError() {
        return lastError;
    }

    /** {@code recvmmsg} and {@code sendmmsg} calls made so far (a test's and a benchmark's syscall count). */
    public long calls() {
        return calls;
    }
}
