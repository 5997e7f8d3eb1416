package io.spectrum.node;

import io.spectrum.node.api.NodeConfig;
import io.spectrum.wide.WideNode;

/** core-narrow's {@link GapRepairTest} as deployed: a NARROW board followed by a WIDE host. */
class BoardToHostGapRepairTest extends GapRepairTest {
    @Override
    ServingNode boardNode(NodeConfig c) {
        return new NarrowNode(c);
    }

    @Override
    ServingNode hostNode(NodeConfig c) {
        return new WideNode(c);
    }
}
