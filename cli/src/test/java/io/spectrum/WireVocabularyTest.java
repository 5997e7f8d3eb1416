package io.spectrum;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.ClassReader;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.ClassVisitor;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.MethodVisitor;
import com.tngtech.archunit.thirdparty.org.objectweb.asm.Opcodes;
import io.spectrum.wire.TlvType;
import io.spectrum.wire.WireError;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;

/**
 * The wire layer owns the protocol's grammar and vocabulary (issue 8 item 1): outside
 * {@code io.spectrum.wire} no class declares a protocol constant (a FWD op or kind, a policy bit, an
 * error code) and no method walks a FWD's children itself ({@code FwdView} is the one FWD reader).
 * Checked over every class this module sees (core-narrow, the links, vectors, host-app).
 *
 * <p>Constants are recognised by name: {@code OP_*}, {@code KIND_RESULT/ERROR}, {@code MINT},
 * {@code SPARE}, anything with {@code SUSPENDED} or {@code DURABIL} in it, {@code DURABLE},
 * {@code ONE_SHOT}, {@code *_BIT}, and every name of a {@link WireError} code. A FWD walk is a method
 * that compares a {@code type()} result with the FWD code and also navigates children
 * ({@code firstChild}, {@code nextSibling}, {@code child}, {@code children}). {@code TlvType.FWD} is a
 * compile-time constant javac inlines, so the walk is found in the bytecode (ArchUnit's bundled ASM):
 * {@code bipush 0x0F} followed by an {@code if_icmpeq/ne}.
 */
@AnalyzeClasses(packages = "io.spectrum",
        importOptions = {ImportOption.DoNotIncludeTests.class, WireVocabularyTest.DoNotIncludeTestJars.class})
class WireVocabularyTest {
    /**
     * Test code of other modules reaches this classpath as their {@code -tests.jar} once the reactor
     * has packaged them ({@code mvn verify}); like {@code test-classes} it is not main code.
     */
    static final class DoNotIncludeTestJars implements ImportOption {
        @Override
        public boolean includes(com.tngtech.archunit.core.importer.Location location) {
            return !location.contains("-tests.jar");
        }
    }

    static final String WIRE = "io.spectrum.wire..";

    static String constantNames() {
        StringJoiner names = new StringJoiner("|", "(", ")");
        names.add("OP_\\w+").add("OPCODE_MASK").add("KIND_(RESULT|ERROR)").add("MINT").add("SPARE")
                .add("\\w*SUSPENDED\\w*").add("\\w*DURABIL\\w*").add("DURABLE").add("ONE_SHOT").add("\\w+_BIT");
        for (Field f : WireError.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class && !f.getName().equals("OK")) {
                names.add(f.getName());
            }
        }
        return names.toString();
    }

    @ArchTest
    static final ArchRule protocol_constants_live_in_wire = noFields()
            .that().areDeclaredInClassesThat().resideOutsideOfPackage(WIRE)
            .and().areStatic().and().areFinal()
            .should().haveNameMatching(constantNames())
            .because("ops, kinds, policy bits and error codes are defined once, in io.spectrum.wire "
                    + "(FwdView, DeliveryPolicy, WireError); everyone else references them");

    @ArchTest
    static final ArchRule only_wire_walks_fwd = classes()
            .that().resideOutsideOfPackage(WIRE)
            .should(notWalkFwdChildren())
            .because("FwdView is the one FWD reader: no consumer walks a FWD's children itself");

    static ArchCondition<JavaClass> notWalkFwdChildren() {
        return new ArchCondition<>("not walk FWD children (compare a type() with FWD and navigate children in one method)") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                for (String m : fwdWalkers(c)) {
                    events.add(SimpleConditionEvent.violated(c, c.getName() + "." + m + " walks FWD children itself; use FwdView"));
                }
            }
        };
    }

    /** Methods of {@code c} that compare a {@code type()} with the FWD code and navigate children. */
    static List<String> fwdWalkers(JavaClass c) {
        List<String> found = new ArrayList<>();
        String resource = c.getName().replace('.', '/') + ".class";
        ClassLoader loader = WireVocabularyTest.class.getClassLoader();
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                return found;
            }
            new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                    return new FwdWalkDetector(name, found);
                }
            }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource, e);
        }
        return found;
    }

    private static final class FwdWalkDetector extends MethodVisitor {
        private final String name;
        private final List<String> found;
        private boolean callsType;
        private boolean navigates;
        private boolean comparesFwd;
        private boolean lastPushedFwd;

        FwdWalkDetector(String name, List<String> found) {
            super(Opcodes.ASM9);
            this.name = name;
            this.found = found;
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String method, String desc, boolean itf) {
            if (method.equals("type")) {
                callsType = true;
            } else if (method.equals("firstChild") || method.equals("nextSibling") || method.equals("child")
                    || method.equals("children")) {
                navigates = true;
            }
            lastPushedFwd = false;
        }

        @Override
        public void visitIntInsn(int opcode, int operand) {
            lastPushedFwd = opcode == Opcodes.BIPUSH && operand == TlvType.FWD;
        }

        @Override
        public void visitJumpInsn(int opcode, com.tngtech.archunit.thirdparty.org.objectweb.asm.Label label) {
            if (lastPushedFwd && (opcode == Opcodes.IF_ICMPEQ || opcode == Opcodes.IF_ICMPNE)) {
                comparesFwd = true;
            }
            lastPushedFwd = false;
        }

        @Override
        public void visitInsn(int opcode) {
            lastPushedFwd = false;
        }

        @Override
        public void visitVarInsn(int opcode, int var) {
            lastPushedFwd = false;
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String field, String desc) {
            lastPushedFwd = false;
        }

        @Override
        public void visitEnd() {
            if (callsType && comparesFwd && navigates) {
                found.add(name);
            }
        }
    }

    // ---- negative and positive controls ------------------------------------------------------

    private static JavaClasses fixture(Class<?> c) {
        return new ClassFileImporter().importClasses(c);
    }

    @Test
    void theConstantRuleReportsRetypedConstants() {
        JavaClasses bad = fixture(io.spectrum.vocabfixture.RetypesTheVocabulary.class);
        AssertionError e = assertThrows(AssertionError.class, () -> protocol_constants_live_in_wire.check(bad));
        assertTrue(e.getMessage().contains("RetypesTheVocabulary.OP_READ"), e.getMessage());
        assertTrue(e.getMessage().contains("RetypesTheVocabulary.SUSPENDED_BIT"), e.getMessage());
        assertTrue(e.getMessage().contains("RetypesTheVocabulary.PATH_NOT_FOUND"), e.getMessage());
    }

    @Test
    void theWalkRuleReportsAHandWrittenFwdWalk() {
        JavaClasses bad = fixture(io.spectrum.vocabfixture.RetypesTheVocabulary.class);
        AssertionError e = assertThrows(AssertionError.class, () -> only_wire_walks_fwd.check(bad));
        assertTrue(e.getMessage().contains("RetypesTheVocabulary.dst walks FWD children itself"), e.getMessage());
    }

    @Test
    void bothRulesPassCodeThatUsesTheVocabulary() {
        JavaClasses good = fixture(io.spectrum.vocabfixture.UsesTheVocabulary.class);
        protocol_constants_live_in_wire.check(good);
        only_wire_walks_fwd.check(good);
    }
}
