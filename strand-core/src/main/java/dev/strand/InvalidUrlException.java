package dev.strand;

/** A URL could not be parsed, or is not an absolute {@code http}/{@code https} URL. Thrown before any byte is sent. */
public class InvalidUrlException extends HttpException {
  private final String url;

  public InvalidUrlException(String message, String url) {
    super(message, null);
    this.url = url;
  }

  public InvalidUrlException(String message, String url, Throwable cause) {
    super(message, null, cause);
    this.url = url;
  }

  /** The URL text that was refused. */
  public String url() {
    return url;
  }
}
