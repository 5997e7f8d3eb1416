package io.spectrum.link.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spectrum.link.FrameHandler;
import io.spectrum.link.Link;
import io.spectrum.time.ManualClock;
import io.spectrum.wire.FwdView;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.TlvWriter;
import io.spectrum.wire.WireError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 11 item 7: on a busy line, frames wait in the link's queue and data goes before control. */
class SerialSendQueueTest {
    /** A port that takes nothing while {@code stalled} (the UART is still shifting the last frame out). */
    static final class GatedPort implements SerialPortIo {
        final SerialPortIo inner;
        boolean stalled;

        GatedPort(SerialPortIo inner) {
            this.inner = inner;
        }

        @Override
        public boolean open() {
            return inner.open();
        }

        @Override
        public int read(byte[] buf, int off, int len) {
            return inner.read(buf, off, len);
        }

        @Override
        public int write(byte[] buf, int off, int len) {
            return stalled ? 0 : inner.write(buf, off, len);
        }

        @Override
        public void close() {
            inner.close();
        }

        @Override
        public String describe() {
            return "gated";
        }
    }

    final ManualClock clock = new ManualClock(0);
    final List<Integer> arrived = new ArrayList<>();
    final FrameHandler record = (Link l, int p, byte[] b, int o, int n) -> arrived.add(b[o + n - 1] & 0xFF); // the tag: the frame's last byte

    List<Integer> run(boolean controlYields) {
        InMemorySerialPort[] line = InMemorySerialPort.pair("q", 1 << 16);
        GatedPort gate = new GatedPort(line[0]);
        SerialLinkConfig cfg = new SerialLinkConfig().writeRetries(0).sendQueueFrames(8).controlYields(controlYields);
        SerialLink tx = new SerialLink(1, gate, cfg, clock);
        SerialLink rx = new SerialLink(2, line[1], cfg, clock);
        tx.poll(record, 0);
        rx.poll(record, 0);
        rx.poll(record, 8); // the lone delimiter
        arrived.clear();
        gate.stalled = true;
        // a tree-walk answer is on the wire; then two more control frames and three deliveries queue
        assertEquals(WireError.OK, tx.send(0, frame(FwdView.OP_REPLY, 1), 0, frame(FwdView.OP_REPLY, 1).length));
        assertEquals(WireError.OK, tx.send(0, frame(FwdView.OP_REPLY, 2), 0, frame(FwdView.OP_REPLY, 2).length));
        assertEquals(WireError.OK, tx.send(0, frame(FwdView.OP_READ, 3), 0, frame(FwdView.OP_READ, 3).length));
        for (int t = 4; t <= 6; t++) {
            assertEquals(WireError.OK, tx.send(0, frame(FwdView.OP_WRITE, t), 0, frame(FwdView.OP_WRITE, t).length));
        }
        assertEquals(5, tx.queuedFrames());
        gate.stalled = false;
        tx.poll(record, 0);
        rx.poll(record, 16);
        return new ArrayList<>(arrived);
    }

    /** FWD{VALUE u8 op, PATH /x, PATH /r, VALUE u8 tag}: the tag tells the frames apart at the far end. */
    static byte[] frame(int op, int tag) {
        byte[] b = new byte[64];
        TlvWriter w = new TlvWriter().wrap(b, 0, b.length);
        w.begin(TlvType.FWD).value(op, 1).raw(new byte[] {6, 0, 2, 0, 1, 'x'}).raw(new byte[] {6, 0, 2, 0, 1, 'r'})
                .value(tag, 1).end();
        return Arrays.copyOf(b, w.length());
    }

    @Test
    void deliveriesOvertakeQueuedControlTraffic() {
        assertEquals(List.of(1, 4, 5, 6, 2, 3), run(true), "the frame on the wire, then data, then control");
    }

    @Test
    void withoutPriorityTheQueueIsFirstInFirstOut_andNothingIsRefused() {
        assertEquals(List.of(1, 2, 3, 4, 5, 6), run(false));
    }

    @Test
    void controlMayHoldOnlyAQuarterOfTheQueue_dataKeepsItsRoom() {
        InMemorySerialPort[] line = InMemorySerialPort.pair("q", 1 << 16);
        GatedPort gate = new GatedPort(line[0]);
        SerialLink tx = new SerialLink(1, gate, new SerialLinkConfig().writeRetries(0).sendQueueFrames(8), clock);
        tx.poll(record, 0);
        gate.stalled = true;
        byte[] c = frame(FwdView.OP_REPLY, 1);
        byte[] d = frame(FwdView.OP_WRITE, 2);
        assertEquals(WireError.OK, tx.send(0, c, 0, c.length)); // on the wire
        assertEquals(WireError.OK, tx.send(0, c, 0, c.length));
        assertEquals(WireError.OK, tx.send(0, c, 0, c.length));
        assertEquals(WireError.FLOW_BACKPRESSURE, tx.send(0, c, 0, c.length), "control's quarter is full");
        for (int i = 0; i < 6; i++) {
            assertEquals(WireError.OK, tx.send(0, d, 0, d.length), "data " + i);
        }
        assertEquals(WireError.FLOW_BACKPRESSURE, tx.send(0, d, 0, d.length), "the queue is full");
    }
}
