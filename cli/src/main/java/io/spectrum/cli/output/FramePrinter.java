package io.spectrum.cli.output;

import io.spectrum.wire.Names;
import io.spectrum.wire.Bytes;
import io.spectrum.wire.DeliveryPolicy;
import io.spectrum.wire.ErrorView;
import io.spectrum.wire.FieldView;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.Opt;
import io.spectrum.wire.PathKeys;
import io.spectrum.wire.PathRefView;
import io.spectrum.wire.PathView;
import io.spectrum.wire.SettingsReader;
import io.spectrum.wire.SubscriberView;
import io.spectrum.wire.TlvIndex;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.Utf8;
import io.spectrum.wire.WireError;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Renders a decoded frame as an indented tree for people: type names, opt flags, lengths,
 * trailers, PATHs as text, NAMEs as strings, FIELD selectors, FWD ops, delivery_policy words bit by
 * bit and ERROR codes by name. Diagnostic code: it allocates freely.
 */
public final class FramePrinter {
    private static final String INDENT = "  ";

    private final TlvIndex idx;
    private final StringBuilder sb = new StringBuilder();
    private final Set<Integer> settingsKeys = new HashSet<>();

    private FramePrinter(TlvIndex idx) {
        this.idx = idx;
    }

    /** The tree of entry 0 of a successfully decoded index. */
    public static String print(TlvIndex idx) {
        FramePrinter p = new FramePrinter(idx);
        p.entry(0, 0, Role.PLAIN);
        return p.sb.toString();
    }

    /** How a child's parent gives it meaning. */
    private enum Role { PLAIN, FWD_OP, FWD_DST, FWD_SRC, FWD_KIND, FWD_PAYLOAD, FWD_TIMEOUT, SETTINGS_KEY, POLICY, ERROR_CODE }

    private void entry(int e, int depth, Role role) {
        final int type = idx.type(e);
        line(depth).append(typeName(type)).append(" opt=0x").append(hex2(idx.opt(e)));
        String flags = flags(idx.opt(e));
        if (!flags.isEmpty()) {
            sb.append(" [").append(flags).append(']');
        }
        sb.append(" len=").append(idx.bodyLength(e));
        annotate(e, role);
        if (role == Role.FWD_PAYLOAD) {
            sb.append(" (payload)");
        }
        sb.append('\n');
        trailer(e, depth + 1);
        if (idx.isContainer(e)) {
            children(e, depth + 1);
        }
    }

    private void children(int e, int depth) {
        switch (idx.type(e)) {
            case TlvType.FWD:
                fwdChildren(e, depth);
                break;
            case TlvType.SETTINGS:
                settingsChildren(e, depth);
                break;
            default:
                plainChildren(e, depth);
                break;
        }
    }

    private void settingsChildren(int e, int depth) {
        SettingsReader s = new SettingsReader();
        s.wrap(idx, e);
        int policyValue = s.findValue(Names.DELIVERY_POLICY, DeliveryPolicy.WIDTH);
        for (int k = s.firstKey(); k != TlvIndex.NONE; k = s.nextKey(k)) {
            settingsKeys.add(k);
        }
        for (int c = idx.firstChild(e); c != TlvIndex.NONE; c = idx.nextSibling(c)) {
            Role role = settingsKeys.contains(c) ? Role.SETTINGS_KEY : Role.PLAIN;
            if (idx.type(c) == TlvType.VALUE && idx.bodyLength(c) == 2 && isPolicyValue(s, c)) {
                role = Role.POLICY;
            }
            entry(c, depth, role);
            if (c == policyValue && policyValue != TlvIndex.NONE) {
                policyBits(Bytes.u16(idx.buffer(), idx.bodyOffset(c)), depth + 1);
            }
        }
    }

    private void plainChildren(int e, int depth) {
        final int type = idx.type(e);
        int first = idx.firstChild(e);
        for (int c = first; c != TlvIndex.NONE; c = idx.nextSibling(c)) {
            Role role = type == TlvType.ERROR && c == first ? Role.ERROR_CODE : Role.PLAIN;
            entry(c, depth, role);
        }
    }

    /** A FWD's children, each with the role {@link FwdView} (the one FWD reader) gives it. */
    private void fwdChildren(int e, int depth) {
        FwdView f = new FwdView();
        int r = f.wrap(idx, e);
        for (int c = idx.firstChild(e); c != TlvIndex.NONE; c = idx.nextSibling(c)) {
            entry(c, depth, r == WireError.OK ? fwdRole(f, c) : Role.PLAIN);
        }
    }

