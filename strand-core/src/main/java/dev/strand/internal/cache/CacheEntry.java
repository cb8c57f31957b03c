package dev.strand.internal.cache;

import dev.strand.Headers;
import dev.strand.Version;

/**
 * A stored response: its head, its body as it came off the wire (still content-coded), the request
 * header values its {@code Vary} names, and when it was requested and received (epoch milliseconds).
 */
record CacheEntry(String url, Headers varyRequestHeaders, int status, String reason, Version version, Headers headers,
    byte[] body, long requestMillis, long responseMillis) {

  CacheEntry withHead(Headers headers, long requestMillis, long responseMillis) {
    return new CacheEntry(url, varyRequestHeaders, status, reason, version, headers, body, requestMillis, responseMillis);
  }

  /** Bytes it takes on disk, near enough for the size cap. */
  long weight() {
    long w = body.length + url.length() + 64;
    for (int i = 0; i < headers.size(); i++) {
      w += headers.name(i).length() + headers.value(i).length() + 4;
    }
    return w;
  }
}
