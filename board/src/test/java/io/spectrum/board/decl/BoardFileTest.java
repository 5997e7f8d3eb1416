package io.spectrum.board.decl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spectrum.board.BoardMain;
import io.spectrum.wire.AccessMask;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a board file declares, and every way a wrong one is refused with its line and field. */
class BoardFileTest {
    @TempDir
    Path tmp;

    private BoardFile parse(String yaml) throws BoardFileError {
        return new BoardFileParser(-1).parse("b.yaml", yaml, tmp);
    }

    @Test
    void theShippedDemoDeclaresTheFiveDemoVertices() {
        BoardFile demo = BoardSetup.demo(-1);
        assertEquals(5, demo.vertices().size());
        BoardFile.Vertex temp = demo.vertices().get(0);
        assertEquals("/temp", temp.path());
        assertEquals("VALUE i16 Cel x0.01 rs", temp.schema().toString().replace("r-s", "rs"));
        BoardFile.Vertex led = demo.vertices().get(3);
        assertTrue(led.schema().allows(AccessMask.WRITE));
        assertEquals(0, led.schema().min());
        assertEquals(1, led.schema().max());
        assertEquals(0L, led.initial());
    }

    @Test
    void aDeclarationCarriesEveryKey() throws Exception {
        BoardFile f = parse("""
                name: shed
                vertices:
                  - path: /temp
                    type: i32
                    unit: Cel
                    scale: 0.001
                    offset: -0.5
                    range: [-40000, 125000]
                    rights: read, subscribe
                    description: shed air
                    source: {kind: file, file: t.txt, period: 10s}
                """);
        assertEquals("shed", f.name());
        var s = f.vertices().get(0).schema();
        assertEquals(4, s.width());
        assertTrue(s.signed());
        assertEquals(-40000, s.min());
        assertEquals(125000, s.max());
        assertEquals(0.001, s.scale());
        assertEquals(-0.5, s.offset());
        assertEquals(AccessMask.READ | AccessMask.SUBSCRIBE, s.rights());
        assertEquals("shed air", s.description());
        assertEquals("Cel", s.unit());
    }

    @Test
    void pathsAreTheBoardsOwn_aFileThatRepeatsTheBoardsNameIsReadWithoutItAndWarned() throws Exception {
        BoardFile f = parse("""
                name: shed
                vertices:
                  - {path: /shed/water, type: i16, unit: Cel, scale: 0.01, source: {kind: w1, device: 28-0123456789ab}}
                  - {path: /shed/door, type: u8, source: {kind: gpio-in, pin: 4, edges: /shed/door-openings}}
                  - {path: /shed/valve, type: u8, sink: {kind: gpio-out, pin: 17, readback: /shed/valve/state}}
                """);
        assertEquals(java.util.List.of("/water", "/door", "/valve"), f.vertices().stream().map(BoardFile.Vertex::path).toList());
        assertEquals("b.yaml:3: paths repeat the board's name 'shed'; read as /water …; drop the prefix", f.warning());
        try (io.spectrum.board.BoardFixture running = new io.spectrum.board.BoardFixture("""
                name: shed
                platform: mock
                mock-pins: pins
                vertices:
                  - {path: /shed/valve, type: u8, range: [0, 1], initial: 0, sink: {kind: gpio-out, pin: 17, readback: /shed/valve/state}}
                """, tmp)) {
            assertEquals(io.spectrum.wire.WireError.OK, running.write("/valve", 1));
            assertEquals(1, running.raw("/valve/state"), "the readback's path lost the prefix too");
            assertFalse(running.has("/shed/valve/state"));
        }

        BoardFile current = parse("name: shed\nvertices:\n  - {path: /water, type: u8}\n");
        assertEquals("/water", current.vertices().get(0).path());
        assertEquals(null, current.warning(), "a file of the board's own paths reads as written");
    }

