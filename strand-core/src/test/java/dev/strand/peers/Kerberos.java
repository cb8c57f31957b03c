package dev.strand.peers;

import java.util.HashMap;
import java.util.Map;
import javax.security.auth.Subject;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import javax.security.auth.login.LoginContext;

/** JAAS logins against the test realm (STRAND.TEST) that bin/test's KDC serves. */
final class Kerberos {
  private Kerberos() {}

  /** Points the JDK's Kerberos at the test realm's krb5.conf (each login re-reads it). */
  static void useTestRealm() {
    System.setProperty("java.security.krb5.conf", Peers.env("STRAND_KRB5_CONF"));
  }

  /** A user's login with a password: what a service does with its keytab instead. */
  static Subject login(String principal, String password) throws Exception {
    return login(Map.of("refreshKrb5Config", "true"), principal, password);
  }

  /** A service's login from its keytab, to accept tokens. */
  static Subject service(String principal, String keytab) throws Exception {
    return login(Map.of("refreshKrb5Config", "true", "useKeyTab", "true", "keyTab", keytab, "storeKey", "true",
        "isInitiator", "false", "principal", principal, "doNotPrompt", "true"), principal, null);
  }

  private static Subject login(Map<String, String> options, String principal, String password) throws Exception {
    Configuration kerberos = new Configuration() {
      @Override
      public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
        return new AppConfigurationEntry[] {new AppConfigurationEntry("com.sun.security.auth.module.Krb5LoginModule",
            AppConfigurationEntry.LoginModuleControlFlag.REQUIRED, new HashMap<>(options))};
      }
    };
    LoginContext login = new LoginContext("strand-test", null, callbacks -> {
      for (var c : callbacks) {
        if (c instanceof NameCallback n) {
          n.setName(principal);
        } else if (c instanceof PasswordCallback p && password != null) {
          p.setPassword(password.toCharArray());
        }
      }
    }, kerberos);
    login.login();
    return login.getSubject();
  }
}
