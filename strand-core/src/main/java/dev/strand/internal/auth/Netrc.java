package dev.strand.internal.auth;

import dev.strand.Auth;
import dev.strand.Request;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A {@code .netrc} file as curl 8 reads it: a stream of whitespace-separated tokens (line breaks are whitespace),
 * so an entry may span lines; {@code machine NAME} or {@code default} starts an entry, {@code login},
 * {@code password} and {@code account} give its values; {@code macdef NAME} skips a macro up to the next empty
 * line; a token starting with {@code #} comments out the rest of its line. A value may be double-quoted, with
 * {@code \"}, {@code \\}, {@code \n}, {@code \r} and {@code \t} escapes, so it can hold spaces.
 */
public final class Netrc implements Auth {
  /** One entry; {@code machine} is {@code null} for {@code default}. */
  public record Entry(String machine, String login, String password) {}

  private final List<Entry> entries;

  private Netrc(List<Entry> entries) {
    this.entries = List.copyOf(entries);
  }

  /** The file {@code $NETRC} names, else {@code ~/.netrc}; no entries if it does not exist. */
  public static Netrc fromEnvironment(Map<String, String> env, String userHome) {
    String named = env.get("NETRC");
    Path file = named != null && !named.isEmpty() ? Path.of(named) : Path.of(userHome, ".netrc");
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      return new Netrc(List.of());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read netrc file " + file, e);
    }
  }

  public static Netrc read(Path file) {
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read netrc file " + file, e);
    }
  }

  public static Netrc parse(String text) {
    List<Entry> entries = new ArrayList<>();
    Tokens tokens = new Tokens(text);
    String machine = null;
    String login = null;
    String password = null;
    boolean inEntry = false;
    String token;
    while ((token = tokens.next()) != null) {
      switch (token) {
        case "machine", "default" -> {
          if (inEntry) {
            entries.add(new Entry(machine, login, password));
          }
          inEntry = true;
          machine = token.equals("machine") ? lower(tokens.next()) : null;
          login = null;
          password = null;
        }
        case "login" -> login = tokens.next();
        case "password" -> password = tokens.next();
        case "account" -> tokens.next();
        case "macdef" -> {
          tokens.next();
          tokens.skipMacro();
        }
        default -> { } // curl ignores what it does not know
      }
    }
    if (inEntry) {
      entries.add(new Entry(machine, login, password));
    }
    return new Netrc(entries);
  }

  private static String lower(String s) {
    return s == null ? null : s.toLowerCase(Locale.ROOT);
  }

  public List<Entry> entries() {
    return entries;
  }

  /** The first entry for {@code host} (case-insensitive), else the {@code default} one, else {@code null}. */
  public Entry find(String host) {
    String h = lower(host);
    Entry fallback = null;
    for (Entry e : entries) {
      if (e.machine() == null) {
        if (fallback == null) {
          fallback = e;
        }
      } else if (e.machine().equals(h)) {
        return e;
      }
    }
    return fallback;
  }

  /** Basic credentials of the entry for the request's host, unless it has an Authorization header already. */
  @Override
  public Request apply(Request request) {
    if (request.headers().contains("Authorization") || request.url().getHost() == null) {
      return request;
    }
    Entry e = find(request.url().getHost());
    if (e == null || e.login() == null) {
      return request;
    }
    String pair = e.login() + ":" + (e.password() == null ? "" : e.password());
    return request.toBuilder().setHeader("Authorization",
        "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8))).build();
  }

  @Override
  public String toString() {
    return "Auth.netrc(" + entries.size() + " entries)"; // never the passwords
  }

  /** The tokenizer. */
  private static final class Tokens {
    private final String s;
    private int i;

    Tokens(String s) {
      this.s = s;
    }

    /** The next token, or {@code null} at the end; comments skipped, quotes and escapes resolved. */
    String next() {
      while (true) {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
          i++;
        }
        if (i >= s.length()) {
          return null;
        }
        if (s.charAt(i) == '#') {
          while (i < s.length() && s.charAt(i) != '\n') {
            i++;
          }
          continue;
        }
        if (s.charAt(i) == '"') {
          return quoted();
        }
        int start = i;
        while (i < s.length() && !Character.isWhitespace(s.charAt(i))) {
          i++;
        }
        return s.substring(start, i);
      }
    }

    private String quoted() {
      StringBuilder sb = new StringBuilder();
      i++; // the opening quote
      while (i < s.length()) {
        char c = s.charAt(i++);
        if (c == '"') {
          return sb.toString();
        }
        if (c == '\\' && i < s.length()) {
          char e = s.charAt(i++);
          sb.append(switch (e) {
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            default -> e;
          });
        } else {
          sb.append(c);
        }
      }
      return sb.toString(); // unterminated: curl takes what there is
    }

    /** Skips a macro body: everything up to an empty line (or the end). */
    void skipMacro() {
      while (i < s.length() && s.charAt(i) != '\n') {
        i++; // the rest of the macdef line
      }
      while (i < s.length()) {
        int eol = s.indexOf('\n', i + 1);
        if (eol < 0) {
          i = s.length();
          return;
        }
        if (s.substring(i + 1, eol).strip().isEmpty()) {
          i = eol;
          return;
        }
        i = eol;
      }
    }
  }
}
