package io.spectrum;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.spectrum.link.Link;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * Links are opened by the one link factory (docs/links.md, "Links by URI"): only the factory's
 * transports ({@code io.spectrum.runtime.LinkTransports}, {@code LinkSpec}) and the transports' own
 * modules ({@code io.spectrum.link..}) construct a concrete link: call a constructor of, or a static
 * method returning a link on, a class of a transport module ({@code UdpLink}, {@code DtlsLink},
 * {@code LocalLink}, {@code SerialLink}, …). Everyone else (board,
 * host, cli, client, bus client, bridge, HIL) names the link by URI. Checked over the main classes
 * the cli module sees (every module but bench); tests may construct links directly.
 */
@AnalyzeClasses(packages = "io.spectrum",
        importOptions = {ImportOption.DoNotIncludeTests.class, NoTestJars.class})
class LinkConstructionTest {
    /** The factory: the URI parser and its transports' registration list. */
    static final String[] FACTORY = {"io.spectrum.runtime.LinkSpec", "io.spectrum.runtime.LinkTransports"};
    /** The transports' own modules (link-udp, link-dtls, link-local, link-serial). */
    static final String TRANSPORT_MODULES = "io.spectrum.link..";

    /**
     * The one link with no URI: the in-memory link (link-local's {@code InProcessLink}) joins code in
     * one JVM, so it has no address to name; its makers are the factory's in-process pair and the bus
     * server's own in-process transport (docs/links.md, "In-process pair").
     */
    static final String NO_URI = "io.spectrum.link.local.InProcessLink";

    /** A concrete link of a transport module that a URI can name. */
    static boolean concreteLink(JavaClass c) {
        return c.isAssignableTo(Link.class) && !c.isInterface()
                && !c.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.ABSTRACT)
                && c.getPackageName().startsWith("io.spectrum.link.")
                && !c.getName().startsWith(NO_URI);
    }

    private static final DescribedPredicate<JavaCall<?>> OPENS_A_LINK =
            new DescribedPredicate<>("construct a concrete link (UdpLink, DtlsLink, LocalLink, SerialLink, …)") {
                @Override
                public boolean test(JavaCall<?> call) {
                    JavaClass owner = call.getTargetOwner();
                    if (!concreteLink(owner)) {
                        return false;
                    }
                    return call instanceof JavaConstructorCall
                            || call.getTarget().getRawReturnType().isAssignableTo(Link.class)
                            && call.getTarget().resolveMember().map(m -> m.getModifiers()
                                    .contains(com.tngtech.archunit.core.domain.JavaModifier.STATIC)).orElse(true);
                }
            };

    private static final DescribedPredicate<JavaClass> THE_FACTORY_OR_A_TRANSPORT =
            new DescribedPredicate<>("the link factory or a transport's own module") {
                @Override
                public boolean test(JavaClass c) {
                    JavaClass top = c;
                    while (top.getEnclosingClass().isPresent()) {
                        top = top.getEnclosingClass().get();
                    }
                    return java.util.Arrays.asList(FACTORY).contains(top.getName())
                            || top.getPackageName().startsWith("io.spectrum.link.");
                }
            };

    @ArchTest
    static final ArchRule only_the_link_factory_constructs_a_link = noClasses()
            .that(DescribedPredicate.not(THE_FACTORY_OR_A_TRANSPORT))
            .should().callCodeUnitWhere(OPENS_A_LINK)
            .because("every link is named by a URI and opened by the one factory, io.spectrum.runtime.LinkSpec "
                    + "(docs/links.md, \"Links by URI\")");

    @Test
    void theRuleReportsAClassThatOpensALinkAroundTheFactory() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.spectrum.links.archfixture");
        AssertionError e = Assertions.assertThrows(AssertionError.class,
                () -> only_the_link_factory_constructs_a_link.check(fixture));
        String m = e.getMessage();
        Assertions.assertTrue(m.contains("OpensLinksDirectly.dialsUdp()") && m.contains("UdpLink.dial(")
                && m.contains("OpensLinksDirectly.constructsSerial()") && m.contains("SerialLink.<init>("), m);
        Assertions.assertFalse(m.contains("OpensLinksDirectly.asks("), "asking a link for its address is allowed: " + m);
    }
}
