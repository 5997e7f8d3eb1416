package io.spectrum.wide;

import io.spectrum.link.Link;
import io.spectrum.node.api.NodePath;
import io.spectrum.node.fwd.RequestGate;
import io.spectrum.wire.Extensions;
import io.spectrum.wire.FieldView;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Names;
import io.spectrum.wire.PathKeys;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The grants of a WIDE node's client doors ({@link WideNode#restrict}): each request that arrives
 * over a restricted link is checked against its {@link PeerAccess} before it is routed under a
 * mount or served here, so a refusal ({@code tr::access::denied}) changes nothing, here or on a
 * board. Links that are not restricted (the links that mount boards, whose deliveries and replies
 * flow in) are never checked. The rule (docs/host.md, "The grants file"):
 * <ul>
 *   <li>a WRITE of a vertex's value needs {@code publish} on its path;</li>
 *   <li>a READ (value, {@code :children}, {@code :subscribers}, {@code :settings}, any field) and an
 *       AWAIT need {@code subscribe};</li>
 *   <li>a WRITE of {@code :subscribers} (the append door, a replace or toggle of a slot) needs
 *       {@code subscribe}, except the clear of slot {@code [N]} (the empty STATUS): dropping one's own
 *       subscription needs no grant, and someone else's slot is refused to every remote caller by
 *       the node itself;</li>
 *   <li>a WRITE of any other field (a declaration's {@code :settings}) needs {@code manage}, as does a
 *       WRITE that clears the vertex's value ({@code spectrum.clear}, docs/extensions.md);</li>
 * </ul>
 * The peer's name is the one the node can know, first found first: the name the link gives the
 * peer ({@link Link#peerName}: a DTLS certificate name, a local link's hello), the {@code
 * spectrum.name} the request announces, the one the peer announced before; otherwise the peer is
 * anonymous (null). An announced name is self-chosen: the grants grant, they do not authenticate.
 * Allocates the path's text (and a new announced name's) per checked request; unrestricted links
 * cost one map lookup.
 */
final class ClientGate implements RequestGate {
    private final WideNode node;
    private final Map<Link, PeerAccess> restricted = new IdentityHashMap<>();
    private final FieldView field = new FieldView();
    private final Extensions extensions = new Extensions();

    ClientGate(WideNode node) {
        this.node = node;
    }

    /** Checks {@code link}'s requests against {@code access}; null lifts the check. */
    void restrict(Link link, PeerAccess access) {
        if (access == null) {
            restricted.remove(link);
        } else {
            restricted.put(link, access);
        }
    }

    @Override
    public int admit(Link link, int peer, FwdView fwd) {
        final PeerAccess access = restricted.get(link);
        if (access == null) {
            return WireError.OK;
        }
        final TlvIndex x = fwd.index();
        final int dst = fwd.dst();
        if (x.type(dst) != TlvType.PATH) {
            return WireError.OK; // a PATH_REF names nothing here: the terminus answers not_found
        }
        if (x.isContainer(dst) || PathKeys.validateKey(x.buffer(), x.bodyOffset(dst), x.bodyLength(dst)) != WireError.OK) {
            return WireError.PATH_INVALID; // what the terminus answers; never routed
        }
        final Grants.Permission needed = permission(fwd);
        if (needed == null) {
            return WireError.OK;
        }
        final String path = NodePath.render(x.buffer(), x.bodyOffset(dst), x.bodyLength(dst));
        return access.allows(name(link, peer, fwd), needed, path) ? WireError.OK : WireError.ACCESS_DENIED;
    }

    /** The permission the request needs, or null: none (an unknown op, a slot's clear). */
    private Grants.Permission permission(FwdView fwd) {
        final int op = fwd.opcode();
        if (op == FwdView.OP_READ || op == FwdView.OP_AWAIT) {
            return Grants.Permission.SUBSCRIBE;
        }
        if (op != FwdView.OP_WRITE) {
            return null; // the terminus refuses it
        }
        if (fwd.field() == TlvIndex.NONE) {
            final int first = announcement(fwd);
            return first != TlvIndex.NONE && extensions.clear(fwd.index(), first) != Extensions.NOT_CLEAR
                    ? Grants.Permission.MANAGE : Grants.Permission.PUBLISH; // a clear is a topic's management
        }
        final TlvIndex x = fwd.index();
        if (field.wrap(x, fwd.field()) != WireError.OK || field.levels() == 0) {
            return Grants.Permission.MANAGE; // a malformed field: refused below unless managing is granted
        }
        if (!x.payloadEquals(field.nameEntry(0), Names.SUBSCRIBERS)) {
            return Grants.Permission.MANAGE;
        }
        final int payload = fwd.payload();
        if (field.hasIndex(0) && payload != TlvIndex.NONE && x.type(payload) == TlvType.STATUS
                && x.bodyLength(payload) == 0 && !x.isContainer(payload)) {
            return null; // the clear of a slot: one's own only (the node refuses someone else's)
        }
        return Grants.Permission.SUBSCRIBE;
    }

    /** The first child where a request's announcement may be: after src, past a WRITE's payload. */
    private static int announcement(FwdView fwd) {
        final TlvIndex x = fwd.index();
        final int rest = x.nextSibling(fwd.src());
        return fwd.opcode() == FwdView.OP_WRITE && rest != TlvIndex.NONE ? x.nextSibling(rest) : rest;
    }

    /** The peer's one name (see the class comment), or null: anonymous. */
    private String name(Link link, int peer, FwdView fwd) {
        final String given = link.peerName(peer);
        if (given != null) {
            return given;
        }
        final TlvIndex x = fwd.index();
        final int first = announcement(fwd);
        final int li = node.server().linkIndex(link);
        final WidePeer known = li < 0 ? null : node.peers.find(li, peer);
        final int e = first == TlvIndex.NONE ? TlvIndex.NONE : extensions.announcedName(x, first);
        if (e != TlvIndex.NONE) {
            final byte[] b = x.buffer();
            final int off = x.bodyOffset(e);
            final int len = x.bodyLength(e);
            if (!AnonymousIds.nameAllowed(b, off, len)) {
                return null; // a name no peer may take ($…, anon-…): anonymous, as the node keeps it
            }
            return known != null && known.announced(b, off, len) ? known.identity()
                    : new String(b, off, len, StandardCharsets.UTF_8);
        }
        return known == null ? null : known.announcedName();
    }
}
