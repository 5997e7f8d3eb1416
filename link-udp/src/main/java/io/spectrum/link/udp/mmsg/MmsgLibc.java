package io.spectrum.link.udp.mmsg;

import com.sun.jna.Native;
import com.sun.jna.Platform;

/**
 * The libc calls of the batched path, bound by JNA's direct mapping ({@code Native.register}) in the
 * static initializer, so a call costs no proxy, no argument array and no allocation. Every pointer
 * is passed as a {@code long} address of preallocated native memory, which is why the class is only
 * loaded on 64-bit Linux ({@link MmsgSocket#unavailableReason()} checks first). The constants are
 * Linux's, the same on x86-64 and aarch64.
 */
final class MmsgLibc {
    /** {@code recvmmsg}/{@code sendmmsg} flag: do not block, answer EAGAIN instead. */
    static final int MSG_DONTWAIT = 0x40;
    /** {@code sendmmsg} flag: no SIGPIPE. */
    static final int MSG_NOSIGNAL = 0x4000;
    /** {@code getsockopt} level of the socket options. */
    static final int SOL_SOCKET = 1;
    /** {@code getsockopt} option: the socket type. */
    static final int SO_TYPE = 3;
    /** Socket type of a datagram socket. */
    static final int SOCK_DGRAM = 2;
    /** Address family IPv4 ({@code sockaddr_in}). */
    static final int AF_INET = 2;
    /** Address family IPv6 ({@code sockaddr_in6}). */
    static final int AF_INET6 = 10;
    /** errno: nothing to do now (also EWOULDBLOCK). */
    static final int EAGAIN = 11;
    /** errno: interrupted by a signal. */
    static final int EINTR = 4;

    static {
        Native.register(MmsgLibc.class, Platform.C_LIBRARY_NAME);
    }

    private MmsgLibc() {
    }

    /** {@code int recvmmsg(int fd, struct mmsghdr *vec, unsigned vlen, int flags, struct timespec *timeout)}. */
    static native int recvmmsg(int fd, long msgvec, int vlen, int flags, long timeout);

    /** {@code int sendmmsg(int fd, struct mmsghdr *vec, unsigned vlen, int flags)}. */
    static native int sendmmsg(int fd, long msgvec, int vlen, int flags);

    /** {@code int getsockname(int fd, struct sockaddr *addr, socklen_t *len)}. */
    static native int getsockname(int fd, long addr, long lenPtr);

    /** {@code int getpeername(int fd, struct sockaddr *addr, socklen_t *len)}. */
    static native int getpeername(int fd, long addr, long lenPtr);

    /** {@code int getsockopt(int fd, int level, int name, void *value, socklen_t *len)}. */
    static native int getsockopt(int fd, int level, int name, long value, long lenPtr);
}
