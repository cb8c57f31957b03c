package dev.strand.bench.clients;

import dev.strand.Client;
import dev.strand.EventListener;
import dev.strand.Interceptor;
import dev.strand.Limits;
import dev.strand.Request;
import dev.strand.Response;
import dev.strand.RetryPolicy;
import dev.strand.Timeout;
import dev.strand.Tls;
import dev.strand.VersionPolicy;
import java.util.concurrent.CompletionStage;
import java.util.function.UnaryOperator;

/** Strand through its public API only: {@code async().send} for {@code strand}, {@code send} for {@code strand-sync}. */
final class StrandClients {

  static final String ASYNC_SETUP = "Client.builder().limits(Limits.ofConnections(N)).timeout(Timeout.of(30s)); "
      + "async().send(Request.get(url)), N in flight. TLS: tls(Tls.builder().trustPem(ca)); version(VersionPolicy) "
      + "HTTP_1_1 (https), HTTP_2 (h2, ALPN; the client's own multiplexing on its pool), HTTP_2_PRIOR_KNOWLEDGE (h2c) "
      + "or HTTP_3_ONLY (h3: QUIC, strand-http3 on the class path); "
      + "handshake: engine JDK or OPENSSL, maxKeepAliveConnections 0 and Connection: close";
  static final String SYNC_SETUP = "same client; blocking send(Request.get(url)) from N virtual threads";
  static final String PIPELINE_SETUP = "as strand, plus retry(RetryPolicy.defaults()), one application and one network "
      + "interceptor that only proceed: what the pipeline costs per request";

  private StrandClients() {
  }

  static BenchClient async(ClientSpec spec) {
    return new Async(build(spec), request(spec));
  }

  static BenchClient sync(ClientSpec spec) {
    return new Sync(build(spec), request(spec));
  }

  static final String LISTENER_SETUP = "as strand, plus eventListener(new EventListener() {}): what a listener that "
      + "does nothing costs per request";

  static BenchClient listener(ClientSpec spec) {
    return new Async(build(spec, b -> b.eventListener(new EventListener() {})), request(spec));
  }

  /** Strand's switch between its I/O transports (io_uring, epoll, nio), read when a transport is built. */
  static final String IO_PROPERTY = "strand.io";
  static final String DRIVE_PROPERTY = "strand.io.drive";
  static final String LOOP_THREAD_SETUP = "as strand, but only the event loop's own thread runs it (-D" + DRIVE_PROPERTY
      + "=loop): a call never writes its request or waits for its response on its own thread";
  static final String SYNC_LOOP_THREAD_SETUP = "as strand-sync, but only the event loop's own thread runs it (-D"
      + DRIVE_PROPERTY + "=loop): each blocking call parks until the loop's thread hands it its response";
  static final String IO_URING_SETUP = "as strand, on Netty's io_uring transport (-D" + IO_PROPERTY + "=io_uring, "
      + "netty-transport-native-io_uring on its class path) instead of epoll; the server stays on epoll";

  /** @throws IllegalStateException if Strand fell back from io_uring: a cell must not measure epoll under this name */
  static BenchClient ioUring(ClientSpec spec) {
    Client client = build(spec);
    String transport = client.stats().transport();
    if (!transport.equals("io_uring")) {
      client.close();
      throw new IllegalStateException("asked for io_uring (-D" + IO_PROPERTY + "=" + System.getProperty(IO_PROPERTY)
          + "), strand runs on " + transport + ": the kernel lacks io_uring, or netty-transport-native-io_uring is "
          + "not on the class path (strand-bench/target/lib-iouring/, made by mvn package)");
    }
    return new Async(client, request(spec));
  }

  static BenchClient pipeline(ClientSpec spec) {
    Interceptor proceed = chain -> chain.proceed(chain.request());
    return new Async(build(spec, b -> b.retry(RetryPolicy.defaults()).interceptor(proceed).networkInterceptor(proceed)),
        request(spec));
  }

  static Request request(ClientSpec spec) {
    // The pool may hand a released connection straight to a waiting request, keep-alive limit or not:
    // "Connection: close" makes the server end every connection, so every request handshakes.
    return spec.newConnectionEach()
        ? Request.builder("GET", spec.url()).header("Connection", "close").build()
        : Request.get(spec.url().toString());
  }

  private static Client build(ClientSpec spec) {
    return build(spec, b -> b);
  }

  static Client build(ClientSpec spec, UnaryOperator<Client.Builder> extra) {
    Limits limits = Limits.ofConnections(spec.concurrency());
    Client.Builder b = extra.apply(Client.builder().timeout(Timeout.of(spec.timeout())));
    if (spec.ca() != null) {
      Tls.Builder tls = Tls.builder().trustPem(spec.ca());
      if (spec.tlsEngine() != null) {
        tls.engine(spec.tlsEngine().equals("openssl") ? Tls.Engine.OPENSSL : Tls.Engine.JDK);
      }
      tls.sessionResumption(spec.tlsResumption());
      // -Dstrand.bench.tlsProtocols=TLSv1.2: a full TLS 1.2 handshake takes two round trips and a resumed one
      // one; under TLS 1.3 both take one, so the round trip resumption saves shows only under 1.2.
      String protocols = System.getProperty("strand.bench.tlsProtocols");
      if (protocols != null) {
        tls.protocols(protocols.split(","));
      }
      b.tls(tls.build());
    }
    if (spec.newConnectionEach()) {
      // Nothing kept alive: every request opens (and handshakes) a new connection.
      limits = limits.withMaxKeepAliveConnections(0);
    }
    b.version(switch (spec.wire()) {
      case H1, H1_TLS -> VersionPolicy.HTTP_1_1;
      case H2_TLS -> VersionPolicy.HTTP_2;
      case H2C -> VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE;
      case H3 -> VersionPolicy.HTTP_3_ONLY;
    });
    Client client = b.limits(limits).build();
    if (spec.tlsEngine() != null && !client.stats().tlsEngine().equals(spec.tlsEngine())) {
      client.close();
      throw new IllegalStateException("asked for TLS engine " + spec.tlsEngine() + ", strand uses "
          + client.stats().tlsEngine());
    }
    return client;
  }

  private record Async(Client client, Request request) implements BenchClient {
    @Override
    public boolean isBlocking() {
      return false;
    }

    @Override
    public CompletionStage<Integer> getAsync() {
      return client.async().send(request).thenApply(Async::length);
    }

    static int length(Response r) {
      return BenchClient.check(r.status(), r.bytes().length);
    }

    @Override
    public void close() {
      client.close();
    }
  }

  private record Sync(Client client, Request request) implements BenchClient {
    @Override
    public boolean isBlocking() {
      return true;
    }

    @Override
    public int getBlocking() {
      return Async.length(client.send(request));
    }

    @Override
    public void close() {
      client.close();
    }
  }
}
