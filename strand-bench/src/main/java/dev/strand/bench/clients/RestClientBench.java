package dev.strand.bench.clients;

import dev.strand.Client;
import dev.strand.spring.StrandClientHttpRequestFactory;
import java.net.http.HttpClient;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.Timeout;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.ReactorClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * Spring's RestClient, blocking from N virtual threads, on four request factories: what a Spring application
 * pays for each client under it. Every one reads the body as {@code byte[]}; pools are capped at N.
 */
final class RestClientBench implements BenchClient {
  static final String STRAND_SETUP = "RestClient.builder().requestFactory(new StrandClientHttpRequestFactory(client)), "
      + "client as strand (Limits.ofConnections(N), Timeout.of(30s)) with cookies(false); "
      + "get().retrieve().toEntity(byte[].class) from N virtual threads";
  static final String JDK_SETUP = "RestClient on JdkClientHttpRequestFactory(HttpClient HTTP_1_1, connectTimeout 30s), "
      + "readTimeout 30s; same calls";
  static final String REACTOR_SETUP = "RestClient on ReactorClientHttpRequestFactory(HttpClient.create(ConnectionProvider "
      + "maxConnections = N, pendingAcquireMaxCount -1)), timeouts 30s; same calls";
  static final String APACHE_SETUP = "RestClient on HttpComponentsClientHttpRequestFactory (classic httpclient5, pool "
      + "maxTotal = maxPerRoute = N), timeouts 30s; same calls";

  private final RestClient rest;
  private final String url;
  private final AutoCloseable resource;

  private RestClientBench(ClientSpec spec, ClientHttpRequestFactory factory, AutoCloseable resource) {
    this.rest = RestClient.builder().requestFactory(factory).build();
    this.url = spec.url().toString();
    this.resource = resource;
  }

  static BenchClient strand(ClientSpec spec) {
    Client client = StrandClients.build(spec, b -> b.cookies(false));
    return new RestClientBench(spec, new StrandClientHttpRequestFactory(client), client);
  }

  static BenchClient jdk(ClientSpec spec) {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(spec.timeout())
        .followRedirects(HttpClient.Redirect.NEVER).build();
    JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(client);
    factory.setReadTimeout(spec.timeout());
    return new RestClientBench(spec, factory, client);
  }

  static BenchClient reactor(ClientSpec spec) {
    ConnectionProvider provider = ConnectionProvider.builder("restclient-bench")
        .maxConnections(spec.concurrency())
        .pendingAcquireMaxCount(-1)
        .pendingAcquireTimeout(spec.timeout())
        .build();
    ReactorClientHttpRequestFactory factory = new ReactorClientHttpRequestFactory(
        reactor.netty.http.client.HttpClient.create(provider));
    factory.setConnectTimeout(spec.timeout());
    factory.setReadTimeout(spec.timeout());
    return new RestClientBench(spec, factory, provider::dispose);
  }

  static BenchClient apache(ClientSpec spec) {
    Timeout timeout = Timeout.of(spec.timeout().toMillis(), TimeUnit.MILLISECONDS);
    CloseableHttpClient client = HttpClients.custom()
        .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
            .setMaxConnTotal(spec.concurrency())
            .setMaxConnPerRoute(spec.concurrency())
            .setDefaultConnectionConfig(ConnectionConfig.custom().setConnectTimeout(timeout).setSocketTimeout(timeout)
                .build())
            .build())
        .setDefaultRequestConfig(RequestConfig.custom().setConnectionRequestTimeout(timeout).setResponseTimeout(timeout)
            .setRedirectsEnabled(false).build())
        .build();
    return new RestClientBench(spec, new HttpComponentsClientHttpRequestFactory(client), client);
  }

  @Override
  public boolean isBlocking() {
    return true;
  }

  @Override
  public int getBlocking() {
    ResponseEntity<byte[]> r = rest.get().uri(url).retrieve().toEntity(byte[].class);
    return BenchClient.check(r.getStatusCode().value(), r.getBody() == null ? 0 : r.getBody().length);
  }

  @Override
  public void close() {
    try {
      resource.close();
    } catch (Exception e) {
      throw new IllegalStateException("closing the RestClient's client failed", e);
    }
  }
}
