/**
 * Strand for Spring: {@code RestClient}, {@code RestTemplate} and {@code WebClient} on Strand, and Spring Boot
 * auto-configuration that picks it. Spring, Reactor and Boot are the application's; Reactor and Boot are
 * needed only by the parts that use them.
 */
module dev.strand.spring {
  exports dev.strand.spring;
  exports dev.strand.spring.autoconfigure;
  // Boot instantiates the auto-configuration and its nested configurations reflectively.
  opens dev.strand.spring.autoconfigure to spring.core, spring.beans, spring.context;

  requires transitive dev.strand;
  requires transitive spring.web;
  requires transitive spring.core;
  requires java.net.http; // the JDK client's timeout exceptions, which Spring's users already catch
  requires static reactor.core;
  requires static org.reactivestreams;
  requires static spring.beans;
  requires static spring.context;
  requires static spring.boot;
  requires static spring.boot.autoconfigure;
  requires static spring.boot.http.client;
}
