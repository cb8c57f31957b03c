/**
 * Cookies (RFC 6265): {@code Set-Cookie} parsed, domains matched against the public suffix list,
 * the in-memory jar and its cookies.txt form. Plain code without Netty ({@code LayeringTest}).
 */
package dev.strand.internal.cookie;
