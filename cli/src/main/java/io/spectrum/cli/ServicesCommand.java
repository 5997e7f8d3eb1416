package io.spectrum.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.bus.protocol.BusFields;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code spectrum services}: the services registered on the host bus (name, incarnation, holder, queued, inFlight). */
@Command(name = "services", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"List the services registered on the host bus.",
                "One line per service: its name, incarnation, the client holding it, and its queued and in-flight "
                        + "requests; --json prints one array of objects.",
                "",
                "Example:",
                "  spectrum services --bus $XDG_RUNTIME_DIR/spectrum/bus.sock", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:listed", "1:refused by the bus", "2:bad arguments, or no bus at --bus"})
public final class ServicesCommand implements Callable<Integer> {
    @Mixin
    BusOptions bus;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        CommandLine cl = spec.commandLine();
        bus.check(cl);
        PrintWriter out = cl.getOut();
        return bus.run(cl, c -> {
            List<BusFields> list = c.services();
            if (bus.json) {
                ArrayNode a = ClientOutput.JSON.createArrayNode();
                for (BusFields s : list) {
                    ObjectNode o = a.addObject();
                    o.put("name", s.string("name"));
                    o.put("serviceIncarnation", s.string("serviceIncarnation"));
                    o.put("holder", s.string("holder"));
                    o.put("queued", s.u64("queued"));
                    o.put("inFlight", s.u64("inFlight"));
                }
                out.println(a);
            } else {
                for (BusFields s : list) {
                    out.printf("%s  incarnation %s  holder %s  queued %d  inFlight %d%n", s.string("name"),
                            s.string("serviceIncarnation"), s.string("holder"), s.u64("queued"), s.u64("inFlight"));
                }
                if (list.isEmpty()) {
                    cl.getErr().println("spectrum services: no services registered");
                    cl.getErr().flush();
                }
            }
            out.flush();
            return 0;
        });
    }
}
