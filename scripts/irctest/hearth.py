"""irctest controller for Hearth (https://github.com/progval/irctest).

scripts/irctest/run copies this file into IRCTEST_DIR/irctest/controllers/hearth.py
and runs `pytest --controller irctest.controllers.hearth`.

The hearth binary is $HEARTH_BIN if set, else `hearth` on $PATH. Its
*.resources bundles must sit next to it (the run script copies them).
Each test gets a fresh data directory (SQLite), a free IRC port and a free HTTP port.
"""

import os
import shutil
import subprocess
from typing import List, Optional, Type

from irctest import patma
from irctest.basecontrollers import BaseServerController, DirectoryBasedController
from irctest.cases import BaseServerTestCase
from irctest.specifications import Capabilities, OptionalBehaviors


def hearth_bin() -> str:
    return os.environ.get("HEARTH_BIN") or shutil.which("hearth") or "hearth"


class HearthController(BaseServerController, DirectoryBasedController):
    software_name = "Hearth"
    _port_wait_interval = 0.05
    # A line crossing from one event loop to another can arrive just after the PONG that
    # irctest uses to synchronise (its clients are on different loops): a short pause first.
    sync_sleep_time = 0.01
    supported_sasl_mechanisms = {"PLAIN", "SCRAM-SHA-256"}
    supports_sts = False
    extban_mute_char = "m"
    # Hearth has no NickServ: accounts are made with `hearth user add` (registerUser).

    # What `CAP LS` advertises and irctest knows about (no sts).
    capabilities = frozenset(
        (
            Capabilities.ACCOUNT_NOTIFY,
            Capabilities.ACCOUNT_TAG,
            Capabilities.AWAY_NOTIFY,
            Capabilities.BATCH,
            Capabilities.ECHO_MESSAGE,
            Capabilities.EXTENDED_JOIN,
            Capabilities.EXTENDED_MONITOR,
            Capabilities.LABELED_RESPONSE,
            Capabilities.MESSAGE_REDACTION,
            Capabilities.MESSAGE_TAGS,
            Capabilities.MULTILINE,
            Capabilities.MULTI_PREFIX,
            Capabilities.READ_MARKER,
            Capabilities.SERVER_TIME,
            Capabilities.SETNAME,
        )
    )

    # Declared behaviours turn irctest's "not supported" skips into failures.
    # Not supported: +C, INVITE listing, ELIST filters (ELIST= is empty), non-UTF-8 (UTF8ONLY),
    # SASL re-authentication (907).
    optional_behaviors = frozenset(
        (
            OptionalBehaviors.BAN_EXCEPTION_MODE,
            OptionalBehaviors.INVITE_EXCEPTION_MODE,
            OptionalBehaviors.CAP_REQ_MINUS,
            OptionalBehaviors.INVITE_OVERRIDES_LIMIT,
            OptionalBehaviors.METADATA_BEFORE_CONNECT,
            OptionalBehaviors.MULTI_JOIN,
            OptionalBehaviors.MULTI_NAMES_COMMAND,
            OptionalBehaviors.MULTI_KICK,
            OptionalBehaviors.MULTI_PRIVMSG,
            OptionalBehaviors.SASL_AFTER_REGISTRATION,
        )
    )

    # Checked by isupport.py::testValues.
    isupport = {
        "BOT": "B",
        "CASEMAPPING": "ascii",
        "CHATHISTORY": patma.ANYSTR,
        "MONITOR": patma.ANYSTR,
        "PREFIX": "(ov)@+",
        "TARGMAX": patma.ANYSTR,
        "UTF8ONLY": None,
    }

    def run(
        self,
        hostname: str,
        port: int,
        *,
        password: Optional[str],
        ssl: bool,
        run_services: bool,
        faketime: Optional[str] = None,
        websocket_hostname: Optional[str] = None,
        websocket_port: Optional[int] = None,
    ) -> None:
        assert self.proc is None
        self.create_config()
        assert self.directory
        self.hostname = hostname
        self.port = port
        self.data_dir = self.directory / "data"
        self.data_dir.mkdir()
        # IRC over WebSocket is served on Hearth's HTTP port.
        if websocket_port is not None:
            http_port = websocket_port
        else:
            (_, http_port) = self.get_hostname_and_port()

        args: List[str] = [
            "serve",
            "--host", hostname,
            "--http-port", str(http_port),
            "--data-dir", str(self.data_dir),
            "--server-name", "My.Little.Server",  # irctest expects this name
            "--description", "test server",  # and this one in LINKS
            "--no-flood-control",  # every test client is on loopback
            "--oper", "operuser:operpassword",
            "--min-password-length", "1",  # tests use short passwords
            "--join-backlog", "0",  # no history lines replayed on JOIN
        ]
        if ssl:
            # Hearth serves TLS on its own port: TLS on the test's port,
            # plain IRC on another free one.
            self.gen_ssl()
            (_, plain_port) = self.get_hostname_and_port()
            (_, https_port) = self.get_hostname_and_port()
            args += ["--irc-port", str(plain_port), "--tls-port", str(port),
                     "--https-port", str(https_port),
                     "--tls-cert", str(self.pem_path), "--tls-key", str(self.key_path)]
        else:
            args += ["--irc-port", str(port)]
        if password is not None:
            args += ["--server-password", password]
        # draft/account-registration as the test case asks (REGISTER is on by default).
        if not self.test_config.account_registration_before_connect:
            args += ["--no-register-before-connect"]
        if self.test_config.account_registration_requires_email:
            args += ["--register-email-required"]
        if self.debug_mode:
            args += ["--log-level", "debug"]

        faketime_cmd: List[str] = []
        if faketime and shutil.which("faketime"):
            faketime_cmd = ["faketime", "-f", faketime]
            self.faketime_enabled = True

        self._command = [*faketime_cmd, hearth_bin(), *args]
        self._start()

    def _start(self) -> None:
        self.proc = self.execute(self._command, proc_name="hearth")

    def restart(self) -> None:
        self.kill_proc()
        self.port_open = False
        self._start()
        self.wait_for_port()

    def wait_for_services(self) -> None:
        pass  # accounts are built in

    def registerUser(
        self,
        case: BaseServerTestCase,
        username: str,
        password: Optional[str] = None,
    ) -> None:
        if not case.run_services:
            # Hearth does not need it, but other controllers do (as in ergo.py).
            raise ValueError(
                "Attempted to register a nick, but `run_services` it not True."
            )
        assert password
        self.wait_for_port()  # the server has made the database by then
        subprocess.run(
            [hearth_bin(), "user", "add", username, password,
             "--data-dir", str(self.data_dir), "--min-password-length", "1"],
            check=True,
            stdout=subprocess.DEVNULL,
        )


def get_irctest_controller_class() -> Type[HearthController]:
    return HearthController
