package io.spectrum.testing;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Prints every skipped test with its reason ({@code [SKIPPED] Class.method: reason}) into the build
 * output, which Surefire's summary ("Skipped: 1") does not. Registered through
 * META-INF/services for every module that has core-narrow's test-jar on its test class path, so a
 * build on a machine without chromium or qemu-user says which tests it skipped and why.
 */
public final class SkipReasons implements TestExecutionListener {
    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        print(test, reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            print(test, result.getThrowable().map(Throwable::getMessage).orElse("aborted"));
        }
    }

    private static void print(TestIdentifier test, String reason) {
        System.out.println("[SKIPPED] " + describe(test) + ": " + reason);
        System.out.flush();
    }

    static String describe(TestIdentifier test) {
        TestSource source = test.getSource().orElse(null);
        String name = test.getDisplayName();
        if (source instanceof MethodSource m) {
            String method = simple(m.getClassName()) + "." + m.getMethodName();
            return name.equals(m.getMethodName() + "()") ? method : method + " [" + name + "]";
        }
        if (source instanceof ClassSource c) {
            return simple(c.getClassName());
        }
        return name;
    }

    private static String simple(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
