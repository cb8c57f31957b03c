package dev.strand.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.strand.spi.ResponseBody;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of strand-core, as rules that fail the build when broken: the internal packages do
 * not import each other in circles; the policy packages (what to send next, which connection to use,
 * which cookie to keep, how to parse an event) know nothing of Netty, so they stay plain code testable
 * without sockets; the public API and the transport SPI never hand out an internal type; and the SPI
 * is built on the public API alone, so a transport written against it needs nothing unexported.
 */
class LayeringTest {
  /** The packages module-info exports to everyone: the user API and the transport SPI. */
  private static final String[] EXPORTED = {"dev.strand", "dev.strand.spi"};
  private static JavaClasses core;

  @BeforeAll
  static void importCore() {
    core = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.strand");
  }

  @Test
  void internalPackagesAreFreeOfCycles() {
    slices().matching("dev.strand.internal.(*)..").should().beFreeOfCycles().check(core);
  }

  @Test
  void policyPackagesDoNotImportNetty() {
    noClasses().that().resideInAnyPackage("dev.strand.internal.client..", "dev.strand.internal.pool..",
            "dev.strand.internal.cookie..", "dev.strand.internal.sse..", "dev.strand.internal.coding..",
            "dev.strand.internal.retry..")
        .should().dependOnClassesThat().resideInAPackage("io.netty..")
        .check(core);
  }

  @Test
  void theInternalsDoNotReachUpIntoTheEngineFromPolicy() {
    noClasses().that().resideInAnyPackage("dev.strand.internal.pool..", "dev.strand.internal.cookie..",
            "dev.strand.internal.sse..", "dev.strand.internal.coding..", "dev.strand.internal.proxy..",
            "dev.strand.internal.retry..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.strand.internal.netty..", "dev.strand.internal.client..",
            "dev.strand.internal.exchange..", "dev.strand.internal.http1..", "dev.strand.internal.http2..",
            "dev.strand.internal.connect..", "dev.strand.internal.websocket..")
        .check(core);
  }

  @Test
  void thePublicApiNeverExposesAnInternalType() {
    DescribedPredicate<JavaClass> internal = JavaClass.Predicates.resideInAPackage("dev.strand.internal..");
    methods().that().areDeclaredInClassesThat().resideInAnyPackage(EXPORTED)
        .and().arePublic().and().areDeclaredInClassesThat().arePublic()
        .should().notHaveRawReturnType(internal)
        .andShould().notHaveRawParameterTypes(DescribedPredicate.anyElementThat(internal))
        .check(core);
  }

  /** Users read a body through the response; the transport's ResponseBody is met in dev.strand.spi alone. */
  @Test
  void theUserApiHandsOutNoTransportBody() {
    DescribedPredicate<JavaClass> transportBody = JavaClass.Predicates.equivalentTo(ResponseBody.class);
    methods().that().areDeclaredInClassesThat().resideInAPackage("dev.strand")
        .and().arePublic().and().areDeclaredInClassesThat().arePublic()
        .should().notHaveRawReturnType(transportBody)
        .andShould().notHaveRawParameterTypes(DescribedPredicate.anyElementThat(transportBody))
        .check(core);
  }

  @Test
  void thePublicApiHasNoNettyInItsSignatures() {
    DescribedPredicate<JavaClass> netty = JavaClass.Predicates.resideInAPackage("io.netty..");
    methods().that().areDeclaredInClassesThat().resideInAnyPackage(EXPORTED)
        .and().arePublic().and().doNotHaveModifier(JavaModifier.SYNTHETIC)
        .should().notHaveRawReturnType(netty)
        .andShould().notHaveRawParameterTypes(DescribedPredicate.anyElementThat(netty))
        .check(core);
  }

  /**
   * The engine in layers: the exchange driver knows no protocol; the HTTP/1.1 and HTTP/2 framings know
   * the driver and the pool, not how connections are opened nor the engine; opening connections
   * (dial, TLS, proxies) knows the framings it sets up, not the engine, which it sees through a
   * narrow context; the engine ties them together on top.
   */
  @Test
  void theEngineIsLayered() {
    noClasses().that().resideInAPackage("dev.strand.internal.exchange..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.strand.internal.http1..", "dev.strand.internal.http2..",
            "dev.strand.internal.connect..", "dev.strand.internal.websocket..", "dev.strand.internal.netty..")
        .check(core);
    noClasses().that().resideInAnyPackage("dev.strand.internal.http1..", "dev.strand.internal.http2..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.strand.internal.connect..",
            "dev.strand.internal.websocket..", "dev.strand.internal.netty..")
        .check(core);
    noClasses().that().resideInAPackage("dev.strand.internal.http1..")
        .should().dependOnClassesThat().resideInAPackage("dev.strand.internal.http2..")
        .check(core);
    noClasses().that().resideInAnyPackage("dev.strand.internal.connect..", "dev.strand.internal.websocket..")
        .should().dependOnClassesThat().resideInAPackage("dev.strand.internal.netty..")
        .check(core);
  }

  /** Who runs the event loops is below everything: exchanges, connecting and the client all start work on it. */
  @Test
  void theLoopKnowsNothingOfOurs() {
    noClasses().that().resideInAPackage("dev.strand.internal.loop..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.strand", "dev.strand.spi..",
            "dev.strand.internal.client..", "dev.strand.internal.exchange..", "dev.strand.internal.connect..",
            "dev.strand.internal.pool..", "dev.strand.internal.http1..", "dev.strand.internal.http2..",
            "dev.strand.internal.netty..")
        .check(core);
  }

  @Test
  void theSpiDependsOnNoInternals() {
    noClasses().that().resideInAPackage("dev.strand.spi..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.strand.internal..", "io.netty..")
        .check(core);
  }
}
