package dev.strand.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshaker;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshakerFactory;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketExtensionData;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketExtensionUtil;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketServerExtension;
import io.netty.handler.codec.http.websocketx.extensions.compression.PerMessageDeflateServerExtensionHandshaker;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;

/**
 * WebSocket endpoints (RFC 6455, HTTP/1.1 only) on Netty's server-side handshaker. Once the request is read,
 * the exchange takes the connection over: the handshaker swaps the HTTP codec for the frame codec and a
 * {@link Frames} handler replaces the {@link HttpConnection}. Every endpoint answers Pings and, but
 * {@code /ws/deaf}, echoes the client's Close.
 *
 * <ul>
 *   <li>{@code /ws/echo}: echoes text and binary messages. Query: {@code fragment=N} sends each echo in frames
 *       of N bytes; {@code deflate=1} accepts permessage-deflate when offered. The first subprotocol the client
 *       offers (Sec-WebSocket-Protocol) is selected.</li>
 *   <li>{@code /ws/deaf}: echoes like {@code /ws/echo} but ignores the client's Close, and keeps the connection
 *       open until the client drops it.</li>
 *   <li>{@code /ws/close?code=4000&reason=bye}: closes from the server side right after the handshake.</li>
 *   <li>{@code /ws/reject}: answers 403 instead of 101.</li>
 *   <li>{@code /ws/invalid-utf8}: sends one text frame that is not UTF-8.</li>
 * </ul>
 */
final class WebSocketEndpoints {

    /** Largest frame the endpoints accept (the client tests send beyond their own limits, not the server's). */
    static final int MAX_FRAME = 64 * 1024 * 1024;

    private WebSocketEndpoints() {
    }

    static Exchange route(String name) {
        return switch (name) {
            case "echo" -> Exchange.of(c -> upgrade(c, Mode.ECHO));
            case "deaf" -> Exchange.of(c -> upgrade(c, Mode.DEAF));
            case "close" -> Exchange.of(c -> upgrade(c, Mode.CLOSE));
            case "invalid-utf8" -> Exchange.of(c -> upgrade(c, Mode.INVALID_UTF8));
            case "reject" -> Exchange.of(c -> c.sendAndClose(HttpConnection.response(HttpResponseStatus.FORBIDDEN,
                    "text/plain; charset=utf-8", "no WebSocket for you\n".getBytes(StandardCharsets.UTF_8))));
            default -> Routes.NOT_FOUND;
        };
    }

    private enum Mode { ECHO, DEAF, CLOSE, INVALID_UTF8 }

    private static void upgrade(HttpConnection c, Mode mode) {
        if (c.isHttp2()) {
            c.send(HttpConnection.response(HttpResponseStatus.BAD_REQUEST, "text/plain; charset=utf-8",
                    "WebSocket endpoints speak HTTP/1.1 only\n".getBytes(StandardCharsets.UTF_8)));
            return;
        }
        HttpRequest req = c.request();
        String offered = req.headers().get(HttpHeaderNames.SEC_WEBSOCKET_PROTOCOL);
        String subprotocol = offered == null ? null : offered.split(",")[0].trim();
        WebSocketServerHandshaker handshaker = new WebSocketServerHandshakerFactory(
                "ws://" + req.headers().get(HttpHeaderNames.HOST) + c.path(), subprotocol, true, MAX_FRAME)
                .newHandshaker(req);
        Channel ch = c.channel();
        if (handshaker == null) {
            WebSocketServerHandshakerFactory.sendUnsupportedVersionResponse(ch);
            return;
        }
        HttpHeaders responseHeaders = new DefaultHttpHeaders();
        ChannelPipeline p = ch.pipeline();
        Frames frames = new Frames(mode, (int) Routes.parseNonNegative(c.param("fragment", "0")),
                c.param("code", "1000"), c.param("reason", ""));
        p.replace(c.ctx().name(), "ws-endpoint", frames);
        if ("1".equals(c.param("deflate", "0"))) {
            WebSocketServerExtension deflate = acceptDeflate(req, responseHeaders);
            if (deflate != null) {
                // Frames reach these only after the 101, so they can go in before it is written.
                p.addBefore("ws-endpoint", "ws-deflate-decoder", deflate.newExtensionDecoder())
                        .addBefore("ws-endpoint", "ws-deflate-encoder", deflate.newExtensionEncoder());
            }
        }
        DefaultFullHttpRequest full = new DefaultFullHttpRequest(req.protocolVersion(), req.method(), req.uri(),
                Unpooled.EMPTY_BUFFER, req.headers(), EmptyHttpHeaders.INSTANCE);
        handshaker.handshake(ch, full, responseHeaders, ch.newPromise()).addListener(f -> {
            if (f.isSuccess()) {
                frames.opened(p.context(frames));
            } else {
                ch.close();
            }
        });
    }

