package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestProxy;
import dev.strand.testkit.TestServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The JVM's proxy settings as the default ({@link Proxy#system()}): {@code -Dhttps.proxyHost} and
 * {@code -Dhttp.nonProxyHosts} followed, {@link Proxy#none()} ignoring them; a given
 * {@link ProxySelector} asked per origin.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class SystemProxyTest {
  private static final List<String> PROPERTIES = List.of("https.proxyHost", "https.proxyPort", "http.proxyHost",
      "http.proxyPort", "http.nonProxyHosts", "proxyHost", "proxyPort", "socksProxyHost", "socksProxyPort");

  /** Runs {@code body} with these system properties, restoring the old values after. */
  private static void withProperties(Map<String, String> values, ThrowingRunnable body) throws Exception {
    Map<String, String> old = new java.util.HashMap<>();
    for (String p : PROPERTIES) {
      old.put(p, System.getProperty(p));
    }
    try {
      values.forEach(System::setProperty);
      body.run();
    } finally {
      old.forEach((k, v) -> {
        if (v == null) {
          System.clearProperty(k);
        } else {
          System.setProperty(k, v);
        }
      });
    }
  }

  interface ThrowingRunnable {
    void run() throws Exception;
  }

  @Test
  void theJvmsProxyPropertiesAreFollowedByDefaultAndNoneIgnoresThem() throws Exception {
    try (TestServer server = HttpsTest.tlsServer(false); TestProxy proxy = TestProxy.start()) {
      String url = "https://localhost:" + server.port() + "/small";
      // The JDK adds localhost and 127.* to any non-proxy list but an empty one.
      withProperties(Map.of("https.proxyHost", "127.0.0.1", "https.proxyPort", String.valueOf(proxy.port()),
          "http.nonProxyHosts", ""), () -> {
        try (Client byDefault = Client.builder().tls(SharedTestPki.trustTestCa(Tls.Engine.JDK)).build()) {
          assertArrayEquals(Payloads.SMALL, byDefault.get(url).bytes());
          assertEquals(List.of(new TestProxy.Seen("CONNECT localhost:" + server.port() + " HTTP/1.1", null)),
              proxy.seen());
        }
        try (Client direct = Client.builder().tls(SharedTestPki.trustTestCa(Tls.Engine.JDK)).proxy(Proxy.none()).build()) {
          assertArrayEquals(Payloads.SMALL, direct.get(url).bytes());
          assertEquals(1, proxy.connects(), "Proxy.none() goes direct whatever the JVM says");
        }
        assertEquals(Optional.of(URI.create("http://127.0.0.1:" + proxy.port())),
            Proxy.system().proxyFor(URI.create(url)));
        assertEquals(Optional.empty(), Proxy.system().proxyFor(URI.create("http://localhost/")),
            "http has its own property, unset");
      });
      withProperties(Map.of("https.proxyHost", "127.0.0.1", "https.proxyPort", String.valueOf(proxy.port()),
          "http.nonProxyHosts", "*.example"), () -> {
        assertEquals(Optional.empty(), Proxy.system().proxyFor(URI.create("https://api.example/")));
        assertEquals(Optional.of(URI.create("http://127.0.0.1:" + proxy.port())),
            Proxy.system().proxyFor(URI.create("https://other.test/")));
        try (Client byDefault = Client.builder().tls(SharedTestPki.trustTestCa(Tls.Engine.JDK)).build()) {
          assertArrayEquals(Payloads.SMALL, byDefault.get(url).bytes());
          assertEquals(1, proxy.connects(), "with a list, the JDK adds localhost to it: direct");
        }
      });
    }
  }

  @Test
  void withoutPropertiesEverythingGoesDirect() {
    assertEquals(Optional.empty(), Proxy.system().proxyFor(URI.create("https://example.com/")));
    assertEquals("Proxy[system]", Proxy.system().toString());
  }

  @Test
  void everyHostPropertyOfTheJdksSelectorIsFollowed() throws Exception {
    // Strand answers "direct" itself when none of them is set: each must still route.
    withProperties(Map.of("socksProxyHost", "127.0.0.2", "socksProxyPort", "1080"), () -> {
      assertEquals(Optional.of(URI.create("socks5://127.0.0.2:1080")), systemProxyFor("https://a.test/"));
      assertEquals(Optional.of(URI.create("socks5://127.0.0.2:1080")), systemProxyFor("http://a.test/"));
    });
    withProperties(Map.of("proxyHost", "127.0.0.3", "proxyPort", "3128"), () ->
        assertEquals(Optional.of(URI.create("http://127.0.0.3:3128")), systemProxyFor("http://a.test/")));
    withProperties(Map.of("http.proxyHost", "127.0.0.4", "http.proxyPort", "8080"), () -> {
      assertEquals(Optional.of(URI.create("http://127.0.0.4:8080")), systemProxyFor("http://a.test/"));
      assertEquals(Optional.empty(), systemProxyFor("https://a.test/"), "https has its own");
    });
    assertEquals(Optional.empty(), systemProxyFor("http://a.test/"), "all cleared again");
  }

  private static Optional<URI> systemProxyFor(String url) {
    return Proxy.system().proxyFor(URI.create(url));
  }

  @Test
  void aSelectorIsAskedPerOriginAndItsAnswerFollowed() throws Exception {
    List<URI> asked = new CopyOnWriteArrayList<>();
    try (TestServer server = TestServer.start(); TestProxy proxy = TestProxy.start()) {
      ProxySelector selector = new ProxySelector() {
        @Override
        public List<java.net.Proxy> select(URI uri) {
          asked.add(uri);
          return uri.getHost().equals("example.test")
              ? List.of(new java.net.Proxy(java.net.Proxy.Type.HTTP, new InetSocketAddress("127.0.0.1", proxy.port())))
              : List.of(java.net.Proxy.NO_PROXY);
        }

        @Override
        public void connectFailed(URI uri, SocketAddress sa, IOException ioe) {}
      };
      try (Client client = Client.builder().proxy(Proxy.of(selector)).build()) {
        assertEquals("GET http://example.test/a", client.get("http://example.test/a").text());
        assertEquals(200, client.get(server.url("/small")).status());
        assertEquals(1, proxy.seen().size(), "the other origin went direct: " + proxy.seen());
        assertTrue(asked.contains(URI.create("http://example.test:80/")), asked.toString());
      }
    }
  }

  @Test
  void aSelectorThatThrowsSendsTheConnectionDirect() throws Exception {
    ProxySelector broken = new ProxySelector() {
      @Override
      public List<java.net.Proxy> select(URI uri) {
        throw new IllegalStateException("PAC script failed");
      }

      @Override
      public void connectFailed(URI uri, SocketAddress sa, IOException ioe) {}
    };
    try (TestServer server = TestServer.start(); Client client = Client.builder().proxy(Proxy.of(broken)).build()) {
      assertEquals(200, client.get(server.url("/small")).status());
    }
  }
}
