package dev.strand.bench.clients;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletionStage;

/** java.net.http.HttpClient, HTTP/1.1 forced: {@code sendAsync} for {@code jdk}, {@code send} for {@code jdk-sync}. */
final class JdkClients {

  static final String ASYNC_SETUP = "HttpClient.newBuilder().version(HTTP_1_1).connectTimeout(30s), default executor; "
      + "request timeout 30s; sendAsync(ofByteArray), N in flight (its pool has no size cap: in-flight bounds it). "
      + "TLS: sslContext trusting the CA; h2: version(HTTP_2) by ALPN, its own pooling (in our runs it opened one connection per request in flight at the start)";
  static final String SYNC_SETUP = "same client; blocking send(ofByteArray) from N virtual threads";

  private JdkClients() {
  }

  static BenchClient async(ClientSpec spec) {
    return new Jdk(spec, false);
  }

  static BenchClient sync(ClientSpec spec) {
    return new Jdk(spec, true);
  }

  private static final class Jdk implements BenchClient {
    private final HttpClient client;
    private final HttpRequest request;
    private final boolean blocking;

    Jdk(ClientSpec spec, boolean blocking) {
      this.blocking = blocking;
      HttpClient.Builder b = HttpClient.newBuilder()
          .version(spec.wire().h2() ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1)
          .connectTimeout(spec.timeout())
          .followRedirects(HttpClient.Redirect.NEVER);
      if (spec.ca() != null) {
        b.sslContext(Trust.sslContext(spec.ca()));
      }
      this.client = b.build();
      this.request = HttpRequest.newBuilder(spec.url()).timeout(spec.timeout()).GET().build();
    }

    @Override
    public boolean isBlocking() {
      return blocking;
    }

    @Override
    public CompletionStage<Integer> getAsync() {
      return client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
          .thenApply(r -> BenchClient.check(r.statusCode(), r.body().length));
    }

    @Override
    public int getBlocking() throws Exception {
      HttpResponse<byte[]> r = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
      return BenchClient.check(r.statusCode(), r.body().length);
    }

    @Override
    public void close() {
      client.close();
    }
  }
}
