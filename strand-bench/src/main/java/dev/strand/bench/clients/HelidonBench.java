package dev.strand.bench.clients;

import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.WebClient;

/** Helidon 4 WebClient (blocking, built for virtual threads), connection cache sized to the concurrency. */
final class HelidonBench implements BenchClient {

  static final String SETUP = "WebClient.builder(): connectionCacheSize = N, keepAlive, connect/read timeout 30s, "
      + "followRedirects false; get(url).request() and entity().as(byte[].class) from N virtual threads. "
      + "TLS: tls(Tls.builder().sslContext(trusting the CA)); no HTTP/2 (helidon-webclient-http2 not included)";

  private final WebClient client;
  private final String url;

  HelidonBench(ClientSpec spec) {
    this.url = spec.url().toString();
    var b = WebClient.builder();
    if (spec.ca() != null) {
      b.tls(io.helidon.common.tls.Tls.builder().sslContext(Trust.sslContext(spec.ca())).build());
    }
    this.client = b
        .connectionCacheSize(spec.concurrency())
        .keepAlive(true)
        .connectTimeout(spec.timeout())
        .readTimeout(spec.timeout())
        .followRedirects(false)
        .build();
  }

  @Override
  public boolean isBlocking() {
    return true;
  }

  @Override
  public int getBlocking() {
    try (HttpClientResponse r = client.get(url).request()) {
      int status = r.status().code();
      byte[] body = r.entity().as(byte[].class);
      return BenchClient.check(status, body.length);
    }
  }

  @Override
  public void close() {
    client.closeResource();
  }
}
