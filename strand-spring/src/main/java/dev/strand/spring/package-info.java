/**
 * Spring's HTTP client abstractions on Strand: {@link dev.strand.spring.StrandClientHttpRequestFactory} for
 * {@code RestClient} and {@code RestTemplate}, {@link dev.strand.spring.StrandClientHttpConnector} for
 * {@code WebClient}. Spring itself is the application's; with Spring Boot,
 * {@link dev.strand.spring.autoconfigure.StrandHttpClientAutoConfiguration} picks Strand by itself.
 */
package dev.strand.spring;
