/**
 * Name resolution behind {@code dev.strand.Dns}: the system resolver filtered by address family,
 * fixed entries ({@code --resolve}), a hosts file, and DNS over HTTPS with its own message codec.
 * Used by the public {@code Dns} and by the dialler.
 */
package dev.strand.internal.dns;
