package dev.strand;

import dev.strand.internal.dns.DnsOverHttps;
import dev.strand.internal.dns.FamilyFilter;
import dev.strand.internal.dns.StaticDns;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Turns a host name into the addresses a connection may be opened to: the seam for tests, service
 * discovery, DNS over HTTPS and curl's {@code --resolve}. Set it with {@link NettyTransport.Builder#dns}
 * or {@link Client.Builder#dns}; the default is {@link #system()}.
 *
 * <p>The transport connects to the addresses in the order given, IPv6 and IPv4 interleaved from the family
 * of the first one (RFC 8305, Happy Eyeballs): see {@link NettyTransport.Builder#connectAttemptDelay}. A
 * name that is an IP literal is never looked up. {@link #lookup} is called on a virtual thread, never on
 * an I/O thread, so it may block.
 *
 * {@snippet :
 * Dns pinned = Dns.overrides(Map.of("api.example.com", List.of(InetAddress.getByName("10.0.0.7"))), Dns.system());
 * Client client = Client.builder().dns(pinned.ipv4Only()).build();
 * }
 */
@FunctionalInterface
public interface Dns {
  /**
   * The addresses of {@code host}, in the order to try them; never empty.
   *
   * @param host a host name, lower case, without brackets or a trailing dot
   * @throws UnknownHostException if the name has no address (the message says why)
   */
  List<InetAddress> lookup(String host) throws UnknownHostException;

  /** The operating system's resolver ({@link InetAddress#getAllByName}), with the JVM's address cache. */
  static Dns system() {
    return host -> Arrays.asList(InetAddress.getAllByName(host));
  }

  /**
   * Fixed addresses for some names, the rest from {@code fallback}: curl's {@code --resolve}, or a test
   * that sends a real name to a local server. Keys are host names (compared without case); TLS still
   * verifies the certificate against the name, not the address.
   *
   * @throws IllegalArgumentException if a name has no address
   */
  static Dns overrides(Map<String, List<InetAddress>> addresses, Dns fallback) {
    return new StaticDns(addresses, Objects.requireNonNull(fallback, "fallback"));
  }

  /**
   * DNS over HTTPS (RFC 8484) through {@code client}: an AAAA and an A query side by side, each a {@code GET}
   * of {@code url} with the query in {@code ?dns=}, IPv6 addresses first, answers cached for their TTL.
   * The client is the caller's (its TLS settings, timeouts and HTTP/2 apply; close it when done with the
   * resolver); give it the resolver's own addresses with {@link #overrides}, so that finding the resolver
   * needs no other DNS (the bootstrap).
   *
   * {@snippet :
   * Client bootstrap = Client.builder()
   *     .dns(Dns.overrides(Map.of("dns.example", List.of(InetAddress.getByName("192.0.2.53"))), Dns.system()))
   *     .build();
   * Client client = Client.builder().dns(Dns.overHttps(bootstrap, URI.create("https://dns.example/dns-query"))).build();
   * }
   *
   * @implNote A name with no address is remembered for 30 s. A malformed answer, an answer that is not
   *     {@code application/dns-message}, or a status other than 200 fails the lookup with
   *     {@link UnknownHostException} naming what was wrong; a failure to reach the resolver names its cause.
   */
  static Dns overHttps(Client client, URI url) {
    return new DnsOverHttps(Objects.requireNonNull(client, "client"), Objects.requireNonNull(url, "url"), System::nanoTime);
  }

  /** Only this resolver's IPv4 addresses (curl's {@code -4}); a name with none is unknown. */
  default Dns ipv4Only() {
    return new FamilyFilter(this, FamilyFilter.Family.IPV4);
  }

  /** Only this resolver's IPv6 addresses (curl's {@code -6}); a name with none is unknown. */
  default Dns ipv6Only() {
    return new FamilyFilter(this, FamilyFilter.Family.IPV6);
  }
}
