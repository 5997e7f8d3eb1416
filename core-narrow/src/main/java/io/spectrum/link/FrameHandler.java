package io.spectrum.link;

/** Receives frames from {@link Link#poll}. The buffer is only valid during the call. */
public interface FrameHandler {
    /**
     * Handles one received frame, exactly {@code buf[off, off+len)}, from {@code peer} of {@code
     * link}. Called on the thread that polls the link; the bytes belong to the link and are reused
     * after the call returns, so copy what must outlive it.
     */
    void onFrame(Link link, int peer, byte[] buf, int off, int len);
}
