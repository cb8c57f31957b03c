package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A client given its own transport refuses the settings that only the default transport would use. */
class ClientTransportSettingsTest {

  static Stream<Arguments> settingsOfTheDefaultTransport() {
    return Stream.of(
        Arguments.of("tls", (UnaryOperator<Client.Builder>) b -> b.tls(Tls.system())),
        Arguments.of("version", (UnaryOperator<Client.Builder>) b -> b.version(VersionPolicy.HTTP_1_1)),
        Arguments.of("limits", (UnaryOperator<Client.Builder>) b -> b.limits(Limits.ofConnections(4))),
        Arguments.of("proxy", (UnaryOperator<Client.Builder>) b -> b.proxy(Proxy.none())),
        Arguments.of("dns", (UnaryOperator<Client.Builder>) b -> b.dns(Dns.system())),
        Arguments.of("unixSocket", (UnaryOperator<Client.Builder>) b -> b.unixSocket(Path.of("/x.sock"))));
  }

  @ParameterizedTest
  @MethodSource("settingsOfTheDefaultTransport")
  void eachIsRefusedBesideATransportNamingItself(String name, UnaryOperator<Client.Builder> setting) {
    MockTransport mock = MockTransport.of(r -> { throw new AssertionError("nothing is sent"); });
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> setting.apply(Client.builder().transport(mock)).build());
    assertEquals(name + "(...) configure the default transport, but transport(...) is set: give them to that "
        + "transport (NettyTransport.builder()." + name + "(...)) instead", e.getMessage());
  }

  @Test
  void severalAreNamedTogetherAndSettingsOfTheClientItselfAreKept() {
    MockTransport mock = MockTransport.of(r -> { throw new AssertionError("nothing is sent"); });
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> Client.builder().transport(mock)
        .tls(Tls.system()).limits(Limits.DEFAULT).build());
    assertEquals("tls(...), limits(...) configure the default transport, but transport(...) is set: give them to "
        + "that transport (NettyTransport.builder().tls(...)) instead", e.getMessage());
    // Timeouts, redirects and retries are the client's own: they work on any transport.
    Client.builder().transport(mock).timeout(Timeout.DEFAULT).followRedirects(true).retry(RetryPolicy.defaults())
        .build().close();
  }
}
