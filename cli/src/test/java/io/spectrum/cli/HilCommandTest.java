package io.spectrum.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class HilCommandTest {
    static int run(StringWriter out, StringWriter err, String... args) {
        picocli.CommandLine cl = new picocli.CommandLine(new SpectrumCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void missingDeviceIsAUsageErrorThatSaysWhatToDo() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(2, run(out, err, "hil", "--port", "/dev/ttyHIL-does-not-exist"));
        assertTrue(err.toString().contains("no such serial device: /dev/ttyHIL-does-not-exist"), err.toString());
    }

    @Test
    void portIsRequiredAndHelpNamesTheOptions() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(2, run(out, err, "hil"));
        assertTrue(err.toString().contains("--port"), err.toString());
        StringWriter help = new StringWriter();
        assertEquals(0, run(help, err, "hil", "--help"));
        assertTrue(help.toString().contains("--report") && help.toString().contains("--baud"), help.toString());
    }
}
