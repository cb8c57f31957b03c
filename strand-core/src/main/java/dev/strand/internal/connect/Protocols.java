package dev.strand.internal.connect;

import dev.strand.VersionPolicy;

/** What each {@link VersionPolicy} asks of the engine, said once, so a new policy is one edit here. */
public final class Protocols {
  private Protocols() {}

  /** Whether {@code policy} sends some or all {@code https} requests over QUIC. */
  public static boolean usesHttp3(VersionPolicy policy) {
    return policy == VersionPolicy.HTTP_3_ONLY || tries(policy);
  }

  /**
   * Whether {@code policy} uses HTTP/3 only where it works: it learns {@code Alt-Svc} and falls back to
   * TCP when QUIC fails or is slow.
   */
  public static boolean tries(VersionPolicy policy) {
    return policy == VersionPolicy.HTTP_3_FIRST || policy == VersionPolicy.HTTP_3_ALT_SVC;
  }

  /** Whether TLS connections offer h2 by ALPN, before http/1.1. */
  public static boolean offersH2(VersionPolicy policy) {
    return policy == VersionPolicy.HTTP_2 || usesHttp3(policy);
  }
}
