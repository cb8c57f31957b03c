package dev.strand;

/** Thrown by {@link Response#raiseForStatus()} for a 4xx or 5xx response; carries both request and response. */
public class HttpStatusException extends HttpException {
  private final transient Response response;

  public HttpStatusException(String message, Response response) {
    super(message, response.request());
    this.response = response;
  }

  /** The response whose status was an error. Its body is already read. */
  public Response response() {
    return response;
  }

  /** Shortcut for {@code response().status()}. */
  public int status() {
    return response.status();
  }
}
