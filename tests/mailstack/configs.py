"""Self-contained Dovecot and Postfix configurations for one test stack (nothing from /etc).

Every rendered file is backdated by a minute: Postfix re-reads a main.cf younger than ~2 s
in a polling loop, which would make each start cost two seconds.
"""

from __future__ import annotations

import grp
import os
import pwd
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.mailstack.stack import MailStack

MAIL_UID = 8  # Debian's "mail" user owns the mailboxes (first_valid_uid must allow it)
MAIL_GID = 8

DOVECOT = """\
# Rendered by tests/mailstack for one test run; self-contained, no /etc includes.
base_dir = {root}/dovecot/run
state_dir = {root}/dovecot/state
instance_name = {instance}
log_path = {root}/dovecot/dovecot.log
info_log_path = {root}/dovecot/info.log
hostname = mx.{gm_domain}
postmaster_address = postmaster@{gm_domain}
protocols = imap lmtp
listen = 127.0.0.1
ssl = yes
ssl_cert = <{root}/tls/cert.pem
ssl_key = <{root}/tls/key.pem
{ssl_dh}
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_username_format = %Lu
auth_verbose = yes
auth_failure_delay = 0
first_valid_uid = {uid}
mail_location = maildir:{root}/mail/%d/%n
mail_fsync = never
mail_max_userip_connections = 100
mailbox_idle_check_interval = 1 secs

passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%Lu {root}/dovecot/users
}}
userdb {{
  driver = passwd-file
  args = username_format=%Lu {root}/dovecot/users
}}

service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps_port}
    ssl = yes
  }}
}}
service lmtp {{
  unix_listener lmtp {{
    mode = 0660
    user = postfix
    group = postfix
  }}
}}
# No growing delays after failed logins: tests log in wrongly on purpose, and the penalty
# would slow down every later login from 127.0.0.1.
service anvil {{
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
service auth {{
  unix_listener auth-client {{
    mode = 0660
    user = postfix
    group = postfix
  }}
}}
"""

MAIN_CF = """\
# Rendered by tests/mailstack for one test run.
compatibility_level = 3.6
queue_directory = {root}/postfix/spool
data_directory = {root}/postfix/data
meta_directory = /etc/postfix
command_directory = /usr/sbin
daemon_directory = /usr/lib/postfix/sbin
shlib_directory = /usr/lib/postfix
mail_owner = postfix
setgid_group = postdrop
myhostname = mx.{gm_domain}
mydomain = {gm_domain}
myorigin = $myhostname
mydestination =
local_recipient_maps =
local_transport = error:no local delivery in the test stack
alias_maps =
alias_database =
notify_classes =
biff = no
append_dot_mydomain = no
inet_interfaces = loopback-only
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = reject_unauth_destination
virtual_mailbox_domains = {gm_domain} {player_domain}
virtual_mailbox_maps = texthash:{root}/postfix/etc/vmailbox
virtual_transport = lmtp:unix:{root}/dovecot/run/lmtp
# the daemon's own LMTP socket for the second GM address (transport "lmtp", docs/lmtp.md)
transport_maps = texthash:{root}/postfix/etc/transport
default_transport = error:outside mail is not deliverable from the test stack
relay_transport = error:outside mail is not deliverable from the test stack
smtp_dns_support_level = disabled
lmtp_dns_support_level = disabled
smtp_host_lookup = native
smtpd_peername_lookup = no
in_flow_delay = 0
maillog_file = {root}/postfix/maillog
maillog_file_prefixes = {root}/postfix
smtpd_banner = $myhostname ESMTP
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = {root}/dovecot/run/auth-client
smtpd_tls_cert_file = {root}/tls/cert.pem
smtpd_tls_key_file = {root}/tls/key.pem
smtpd_tls_security_level = may
smtpd_tls_auth_only = no
"""

