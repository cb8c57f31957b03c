/** Spring Boot auto-configuration: Boot's HTTP clients on Strand when strand-spring is on the class path. */
package dev.strand.spring.autoconfigure;
