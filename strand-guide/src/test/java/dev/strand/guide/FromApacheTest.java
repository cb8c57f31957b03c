package dev.strand.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.testkit.TestServerExtension;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Apache HttpClient 5's side of the migration notes (docs/guide/migrating.md); the Strand side is {@link ToStrandTest}. */
class FromApacheTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @Test
  void apache() throws Exception {
    String base = server.get().baseUri().toString();
    String[] bodies = new String[2];
    // region apache
    try (CloseableHttpClient client = HttpClients.custom()
        .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
            .setMaxConnTotal(200)
            .setDefaultConnectionConfig(ConnectionConfig.custom().setConnectTimeout(Timeout.ofSeconds(5)).build())
            .build())
        .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(Timeout.ofSeconds(30)).build())
        .build()) {
      String small = client.execute(new HttpGet(base + "/small"), response -> {
        System.out.println(response.getCode());
        return EntityUtils.toString(response.getEntity());   // the handler releases the connection
      });

      HttpPost post = new HttpPost(base + "/echo");
      post.setEntity(new StringEntity("{\"name\": \"widget\"}", ContentType.APPLICATION_JSON));
      String echo = client.execute(post, response -> EntityUtils.toString(response.getEntity()));
      System.out.println(small + " " + echo);
      // endregion
      bodies[0] = small;
      bodies[1] = echo;
    }
    assertEquals(true, bodies[1].contains("widget"));
  }
}
