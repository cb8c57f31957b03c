package dev.strand;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;

/**
 * Adds credentials to requests. Implement it for custom flows: {@link #apply} decorates each
 * request; {@link #onChallenge} may answer a 401 with one new request (digest-style flows).
 *
 * {@snippet :
 * Client client = Client.builder().auth(Auth.basic("user", "pass")).build();
 * }
 */
public interface Auth {
  /** The request with credentials added. */
  Request apply(Request request);

  /**
   * Called with a 401 response to {@code request}; returns the request to send instead, or
   * {@code null} to give the 401 to the caller. Called at most once per request.
   */
  default Request onChallenge(Request request, ResponseHead response) {
    return null;
  }

  /** HTTP Basic: {@code Authorization: Basic base64(user:password)}, UTF-8. */
  static Auth basic(String user, String password) {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    if (user.indexOf(':') >= 0) {
      throw new IllegalArgumentException("basic auth user must not contain ':'");
    }
    String value = "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    return request -> request.toBuilder().setHeader("Authorization", value).build();
  }

  /** {@code Authorization: Bearer TOKEN}. */
  static Auth bearer(String token) {
    Objects.requireNonNull(token, "token");
    String value = "Bearer " + token;
    return request -> request.toBuilder().setHeader("Authorization", value).build();
  }
}
