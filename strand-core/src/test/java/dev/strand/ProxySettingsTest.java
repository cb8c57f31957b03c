package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link Proxy}'s parsing and its choice of proxy per URL; no network. */
class ProxySettingsTest {
  /** "env" is {@code NAME=value;NAME=value}; "expected" is the proxy for the URL, or "direct". */
  @ParameterizedTest(name = "{0} | {1} -> {2}")
  @CsvSource(delimiter = '|', textBlock = """
      ''                                                    | http://example.com/       | direct
      'HTTP_PROXY=http://p:3128'                            | http://example.com/       | http://p:3128
      'HTTP_PROXY=http://p:3128'                            | https://example.com/      | direct
      'HTTPS_PROXY=p:8080'                                  | https://example.com/      | http://p:8080
      'http_proxy=http://lower:1;HTTP_PROXY=http://upper:2' | http://example.com/       | http://lower:1
      'http_proxy=;HTTP_PROXY=http://upper:2'               | http://example.com/       | http://upper:2
      'https_proxy=http://lower:1;HTTPS_PROXY=http://up:2'  | https://example.com/      | http://lower:1
      'ALL_PROXY=http://all:3'                              | https://example.com/      | http://all:3
      'ALL_PROXY=http://all:3;HTTP_PROXY=http://h:4'        | http://example.com/       | http://h:4
      'all_proxy=socks5h://s'                               | http://example.com/       | socks5://s:1080
      'HTTP_PROXY=http://u:pw@p'                            | http://example.com:8080/  | http://p:80
      'HTTP_PROXY=http://p:3128;REQUEST_METHOD=GET'         | http://example.com/       | direct
      'http_proxy=http://p:3128;REQUEST_METHOD=GET'         | http://example.com/       | http://p:3128
      'HTTP_PROXY=http://p:3128;NO_PROXY=example.com'       | http://www.example.com/   | direct
      'HTTP_PROXY=http://p:3128;NO_PROXY=example.com'       | http://example.org/       | http://p:3128
      'HTTP_PROXY=http://p:3128;no_proxy=*'                 | http://example.org/       | direct
      'HTTP_PROXY=http://p:3128;no_proxy=a;NO_PROXY=*'      | http://example.org/       | http://p:3128
      'HTTPS_PROXY=http://p:3128;NO_PROXY=10.0.0.0/8'       | https://10.1.2.3/         | direct
      'HTTPS_PROXY=http://p:3128;NO_PROXY=example.com:443'  | https://example.com/      | direct
      'HTTPS_PROXY=http://p:3128;NO_PROXY=example.com:443'  | https://example.com:8443/ | http://p:3128
      'HTTPS_PROXY=http://p:3128'                           | wss://example.com/        | http://p:3128
      'HTTPS_PROXY=http://p:3128'                           | ftp://example.com/        | direct
      """)
  void fromEnvironment(String env, String url, String expected) {
    Optional<URI> via = Proxy.fromEnvironment(parseEnv(env)).proxyFor(URI.create(url));
    assertEquals(expected, via.map(URI::toString).orElse("direct"));
  }

  @Test
  void unusableVariableIsNamedAndPasswordHidden() {
    var e = assertThrows(InvalidUrlException.class,
        () -> Proxy.fromEnvironment(Map.of("HTTPS_PROXY", "ftp://user:secret@p:443")));
    assertTrue(e.getMessage().startsWith("HTTPS_PROXY: unsupported proxy scheme \"ftp\""), e.getMessage());
    assertFalse(e.getMessage().contains("secret"), e.getMessage());
    assertFalse(e.url().contains("secret"), e.url());
    var bad = assertThrows(InvalidUrlException.class, () -> Proxy.fromEnvironment(Map.of("all_proxy", "socks4://p")));
    assertTrue(bad.getMessage().contains("all_proxy: unsupported proxy scheme \"socks4\""), bad.getMessage());
  }

  @Test
  void httpFactory() {
    URI target = URI.create("https://example.com/");
    assertEquals(Optional.of(URI.create("http://127.0.0.1:3128")), Proxy.http("http://u:p@127.0.0.1:3128/").proxyFor(target));
    assertEquals(Optional.of(URI.create("http://proxy:80")), Proxy.http("proxy").proxyFor(target));
    assertEquals(Optional.of(URI.create("http://[::1]:3128")), Proxy.http("http://[::1]:3128").proxyFor(target));
    assertEquals(Optional.empty(), Proxy.none().proxyFor(target));
    assertEquals(Optional.empty(), Proxy.http("proxy:1").proxyFor(URI.create("/relative")));
    assertEquals(Proxy.http("http://proxy:80"), Proxy.http("proxy"));
    assertFalse(Proxy.http("http://u:secret@p:1").toString().contains("secret"));
    assertEquals(Optional.of(URI.create("https://p:443")), Proxy.http("https://p").proxyFor(target));
    assertEquals(Optional.of(URI.create("https://p:3129")), Proxy.http("https://u:p@p:3129").proxyFor(target));
    assertThrows(InvalidUrlException.class, () -> Proxy.http("http://p:3128/some/path"));
    assertThrows(InvalidUrlException.class, () -> Proxy.http("http://"));
    assertThrows(InvalidUrlException.class, () -> Proxy.http("socks5://p:1080"));
    assertEquals(Optional.of(URI.create("socks5://s:1080")), Proxy.socks5("s").proxyFor(target));
    assertThrows(InvalidUrlException.class, () -> Proxy.socks5("http://p:3128"));
  }

  @Test
  void clientRefusesAProxyItCannotApply() {
    var e = assertThrows(IllegalStateException.class, () -> Client.builder()
        .transport(MockTransport.of(r -> Response.builder(200).build())).proxy(Proxy.http("p:1")).build());
    assertTrue(e.getMessage().contains("NettyTransport.builder().proxy"), e.getMessage());
  }

  private static Map<String, String> parseEnv(String env) {
    Map<String, String> m = new HashMap<>();
    for (String pair : env.split(";")) {
      if (!pair.isEmpty()) {
        int eq = pair.indexOf('=');
        m.put(pair.substring(0, eq), pair.substring(eq + 1));
      }
    }
    return m;
  }
}
