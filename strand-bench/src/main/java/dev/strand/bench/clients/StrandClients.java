package dev.strand.bench.clients;

import dev.strand.Client;
import dev.strand.Limits;
import dev.strand.Request;
import dev.strand.Response;
import dev.strand.Timeout;
import java.util.concurrent.CompletionStage;

/** Strand through its public API only: {@code sendAsync} for {@code strand}, {@code send} for {@code strand-sync}. */
final class StrandClients {

  static final String ASYNC_SETUP = "Client.builder().limits(Limits.ofConnections(N)).timeout(Timeout.of(30s)); "
      + "sendAsync(Request.get(url)), N in flight";
  static final String SYNC_SETUP = "same client; blocking send(Request.get(url)) from N virtual threads";

  private StrandClients() {
  }

  static BenchClient async(ClientSpec spec) {
    return new Async(build(spec), spec);
  }

  static BenchClient sync(ClientSpec spec) {
    return new Sync(build(spec), spec);
  }

  private static Client build(ClientSpec spec) {
    return Client.builder()
        .limits(Limits.ofConnections(spec.concurrency()))
        .timeout(Timeout.of(spec.timeout()))
        .build();
  }

  private record Async(Client client, Request request) implements BenchClient {
    Async(Client client, ClientSpec spec) {
      this(client, Request.get(spec.url().toString()));
    }

    @Override
    public boolean isBlocking() {
      return false;
    }

    @Override
    public CompletionStage<Integer> getAsync() {
      return client.sendAsync(request).thenApply(Async::length);
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
    Sync(Client client, ClientSpec spec) {
      this(client, Request.get(spec.url().toString()));
    }

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