    private static Role fwdRole(FwdView f, int c) {
        if (c == f.opEntry()) {
            return Role.FWD_OP;
        } else if (c == f.dst()) {
            return Role.FWD_DST;
        } else if (c == f.src()) {
            return Role.FWD_SRC;
        } else if (c == f.kindEntry()) {
            return Role.FWD_KIND;
        } else if (c == f.timeoutEntry()) {
            return Role.FWD_TIMEOUT;
        } else if (c == f.payload()) {
            return Role.FWD_PAYLOAD;
        }
        return Role.PLAIN;
    }

    private boolean isPolicyValue(SettingsReader s, int value) {
        for (int k = s.firstKey(); k != TlvIndex.NONE; k = s.nextKey(k)) {
            if (s.valueOf(k) == value) {
                return idx.payloadEquals(k, Names.DELIVERY_POLICY);
            }
        }
        return false;
    }

    private void annotate(int e, Role role) {
        final int type = idx.type(e);
        final byte[] b = idx.buffer();
        final int off = idx.bodyOffset(e);
        final int len = idx.bodyLength(e);
        switch (type) {
            case TlvType.NAME:
            case TlvType.DESCRIPTION:
                sb.append(" \"").append(Utf8.toString(b, off, len)).append('"');
                if (role == Role.SETTINGS_KEY) {
                    sb.append(" (key)");
                }
                break;
            case TlvType.VALUE:
                value(e, role);
                break;
            case TlvType.PATH: {
                PathView p = new PathView().wrap(b, off, len);
                sb.append(' ').append(p.toText());
                if (role == Role.FWD_DST) {
                    sb.append(" (dst)");
                } else if (role == Role.FWD_SRC) {
                    sb.append(len == 0 ? " (src: empty, no reply wanted)" : " (src)");
                }
                if (p.validateFrame() != WireError.OK) {
                    sb.append(" ragged: ").append(WireError.identity(WireError.PATH_INVALID));
                } else if (PathKeys.validateKey(b, off, len) != WireError.OK) {
                    sb.append(" (not a valid key)");
                }
                break;
            }
            case TlvType.PATH_REF:
            case TlvType.PATH_REF_REVERSE: {
                PathRefView r = new PathRefView();
                r.wrap(b, off, len);
                sb.append(" [");
                for (int i = 0; i < r.count(); i++) {
                    sb.append(i == 0 ? "" : ",").append('(').append(r.index(i)).append(',').append(r.generation(i)).append(')');
                }
                sb.append(']');
                if (role == Role.FWD_DST) {
                    sb.append(" (dst)");
                } else if (role == Role.FWD_SRC) {
                    sb.append(" (src)");
                }
                break;
            }
            case TlvType.FIELD: {
                FieldView f = new FieldView();
                int r = f.wrap(idx, e);
                sb.append(' ').append(r == WireError.OK ? f.toText() : "invalid: " + WireError.identity(r));
                break;
            }
            case TlvType.FWD: {
                FwdView f = new FwdView();
                int r = f.wrap(idx, e);
                if (r == WireError.OK) {
                    sb.append(' ').append(FwdView.opName(f.opcode()));
                    if (f.mint()) {
                        sb.append(" +mint");
                    }
                    if (f.opcode() == FwdView.OP_REPLY) {
                        sb.append(f.kind() == FwdView.KIND_ERROR ? " ERROR" : " RESULT");
                    }
                } else {
                    sb.append(" malformed: ").append(WireError.identity(r));
                }
                break;
            }
            case TlvType.STATUS:
                if (len == 0) {
                    sb.append(" OK");
                }
                break;
            case TlvType.ERROR: {
                ErrorView ev = new ErrorView();
                if (ev.wrap(idx, e) == WireError.OK) {
                    sb.append(' ').append(ev.identityText());
                }
                break;
            }
            case TlvType.TIME:
                if (len == 8) {
                    sb.append(" ns=").append(Long.toUnsignedString(Bytes.i64(b, off)));
                }
                break;
            case TlvType.SUBSCRIBER: {
                SubscriberView sv = new SubscriberView(1, 1);
                if (sv.wrap(idx, e) == WireError.OK) {
                    sb.append(" policy=0x").append(hex4(sv.policy())).append(sv.hasPolicy() ? "" : " (absent)");
                    if (sv.suspended()) {
                        sb.append(" suspended");
                    }
                } else {
                    sb.append(" malformed: no target PATH");
                }
                break;
            }
            default:
                if (!idx.isContainer(e) && len > 0) {
                    sb.append(' ').append(hex(b, off, Math.min(len, 32))).append(len > 32 ? "…" : "");
                }
                break;
        }
    }

