# Sourced by bin/test (which defines work, free_port, port_busy, start_peer, as_root and need_pkg): the proxies
# enterprises run, on 127.0.0.1, each stopped by bin/test's cleanup through its pid file in $work.
#   - an MIT Kerberos KDC (krb5kdc) with the test realm STRAND.TEST: the user alice (password
#     STRAND_KRB5_PASSWORD) and the service HTTP/localhost, whose key squid's negotiate helper reads;
#   - squid with Digest (digest_file_auth, user "user", password "pass word") on an http_port and an
#     https_port (the test PKI's localhost certificate);
#   - squid with Negotiate (negotiate_kerberos_auth) on an http_port, reached as http://localhost:PORT, since
#     the service name is HTTP@<the host name in the proxy URL>;
#   - tinyproxy behind stunnel (TLS, the test PKI's certificate), a second https:// proxy.
# Exports STRAND_SQUID_DIGEST_URL, STRAND_SQUID_HTTPS_URL, STRAND_SQUID_NEGOTIATE_URL, STRAND_KRB5_CONF,
# STRAND_KRB5_PRINCIPAL, STRAND_KRB5_PASSWORD, STRAND_KRB5_HTTP_KEYTAB, STRAND_KRB5_HTTP_PRINCIPAL,
# STRAND_STUNNEL_PROXY_URL.
need_pkg squid squid-openssl
need_pkg krb5kdc krb5-kdc
need_pkg kadmin.local krb5-admin-server
need_pkg kinit krb5-user
need_pkg stunnel4 stunnel4

realm=STRAND.TEST
krb="$work/krb5"
mkdir -p "$krb"
kdc_port=$(free_port 18750)
cat > "$krb/krb5.conf" <<CONF
[libdefaults]
  default_realm = $realm
  dns_lookup_kdc = false
  dns_lookup_realm = false
  rdns = false
  dns_canonicalize_hostname = false
  udp_preference_limit = 1
[realms]
  $realm = {
    kdc = 127.0.0.1:$kdc_port
  }
[domain_realm]
  localhost = $realm
CONF
cat > "$krb/kdc.conf" <<CONF
[kdcdefaults]
  kdc_ports = $kdc_port
  kdc_tcp_ports = $kdc_port
[realms]
  $realm = {
    database_name = $krb/principal
    key_stash_file = $krb/stash
    acl_file = $krb/kadm5.acl
    supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
  }
[logging]
  kdc = FILE:$krb/kdc.log
CONF
: > "$krb/kadm5.acl"
export STRAND_KRB5_PRINCIPAL="alice@$realm" STRAND_KRB5_PASSWORD="alice-secret"
(
  export KRB5_CONFIG="$krb/krb5.conf" KRB5_KDC_PROFILE="$krb/kdc.conf"
  kdb5_util create -s -r "$realm" -P "master-$$-$RANDOM" >/dev/null
  kadmin.local -r "$realm" -q "addprinc -pw $STRAND_KRB5_PASSWORD alice" >/dev/null
  kadmin.local -r "$realm" -q "addprinc -randkey HTTP/localhost" >/dev/null
  kadmin.local -r "$realm" -q "ktadd -k $krb/http.keytab HTTP/localhost" >/dev/null
)
start_peer krb5kdc "$kdc_port" env KRB5_CONFIG="$krb/krb5.conf" KRB5_KDC_PROFILE="$krb/kdc.conf" \
  krb5kdc -n -r "$realm"
export STRAND_KRB5_CONF="$krb/krb5.conf"
# The service's keytab, for a test that plays an origin asking for Negotiate (a 401) itself.
export STRAND_KRB5_HTTP_KEYTAB="$krb/http.keytab" STRAND_KRB5_HTTP_PRINCIPAL="HTTP/localhost@$realm"

