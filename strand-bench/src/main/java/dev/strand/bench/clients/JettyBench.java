package dev.strand.bench.clients;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.transport.HttpClientConnectionFactory;
import org.eclipse.jetty.client.transport.HttpClientTransportDynamic;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.ClientConnectionFactoryOverHTTP2;
import org.eclipse.jetty.io.ClientConnectionFactory;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.client.Result;

/** Jetty 12 HttpClient (HTTP/1.1 transport), connections per destination = concurrency. */
final class JettyBench implements BenchClient {

  static final String SETUP = "new HttpClient(): maxConnectionsPerDestination = N, connect/idle timeout 30s, "
      + "followRedirects false; newRequest(url).timeout(30s).send(BufferingResponseListener), N in flight. "
      + "HttpClientTransportDynamic over a ClientConnector (TLS: SslContextFactory.Client with an SSLContext "
      + "trusting the CA); h2/h2c: ClientConnectionFactoryOverHTTP2.HTTP2 only, its multiplexed pool";

  private final HttpClient client;
  private final String url;
  private final long timeoutMs;

  JettyBench(ClientSpec spec) {
    this.url = spec.url().toString();
    this.timeoutMs = spec.timeout().toMillis();
    ClientConnector connector = new ClientConnector();
    if (spec.ca() != null) {
      SslContextFactory.Client ssl = new SslContextFactory.Client();
      ssl.setSslContext(Trust.sslContext(spec.ca()));
      connector.setSslContextFactory(ssl);
    }
    ClientConnectionFactory.Info protocol = spec.wire().h2()
        ? new ClientConnectionFactoryOverHTTP2.HTTP2(new HTTP2Client(connector))
        : HttpClientConnectionFactory.HTTP11;
    this.client = new HttpClient(new HttpClientTransportDynamic(connector, protocol));
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
    }
  }
}
