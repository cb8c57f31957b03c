package sample.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.spring.StrandClientHttpRequestFactory;
import dev.strand.testkit.TestServer;
import io.netty.util.Version;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/** Boot's RestClient.Builder runs on Strand, on the Netty version Boot manages. */
class ConsumerTest {
  @Test
  void restClientCallsTheTestServerThroughStrand() {
    SpringApplication app = new SpringApplication(SampleApplication.class);
    app.setWebApplicationType(WebApplicationType.NONE);
    try (TestServer server = TestServer.start(); ConfigurableApplicationContext context = app.run()) {
      assertInstanceOf(StrandClientHttpRequestFactory.class,
          context.getBean(ClientHttpRequestFactoryBuilder.class).build());

      RestClient client = context.getBean(RestClient.Builder.class).baseUrl(server.url("")).build();
      ResponseEntity<String> response = client.get().uri("/small").retrieve().toEntity(String.class);
      assertEquals(200, response.getStatusCode().value());

      String netty = Version.identify().get("netty-codec-http").artifactVersion();
      System.out.println("consumer-spring-boot: RestClient on Strand, Netty " + netty + " (Boot's)");
      assertTrue(netty.startsWith("4.2."), netty);
    }
  }
}