    private void value(int e, Role role) {
        final byte[] b = idx.buffer();
        final int off = idx.bodyOffset(e);
        final int len = idx.bodyLength(e);
        sb.append(' ').append(len == 0 ? "(empty)" : hex(b, off, Math.min(len, 32)) + (len > 32 ? "…" : ""));
        if (len >= 1 && len <= 8) {
            sb.append(" = ").append(Long.toUnsignedString(idx.valueAsLong(e)));
        }
        switch (role) {
            case FWD_OP: {
                int op = b[off] & 0xFF;
                sb.append(" op ").append(FwdView.opName(op));
                if ((op & FwdView.MINT) != 0) {
                    sb.append(" +mint");
                }
                if ((op & FwdView.ACTIVITY) != 0) {
                    sb.append(" +activity");
                }
                break;
            }
            case FWD_KIND:
                sb.append(" kind ").append((b[off] & 0xFF) == FwdView.KIND_ERROR ? "ERROR" : "RESULT");
                break;
            case FWD_TIMEOUT:
                sb.append(" await_timeout ns");
                break;
            case ERROR_CODE: {
                if (len == 2) {
                    int code = Bytes.u16(b, off);
                    String id = WireError.identity(code);
                    sb.append(' ').append(id != null ? id + " (" + WireError.harnessName(code) + ")" : "unregistered code");
                }
                break;
            }
            case POLICY:
                sb.append(" delivery_policy");
                break;
            default:
                break;
        }
    }

    private void policyBits(int w, int depth) {
        String[] rel = {"best-effort", "reliable", "reserved", "reserved"};
        String[] cls = {"conflate", "immediate", "batch", "stream"};
        line(depth).append("delivery_policy 0x").append(hex4(w)).append('\n');
        line(depth + 1).append(String.format(Locale.ROOT, "bits 0-1   reliability        %d %s%n",
                DeliveryPolicy.reliability(w), rel[DeliveryPolicy.reliability(w)]));
        line(depth + 1).append(String.format(Locale.ROOT, "bits 2-4   priority           %d%n", DeliveryPolicy.priority(w)));
        line(depth + 1).append(String.format(Locale.ROOT, "bit  5     durability_request %d%n",
                DeliveryPolicy.durabilityRequest(w) ? 1 : 0));
        line(depth + 1).append(String.format(Locale.ROOT, "bits 6-7   delivery_class     %d %s%n",
                DeliveryPolicy.deliveryClass(w), cls[DeliveryPolicy.deliveryClass(w)]));
        line(depth + 1).append(String.format(Locale.ROOT, "bit  8     one_shot           %d%n", DeliveryPolicy.oneShot(w) ? 1 : 0));
        line(depth + 1).append(String.format(Locale.ROOT, "bit  9     suspended          %d%n", DeliveryPolicy.suspended(w) ? 1 : 0));
        line(depth + 1).append(String.format(Locale.ROOT, "bits 10-15 reserved           0x%02X (carried verbatim)%n",
                DeliveryPolicy.reserved(w)));
    }

    private void trailer(int e, int depth) {
        final int opt = idx.opt(e);
        if ((opt & Opt.TS) != 0) {
            line(depth).append("trailer ts=").append(idx.timestamp(e))
                    .append((opt & Opt.TF) != 0 ? " (relative i32 ns)" : " (absolute u64 ns)").append('\n');
        }
        if ((opt & Opt.CR) != 0) {
            boolean c16 = (opt & Opt.CW) != 0;
            line(depth).append("trailer crc=0x")
                    .append(c16 ? hex4(idx.crc(e)) : String.format(Locale.ROOT, "%08X", idx.crc(e)))
                    .append(c16 ? " (CRC-16-CCITT)" : " (CRC-32C)").append(" ok\n");
        }
    }

    private StringBuilder line(int depth) {
        for (int i = 0; i < depth; i++) {
            sb.append(INDENT);
        }
        return sb;
    }

    static String typeName(int type) {
        String n = TlvType.name(type);
        return n + "(0x" + hex2(type) + ")";
    }

    static String flags(int opt) {
        StringBuilder f = new StringBuilder();
        String[] names = {"PL", "TS", "CR", "LL", "CW", "TF"};
        int[] bits = {Opt.PL, Opt.TS, Opt.CR, Opt.LL, Opt.CW, Opt.TF};
        for (int i = 0; i < names.length; i++) {
            if ((opt & bits[i]) != 0) {
                f.append(f.length() == 0 ? "" : " ").append(names[i]);
            }
        }
        return f.toString();
    }

    private static String hex2(int v) {
        return String.format(Locale.ROOT, "%02X", v & 0xFF);
    }

    private static String hex4(int v) {
        return String.format(Locale.ROOT, "%04X", v & 0xFFFF);
    }

    /** {@code len} bytes of {@code b} from {@code off} as upper-case hex, two digits a byte. */
    public static String hex(byte[] b, int off, int len) {
        StringBuilder h = new StringBuilder(len * 2);
        for (int i = off; i < off + len; i++) {
            h.append(String.format(Locale.ROOT, "%02X", b[i] & 0xFF));
        }
        return h.toString();
    }
}