# squid runs as root here and drops to "proxy" for its helpers and files: what they read and write is theirs.
squid_user=proxy
id "$squid_user" >/dev/null 2>&1 || squid_user=nobody
printf 'user:pass word\n' > "$work/squid-digest.pw"
squid_conf() { # squid_conf NAME PORTS_AND_AUTH_LINES
  local dir="$work/$1"
  mkdir -p "$dir"
  cat > "$dir/squid.conf" <<CONF
$2
acl authed proxy_auth REQUIRED
http_access allow authed
http_access deny all
cache deny all
cache_mem 8 MB
pid_filename $dir/squid.pid
access_log stdio:$dir/access.log
cache_log $dir/cache.log
cache_store_log none
coredump_dir $dir
netdb_filename none
cache_effective_user $squid_user
shutdown_lifetime 1 seconds
forwarded_for delete
dns_v4_first on
CONF
}
squid_digest_port=$(free_port $((kdc_port + 1)))
squid_https_port=$(free_port $((squid_digest_port + 1)))
squid_conf squid-digest "http_port 127.0.0.1:$squid_digest_port
https_port 127.0.0.1:$squid_https_port tls-cert=$work/pki/server.pem tls-key=$work/pki/server.key
auth_param digest program /usr/lib/squid/digest_file_auth $work/squid-digest.pw
auth_param digest children 2
auth_param digest realm strand"
squid_negotiate_port=$(free_port $((squid_https_port + 1)))
squid_conf squid-negotiate "http_port 127.0.0.1:$squid_negotiate_port
auth_param negotiate program /usr/lib/squid/negotiate_kerberos_auth -k $krb/http.keytab -s HTTP/localhost@$realm
auth_param negotiate children 2
auth_param negotiate keep_alive on"
chown -R "$squid_user" "$work/squid-digest" "$work/squid-negotiate" "$work/squid-digest.pw" "$krb/http.keytab" 2>/dev/null || true
chmod 0755 "$work" "$krb" 2>/dev/null || true
chmod -R a+rX "$work/pki" 2>/dev/null || true
chmod 0644 "$work/pki/server.key" 2>/dev/null || true
start_peer squid-digest "$squid_digest_port" squid -N -f "$work/squid-digest/squid.conf"
start_peer squid-negotiate "$squid_negotiate_port" env KRB5_CONFIG="$krb/krb5.conf" KRB5_KTNAME="$krb/http.keytab" \
  squid -N -f "$work/squid-negotiate/squid.conf"
export STRAND_SQUID_DIGEST_URL="http://127.0.0.1:$squid_digest_port"
export STRAND_SQUID_HTTPS_URL="https://localhost:$squid_https_port"
export STRAND_SQUID_NEGOTIATE_URL="http://localhost:$squid_negotiate_port"

# tinyproxy behind stunnel: TLS from the client to stunnel, cleartext HTTP proxying behind it.
stunnel_inner_port=$(free_port $((squid_negotiate_port + 1)))
tinyproxy_conf tinyproxy-tls "$stunnel_inner_port"
start_peer tinyproxy-tls "$stunnel_inner_port" tinyproxy -d -c "$work/tinyproxy-tls.conf"
stunnel_port=$(free_port $((stunnel_inner_port + 1)))
cat > "$work/stunnel.conf" <<CONF
foreground = yes
pid =
debug = warning
[proxy]
accept = 127.0.0.1:$stunnel_port
connect = 127.0.0.1:$stunnel_inner_port
cert = $work/pki/server.pem
key = $work/pki/server.key
CONF
start_peer stunnel "$stunnel_port" stunnel4 "$work/stunnel.conf"
export STRAND_STUNNEL_PROXY_URL="https://localhost:$stunnel_port"
echo "strand: $(squid -v | head -1) digest $STRAND_SQUID_DIGEST_URL (TLS $STRAND_SQUID_HTTPS_URL), negotiate" \
  "$STRAND_SQUID_NEGOTIATE_URL (KDC 127.0.0.1:$kdc_port, realm $realm), tinyproxy behind stunnel $STRAND_STUNNEL_PROXY_URL" >&2
