package dev.strand.spring.autoconfigure;

import dev.strand.Client;
import dev.strand.Timeout;
import dev.strand.Tls;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.boot.ssl.SslBundle;

/**
 * The Strand clients behind Boot's builders. Timeouts travel per request, so one client serves any; redirects
 * and TLS belong to a client, so settings that differ there from the application's (a {@code RestClientSsl}
 * bundle, a builder that does not follow redirects) get a client of their own, built once per combination
 * and closed with the context. Those are built from the settings alone: they do not carry customizations of
 * a {@link Client} bean the application supplied.
 */
final class StrandClients implements AutoCloseable {
  private final Client shared;
  private final Key sharedKey;
  private final Map<Key, Client> derived = new ConcurrentHashMap<>();

  private record Key(boolean followRedirects, SslBundle sslBundle) {
    static Key of(HttpClientSettings settings) {
      return new Key(settings.redirects() != HttpRedirects.DONT_FOLLOW, settings.sslBundle());
    }
  }

  StrandClients(Client shared, HttpClientSettings applicationSettings) {
    this.shared = shared;
    this.sharedKey = Key.of(applicationSettings);
  }

  /** The client for {@code settings}: the shared one unless their redirects or TLS differ. */
  Client client(HttpClientSettings settings) {
    Key key = Key.of(settings);
    return key.equals(sharedKey) ? shared : derived.computeIfAbsent(key, k -> build(settings));
  }

  /**
   * A client as Boot's settings describe it, with no cookie jar: one client serves every user of a server
   * application, and a jar would carry one user's cookies into another's calls.
   */
  static Client build(HttpClientSettings settings) {
    Client.Builder b = Client.builder()
        .cookies(false)
        .followRedirects(settings.redirects() != HttpRedirects.DONT_FOLLOW);
    Timeout timeout = timeout(settings);
    if (timeout != null) {
      b.timeout(timeout);
    }
    SslBundle ssl = settings.sslBundle();
    if (ssl != null) {
      Tls.Builder tls = Tls.builder().sslContext(ssl.createSslContext());
      String[] protocols = ssl.getOptions().getEnabledProtocols();
      if (protocols != null && protocols.length > 0) {
        tls.protocols(protocols);
      }
      b.tls(tls.build());
    }
    return b.build();
  }

  /** Boot's connect and read timeouts over Strand's defaults, or {@code null} when neither is set. */
  static Timeout timeout(HttpClientSettings settings) {
    Duration connect = settings.connectTimeout();
    Duration read = settings.readTimeout();
    if (connect == null && read == null) {
      return null;
    }
    Timeout t = Timeout.DEFAULT;
    if (connect != null) {
      t = t.withConnect(connect);
    }
    if (read != null) {
      t = t.withRead(read);
    }
    return t;
  }

  @Override
  public void close() {
    derived.values().forEach(Client::close);
    derived.clear();
  }
}
