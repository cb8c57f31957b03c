package sample.boot;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** An application with nothing of its own: Boot's auto-configuration and strand-spring's make the clients. */
@SpringBootApplication
public class SampleApplication {}
