"""A small Hearth client for bots, Python 3 standard library only.

It speaks IRC (so bots get message tags and labeled replies), logs in with PASS,
marks the account as a bot, and can ask the built-in bot a command and wait for
exactly its answer, thanks to IRCv3 labeled-response.

    from hearth import Hearth
    h = Hearth("127.0.0.1", 6667, "mybot", "a-long-password", register=True)
    for line in h.ask("!fortune"): print(line)
"""
import itertools
import socket
import time


def parse(line):
    """An IRC line as (tags, source, command, params)."""
    tags = {}
    if line.startswith("@"):
        raw, line = line[1:].split(" ", 1)
        for item in raw.split(";"):
            key, _, value = item.partition("=")
            tags[key] = value
    source = None
    if line.startswith(":"):
        source, line = line[1:].split(" ", 1)
    if " :" in line:
        head, trailing = line.split(" :", 1)
        params = head.split() + [trailing]
    else:
        params = line.split()
    return tags, source, params[0].upper(), params[1:]


def nick_of(source):
    return (source or "").split("!", 1)[0]


class Hearth:
    def __init__(self, host, port, nick, password, register=False, timeout=15):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.buffer = b""
        self.pending = []  # lines read while waiting for something else
        self.labels = itertools.count(1)
        self.nick = nick
        self.send("CAP LS 302")
        self.send("CAP REQ :labeled-response batch message-tags server-time")
        if not register:
            self.send(f"PASS {nick}:{password}")
        self.send(f"NICK {nick}")
        self.send(f"USER {nick} 0 * :Hearth bot {nick}")
        self.send("CAP END")
        self.wait_for(lambda p: p[2] == "376" or p[2] == "422")  # end of MOTD
        if register:
            replies = self.ask(f"!register {nick} {password}")
            if not any("Welcome to Hearth" in r for r in replies) and not any("taken" in r for r in replies):
                raise RuntimeError("could not register: " + " / ".join(replies))
            if any("taken" in r for r in replies):
                self.ask(f"!login {nick} {password}")
        self.ask("!set bot on")  # marked +B: clients show it is a bot

    def send(self, line):
        self.sock.sendall(line.encode() + b"\r\n")

    def say(self, target, text):
        self.send(f"PRIVMSG {target} :{text}")

    def read_line(self, timeout=None):
        """The next line from the server, answering PINGs; None on timeout."""
        if self.pending:
            return self.pending.pop(0)
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\r\n" not in self.buffer:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.sock.settimeout(left)
            else:
                self.sock.settimeout(None)
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                return None
            if not data:
                raise ConnectionError("server closed the connection")
            self.buffer += data
        line, self.buffer = self.buffer.split(b"\r\n", 1)
        text = line.decode("utf-8", "replace")
        if text.startswith("PING"):
            self.send("PONG" + text[4:])
            return self.read_line(timeout)
        return text

    def wait_for(self, match, timeout=15):
        """Reads until a parsed line satisfies `match`; other lines are kept for later."""
        skipped = []
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                line = self.read_line(deadline - time.monotonic())
                if line is None:
                    break
                parsed = parse(line)
                if match(parsed):
                    return parsed
                skipped.append(line)
            raise TimeoutError("nothing matched")
        finally:
            self.pending = skipped + self.pending

    def ask(self, command, timeout=15):
        """Sends a command to the built-in bot privately; returns its reply lines."""
        label = f"b{next(self.labels)}"
        self.send(f"@label={label} PRIVMSG hearth :{command}")
        replies, batch = [], None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            tags, source, cmd, params = self.wait_for(
                lambda p: p[0].get("label") == label or (batch is not None and (
                    p[0].get("batch") == batch or (p[2] == "BATCH" and p[3][:1] == ["-" + batch]))),
                timeout=deadline - time.monotonic())
            if cmd == "ACK":
                return replies
            if cmd == "BATCH" and params and params[0].startswith("+"):
                batch = params[0][1:]
                continue
            if cmd == "BATCH":
                return replies
            if cmd in ("PRIVMSG", "NOTICE", "FAIL") and params:
                replies.append(params[-1])
            if batch is None:
                return replies
        return replies

    def join(self, channel):
        self.send(f"JOIN {channel}")
        self.wait_for(lambda p: p[2] == "366")

    def close(self):
        try:
            self.send("QUIT :bye")
        finally:
            self.sock.close()


def add_connection_options(parser):
    parser.add_argument("--host", default="127.0.0.1", help="Hearth server address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=6667, help="IRC port (default 6667)")
    parser.add_argument("--nick", required=True, help="the bot's account name")
    parser.add_argument("--password", required=True, help="the bot's account password")
    parser.add_argument("--register", action="store_true", help="create the account first (the first run)")
