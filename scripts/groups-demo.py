#!/usr/bin/env python3
"""Runs a small group session against a Hearth server and prints what one person saw.

    python3 scripts/groups-demo.py --port 6667 > transcript.txt

Two people (plain mode, like nc) and two bots from bots/ (the greeter and the meme relay)
share #kitchen: they chat, make memes, open fortune cookies and post a recipe together.
"""
import argparse
import os
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


class Person:
    def __init__(self, port, name):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.name, self.seen = name, []

    def say(self, line, pause=0.6):
        self.sock.sendall(line.encode() + b"\n")
        time.sleep(pause)

    def read(self):
        self.sock.settimeout(0.3)
        data = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        except socket.timeout:
            pass
        return data.decode("utf-8", "replace").splitlines()


def main():
    parser = argparse.ArgumentParser(description="A group session with people and bots; prints one person's view.")
    parser.add_argument("--port", type=int, default=6667)
    args = parser.parse_args()
    run = str(int(time.time()) % 100000)
    bots = [
        subprocess.Popen([sys.executable, os.path.join(HERE, "..", "bots", "greeter.py"), "--port", str(args.port), "--nick", f"greeter{run}",
                          "--password", "demo-s3cret-pass", "--register", "--channel", "#kitchen", "--max-seconds", "30"]),
        subprocess.Popen([sys.executable, os.path.join(HERE, "..", "bots", "memerelay.py"), "--port", str(args.port), "--nick", f"memes{run}",
                          "--password", "demo-s3cret-pass", "--register", "--channel", "#kitchen", "--max-seconds", "30"]),
    ]
    time.sleep(3)
    ana, ben = Person(args.port, "ana"), Person(args.port, "ben")
    transcript = []

    def step(person, line, pause=0.8):
        person.say(line, pause)
        if person is ana:
            transcript.append(f"> {line}")
            transcript.extend(ana.read())
        else:
            transcript.extend(ana.read())
            ben.read()

    step(ana, f"!register ana{run} demo-s3cret-pass", 1.5)
    step(ben, f"!register ben{run} demo-s3cret-pass", 1.5)
    step(ana, "/join #kitchen", 1.2)
    step(ben, "/join #kitchen", 1.2)
    step(ben, "hi ana! what's for dinner?")
    step(ana, "no idea — let's ask the cookie")
    step(ana, "!fortune", 1.2)
    step(ben, "meme: this-is-fine: the fridge is empty | this is fine", 2.5)
    step(ana, "!search soup")
    step(ana, "!recipe new", 1)
    for line in ["Pantry soup", "1 onion", "2 carrots", "a handful of lentils", ".", "Chop and soften the onion.",
                 "Add the rest and water; simmer 25 minutes.", ".", "-", "vegetarian"]:
        step(ana, line, 0.3)
    step(ana, "!recipe post", 1)
    step(ben, "!up 1")
    step(ana, "!recipes hot", 1)
    step(ana, "/quit", 0.5)
    for bot in bots:
        bot.terminate()
    # The names carry a run number so the demo can run again on one server; show them plain.
    text = "\n".join(transcript).replace(run, "")
    print(text)


if __name__ == "__main__":
    main()