    /** The permessage-deflate extension if the client offered it, with the answer added to {@code response}. */
    private static WebSocketServerExtension acceptDeflate(HttpRequest req, HttpHeaders response) {
        String offers = req.headers().get(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS);
        if (offers == null) {
            return null;
        }
        PerMessageDeflateServerExtensionHandshaker deflate = new PerMessageDeflateServerExtensionHandshaker();
        for (WebSocketExtensionData offer : WebSocketExtensionUtil.extractExtensions(offers)) {
            WebSocketServerExtension accepted = deflate.handshakeExtension(offer);
            if (accepted != null) {
                WebSocketExtensionData data = accepted.newReponseData();
                StringBuilder value = new StringBuilder(data.name());
                data.parameters().forEach((k, v) -> value.append("; ").append(k).append(v == null ? "" : "=" + v));
                response.set(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS, value.toString());
                return accepted;
            }
        }
        return null;
    }

    /** The frames of one upgraded connection. Reads with auto-read as the server has it. */
    private static final class Frames extends ChannelInboundHandlerAdapter {
        private final Mode mode;
        private final int fragment;
        private final String code;
        private final String reason;
        private boolean closeSent;

        Frames(Mode mode, int fragment, String code, String reason) {
            this.mode = mode;
            this.fragment = fragment;
            this.code = code;
            this.reason = reason;
        }

        void opened(ChannelHandlerContext ctx) {
            ctx.channel().config().setAutoRead(true);
            if (mode == Mode.CLOSE) {
                closeSent = true;
                long status = Routes.parseNonNegative(code);
                ctx.writeAndFlush(new CloseWebSocketFrame((int) (status < 0 ? 1000 : status), reason));
            } else if (mode == Mode.INVALID_UTF8) {
                ctx.writeAndFlush(new TextWebSocketFrame(Unpooled.wrappedBuffer(new byte[] {'o', 'k', (byte) 0xC3})));
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof WebSocketFrame frame)) {
                ReferenceCountUtil.release(msg); // the end of the upgrade request
                return;
            }
            if (frame instanceof PingWebSocketFrame) {
                ctx.writeAndFlush(new PongWebSocketFrame(frame.content()));
            } else if (frame instanceof CloseWebSocketFrame close) {
                if (mode == Mode.DEAF) {
                    close.release();
                } else if (closeSent) {
                    close.release();
                    ctx.close();
                } else {
                    closeSent = true;
                    ctx.writeAndFlush(close).addListener(ChannelFutureListener.CLOSE);
                }
            } else if ((mode == Mode.ECHO || mode == Mode.DEAF) && !closeSent && !(frame instanceof PongWebSocketFrame)) {
                echo(ctx, frame);
            } else {
                frame.release();
            }
        }

        private void echo(ChannelHandlerContext ctx, WebSocketFrame frame) {
            ByteBuf content = frame.content();
            if (fragment <= 0 || content.readableBytes() <= fragment || frame instanceof ContinuationWebSocketFrame) {
                ctx.writeAndFlush(frame);
                return;
            }
            boolean text = frame instanceof TextWebSocketFrame;
            boolean first = true;
            while (content.isReadable()) {
                ByteBuf part = content.readRetainedSlice(Math.min(fragment, content.readableBytes()));
                boolean last = !content.isReadable() && frame.isFinalFragment();
                WebSocketFrame out = !first ? new ContinuationWebSocketFrame(last, 0, part)
                        : text ? new TextWebSocketFrame(last, 0, part) : new BinaryWebSocketFrame(last, 0, part);
                ctx.write(out);
                first = false;
            }
            ctx.flush();
            frame.release();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ConnectionErrors.logUnlessRoutine(ctx, cause);
            ctx.close();
        }
    }
}
