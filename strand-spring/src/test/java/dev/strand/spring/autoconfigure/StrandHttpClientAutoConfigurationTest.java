package dev.strand.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.Timeout;
import dev.strand.spring.StrandClientHttpConnector;
import dev.strand.spring.StrandClientHttpRequestFactory;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.boot.http.client.JdkClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.http.client.reactive.ClientHttpConnectorBuilder;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.http.HttpStatus;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

/** A Boot application with strand-spring on its class path gets RestClient, RestTemplate and WebClient on Strand. */
@ExtendWith(NettyLeakDetectorExtension.class)
class StrandHttpClientAutoConfigurationTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(HttpClientAutoConfiguration.class,
          ImperativeHttpClientAutoConfiguration.class, ReactiveHttpClientAutoConfiguration.class,
          StrandHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class,
          RestTemplateAutoConfiguration.class, WebClientAutoConfiguration.class));

  @Test
  void everyClientRunsOnStrand() {
    runner.run(context -> {
      assertThat(context).hasNotFailed().hasSingleBean(Client.class);
      Client client = context.getBean(Client.class);
      StrandClientHttpRequestFactory factory = assertInstanceOf(StrandClientHttpRequestFactory.class,
          context.getBean(ClientHttpRequestFactory.class));
      assertSame(client, factory.client());
      assertInstanceOf(StrandClientHttpConnector.class, context.getBean(ClientHttpConnector.class));

      RestClient rest = context.getBean(RestClient.Builder.class).baseUrl(server.url("")).build();
      assertTrue(rest.get().uri("/small").retrieve().body(String.class).contains("widget"));
      RestTemplateBuilder templates = context.getBean(RestTemplateBuilder.class);
      assertTrue(templates.build().getForObject(server.url("/small"), String.class).contains("widget"));
      WebClient web = context.getBean(WebClient.Builder.class).baseUrl(server.url("")).build();
      assertTrue(web.get().uri("/small").retrieve().bodyToMono(String.class).block(Duration.ofSeconds(10))
          .contains("widget"));
      assertEquals(1, client.stats().connectionsOpened(), "one pool behind all three");
    });
  }

  @Test
  void buildersBuildWithoutSettingsOnTheSharedClient() {
    runner.run(context -> {
      Client client = context.getBean(Client.class);
      assertSame(client, assertInstanceOf(StrandClientHttpRequestFactory.class,
          context.getBean(ClientHttpRequestFactoryBuilder.class).build()).client());
      assertInstanceOf(StrandClientHttpConnector.class, context.getBean(ClientHttpConnectorBuilder.class).build());
    });
  }

  @Test
  void redirectsAreFollowedAsBootDoesByDefault() {
    runner.run(context -> {
      RestClient rest = context.getBean(RestClient.Builder.class).baseUrl(server.url("")).build();
      assertEquals(HttpStatus.OK, rest.get().uri("/redirect/2").retrieve().toBodilessEntity().getStatusCode());
    });
  }

  @Test
  void bootsTimeoutsApply() {
    runner.withPropertyValues("spring.http.clients.read-timeout=200ms").run(context -> {
      RestClient rest = context.getBean(RestClient.Builder.class).baseUrl(server.url("")).build();
      ResourceAccessException e = assertThrows(ResourceAccessException.class,
          () -> rest.get().uri("/never").retrieve().body(String.class));
      assertInstanceOf(HttpTimeoutException.class, e.getCause());
    });
  }

  @Test
  void oneClientsTimeoutsTravelWithItsRequests() {
    runner.run(context -> {
      var template = context.getBean(RestTemplateBuilder.class).readTimeout(Duration.ofMillis(150)).build();
      StrandClientHttpRequestFactory factory = assertInstanceOf(StrandClientHttpRequestFactory.class,
          template.getRequestFactory());
      assertEquals(Timeout.DEFAULT.withRead(Duration.ofMillis(150)), factory.timeout());
      assertSame(context.getBean(Client.class), factory.client());
      assertThrows(ResourceAccessException.class, () -> template.getForObject(server.url("/never"), String.class));
    });
  }

  @Test
  void otherRedirectsGetAClientOfTheirOwn() {
    runner.run(context -> {
      ClientHttpRequestFactoryBuilder<?> builder = context.getBean(ClientHttpRequestFactoryBuilder.class);
      var factory = (StrandClientHttpRequestFactory) builder.build(HttpClientSettings.defaults()
          .withRedirects(HttpRedirects.DONT_FOLLOW));
      assertNotSame(context.getBean(Client.class), factory.client());
      RestClient rest = RestClient.builder().requestFactory(factory).baseUrl(server.url("")).build();
      assertEquals(HttpStatus.FOUND, rest.get().uri("/redirect/1").retrieve().toBodilessEntity().getStatusCode());
    });
  }

  @Test
  void theApplicationsClientIsUsed() {
    try (Client mine = Client.builder().cookies(false).build()) {
      runner.withBean("mine", Client.class, () -> mine, d -> d.setDestroyMethodName("")).run(context -> {
        assertThat(context).hasSingleBean(Client.class);
        var factory = (StrandClientHttpRequestFactory) context.getBean(ClientHttpRequestFactory.class);
        assertSame(mine, factory.client());
      });
    }
  }

  @Test
  void backsOffWhenTheApplicationNamesAClient() {
    runner.withPropertyValues("spring.http.clients.imperative.factory=jdk", "spring.http.clients.reactive.connector=jdk")
        .run(context -> {
          assertInstanceOf(JdkClientHttpRequestFactoryBuilder.class, context.getBean(ClientHttpRequestFactoryBuilder.class));
          assertInstanceOf(JdkClientHttpRequestFactory.class, context.getBean(ClientHttpRequestFactory.class));
          assertInstanceOf(JdkClientHttpConnector.class, context.getBean(ClientHttpConnector.class));
        });
  }

  @Test
  void backsOffForTheApplicationsOwnBuilder() {
    runner.withBean(ClientHttpConnectorBuilder.class, ClientHttpConnectorBuilder::jdk).run(context -> {
      assertInstanceOf(JdkClientHttpConnector.class, context.getBean(ClientHttpConnector.class));
      assertInstanceOf(StrandClientHttpRequestFactory.class, context.getBean(ClientHttpRequestFactory.class));
    });
  }
}
