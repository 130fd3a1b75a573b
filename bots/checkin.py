#!/usr/bin/env python3
"""A family check-in bot: shares places from a GPS track (GPX) with your family, one
point per --interval seconds, as `!loc LAT,LON LABEL`.

    python3 bots/checkin.py --nick grandpa --password 'a-long-password' --gpx walk.gpx --interval 600

The account must be in a family (`--join CODE` joins with an invite code first).
"""
import argparse
import time
import xml.etree.ElementTree as ET

from hearth import Hearth, add_connection_options


def track_points(path):
    """(lat, lon, label) for each <trkpt> (or <wpt>) of a GPX file."""
    root = ET.parse(path).getroot()
    points = []
    for element in root.iter():
        tag = element.tag.rsplit("}", 1)[-1]
        if tag in ("trkpt", "wpt", "rtept"):
            lat, lon = float(element.get("lat")), float(element.get("lon"))
            name = next((child.text for child in element if child.tag.rsplit("}", 1)[-1] in ("name", "desc") and child.text), None)
            when = next((child.text for child in element if child.tag.rsplit("}", 1)[-1] == "time" and child.text), None)
            points.append((lat, lon, name or (f"on the way ({when})" if when else "on the way")))
    return points


def main():
    parser = argparse.ArgumentParser(description="Shares the points of a GPX track with your family on a schedule.")
    add_connection_options(parser)
    parser.add_argument("--gpx", required=True, help="a GPX file (track points or waypoints)")
    parser.add_argument("--interval", type=float, default=600, help="seconds between check-ins (default 600)")
    parser.add_argument("--join", help="a family invite code to join first")
    parser.add_argument("--max-points", type=int, help="stop after this many check-ins")
    args = parser.parse_args()

    points = track_points(args.gpx)
    if not points:
        parser.error(f"{args.gpx} has no track points")
    h = Hearth(args.host, args.port, args.nick, args.password, register=args.register)
    if args.join:
        print(" / ".join(h.ask(f"!tree join {args.join}")))
    h.ask("!loc on")
    for index, (lat, lon, label) in enumerate(points):
        if args.max_points is not None and index >= args.max_points:
            break
        if index > 0:
            time.sleep(args.interval)
        print(" / ".join(h.ask(f"!loc {lat:.5f},{lon:.5f} {label[:60]}")), flush=True)
    h.close()


if __name__ == "__main__":
    main()
