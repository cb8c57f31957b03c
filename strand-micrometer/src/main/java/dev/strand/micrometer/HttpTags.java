package dev.strand.micrometer;

import dev.strand.Request;
import dev.strand.ResponseHead;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;

/**
 * The tag values Micrometer's HTTP client instrumentations give {@code http.client.requests}, from one
 * call's request and its response or failure. Shared by the timer and the default observation convention
 * so both name a call alike.
 */
final class HttpTags {
  static final String NONE = "none";
  /** The {@code uri} of a call no template names: one value, so the tag's cardinality stays bounded. */
  static final String NO_TEMPLATE = "NONE";
  /** The {@code status} of a call that got no response, as Spring's RestClient and WebClient have it. */
  static final String NO_RESPONSE = "CLIENT_ERROR";

  private HttpTags() {}

  static String method(Request request) {
    return request.method();
  }

  /**
   * {@code template} of the request, or {@link #NO_TEMPLATE} when there is none, it answers null or it
   * throws (a throwing template is the caller's bug, and must not fail the call it names).
   */
  static String uri(Function<Request, String> template, Request request, Failures failures) {
    if (template == null) {
      return NO_TEMPLATE;
    }
    try {
      String uri = template.apply(request);
      return uri == null ? NO_TEMPLATE : uri;
    } catch (RuntimeException e) {
      failures.record("the uri template", e);
      return NO_TEMPLATE;
    }
  }

  static String status(ResponseHead response) {
    return response == null ? NO_RESPONSE : Integer.toString(response.status());
  }

  /** SUCCESS, CLIENT_ERROR... by the status class; UNKNOWN without a response or outside 100-599. */
  static String outcome(ResponseHead response) {
    if (response == null) {
      return "UNKNOWN";
    }
    return switch (response.status() / 100) {
      case 1 -> "INFORMATIONAL";
      case 2 -> "SUCCESS";
      case 3 -> "REDIRECTION";
      case 4 -> "CLIENT_ERROR";
      case 5 -> "SERVER_ERROR";
      default -> "UNKNOWN";
    };
  }

  /** The failure's simple class name, or {@code none}. */
  static String exception(Throwable error) {
    if (error == null) {
      return NONE;
    }
    Throwable cause = unwrap(error);
    String simple = cause.getClass().getSimpleName();
    return simple.isEmpty() ? cause.getClass().getName() : simple;
  }

  /** The configured name, else the host, as Spring names a client that was given none. */
  static String clientName(String configured, Request request) {
    if (configured != null) {
      return configured;
    }
    String host = request.url().getHost();
    return host == null ? NONE : host;
  }

  /** The request's URL without user info and query (either may carry secrets): {@code http.url}. */
  static String url(Request request) {
    var url = request.url();
    String host = url.getHost();
    if (host == null) {
      return url.getScheme() + ":";
    }
    return url.getScheme() + "://" + host + (url.getPort() < 0 ? "" : ":" + url.getPort())
        + (url.getRawPath() == null ? "" : url.getRawPath());
  }

  /** The failure a future completed with, without the wrappers {@code CompletableFuture} adds. */
  static Throwable unwrap(Throwable error) {
    Throwable t = error;
    while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
