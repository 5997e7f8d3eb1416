package io.spectrum.wide.bus;

/** {@link MalformedInputTest} with every connection over the in-process transport (frames through {@link BusServer}). */
class MalformedInputInProcessTest extends MalformedInputTest {
    @Override
    BusFixture.Via via() {
        return BusFixture.Via.IN_PROCESS;
    }
}
