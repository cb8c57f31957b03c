package dev.strand.micrometer;

import dev.strand.Request;
import dev.strand.ResponseHead;
import io.micrometer.observation.transport.RequestReplySenderContext;
import java.net.URI;

/**
 * What an observation of one Strand call knows: the request as the call started, the route its
 * {@linkplain StrandObservation.Builder#uriTemplate template} gave, the client's name, and then the final
 * response's head ({@link #getResponse()}) or the failure ({@link #getError()}).
 *
 * <p>The carrier is the request's builder: a tracing handler (Micrometer Tracing's
 * {@code PropagatingSenderTracingObservationHandler}) writes its headers, such as {@code traceparent},
 * into it when the observation starts, and the call goes on with what was built from it.
 */
public final class StrandObservationContext extends RequestReplySenderContext<Request.Builder, ResponseHead> {
  private final Request request;
  private final String uriTemplate;
  private final String clientName;

  StrandObservationContext(Request request, String uriTemplate, String clientName) {
    super((carrier, name, value) -> {
      if (carrier != null) {
        carrier.setHeader(name, value);
      }
    });
    this.request = request;
    this.uriTemplate = uriTemplate;
    this.clientName = clientName;
    setCarrier(request.toBuilder());
    URI url = request.url();
    setRemoteServiceAddress(url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort()));
  }

  /** The request as the call started (with the client's defaults), before any propagation header. */
  public Request request() {
    return request;
  }

  /** The route the template gave the request, or {@code NONE}. */
  public String uriTemplate() {
    return uriTemplate;
  }

  /** {@link StrandObservation.Builder#clientName}, else the request's host. */
  public String clientName() {
    return clientName;
  }
}
