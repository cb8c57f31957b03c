package dev.strand.internal.client;

import dev.strand.Headers;
import dev.strand.Request;
import dev.strand.RequestBody;
import java.net.URI;

/** Copies of requests with another method or URL, which {@code Request.toBuilder()} cannot change. */
final class Requests {
  private Requests() {}

  static Request with(Request request, String method, URI url, Headers headers, RequestBody body) {
    Request.Builder b = Request.builder(method, url)
        .headers(headers)
        .body(body)
        .timeout(request.timeout())
        .tags(request)
        .expectContinue(body != null && request.expectContinue())
        .uploadProgress(request.uploadProgress())
        .downloadProgress(request.downloadProgress())
        .maxBytesPerSecond(request.maxBytesPerSecond());
    if (request.maxBodySize() >= 0) {
      b.maxBodySize(request.maxBodySize());
    }
    request.retryPolicy().ifPresent(b::retry);
    return b.build();
  }
}
