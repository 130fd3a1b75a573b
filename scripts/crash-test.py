#!/usr/bin/env python3
"""Crash durability: writes under load, SIGKILL of the server in the middle, restart, and a
check that every write the server acknowledged is there and the database is intact.

    python3 scripts/crash-test.py [--binary .build/release/hearth] [--seconds 4] [--writers 4]

Each writer registers an account, writes a recipe, then keeps adding comments, votes and
memes, remembering every one the bot confirmed. The server is killed with SIGKILL while they
write, started again on the same data directory, and the database is checked with SQLite:
acknowledged rows present, `PRAGMA integrity_check` = ok. Exit status 0 when all holds.
"""
import argparse
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def start(binary, data, port, http):
    process = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--irc-port", str(port), "--http-port", str(http),
                                "--data-dir", data, "--no-flood-control", "--log-level", "error"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("server did not start")


class Writer(threading.Thread):
    def __init__(self, port, index, stop):
        super().__init__(daemon=True)
        self.port, self.index, self.stop = port, index, stop
        self.acked = {"comments": [], "memes": [], "votes": 0, "recipes": []}
        self.buffer = b""

    def line(self, timeout=5):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("utf-8", "replace").rstrip("\r")

    def until(self, pattern):
        while True:
            text = self.line()
            match = re.search(pattern, text)
            if match:
                return match

    def say(self, text):
        self.sock.sendall(text.encode() + b"\n")

    def run(self):
        try:
            self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
            name = f"crash{self.index}x{os.getpid() % 1000}"
            self.say(f"!register {name} crash-s3cret-pass")
            self.until("Welcome to Hearth")
            self.say("!recipe new")
            for text in [f"Recipe of {name}", "flour", ".", "Mix.", ".", "-", "-", "!recipe post"]:
                self.say(text)
            recipe = int(self.until(r"Recipe #(\d+)").group(1))
            self.acked["recipes"].append(recipe)
            n = 0
            while not self.stop.is_set():
                n += 1
                text = f"c-{name}-{n}"
                self.say(f"!comment recipe {recipe} {text}")
                self.until(r"Comment #\d+ added")
                self.acked["comments"].append(text)
                self.say(f"!{'up' if n % 2 else 'down'} {recipe}")
                self.until(r"Score")
                self.acked["votes"] += 1
                if n % 5 == 0:
                    self.say(f"!meme sunset {name} number {n} | crash test")
                    self.acked["memes"].append(int(self.until(r"meme #(\d+)").group(1)))
        except (OSError, ConnectionError):
            pass  # the server was killed


def main():
    parser = argparse.ArgumentParser(description="SIGKILL the server under a write load; check acknowledged writes survive.")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "hearth"))
    parser.add_argument("--seconds", type=float, default=4)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--port", type=int, default=16790)
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="hearth-crash-")
    server = start(args.binary, data, args.port, args.port + 1)
    stop = threading.Event()
    writers = [Writer(args.port, i, stop) for i in range(args.writers)]
    for w in writers:
        w.start()
    time.sleep(args.seconds)
    server.send_signal(signal.SIGKILL)  # mid-write, no chance to flush anything
    server.wait()
    stop.set()
    for w in writers:
        w.join(timeout=5)
    # Restart on the same data: recovery and migrations must work.
    server = start(args.binary, data, args.port, args.port + 1)
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=30)
    db = sqlite3.connect(os.path.join(data, "hearth.sqlite"))
    integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
    comments = {row[0] for row in db.execute("SELECT text FROM comment")}
    memes = {row[0] for row in db.execute("SELECT id FROM meme")}
    recipes = {row[0] for row in db.execute("SELECT id FROM recipe")}
    acked_comments = [c for w in writers for c in w.acked["comments"]]
    acked_memes = [m for w in writers for m in w.acked["memes"]]
    acked_recipes = [r for w in writers for r in w.acked["recipes"]]
    missing = {
        "comments": [c for c in acked_comments if c not in comments],
        "memes": [m for m in acked_memes if m not in memes],
        "recipes": [r for r in acked_recipes if r not in recipes],
    }
    report = {
        "acknowledged": {"comments": len(acked_comments), "memes": len(acked_memes), "recipes": len(acked_recipes),
                         "votes": sum(w.acked["votes"] for w in writers)},
        "missing": {k: len(v) for k, v in missing.items()}, "integrity_check": integrity, "data": data,
        "journal_mode": db.execute("PRAGMA journal_mode").fetchone()[0],
    }
    print(json.dumps(report))
    ok = integrity == "ok" and not any(missing.values()) and report["acknowledged"]["comments"] > 0
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
