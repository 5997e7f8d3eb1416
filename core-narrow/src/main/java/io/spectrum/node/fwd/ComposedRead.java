package io.spectrum.node.fwd;

import io.spectrum.node.api.NodeResult;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;

/**
 * The composed READ of a vertex with children: {@code POINT{NAME <leaf segment>,
 * [stored value TLV], POINT{…} per child}}, children in {@link ChildOrder} byte order, recursively.
 * The root's NAME is empty ({@code 02 00 00 00}): it has no segment, and the POINT shape keeps its
 * NAME first. A remote caller's answer prunes the subtrees it may not READ and omits {@code $}
 * children; the owner sees everything.
 *
 * <p>Allocation-free and iterative: the walk goes down through {@code firstChild} order and back up
 * through {@code parent} links, so its only stack is the writer's open-container stack, which the
 * node sizes from {@code maxKeyBytes} (every level adds at least two key bytes, so that bounds the
 * depth). The tree is written straight into the reply frame; one that does not fit answers
 * {@code flow::backpressure}. The node is single-threaded, so a composed answer never tears.
 */
public final class ComposedRead {
    private static final byte[] NO_BYTES = {};
    private final FwdStore vt;
    private final ChildOrder order;
    private final FwdRequest req;
    private final FrameBuffers buffers;

    ComposedRead(FwdParts p) {
        this.vt = p.store;
        this.order = p.order;
        this.req = p.req;
        this.buffers = p.buffers;
    }

    /**
     * True when {@code v} has a child this view may see, so its READ answers the composed tree. A
     * vertex whose children are all hidden from a remote caller answers that caller as a leaf (its
     * stored value or not_found), as its {@code :children[]} listing is empty.
     */
    public boolean composes(int v, boolean ownerView) {
        return order.next(v, FwdStore.NONE, ownerView) != FwdStore.NONE;
    }

    /** Answers the FWD READ of {@code v} (dst and READ gate already checked) with RESULT + the tree. */
    void reply(int v) {
        if (req.silent) {
            return;
        }
        TlvWriter t = req.beginReply(FwdView.KIND_RESULT);
        write(t, v, req.fromOwner());
        t.end();
        if (t.error() == WireError.OK) {
            req.send(t.length());
        } else {
            req.replyError(WireError.FLOW_BACKPRESSURE); // the tree does not fit the frame buffer
        }
    }

    /**
     * The owner's composed tree of {@code v} copied into {@code dst[off, off+cap)}.
     *
     * @return bytes written, or -FLOW_BACKPRESSURE when it does not fit
     */
    public int copy(int v, byte[] dst, int off, int cap) {
        TlvWriter t = buffers.writerOver(dst, off, cap);
        if (write(t, v, true) != WireError.OK) {
            return NodeResult.refusal(WireError.FLOW_BACKPRESSURE);
        }
        return t.length();
    }

    /** Writes the POINT tree of {@code top} into {@code t}; returns the writer's error (stops at the first). */
    private int write(TlvWriter t, int top, boolean ownerView) {
        int v = top;
        while (true) {
            t.begin(TlvType.POINT);
            if (v == 0) {
                t.leaf(TlvType.NAME, NO_BYTES, 0, 0);
            } else {
                final int at = order.lastSegment(v);
                final byte[] k = vt.keys(v);
                t.leaf(TlvType.NAME, k, at + 1, k[at] & 0xFF);
            }
            if (vt.valLen(v) >= 0) {
                t.raw(vt.valueMemory(v), vt.valOff(v), vt.valLen(v)); // stored trailer-less
            }
            if (t.error() != WireError.OK) {
                return t.error();
            }
            int c = order.next(v, FwdStore.NONE, ownerView);
            if (c != FwdStore.NONE) {
                v = c; // down to the first child
                continue;
            }
            while (true) { // v is done: close it, then go to its next sibling or climb
                t.end();
                if (v == top) {
                    return t.error();
                }
                final int p = vt.parent(v);
                final int n = order.next(p, v, ownerView);
                if (n != FwdStore.NONE) {
                    v = n;
                    break;
                }
                v = p;
            }
        }
    }
}
