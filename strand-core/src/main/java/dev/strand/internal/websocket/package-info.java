/**
 * WebSocket (RFC 6455) client: the opening handshake (an exchange of the exchange driver that
 * switches protocols), the session that reads and writes frames for a {@code dev.strand.WebSocket},
 * close codes and {@code ws://}/{@code wss://} URLs. Used by the engine and by
 * {@code dev.strand.Client}; knows the exchange driver and the pool, not the engine ({@code LayeringTest}).
 */
package dev.strand.internal.websocket;
