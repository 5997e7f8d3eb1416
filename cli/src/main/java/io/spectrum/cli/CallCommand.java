package io.spectrum.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spectrum.client.bus.Artifact;
import io.spectrum.client.bus.CallResult;
import io.spectrum.bus.protocol.BusException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code spectrum call SERVICE [ARGS...]}: calls a service on the host bus with ARGS joined by
 * spaces (UTF-8) as the payload, waits for its outcome and prints it (text, or one JSON object:
 * callId, serviceIncarnation, responder, outcome, artifacts).
 */
@Command(name = "call", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Call a service on the host bus and print its outcome.",
                "The payload is ARGS joined by spaces (UTF-8); the outcome is printed as the service sent it (as text). "
                        + "A refusal by the bus prints its code (NO_SERVICE, NOT_AUTHORIZED, BACKPRESSURE, ...).",
                "",
                "Examples:",
                "  spectrum call calc.add 2+3 --bus $XDG_RUNTIME_DIR/spectrum/bus.sock",
                "  SPECTRUM_BUS=/run/user/1000/spectrum/bus.sock spectrum call camera.snap --method snap --json", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the service answered", "1:refused by the bus, or no answer within --timeout",
                "2:bad arguments, or no bus at --bus"})
public final class CallCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SERVICE", description = "The service's name (e.g. calc.add).")
    String service;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "The payload, joined by spaces.")
    List<String> args = List.of();

    @Option(names = "--method", paramLabel = "M", defaultValue = "call",
            description = "The method named in the call (default: ${DEFAULT-VALUE}).")
    String method;

    @Mixin
    BusOptions bus;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        CommandLine cl = spec.commandLine();
        bus.check(cl);
        byte[] payload = String.join(" ", args).getBytes(StandardCharsets.UTF_8);
        return bus.run(cl, c -> {
            CallResult r;
            try {
                r = c.call(service, method, payload, null).result().get(bus.timeoutMillis, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new BusOptions.Failure(BusOptions.REFUSED, "TIMEOUT", "no outcome from " + service + " within "
                        + bus.timeoutMillis + " ms (the call may still run)");
            } catch (ExecutionException e) {
                throw new BusOptions.Failure(BusOptions.REFUSED, "ROUTER_LOST", String.valueOf(e.getCause()));
            }
            if (r.failure() != null) {
                throw BusOptions.refused(r.failure());
            }
            print(cl.getOut(), r);
            try {
                r.consume();
            } catch (BusException e) {
                // the outcome is printed; its delivery goes with the connection
            }
            return 0;
        });
    }

    private void print(PrintWriter out, CallResult r) {
        String outcome = r.outcome() == null ? "" : new String(r.outcome(), StandardCharsets.UTF_8);
        if (bus.json) {
            ObjectNode o = ClientOutput.JSON.createObjectNode();
            o.put("callId", r.callId());
            o.put("serviceIncarnation", r.serviceIncarnation());
            o.put("responder", r.responder());
            o.put("outcome", outcome);
            ArrayNode arts = o.putArray("artifacts");
            for (Artifact a : r.artifacts()) {
                ObjectNode x = BusJson.ref(a.ref());
                x.put("name", a.name());
                arts.add(x);
            }
            out.println(o);
        } else {
            out.println(outcome);
            for (Artifact a : r.artifacts()) {
                out.println("artifact " + (a.name() == null ? "" : a.name() + " ") + BusJson.text(a.ref()));
            }
        }
        out.flush();
    }
}
