package io.spectrum.host.abp;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ABP scenarios through the host bus's Unix socket: each connection a {@code BusClient} whose node
 * client reaches the node through the bus's node door.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AbpScenariosOverSocketTest extends AbpScenarios {
    @TempDir
    Path tmp;

    @Override
    AbpFabric fabric() throws Exception {
        return new SocketAbp(tmp);
    }
}
