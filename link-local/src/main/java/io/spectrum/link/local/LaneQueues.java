package io.spectrum.link.local;

import io.spectrum.link.Lane;

import io.spectrum.stats.ResourceCounter;
import io.spectrum.wire.WireError;

import java.util.ArrayDeque;

/**
 * One connection's outbound lanes: a bounded FIFO per {@link Lane} (frames and bytes) and the rule
 * that picks the next frame: CONTROL, then RPC, then TOPIC, except that when TOPIC has a frame
 * waiting and {@code topicEvery} CONTROL/RPC frames went out since the last TOPIC frame, TOPIC goes
 * next. Frames sent without waiting (the socket took them at once) count toward the same run.
 * Single-threaded (the link's thread). Each queued frame is a copy (host code: allocates per queued
 * frame, never per frame written straight through).
 */
final class LaneQueues {
    private static final Lane[] LANES = Lane.values();
    private final ArrayDeque<byte[]>[] queues;
    private final int[] bytes = new int[3];
    private final int[] maxFrames = new int[3];
    private final int[] maxBytes = new int[3];
    private final ResourceCounter[] depth = new ResourceCounter[3];
    private final int topicEvery;
    /** CONTROL/RPC frames sent since the last TOPIC frame. */
    private int highRun;

    @SuppressWarnings("unchecked")
    LaneQueues(LocalLinkConfig config, String owner) {
        queues = new ArrayDeque[3];
        for (Lane lane : LANES) {
            int i = lane.ordinal();
            maxFrames[i] = config.laneFrames(lane);
            maxBytes[i] = config.laneBytes(lane);
            queues[i] = new ArrayDeque<>(Math.min(maxFrames[i], 64));
            depth[i] = new ResourceCounter(owner + " " + lane.name().toLowerCase(java.util.Locale.ROOT) + " lane", maxFrames[i]);
        }
        topicEvery = config.topicEvery;
    }

    /**
     * Queues a copy of the frame on {@code lane}.
     *
     * @return OK, or FLOW_BACKPRESSURE when the lane is at its frame or byte bound (counted as a refusal)
     */
    int offer(Lane lane, byte[] buf, int off, int len) {
        int i = lane.ordinal();
        if (queues[i].size() >= maxFrames[i] || (long) bytes[i] + len > maxBytes[i]) {
            depth[i].countRefused();
            return WireError.FLOW_BACKPRESSURE;
        }
        byte[] copy = new byte[len];
        System.arraycopy(buf, off, copy, 0, len);
        queues[i].addLast(copy);
        bytes[i] += len;
        depth[i].taken();
        return WireError.OK;
    }

    boolean isEmpty() {
        return queues[0].isEmpty() && queues[1].isEmpty() && queues[2].isEmpty();
    }

    /** The lane the next frame comes from, or null when all are empty. */
    Lane next() {
        boolean topic = !queues[Lane.TOPIC.ordinal()].isEmpty();
        if (topic && highRun >= topicEvery) {
            return Lane.TOPIC;
        }
        if (!queues[Lane.CONTROL.ordinal()].isEmpty()) {
            return Lane.CONTROL;
        }
        if (!queues[Lane.RPC.ordinal()].isEmpty()) {
            return Lane.RPC;
        }
        return topic ? Lane.TOPIC : null;
    }

    byte[] peek(Lane lane) {
        return queues[lane.ordinal()].peekFirst();
    }

    /** Removes the head of {@code lane} (the frame {@link #peek} returned) as sent. */
    void take(Lane lane) {
        int i = lane.ordinal();
        byte[] f = queues[i].pollFirst();
        if (f != null) {
            bytes[i] -= f.length;
            depth[i].returned();
            sent(lane);
        }
    }

    /** A frame of {@code lane} went out (queued or straight through): advances the topic rule. */
    void sent(Lane lane) {
        if (lane == Lane.TOPIC) {
            highRun = 0;
        } else if (highRun < Integer.MAX_VALUE) {
            highRun++;
        }
    }

    /** Drops every queued frame (the connection is closing); returns how many. */
    int clear() {
        int dropped = 0;
        for (int i = 0; i < 3; i++) {
            dropped += queues[i].size();
            depth[i].returned(queues[i].size());
            queues[i].clear();
            bytes[i] = 0;
        }
        return dropped;
    }

    int frames(Lane lane) {
        return queues[lane.ordinal()].size();
    }

    int bytes(Lane lane) {
        return bytes[lane.ordinal()];
    }

    ResourceCounter depth(Lane lane) {
        return depth[lane.ordinal()];
    }
}
