package dev.strand.internal.dns;

import dev.strand.Client;
import dev.strand.Dns;
import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.Response;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * DNS over HTTPS (RFC 8484) through a Strand {@link Client}: an AAAA and an A query side by side, each a
 * {@code GET} with the query in {@code ?dns=}, the answers merged (IPv6 first) and kept for the smallest
 * TTL among them. A name with no address is remembered for {@link #NEGATIVE_TTL_SECONDS} at most.
 */
public final class DnsOverHttps implements Dns {
  static final long NEGATIVE_TTL_SECONDS = 30;
  private static final String DNS_MESSAGE = "application/dns-message";

  private final Client client;
  private final URI url;
  private final LongSupplier nanoTime;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();

  public DnsOverHttps(Client client, URI url, LongSupplier nanoTime) {
    if (!"https".equalsIgnoreCase(url.getScheme()) && !"http".equalsIgnoreCase(url.getScheme())) {
      throw new IllegalArgumentException("a DNS-over-HTTPS URL is https:// (or http:// for a test): " + url);
    }
    this.client = client;
    this.url = url;
    this.nanoTime = nanoTime;
  }

  private record Cached(List<InetAddress> addresses, long expiresNanos) {}

  @Override
  public List<InetAddress> lookup(String host) throws UnknownHostException {
    String name = Hosts.normalize(host);
    long now = nanoTime.getAsLong();
    Cached hit = cache.get(name);
    if (hit != null && now - hit.expiresNanos < 0) {
      return answer(name, hit.addresses);
    }
    CompletableFuture<DnsMessage.Answer> v6 = ask(name, DnsMessage.TYPE_AAAA);
    CompletableFuture<DnsMessage.Answer> v4 = ask(name, DnsMessage.TYPE_A);
    DnsMessage.Answer six = await(v6, name);
    DnsMessage.Answer four = await(v4, name);
    List<InetAddress> all = new ArrayList<>(six.addresses());
    all.addAll(four.addresses());
    long ttl = all.isEmpty() ? NEGATIVE_TTL_SECONDS
        : Math.min(six.addresses().isEmpty() ? Long.MAX_VALUE : six.ttlSeconds(),
            four.addresses().isEmpty() ? Long.MAX_VALUE : four.ttlSeconds());
    List<InetAddress> addresses = List.copyOf(all);
    if (ttl > 0) {
      cache.put(name, new Cached(addresses, nanoTime.getAsLong() + Math.min(ttl, 86_400) * 1_000_000_000L));
    }
    return answer(name, addresses);
  }

  private List<InetAddress> answer(String name, List<InetAddress> addresses) throws UnknownHostException {
    if (addresses.isEmpty()) {
      throw new UnknownHostException(name + ": no address (DNS over HTTPS, " + url + ")");
    }
    return addresses;
  }

  private CompletableFuture<DnsMessage.Answer> ask(String name, int type) throws UnknownHostException {
    String query = Base64.getUrlEncoder().withoutPadding().encodeToString(DnsMessage.query(name, type));
    String sep = url.getRawQuery() == null ? "?" : "&";
    Request request = Request.builder("GET", url + sep + "dns=" + query).header("accept", DNS_MESSAGE).build();
    return client.async().send(request).thenApply(r -> {
      try {
        return parse(r);
      } catch (UnknownHostException e) {
        throw new CompletionException(e);
      }
    });
  }

  private DnsMessage.Answer parse(Response r) throws UnknownHostException {
    if (r.status() != 200) {
      throw new UnknownHostException("the DNS-over-HTTPS server " + url + " answered " + r.status() + " " + r.reason());
    }
    String type = r.headers().first("content-type");
    type = type == null ? "" : type;
    if (!type.toLowerCase(java.util.Locale.ROOT).startsWith(DNS_MESSAGE)) {
      throw new UnknownHostException("the DNS-over-HTTPS server " + url + " answered with content-type \"" + type
          + "\", not " + DNS_MESSAGE);
    }
    try {
      return DnsMessage.parse(r.bytes());
    } catch (UnknownHostException e) {
      UnknownHostException named = new UnknownHostException(e.getMessage() + " (from " + url + ")");
      named.initCause(e);
      throw named;
    }
  }

  private DnsMessage.Answer await(CompletableFuture<DnsMessage.Answer> answer, String name) throws UnknownHostException {
    try {
      return answer.join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof UnknownHostException u) {
        throw u;
      }
      UnknownHostException failed = new UnknownHostException("cannot look up " + name + " over HTTPS: "
          + (cause instanceof HttpException h ? h.getMessage() : cause));
      failed.initCause(cause);
      throw failed;
    }
  }

  @Override
  public String toString() {
    return "Dns.overHttps(" + url + ")";
  }
}
