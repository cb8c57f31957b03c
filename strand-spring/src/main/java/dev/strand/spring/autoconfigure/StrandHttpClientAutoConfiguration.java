package dev.strand.spring.autoconfigure;

import dev.strand.Client;
import dev.strand.spring.StrandClientHttpConnector;
import dev.strand.spring.StrandClientHttpRequestFactory;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ClientHttpConnectorBuilderCustomizer;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.http.client.reactive.ClientHttpConnectorBuilder;
import org.springframework.boot.util.LambdaSafe;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.reactive.ClientHttpConnector;

/**
 * Spring Boot auto-configuration that puts {@code RestClient}, {@code RestTemplate} and {@code WebClient} on
 * Strand when strand-spring is on the class path, as Boot itself picks Apache, Jetty, Reactor Netty or the JDK
 * client: it supplies the {@link ClientHttpRequestFactoryBuilder} and {@link ClientHttpConnectorBuilder} that
 * Boot's own HTTP client auto-configuration would otherwise detect, before it runs, so Boot's
 * {@code RestClient.Builder}, {@code RestTemplateBuilder} and {@code WebClient.Builder} use them.
 *
 * <ul>
 *   <li>One {@link Client} bean serves every client (closed with the context); define your own to configure it
 *       (interceptors, metrics, pool limits). The one made here follows {@code spring.http.clients.*}:
 *       {@code redirects} (followed unless {@code dont-follow}), {@code ssl.bundle}, {@code connect-timeout} and
 *       {@code read-timeout} over Strand's defaults of 5 s, and keeps no cookies.
 *   <li>Timeouts set for one client ({@code RestTemplateBuilder.readTimeout}, {@code spring.http.serviceclient.*})
 *       travel with each request; one that also changes redirects or the SSL bundle gets a Strand client of its own.
 *   <li>It backs off when the application names a client ({@code spring.http.clients.imperative.factory},
 *       {@code spring.http.clients.reactive.connector}) or defines its own builder bean; customizer beans of
 *       either builder apply to Strand's as to Boot's.
 * </ul>
 */
@AutoConfiguration(after = HttpClientAutoConfiguration.class,
    before = {ImperativeHttpClientAutoConfiguration.class, ReactiveHttpClientAutoConfiguration.class})
@ConditionalOnClass({Client.class, ClientHttpRequestFactoryBuilder.class, ClientHttpRequestFactory.class})
public final class StrandHttpClientAutoConfiguration {
  StrandHttpClientAutoConfiguration() {}

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  Client strandHttpClient(ObjectProvider<HttpClientSettings> settings) {
    return StrandClients.build(settings.getIfAvailable(HttpClientSettings::defaults));
  }

  @Bean(destroyMethod = "close")
  StrandClients strandHttpClients(Client client, ObjectProvider<HttpClientSettings> settings) {
    return new StrandClients(client, settings.getIfAvailable(HttpClientSettings::defaults));
  }

  @Configuration(proxyBeanMethods = false)
  @Conditional(Imperative.NotChosen.class)
  static class Imperative {
    @Bean
    @ConditionalOnMissingBean(ClientHttpRequestFactoryBuilder.class)
    ClientHttpRequestFactoryBuilder<?> clientHttpRequestFactoryBuilder(StrandClients clients,
        ObjectProvider<ClientHttpRequestFactoryBuilderCustomizer<?>> customizers) {
      // build() passes no settings: Boot's defaults then, as its own builders take them.
      ClientHttpRequestFactoryBuilder<StrandClientHttpRequestFactory> builder = given -> {
        HttpClientSettings settings = given != null ? given : HttpClientSettings.defaults();
        StrandClientHttpRequestFactory factory = new StrandClientHttpRequestFactory(clients.client(settings));
        factory.setTimeout(StrandClients.timeout(settings));
        return factory;
      };
      return customize(builder, customizers.orderedStream().toList());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ClientHttpRequestFactoryBuilder<?> customize(ClientHttpRequestFactoryBuilder<?> builder,
        List<ClientHttpRequestFactoryBuilderCustomizer<?>> customizers) {
      ClientHttpRequestFactoryBuilder<?>[] result = {builder};
      LambdaSafe.callbacks(ClientHttpRequestFactoryBuilderCustomizer.class, customizers, builder)
          .invoke(c -> result[0] = (ClientHttpRequestFactoryBuilder<?>) ((ClientHttpRequestFactoryBuilderCustomizer) c)
              .customize(result[0]));
      return result[0];
    }

    static final class NotChosen implements Condition {
      @Override
      public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return !context.getEnvironment().containsProperty("spring.http.clients.imperative.factory");
      }
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "reactor.core.publisher.Mono")
  @Conditional(Reactive.NotChosen.class)
  static class Reactive {
    @Bean
    @ConditionalOnMissingBean(ClientHttpConnectorBuilder.class)
    ClientHttpConnectorBuilder<?> clientHttpConnectorBuilder(StrandClients clients,
        ObjectProvider<ClientHttpConnectorBuilderCustomizer<?>> customizers) {
      ClientHttpConnectorBuilder<StrandClientHttpConnector> builder = given -> {
        HttpClientSettings settings = given != null ? given : HttpClientSettings.defaults();
        StrandClientHttpConnector connector = new StrandClientHttpConnector(clients.client(settings));
        connector.setTimeout(StrandClients.timeout(settings));
        return connector;
      };
      return customize(builder, customizers.orderedStream().toList());
    }

    /** Boot's reactive auto-configuration makes this bean only when it detects a client library of its own. */
    @Bean
    @Lazy
    @ConditionalOnMissingBean
    ClientHttpConnector clientHttpConnector(ClientHttpConnectorBuilder<?> builder,
        ObjectProvider<HttpClientSettings> settings) {
      return builder.build(settings.getIfAvailable(HttpClientSettings::defaults));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ClientHttpConnectorBuilder<?> customize(ClientHttpConnectorBuilder<?> builder,
        List<ClientHttpConnectorBuilderCustomizer<?>> customizers) {
      ClientHttpConnectorBuilder<?>[] result = {builder};
      LambdaSafe.callbacks(ClientHttpConnectorBuilderCustomizer.class, customizers, builder)
          .invoke(c -> result[0] = (ClientHttpConnectorBuilder<?>) ((ClientHttpConnectorBuilderCustomizer) c)
              .customize(result[0]));
      return result[0];
    }

    static final class NotChosen implements Condition {
      @Override
      public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        return !context.getEnvironment().containsProperty("spring.http.clients.reactive.connector");
      }
    }
  }
}
