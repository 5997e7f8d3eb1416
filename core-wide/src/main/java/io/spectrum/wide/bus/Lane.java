package io.spectrum.wide.bus;

/**
 * The outbound lane of a message (seed 001 §9): control notices first, then RPC requests and
 * results, then topic data; topic data still gets one frame after a run of higher-priority ones
 * ({@link BusLimits#topicFrameEvery()}).
 */
public enum Lane {
    CONTROL,
    RPC,
    TOPIC
}
