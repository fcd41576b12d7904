#!/usr/bin/env bash
# Real mail servers on loopback for the email tests (tests/integration/email.rs):
# Postfix (SMTP on 127.0.0.1:25) delivering by LMTP to Dovecot (IMAPS on 127.0.0.1:993),
# domain ccrelay.test, a test CA whose certificate the tests trust (/etc/ccrelay-test/ca.pem).
# Every address @ccrelay.test is a mailbox, and every user logs in to IMAP with the password
# "test-pw": each test makes its own addresses, so tests never read each other's mail. This
# is a test server on the loopback interface only; never configure a real server this way.
#
# Run as root on Debian (bookworm): installs postfix and dovecot from Debian packages if
# missing, (re)writes their configuration, and (re)starts them. Safe to run again.
# Needs no systemd. The tests fail (never skip) when these servers are not running.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

DOMAIN=ccrelay.test
ETC=/etc/ccrelay-test
VHOSTS=/var/mail/vhosts

if ! command -v postfix >/dev/null || ! command -v dovecot >/dev/null \
  || [ ! -e /usr/lib/dovecot/lmtp ] || [ ! -e /usr/lib/dovecot/imap ]; then
  echo "postfix postfix/main_mailer_type select Local only" | debconf-set-selections
  echo "postfix postfix/mailname string $DOMAIN" | debconf-set-selections
  apt-get update -qq
  apt-get install -y -qq postfix dovecot-imapd dovecot-lmtpd openssl >/dev/null
fi

# Stop whatever runs (a previous run of this script, or the packages' own start).
postfix stop >/dev/null 2>&1 || true
if ! doveadm stop >/dev/null 2>&1 && [ -s /run/dovecot/master.pid ]; then
  kill "$(cat /run/dovecot/master.pid)" >/dev/null 2>&1 || true
fi
sleep 1

# A test CA and a server certificate for localhost / 127.0.0.1.
mkdir -p "$ETC"
if [ ! -s "$ETC/ca.pem" ] || [ ! -s "$ETC/server.pem" ]; then
  openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=ccrelay test CA" \
    -keyout "$ETC/ca.key" -out "$ETC/ca.pem" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" \
    -keyout "$ETC/server.key" -out "$ETC/server.csr" 2>/dev/null
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' > "$ETC/server.ext"
  openssl x509 -req -in "$ETC/server.csr" -CA "$ETC/ca.pem" -CAkey "$ETC/ca.key" \
    -CAcreateserial -days 3650 -extfile "$ETC/server.ext" -out "$ETC/server.pem" 2>/dev/null
fi
chmod 0644 "$ETC/ca.pem" "$ETC/server.pem"
chmod 0600 "$ETC/server.key"

# Virtual mail users, all owned by vmail.
getent group vmail >/dev/null || groupadd -g 5000 vmail
getent passwd vmail >/dev/null || useradd -u 5000 -g vmail -d "$VHOSTS" -s /usr/sbin/nologin vmail
mkdir -p "$VHOSTS/$DOMAIN"
chown -R vmail:vmail "$VHOSTS"

cat > /etc/dovecot/dovecot.conf <<CONF
# Written by ccrelay tests/mail/setup.sh: test servers on loopback only.
protocols = imap lmtp
listen = 127.0.0.1
log_path = /var/log/dovecot.log
mail_location = maildir:$VHOSTS/%d/%n/Maildir
mail_uid = vmail
mail_gid = vmail
first_valid_uid = 5000
auth_mechanisms = plain login
disable_plaintext_auth = no
passdb {
  driver = static
  args = password=test-pw
}
userdb {
  driver = static
  args = uid=vmail gid=vmail home=$VHOSTS/%d/%n
}
ssl = yes
ssl_cert = <$ETC/server.pem
ssl_key = <$ETC/server.key
recipient_delimiter = +
lmtp_save_to_detail_mailbox = no
# Postfix asks Dovecot to check SMTP logins (SASL), so the relay's SMTP authentication is
# tested too.
service auth {
  unix_listener /var/spool/postfix/private/auth {
    mode = 0660
    user = postfix
    group = postfix
  }
}
service lmtp {
  unix_listener /var/spool/postfix/private/dovecot-lmtp {
    mode = 0600
    user = postfix
    group = postfix
  }
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = 143
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = 993
    ssl = yes
  }
}
protocol imap {
  mail_max_userip_connections = 100
}
CONF

# Addresses the server refuses for good at RCPT TO (550), for the dead-letter test:
# gone-anything@ccrelay.test.
cat > /etc/postfix/ccrelay-test-refuse <<'MAP'
/^gone-.*@ccrelay\.test$/ 550 5.1.1 mailbox unavailable (ccrelay test)
MAP

postconf -e \
  "myhostname = mail.$DOMAIN" \
  "mydomain = $DOMAIN" \
  "myorigin = $DOMAIN" \
  "inet_interfaces = loopback-only" \
  "inet_protocols = ipv4" \
  "mydestination = localhost" \
  "mynetworks = 127.0.0.0/8" \
  "relayhost =" \
  "recipient_delimiter = +" \
  "virtual_mailbox_domains = $DOMAIN" \
  "virtual_mailbox_maps = static:OK" \
  "virtual_transport = lmtp:unix:private/dovecot-lmtp" \
  "smtpd_tls_cert_file = $ETC/server.pem" \
  "smtpd_tls_key_file = $ETC/server.key" \
  "smtpd_tls_security_level = may" \
  "smtpd_sasl_type = dovecot" \
  "smtpd_sasl_path = private/auth" \
  "smtpd_sasl_auth_enable = yes" \
  "smtpd_tls_auth_only = yes" \
  "message_size_limit = 52428800" \
  "queue_run_delay = 5s" \
  "minimal_backoff_time = 5s" \
  "maximal_backoff_time = 10s" \
  "maillog_file = /var/log/postfix.log" \
  "smtpd_recipient_restrictions = check_recipient_access regexp:/etc/postfix/ccrelay-test-refuse"
# Postfix runs chrooted services from /var/spool/postfix: give them what they need.
postfix check >/dev/null 2>&1 || true

dovecot
postfix start >/dev/null 2>&1

# Wait until both answer.
for _ in $(seq 1 50); do
  if (exec 3<>/dev/tcp/127.0.0.1/25) 2>/dev/null && (exec 3<>/dev/tcp/127.0.0.1/993) 2>/dev/null; then
    echo "mail servers ready: SMTP 127.0.0.1:25, IMAPS 127.0.0.1:993, domain $DOMAIN, CA $ETC/ca.pem"
    exit 0
  fi
  sleep 0.2
done
echo "mail servers did not start; see /var/log/postfix.log and /var/log/dovecot.log" >&2
exit 1
