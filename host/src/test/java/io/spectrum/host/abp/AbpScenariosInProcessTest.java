package io.spectrum.host.abp;

/** The ABP scenarios against the node in-process: each connection a {@code WidePeer}. */
class AbpScenariosInProcessTest extends AbpScenarios {
    @Override
    AbpFabric fabric() {
        return new InProcessAbp();
    }
}
