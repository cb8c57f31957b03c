package dev.strand.cli;

import java.net.URI;
import java.util.Locale;
import java.util.Map;

/**
 * Which proxy variable of the environment applies to a URL, following curl: {@code http_proxy}
 * (lower case only, as curl does, since CGI servers set {@code HTTP_PROXY} from a request header)
 * for http, {@code HTTPS_PROXY}/{@code https_proxy} for https, {@code ALL_PROXY}/{@code all_proxy}
 * for both, unless {@code NO_PROXY}/{@code no_proxy} lists the host.
 */
final class ProxyEnv {
  private ProxyEnv() {}

  /** The name of the variable whose proxy would be used for {@code url}, or {@code null}. */
  static String applicable(Map<String, String> env, URI url) {
    String scheme = url.getScheme() == null ? "http" : url.getScheme().toLowerCase(Locale.ROOT);
    String[] names = scheme.equals("https")
        ? new String[] {"https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"}
        : new String[] {"http_proxy", "all_proxy", "ALL_PROXY"};
    String found = null;
    for (String name : names) {
      String v = env.get(name);
      if (v != null && !v.isBlank()) {
        found = name;
        break;
      }
    }
    if (found == null) {
      return null;
    }
    String noProxy = env.get("no_proxy");
    if (noProxy == null || noProxy.isBlank()) {
      noProxy = env.get("NO_PROXY");
    }
    return excluded(noProxy, url) ? null : found;
  }

  /** Whether a {@code NO_PROXY} list names the URL's host: {@code *}, exact hosts, or domain suffixes. */
  static boolean excluded(String noProxy, URI url) {
    if (noProxy == null || url.getHost() == null) {
      return false;
    }
    String host = strip(url.getHost().toLowerCase(Locale.ROOT));
    for (String raw : noProxy.split(",")) {
      String entry = raw.strip().toLowerCase(Locale.ROOT);
      if (entry.isEmpty()) {
        continue;
      }
      if (entry.equals("*")) {
        return true;
      }
      int colon = entry.lastIndexOf(':');
      if (colon > 0 && entry.indexOf(':') == colon && !entry.startsWith("[")) {
        entry = entry.substring(0, colon); // host:port; ports are not compared
      }
      entry = strip(entry);
      if (entry.startsWith(".")) {
        entry = entry.substring(1);
      }
      if (host.equals(entry) || host.endsWith("." + entry)) {
        return true;
      }
    }
    return false;
  }

  private static String strip(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }
}
