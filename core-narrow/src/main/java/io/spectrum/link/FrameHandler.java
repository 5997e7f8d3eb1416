package io.spectrum.link;

/** Receives frames from {@link Link#poll}. The buffer is only valid during the call. */
public interface FrameHandler {
    void onFrame(Link link, int peer, byte[] buf, int off, int len);
}
