package dev.strand.bench.clients;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.HttpClientTransport;
import org.eclipse.jetty.client.transport.HttpClientConnectionFactory;
import org.eclipse.jetty.client.transport.HttpClientTransportDynamic;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.ClientConnectionFactoryOverHTTP2;
import org.eclipse.jetty.http3.client.HTTP3Client;
import org.eclipse.jetty.http3.client.transport.HttpClientTransportOverHTTP3;
import org.eclipse.jetty.io.ClientConnectionFactory;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.quic.client.ClientQuicConfiguration;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.client.Result;

/**
 * Jetty 12 HttpClient, connections per destination = concurrency: HTTP/1.1, HTTP/2 (ALPN or prior
 * knowledge) or HTTP/3 (Jetty's QUIC on Cloudflare's quiche through JNA, the native library from
 * {@code org.mortbay.jetty.quiche:jetty-quiche-native}).
 */
final class JettyBench implements BenchClient {

  static final String SETUP = "new HttpClient(): maxConnectionsPerDestination = N, connect/idle timeout 30s, "
      + "followRedirects false; newRequest(url).timeout(30s).send(BufferingResponseListener), N in flight. "
      + "HttpClientTransportDynamic over a ClientConnector (TLS: SslContextFactory.Client with an SSLContext "
      + "trusting the CA); h2/h2c: ClientConnectionFactoryOverHTTP2.HTTP2 only, its multiplexed pool; "
      + "h3: HttpClientTransportOverHTTP3(new HTTP3Client(ClientQuicConfiguration(SslContextFactory.Client "
      + "with a trust store holding the CA))), its multiplexed pool, the URL's host as localhost (quiche "
      + "checks DNS names only)";

  private final HttpClient client;
  private final String url;
  private final long timeoutMs;
  /** HTTP/3 only: where quiche's trust store is written as PEM; removed on close. */
  private Path pemDir;

  JettyBench(ClientSpec spec) {
    // quiche matches the URL's host against the certificate's DNS names only (not its IP addresses).
    this.url = spec.wire() == Wire.H3 ? spec.url().toString().replace("://127.0.0.1:", "://localhost:")
        : spec.url().toString();
    this.timeoutMs = spec.timeout().toMillis();
    this.client = new HttpClient(spec.wire() == Wire.H3 ? http3(spec) : tcp(spec));
    client.setMaxConnectionsPerDestination(spec.concurrency());
    client.setMaxRequestsQueuedPerDestination(Math.max(1024, spec.concurrency() * 2));
    client.setConnectTimeout(timeoutMs);
    client.setIdleTimeout(timeoutMs);
    client.setFollowRedirects(false);
    try {
      client.start();
    } catch (Exception e) {
      throw new IllegalStateException("jetty HttpClient did not start", e);
    }
  }

  private static HttpClientTransport tcp(ClientSpec spec) {
    ClientConnector connector = new ClientConnector();
    if (spec.ca() != null) {
      SslContextFactory.Client ssl = new SslContextFactory.Client();
      ssl.setSslContext(Trust.sslContext(spec.ca()));
      connector.setSslContextFactory(ssl);
    }
    ClientConnectionFactory.Info protocol = spec.wire().h2()
        ? new ClientConnectionFactoryOverHTTP2.HTTP2(new HTTP2Client(connector))
        : HttpClientConnectionFactory.HTTP11;
    return new HttpClientTransportDynamic(connector, protocol);
  }

  /** quiche verifies the server itself, from a trust store it is handed as PEM (written under a work directory). */
  private HttpClientTransport http3(ClientSpec spec) {
    SslContextFactory.Client ssl = new SslContextFactory.Client();
    ssl.setTrustStore(Trust.keyStore(spec.ca()));
    try {
      pemDir = Files.createTempDirectory("jetty-quic-pem");
      return new HttpClientTransportOverHTTP3(new HTTP3Client(new ClientQuicConfiguration(ssl, pemDir)));
    } catch (java.io.IOException e) {
      throw new IllegalStateException("no work directory for Jetty's QUIC", e);
    }
  }

  @Override
  public boolean isBlocking() {
    return false;
  }

  @Override
  public CompletionStage<Integer> getAsync() {
    CompletableFuture<Integer> result = new CompletableFuture<>();
    client.newRequest(url).timeout(timeoutMs, TimeUnit.MILLISECONDS).send(new BufferingResponseListener(4 << 20) {
      @Override
      public void onComplete(Result r) {
        if (r.isFailed()) {
          result.completeExceptionally(r.getFailure());
          return;
        }
        try {
          result.complete(BenchClient.check(r.getResponse().getStatus(), getContent().length));
        } catch (Throwable t) {
          result.completeExceptionally(t);
        }
      }
    });
    return result;
  }

  @Override
  public void close() {
    try {
      client.stop();
    } catch (Exception e) {
      throw new IllegalStateException("jetty HttpClient did not stop", e);
    } finally {
      deletePemDir();
    }
  }

  /** File.deleteOnExit cannot remove a directory Jetty has written into: delete it, contents first. */
  private void deletePemDir() {
    if (pemDir == null) {
      return;
    }
    try (var files = Files.walk(pemDir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (java.io.IOException e) {
      // a leftover temp directory is not worth failing a bench over
    }
  }
}
