#!/usr/bin/env python3
"""A meme relay: turns lines like `meme: top text | bottom text` in a channel into memes.

    python3 bots/memerelay.py --nick memebot --password 'a-long-password' --register --channel '#memes'

`meme: TEMPLATE: top | bottom` picks a template (default --template). The bot makes the
meme and says in the channel whose it is and where to see it.
"""
import argparse
import re
import time

from hearth import Hearth, add_connection_options, nick_of, parse

PATTERN = re.compile(r"^meme:\s*(?:(?P<template>[a-z0-9-]+):\s*)?(?P<text>.+)$", re.IGNORECASE)


def main():
    parser = argparse.ArgumentParser(description="Turns 'meme: top | bottom' lines in a channel into rendered memes.")
    add_connection_options(parser)
    parser.add_argument("--channel", default="#memes", help="channel to watch (default #memes)")
    parser.add_argument("--template", default="sunset", help="template when none is named (default sunset)")
    parser.add_argument("--max-seconds", type=float, help="stop after this long (for tests and demos)")
    args = parser.parse_args()

    h = Hearth(args.host, args.port, args.nick, args.password, register=args.register)
    h.join(args.channel)
    started = time.monotonic()
    while args.max_seconds is None or time.monotonic() - started < args.max_seconds:
        line = h.read_line(timeout=1)
        if line is None:
            continue
        _, source, command, params = parse(line)
        if command != "PRIVMSG" or len(params) < 2 or params[0].lower() != args.channel.lower() or nick_of(source) == "hearth":
            continue
        match = PATTERN.match(params[1].strip())
        if not match:
            continue
        template = (match.group("template") or args.template).lower()
        replies = h.ask(f"!meme {template} {match.group('text')}")
        link = next((re.search(r"https?://\S+", r).group(0) for r in replies if re.search(r"https?://\S+", r)), None)
        if link:
            h.say(args.channel, f"{nick_of(source)}'s meme: {link}")
        else:
            h.say(args.channel, f"{nick_of(source)}: {replies[0] if replies else 'no answer'}")
    h.close()


if __name__ == "__main__":
    main()
