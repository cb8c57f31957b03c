package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProxyEnvTest {
  private static final URI HTTP = URI.create("http://api.example.com:8080/x");
  private static final URI HTTPS = URI.create("https://api.example.com/x");

  @Test
  void picksTheVariableForTheScheme() {
    assertEquals("http_proxy", ProxyEnv.applicable(Map.of("http_proxy", "http://p:3128"), HTTP));
    assertNull(ProxyEnv.applicable(Map.of("HTTP_PROXY", "http://p:3128"), HTTP), "upper-case HTTP_PROXY is ignored");
    assertEquals("HTTPS_PROXY", ProxyEnv.applicable(Map.of("HTTPS_PROXY", "http://p:3128"), HTTPS));
    assertNull(ProxyEnv.applicable(Map.of("https_proxy", "http://p:3128"), HTTP));
    assertEquals("ALL_PROXY", ProxyEnv.applicable(Map.of("ALL_PROXY", "socks5://p"), HTTP));
    assertNull(ProxyEnv.applicable(Map.of(), HTTPS));
  }

  @Test
  void noProxyExcludesHostsAndDomains() {
    assertNull(ProxyEnv.applicable(Map.of("http_proxy", "p", "NO_PROXY", "localhost, .example.com"), HTTP));
    assertNull(ProxyEnv.applicable(Map.of("http_proxy", "p", "no_proxy", "*"), HTTP));
    assertTrue(ProxyEnv.excluded("example.com", HTTP), "a domain covers its subdomains");
    assertTrue(ProxyEnv.excluded("api.example.com:8080", HTTP), "ports are ignored");
    assertTrue(ProxyEnv.excluded("127.0.0.1", URI.create("http://127.0.0.1:9/")));
    assertTrue(ProxyEnv.excluded("::1", URI.create("http://[::1]:9/")));
    assertFalse(ProxyEnv.excluded("ample.com", HTTP), "suffixes match at dots only");
    assertFalse(ProxyEnv.excluded("other.org", HTTP));
  }
}