    @Test
    void theOldPrefixIsDroppedOnlyWhenEveryPathHasIt_andTheNameIsTheOneTheBoardRunsUnder() throws Exception {
        BoardFile mixed = parse("name: shed\nvertices:\n  - {path: /shed/water, type: u8}\n  - {path: /pump, type: u8}\n");
        assertEquals("/shed/water", mixed.vertices().get(0).path(), "a subtree that happens to bear the name stays");
        assertEquals(null, mixed.warning());

        BoardFile unnamed = parse("vertices:\n  - {path: /board/temp, type: i16}\n  - {path: /board/led, type: u8}\n");
        assertEquals("/temp", unnamed.vertices().get(0).path(), "the default name is board: the old demo file's paths");
        assertEquals("b.yaml:2: paths repeat the board's name 'board'; read as /temp …; drop the prefix", unnamed.warning());

        String yaml = "name: shed\nvertices:\n  - {path: /barn/hay, type: u8}\n";
        BoardFile renamed = new BoardFileParser(-1, "barn").parse("b.yaml", yaml, tmp);
        assertEquals("/hay", renamed.vertices().get(0).path(), "--name wins over the file's name");
        assertEquals("b.yaml:3: paths repeat the board's name 'barn'; read as /hay; drop the prefix", renamed.warning());
        assertEquals("/barn/hay", parse(yaml).vertices().get(0).path(), "named shed, /barn is a subtree of its own");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown top key       | 'vertices: []\\npins: 3\\n'                                                                  | 2 | pins                   | unknown key
            bad YAML              | 'vertices:\\n  - {path: /a, type: u8\\n'                                                      | 3 |                        | not valid YAML
            missing type          | 'vertices:\\n  - path: /a\\n'                                                                | 2 | vertices[0].type       | is required
            unknown type          | 'vertices:\\n  - {path: /a, type: float}\\n'                                                 | 2 | vertices[0].type       | 'float' is not one of
            bad path              | 'vertices:\\n  - {path: a/b, type: u8}\\n'                                                   | 2 | vertices[0].path       | not a vertex path
            path twice            | 'vertices:\\n  - {path: /a, type: u8}\\n  - {path: /a, type: u8}\\n'                         | 3 | vertices[1].path       | already declared on line 2
            range reversed        | 'vertices:\\n  - {path: /a, type: u8, range: [5, 1]}\\n'                                     | 2 | vertices[0]            | min <= max
            range too wide        | 'vertices:\\n  - {path: /a, type: u8, range: [0, 300]}\\n'                                   | 2 | vertices[0]            | does not fit
            zero scale            | 'vertices:\\n  - {path: /a, type: u8, scale: 0}\\n'                                          | 2 | vertices[0]            | scale must be finite and not 0
            bad rights            | 'vertices:\\n  - {path: /a, type: u8, rights: admin}\\n'                                     | 2 | vertices[0].rights     | not ro, rw
            initial out of range  | 'vertices:\\n  - {path: /a, type: u8, range: [0, 1], initial: 2}\\n'                         | 2 | vertices[0].initial    | outside range 0..1
            unknown source        | 'vertices:\\n  - {path: /a, type: u8, source: {kind: adc}}\\n'                               | 2 | vertices[0].source.kind| 'adc' is not one of
            pin out of range      | 'vertices:\\n  - {path: /a, type: u8, source: {kind: gpio-in, pin: 40}}\\n'                  | 2 | vertices[0].source.pin | out of range 0..27
            pin not a number      | 'vertices:\\n  - {path: /a, type: u8, source: {kind: gpio-in, pin: GPIO4}}\\n'               | 2 | vertices[0].source.pin | not a whole number
            pin twice             | 'vertices:\\n  - {path: /a, type: u8, source: {kind: gpio-in, pin: 4}}\\n  - {path: /b, type: u8, sink: {kind: gpio-out, pin: 4}}\\n' | 3 | vertices[1].sink.pin | BCM 4 is already used
            sink on read-only     | 'vertices:\\n  - {path: /a, type: u8, rights: ro, sink: {kind: gpio-out, pin: 4}}\\n'         | 2 | vertices[0].rights     | must be writable
            gpio on a name        | 'vertices:\\n  - {path: /a, type: name, source: {kind: gpio-in, pin: 4}}\\n'                 | 2 | vertices[0].source.kind| needs a number vertex
            i2c without address   | 'vertices:\\n  - {path: /a, type: u16, source: {kind: i2c, register: 0}}\\n'                 | 2 | vertices[0].source.address | is required
            i2c shift too far     | 'vertices:\\n  - {path: /a, type: u16, source: {kind: i2c, address: 0x48, bytes: 2, shift: 16}}\\n' | 2 | vertices[0].source.shift | out of range 0..15
            i2c unknown transfer  | 'vertices:\\n  - {path: /a, type: u16, source: {kind: i2c, address: 0x48, transfer: smbus-quick}}\\n' | 2 | vertices[0].source.transfer | 'smbus-quick' is not one of plain, smbus-byte, smbus-word, smbus-block
            smbus word of 4 bytes | 'vertices:\\n  - {path: /a, type: u32, source: {kind: i2c, address: 0x48, transfer: smbus-word, bytes: 4}}\\n' | 2 | vertices[0].source.bytes | smbus-word reads 2 bytes, not 4
            smbus byte of 2 bytes | 'vertices:\\n  - {path: /a, type: u16, source: {kind: i2c, address: 0x48, transfer: smbus-byte, bytes: 2}}\\n' | 2 | vertices[0].source.bytes | smbus-byte reads 1 byte, not 2
            smbus block too long  | 'vertices:\\n  - {path: /a, type: u64, source: {kind: i2c, address: 0x48, transfer: smbus-block, bytes: 33}}\\n' | 2 | vertices[0].source.bytes | 33 is out of range 1..8
            smbus word shift 16   | 'vertices:\\n  - {path: /a, type: u32, source: {kind: i2c, address: 0x48, transfer: smbus-word, shift: 16}}\\n' | 2 | vertices[0].source.shift | out of range 0..15
            bad w1 id             | 'vertices:\\n  - {path: /a, type: i16, source: {kind: w1, device: ds18b20}}\\n'              | 2 | vertices[0].source.device | not a 1-Wire id
            bad period            | 'vertices:\\n  - {path: /a, type: u8, source: {kind: file, file: x, period: soon}}\\n'       | 2 | vertices[0].source.period | not a duration
            typo in a source      | 'vertices:\\n  - {path: /a, type: u8, source: {kind: gpio-in, pin: 4, pul: up}}\\n'          | 2 | vertices[0].source.pul | unknown key
            unknown metric        | 'vertices:\\n  - {path: /a, type: u8, source: {kind: self, metric: fan}}\\n'                 | 2 | vertices[0].source.metric | 'fan' is not one of
            mock pins off mock    | 'mock-pins: p\\nvertices:\\n  - {path: /a, type: u8}\\n'                                     | 1 | mock-pins              | needs platform: mock
            empty board           | 'name: x\\n'                                                                                 | 1 | vertices               | declares no vertices
            app not a class name  | 'apps:\\n  - {class: 3d.App}\\n'                                                             | 2 | apps[0].class          | not a Java class name
            unit not UCUM         | 'vertices:\\n  - {path: /a, type: i16, unit: celsius}\\n'                                  | 2 | vertices[0].unit       | 'celsius' is not a UCUM unit the board knows; closest: Cel (°C)
            unit as shown         | 'vertices:\\n  - {path: /a, type: i16, unit: °C}\\n'                                       | 2 | vertices[0].unit       | closest: Cel (°C)
            unit wrong case       | 'vertices:\\n  - {path: /a, type: i16, unit: HPA}\\n'                                      | 2 | vertices[0].unit       | closest: hPa
            unit bytes            | 'vertices:\\n  - {path: /a, type: u32, unit: kB}\\n'                                       | 2 | vertices[0].unit       | closest: kBy
            typo of a vertex key  | 'vertices:\\n  - {path: /a, type: u8, scael: 0.1}\\n'                                      | 2 | vertices[0].scael      | unknown key, did you mean scale? (known here: description, initial, offset, path, range, rights, scale, sink, source, type, unit)
            typo of a required key| 'vertices:\\n  - {path: /a, tpye: u8}\\n'                                                  | 2 | vertices[0].type       | is required (one of i8, u8, i16, u16, i32, u32, i64, u64, name) ('tpye' on line 2 is not a key here; was type meant?)
            typo of an i2c key    | 'vertices:\\n  - {path: /a, type: u8, source: {kind: i2c, adress: 0x48}}\\n'                | 2 | vertices[0].source.address | is required
            """)
    void aWrongFileIsRefusedWithItsLineAndField(String why, String yaml, int line, String field, String problem) {
        BoardFileError e = assertThrows(BoardFileError.class, () -> parse(yaml.replace("\\n", "\n")), why);
        assertEquals(line, e.line(), why + ": " + e.getMessage());
        assertEquals(field == null ? "" : field.trim(), e.field(), why + ": " + e.getMessage());
        assertTrue(e.problem().contains(problem.trim()), why + ": " + e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    }

    @Test
    void backfillSaysHowManyLastValuesEachDeclaredVertexKeeps() throws Exception {
        String v = "vertices:\n  - {path: /a, type: u8}\n";
        assertEquals(16, parse(v).backfill(), "the default, NodeConfig's");
        assertEquals(0, parse("backfill: 0\n" + v).backfill(), "0 turns it off");
        assertEquals(64, parse("backfill: 64\n" + v).backfill());
        BoardFileError e = assertThrows(BoardFileError.class, () -> parse("backfill: 5000\n" + v));
        assertEquals("backfill", e.field(), e.getMessage());
        assertEquals(1, e.line());
    }

    @Test
    void everyUnitTheBoardKnowsIsAccepted() throws Exception {
        for (String unit : Units.KNOWN) {
            BoardFile f = parse("vertices:\n  - {path: /a, type: i32, unit: '" + unit + "'}\n");
            assertEquals(unit, f.vertices().get(0).schema().unit(), unit);
        }
    }

    @Test
    void aUnitTheBoardDoesNotKnowIsRefusedInOneLineWithExit2() throws Exception {
        Run r = board("vertices:\n  - {path: /a, type: i16, scale: 0.1, unit: celsius}\n", "--check");
        assertEquals(2, r.code());
        assertEquals("board: FILE:2: vertices[0].unit: 'celsius' is not a UCUM unit the board knows; closest: Cel (°C)",
                r.err().trim());
    }

    /** A board run's exit code and output. */
    private record Run(int code, String out, String err) {
    }

    /** Runs BoardMain on a board file with {@code yaml} and the options before it. */
    private Run board(String yaml, String... options) throws Exception {
        Path f = tmp.resolve("board.yaml");
        Files.writeString(f, yaml);
        String[] args = java.util.Arrays.copyOf(options, options.length + 2);
        args[options.length] = "--config";
        args[options.length + 1] = f.toString();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = BoardMain.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString().replace(f.toString(), "FILE"));
    }

    @Test
    void boardMainRefusesABadFileInOneLineBeforeOpeningALink() throws Exception {
        Run r = board("vertices:\n  - {path: /ok, type: u8}\n  - {path: /a, type: u8, source: {kind: gpio-in, pin: 99}}\n",
                "--udp", "127.0.0.1:0");
        assertEquals(2, r.code());
        assertEquals("board: FILE:3: vertices[1].source.pin: 99 is out of range 0..27", r.err().trim());
        assertFalse(r.out().contains("ready"), r.out());
    }

    @Test
    void aPinThatCannotBeOpenedRefusesTheStartAsAWhole() throws Exception {
        // platform auto off a Pi: the gpiod provider cannot open the pin; nothing is served
        Run r = board("vertices:\n  - {path: /ok, type: u8, initial: 1}\n  - {path: /b, type: u8, source: {kind: gpio-in, pin: 4}}\n",
                "--udp", "127.0.0.1:0");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().startsWith("board: cannot start: board file: FILE:3: /b: cannot open gpio-in BCM 4"), r.err());
        assertEquals(1, r.err().trim().lines().count(), r.err());
        assertFalse(r.out().contains("ready"), r.out());
    }

    @Test
    void aBoardWarnsOnceOfPathsThatRepeatItsName() throws Exception {
        Run r = board("name: shed\nplatform: mock\nvertices:\n  - {path: /shed/water, type: u8}\n  - {path: /shed/pump, type: u8}\n",
                "--check");
        assertEquals(0, r.code(), r.err());
        assertEquals("board: FILE:4: paths repeat the board's name 'shed'; read as /water …; drop the prefix\n",
                r.err().replace(System.lineSeparator(), "\n"));
        assertTrue(r.out().trim().endsWith("board.yaml: ok (shed)"), r.out());
    }

    @Test
    void checkSaysOkForAGoodFile() throws Exception {
        Run r = board("name: shed\nplatform: mock\nvertices:\n  - {path: /r, type: u8, sink: {kind: gpio-out, pin: 17}}\n",
                "--check");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().trim().endsWith("board.yaml: ok (shed)"), r.out());
    }
}
