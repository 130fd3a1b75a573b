#!/usr/bin/env python3
"""A channel bot: greets everyone who joins, and posts each day's hot recipe and top meme.

    python3 bots/greeter.py --nick greeter --password 'a-long-password' --register --channel '#lobby'

The daily post goes out at --post-at (HH:MM, the bot's local time) and once at start with
--post-now. It runs until stopped (or for --max-seconds).
"""
import argparse
import datetime
import re
import time

from hearth import Hearth, add_connection_options, nick_of, parse


def daily_lines(h):
    """Today's hot recipe and top meme, from the bot's own lists."""
    lines = []
    recipe = next((r for r in h.ask("!recipes hot") if r.startswith("#")), None)
    if recipe:
        match = re.match(r"#(\d+)\s+(.*?)\s+by (\S+)", recipe)
        lines.append(f"Today's hot recipe: {match.group(2)} by {match.group(3)} — !recipe {match.group(1)}" if match else f"Today's hot recipe: {recipe}")
    meme = next((r for r in h.ask("!hot") if r.startswith("#")), None)
    if meme:
        link = re.search(r"(https?://\S+)", meme)
        number = meme.split()[0]
        lines.append(f"Top meme: {number} {link.group(1) if link else ''}".rstrip())
    return lines or ["Nothing hot today yet — make a meme (!meme sunset top | bottom) or share a recipe (!recipe new)."]


def main():
    parser = argparse.ArgumentParser(description="Greets newcomers to a channel and posts the day's hot recipe and top meme.")
    add_connection_options(parser)
    parser.add_argument("--channel", default="#lobby", help="channel to look after (default #lobby)")
    parser.add_argument("--post-at", default="09:00", help="daily post time, HH:MM (default 09:00)")
    parser.add_argument("--post-now", action="store_true", help="also post once right after starting")
    parser.add_argument("--max-seconds", type=float, help="stop after this long (for tests and demos)")
    args = parser.parse_args()

    h = Hearth(args.host, args.port, args.nick, args.password, register=args.register)
    h.join(args.channel)
    started = time.monotonic()
    last_post_day = None
    if args.post_now:
        for line in daily_lines(h):
            h.say(args.channel, line)
        last_post_day = datetime.date.today() if datetime.datetime.now().strftime("%H:%M") >= args.post_at else None
    while args.max_seconds is None or time.monotonic() - started < args.max_seconds:
        line = h.read_line(timeout=1)
        now = datetime.datetime.now()
        if now.strftime("%H:%M") >= args.post_at and last_post_day != now.date():
            last_post_day = now.date()
            for text in daily_lines(h):
                h.say(args.channel, text)
        if line is None:
            continue
        _, source, command, params = parse(line)
        who = nick_of(source)
        if command == "JOIN" and params and params[0].lower() == args.channel.lower() and who.lower() != h.nick.lower():
            h.say(args.channel, f"Welcome to {args.channel}, {who}! Type !help to see what I can do, or !fortune for today's cookie.")
    h.close()


if __name__ == "__main__":
    main()
