#!/usr/bin/env bash
# The smallest Hearth bot: a shell one-liner with nc. Logs in (plain mode), asks the bot
# for today's fortune cookie, prints the answer and leaves (waiting up to 30 s of silence for it:
# a busy server's login can take seconds).
#   bots/oneliner.sh NAME PASSWORD [HOST] [PORT]
# --help prints this.
[ "${1:-}" = "--help" ] || [ $# -lt 2 ] && { sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0; }
printf '!login %s %s\n!fortune\n/quit\n' "$1" "$2" | nc -q 1 -w 30 "${3:-127.0.0.1}" "${4:-6667}" | grep -E 'fortune|Lucky|cookie'
