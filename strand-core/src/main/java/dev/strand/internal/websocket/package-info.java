/**
 * WebSocket (RFC 6455) client: the opening handshake, the session that reads and writes frames
 * for a {@code dev.strand.WebSocket}, close codes and {@code ws://}/{@code wss://} URLs. Used by the
 * engine and by {@code dev.strand.Client}; knows the dialler, not the engine ({@code LayeringTest}).
 */
package dev.strand.internal.websocket;
