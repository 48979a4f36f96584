# A real SMTP server for the email notification tests: aiosmtpd (runtimes/pip-smtp), set up as a
# production relay is, STARTTLS required before anything else and AUTH (PLAIN or LOGIN) required
# before mail, with one account.
#
# Configured by one JSON argument:
#   { "certificate": PEM path, "key": PEM path, "username": "...", "password": "...",
#     "defer_first": N  (optional: the first N messages are refused with 451, a temporary failure) }
# It listens on an ephemeral loopback port and prints {"port": N}; then, for each message it is
# given, one JSON line {"accepted", "mail_from", "rcpt_tos", "data"} (data decoded as UTF-8).
import asyncio
import json
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

config = json.loads(sys.argv[1])
deferred = 0


class Relay:
    async def handle_DATA(self, server, session, envelope):
        global deferred
        accepted = deferred >= config.get("defer_first", 0)
        deferred += 1
        line = {
            "accepted": accepted,
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "data": envelope.content.decode("utf-8", "replace"),
        }
        print(json.dumps(line), flush=True)
        return "250 OK" if accepted else "451 4.3.0 Try again later"


def authenticate(server, session, envelope, mechanism, auth_data):
    ok = (
        isinstance(auth_data, LoginPassword)
        and auth_data.login.decode() == config["username"]
        and auth_data.password.decode() == config["password"]
    )
    # Not `handled`: aiosmtpd answers a failure with 535 itself.
    return AuthResult(success=ok, handled=False)


async def main():
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    tls.load_cert_chain(config["certificate"], config["key"])
    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: SMTP(
            Relay(),
            hostname="relay.test",
            tls_context=tls,
            require_starttls=True,
            auth_required=True,
            auth_require_tls=True,
            authenticator=authenticate,
        ),
        "127.0.0.1",
        0,
    )
    print(json.dumps({"port": server.sockets[0].getsockname()[1]}), flush=True)
    await server.serve_forever()


asyncio.run(main())