MASTER_CF = """\
# Rendered by tests/mailstack: no chroot anywhere ("n"), so absolute socket paths work.
127.0.0.1:{smtp_port} inet n - n - - smtpd
127.0.0.1:{mx_port} inet n - n - - smtpd -o smtpd_sasl_auth_enable=no
127.0.0.1:{smtps_port} inet n - n - - smtpd -o smtpd_tls_wrappermode=yes
pickup     unix  n - n 60 1 pickup
cleanup    unix  n - n -  0 cleanup
qmgr       unix  n - n 300 1 qmgr
tlsmgr     unix  - - n 1000? 1 tlsmgr
rewrite    unix  - - n -  - trivial-rewrite
bounce     unix  - - n -  0 bounce
defer      unix  - - n -  0 bounce
trace      unix  - - n -  0 bounce
verify     unix  - - n -  1 verify
flush      unix  n - n 1000? 0 flush
proxymap   unix  - - n -  - proxymap
proxywrite unix  - - n -  1 proxymap
smtp       unix  - - n -  - smtp
relay      unix  - - n -  - smtp
showq      unix  n - n -  - showq
error      unix  - - n -  - error
retry      unix  - - n -  - error
discard    unix  - - n -  - discard
lmtp       unix  - - n -  - lmtp
anvil      unix  - - n -  1 anvil
scache     unix  - - n -  1 scache
postlog    unix-dgram n - n - 1 postlogd
"""


def _values(stack: MailStack) -> dict[str, object]:
    return {
        "root": stack.root,
        "instance": stack.root.name,
        "gm_domain": stack.gm.split("@")[1],
        "player_domain": stack.players[0].split("@")[1] if stack.players else "players.test",
        "uid": MAIL_UID,
        "imap_port": stack.imap_port,
        "imaps_port": stack.imaps_port,
        "smtp_port": stack.smtp_port,
        "mx_port": stack.mx_port,
        "smtps_port": stack.smtps_port,
    }


def render_dovecot(stack: MailStack) -> None:
    folder = stack.root / "dovecot"
    folder.mkdir(parents=True)
    dh = Path("/usr/share/dovecot/dh.pem")
    ssl_dh = f"ssl_dh = <{dh}" if dh.exists() else ""
    _write(folder / "dovecot.conf", DOVECOT.format(ssl_dh=ssl_dh, **_values(stack)))
    mail = stack.root / "mail"
    mail.mkdir()
    os.chown(mail, MAIL_UID, MAIL_GID)
    # user:password:uid:gid:gecos:home:shell: uid, gid and home are needed, or auth fails
    # with "missing userdb info".
    lines = [
        f"{address}:{{PLAIN}}{password}:{MAIL_UID}:{MAIL_GID}::{mail}/{address}::\n"
        for address, password in stack.users.items()
    ]
    users = folder / "users"
    _write(users, "".join(lines))
    os.chown(users, 0, grp.getgrnam("dovecot").gr_gid)
    users.chmod(0o640)


def render_postfix(stack: MailStack) -> None:
    etc = stack.postfix_dir
    etc.mkdir(parents=True)
    for sub in ("spool", "data"):
        (stack.root / "postfix" / sub).mkdir()
    os.chown(stack.root / "postfix" / "data", _uid("postfix"), grp.getgrnam("postfix").gr_gid)
    _write(etc / "main.cf", MAIN_CF.format(**_values(stack)))
    _write(etc / "master.cf", MASTER_CF.format(**_values(stack)))
    addresses = [*stack.users, stack.lmtp_gm]
    _write(etc / "vmailbox", "".join(f"{address} ok\n" for address in addresses))
    _write(etc / "transport", f"{stack.lmtp_gm} lmtp:unix:{stack.lmtp_socket}\n")
    # as docs/lmtp.md: the socket's directory belongs to the daemon, Postfix's group may enter
    folder = stack.lmtp_socket.parent
    folder.mkdir()
    os.chown(folder, 0, grp.getgrnam("postfix").gr_gid)
    folder.chmod(0o750)


def _uid(name: str) -> int:
    return pwd.getpwnam(name).pw_uid


def _write(path: Path, text: str) -> None:
    path.write_text(text)
    past = time.time() - 60
    os.utime(path, (past, past))
