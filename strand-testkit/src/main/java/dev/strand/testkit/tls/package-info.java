/**
 * A throw-away PKI for tests: {@link dev.strand.testkit.tls.TestPki} makes a CA, server and client
 * certificates (with the names the tests need) and writes them as PEM files.
 */
package dev.strand.testkit.tls;
