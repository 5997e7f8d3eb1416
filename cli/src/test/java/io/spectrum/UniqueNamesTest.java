package io.spectrum;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

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
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * No two public top-level classes of the main code share a simple name: a reader who sees
 * {@code Subscription} in an import-free snippet, a stack trace or a doc page knows which one it is.
 * Checked over every module the cli module sees (all but bench, a tool that is built after it).
 */
@AnalyzeClasses(packages = "io.spectrum",
        importOptions = {ImportOption.DoNotIncludeTests.class, NoTestJars.class})
class UniqueNamesTest {

    /** Holds when no other public top-level class of the checked set has the class's simple name. */
    static ArchCondition<JavaClass> haveASimpleNameNoOtherPublicClassHas() {
        return new ArchCondition<>("have a simple name no other public class has") {
            private final Map<String, TreeSet<String>> byName = new TreeMap<>();

            @Override
            public void init(Collection<JavaClass> all) {
                byName.clear();
                for (JavaClass c : all) {
                    byName.computeIfAbsent(c.getSimpleName(), k -> new TreeSet<>()).add(c.getName());
                }
            }

            @Override
            public void check(JavaClass c, ConditionEvents events) {
                TreeSet<String> same = byName.get(c.getSimpleName());
                boolean unique = same == null || same.size() < 2;
                events.add(new SimpleConditionEvent(c, unique,
                        c.getName() + " shares its simple name with " + same));
            }
        };
    }

    @ArchTest
    static final ArchRule public_classes_have_unique_simple_names = classes()
            .that().arePublic().and().areTopLevelClasses()
            .should(haveASimpleNameNoOtherPublicClassHas())
            .because("one name means one thing across the project (docs/compatibility.md names the public API)");

    @Test
    void theRuleReportsTwoPublicClassesOfOneName() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.spectrum.names.archfixture");
        AssertionError e = Assertions.assertThrows(AssertionError.class,
                () -> public_classes_have_unique_simple_names.check(fixture));
        Assertions.assertTrue(e.getMessage().contains("io.spectrum.names.archfixture.a.Twin shares")
                && e.getMessage().contains("io.spectrum.names.archfixture.b.Twin shares"), e.getMessage());
    }
}
