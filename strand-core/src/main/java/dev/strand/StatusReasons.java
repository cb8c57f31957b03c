package dev.strand;

/** Standard reason phrases, for responses built without one (HTTP/2, mocks). */
final class StatusReasons {
  private StatusReasons() {}

  static String of(int status) {
    return switch (status) {
      case 100 -> "Continue";
      case 101 -> "Switching Protocols";
      case 200 -> "OK";
      case 201 -> "Created";
      case 202 -> "Accepted";
      case 204 -> "No Content";
      case 206 -> "Partial Content";
      case 301 -> "Moved Permanently";
      case 302 -> "Found";
      case 303 -> "See Other";
      case 304 -> "Not Modified";
      case 307 -> "Temporary Redirect";
      case 308 -> "Permanent Redirect";
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 408 -> "Request Timeout";
      case 409 -> "Conflict";
      case 413 -> "Content Too Large";
      case 415 -> "Unsupported Media Type";
      case 417 -> "Expectation Failed";
      case 429 -> "Too Many Requests";
      case 500 -> "Internal Server Error";
      case 501 -> "Not Implemented";
      case 502 -> "Bad Gateway";
      case 503 -> "Service Unavailable";
      case 504 -> "Gateway Timeout";
      default -> "";
    };
  }
}
