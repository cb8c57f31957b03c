package dev.strand;

import java.time.Instant;

/**
 * A cookie held by a {@link Client}, as stored from a {@code Set-Cookie} field (RFC 6265). Read-only
 * view: see {@link Client#cookies()}.
 *
 * @param name the cookie name
 * @param value the cookie value, as sent
 * @param domain the host (for a host-only cookie) or the domain it is sent to, lower case
 * @param path sent to this path and below
 * @param expires when it expires, or {@code null} for a session cookie (kept while the client lives)
 * @param secure sent only over https
 * @param httpOnly marked HttpOnly (no meaning for a client without scripts, kept for completeness)
 * @param hostOnly sent only to {@code domain} itself, not to its subdomains (no Domain attribute was given)
 */
public record Cookie(
    String name, String value, String domain, String path, Instant expires, boolean secure, boolean httpOnly,
    boolean hostOnly) {}
