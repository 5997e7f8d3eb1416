package io.spectrum.wire;

/**
 * Test helper: points every typed view at every entry of a decoded frame and touches the
 * accessors, so tests can prove the views neither throw on hostile input nor allocate. Returns a
 * checksum to keep the JIT honest. Pre-allocated, reusable.
 */
final class ViewExerciser {
    private final PathView path = new PathView();
    private final PathRefView ref = new PathRefView();
    private final SettingsReader settings = new SettingsReader();
    private final SubscriberView subscriber = new SubscriberView();
    private final SubscriberRenderer renderer = new SubscriberRenderer();
    private final FieldView field = new FieldView();
    private final FwdView fwd = new FwdView();
    private final StatusView status = new StatusView();
    private final ErrorView error = new ErrorView();
    private final byte[] scratch = new byte[8192];
    private static final byte[] KEY = {'k', 'i', 'n', 'd'};

    long exercise(TlvIndex idx) {
        long sum = 0;
        final int n = idx.count();
        for (int e = 0; e < n; e++) {
            switch (idx.type(e)) {
                case TlvType.PATH:
                    if (path.wrap(idx, e) == WireError.OK) {
                        sum += path.validateKey() + path.validateFrame() + path.recordCount();
                        for (int r = path.first(); r >= 0; r = path.next(r)) {
                            sum += path.isLabel(r) ? path.labelIndex(r) + path.labelGeneration(r) : path.segmentLength(r);
                        }
                    }
                    break;
                case TlvType.PATH_REF:
                case TlvType.PATH_REF_REVERSE:
                    if (ref.wrap(idx, e) == WireError.OK && ref.count() > 0) {
                        sum += ref.index(0) + ref.generation(ref.count() - 1);
                    }
                    break;
                case TlvType.SETTINGS:
                    if (settings.wrap(idx, e) == WireError.OK) {
                        sum += settings.u8(KEY, 1) + settings.u16(Names.DELIVERY_POLICY, 2)
                                + settings.u32(KEY, 3) + settings.u64(KEY, 4) + settings.name(KEY);
                    }
                    break;
                case TlvType.SUBSCRIBER:
                    if (subscriber.wrap(idx, e) == WireError.OK) {
                        sum += subscriber.policy() + subscriber.policyMasked() + subscriber.acl() + subscriber.subscriberId();
                        sum += renderer.render(idx, e, true, scratch, 0, scratch.length);
                        sum += renderer.render(idx, e, false, scratch, 0, scratch.length);
                    }
                    break;
                case TlvType.FIELD:
                    if (field.wrap(idx, e) == WireError.OK) {
                        sum += field.levels() + field.generation() + field.index(field.levels() - 1) + field.mode(0);
                    }
                    break;
                case TlvType.FWD:
                    if (fwd.wrap(idx, e) == WireError.OK) {
                        sum += fwd.opcode() + fwd.payload() + fwd.kind() + fwd.awaitTimeoutNs() + fwd.pathRef() + fwd.pathRefReverse();
                    }
                    break;
                case TlvType.STATUS:
                    if (status.wrap(idx, e) == WireError.OK) {
                        sum += status.code() + status.description();
                    }
                    break;
                case TlvType.ERROR:
                    if (error.wrap(idx, e) == WireError.OK) {
                        sum += error.code() + error.description();
                    }
                    break;
                default:
                    sum += idx.valueAsLong(e);
                    break;
            }
        }
        return sum;
    }
}
