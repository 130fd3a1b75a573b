#!/usr/bin/env python3
"""Converts Natural Earth 1:110m data into the compact text files in Sources/HearthMedia/MapData/.

Source: the naturalearth_lowres (countries) and naturalearth_cities (populated places) shapefiles
that ship inside the PyPI wheel geopandas==0.14.4 (Natural Earth data is public domain).

Rerun (from the repository root; needs python3 and the pure-python `pyshp` package):

    pip install pyshp
    python3 scripts/convert-naturalearth.py

Without arguments the script runs `pip download --no-deps geopandas==0.14.4` into a temporary
directory; pass `--wheel PATH` to use a wheel you already have. The wheel's SHA-256 is checked.
Shapefiles are read straight from the wheel (a zip); nothing is unpacked. Output is deterministic.

Writes:
  world-110m.txt  one ring per line: "lon,lat lon,lat ...", 2 decimals, consecutive duplicates
                  dropped, rings implicitly closed (the last point is not a copy of the first),
                  rings with fewer than 3 points dropped.
  cities.txt      "name<TAB>lat<TAB>lon" (3 decimals): the cities first, then one representative
                  point per country (area centroid of its largest ring, moved inside
                  the ring along its latitude when it falls outside); first spelling wins.
"""
import argparse, hashlib, io, os, subprocess, sys, tempfile, unicodedata, zipfile

try:
    import shapefile  # pyshp
except ImportError:
    sys.exit("needs pyshp: pip install pyshp")

GEOPANDAS = "geopandas==0.14.4"
WHEEL_SHA256 = "3bb6473cb59d51e1a7fe2dbc24a1a063fb0ebdeddf3ce08ddbf8c7ddc99689aa"
DATASETS = "geopandas/datasets/"
COMMAND = "python3 scripts/convert-naturalearth.py"
OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "HearthMedia", "MapData")

# The geopandas DBF is Latin-1, so characters outside it were stored as a literal "?".
# Restore the Natural Earth spellings (checked: the script fails if these entries disappear).
NAME_FIXES = {"?saka": "Ōsaka", "Chi?in?u": "Chișinău"}


def fetch_wheel(tmp):
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", GEOPANDAS, "-d", tmp],
                   check=True, stdout=subprocess.DEVNULL)
    wheels = [f for f in os.listdir(tmp) if f.endswith(".whl")]
    if len(wheels) != 1:
        sys.exit(f"expected one wheel in {tmp}, found {wheels}")
    return os.path.join(tmp, wheels[0])


def reader(zf, name):
    base = f"{DATASETS}{name}/{name}"
    parts = {ext: io.BytesIO(zf.read(f"{base}.{ext}")) for ext in ("shp", "shx", "dbf")}
    return shapefile.Reader(**parts, encoding=zf.read(f"{base}.cpg").decode().strip())


def clean_name(name):
    name = NAME_FIXES.get(name, name)
    name = unicodedata.normalize("NFC", " ".join(name.split()))  # also folds "Washington,  D.C."
    assert name and "?" not in name, repr(name)
    return name


def num(v, digits):
    s = f"{v:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def rings_of(shape):
    bounds = list(shape.parts) + [len(shape.points)]
    return [shape.points[a:b] for a, b in zip(bounds, bounds[1:])]


def compact_ring(points):
    out = []
    for x, y in points:
        p = (num(x, 2), num(y, 2))
        if not out or out[-1] != p:
            out.append(p)
    while len(out) > 1 and out[-1] == out[0]:
        out.pop()  # implicit closing
    return out if len(out) >= 3 else None


def area_centroid(ring):
    a = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
        c = x0 * y1 - x1 * y0
        a += c; cx += (x0 + x1) * c; cy += (y0 + y1) * c
    if abs(a) < 1e-12:
        return abs(a), sum(p[0] for p in ring) / len(ring), sum(p[1] for p in ring) / len(ring)
    return abs(a) / 2, cx / (3 * a), cy / (3 * a)


def inside(x, y, ring):
    hit = False
    for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


def representative_point(shape):
    """Area centroid of the largest ring; if that falls outside the ring (concave shapes such as
    Haiti), the middle of the widest inside stretch of the ring along the centroid's latitude."""
    _, x, y, ring = max(((*area_centroid(r), r) for r in rings_of(shape)), key=lambda t: t[0])
    if inside(x, y, ring):
        return x, y
    xs = sorted(x0 + (y - y0) * (x1 - x0) / (y1 - y0)
                for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]) if (y0 > y) != (y1 > y))
    a, b = max(zip(xs[::2], xs[1::2]), key=lambda ab: ab[1] - ab[0])
    return (a + b) / 2, y


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wheel", help=f"path to an already downloaded {GEOPANDAS} wheel")
    ap.add_argument("--out", default=OUT_DIR, help="output directory (default: %(default)s)")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        wheel = args.wheel or fetch_wheel(tmp)
        digest = hashlib.sha256(open(wheel, "rb").read()).hexdigest()
        if digest != WHEEL_SHA256:
            sys.exit(f"{wheel}: sha256 {digest} is not the pinned {WHEEL_SHA256}")
        with zipfile.ZipFile(wheel) as zf:
            countries = reader(zf, "naturalearth_lowres")
            cities = reader(zf, "naturalearth_cities")
            country_rows = [(sr.record["name"], sr.shape) for sr in countries.iterShapeRecords()]
            city_rows = [(sr.record["name"], sr.shape) for sr in cities.iterShapeRecords()]
    raw_city_names = {n for n, _ in city_rows}
    missing = [k for k in NAME_FIXES if k not in raw_city_names]
    if missing:
        sys.exit(f"NAME_FIXES entries not found in the data any more: {missing}")
    os.makedirs(args.out, exist_ok=True)

    # 1. world-110m.txt
    lines, npoints, dropped = [], 0, 0
    for name, shape in country_rows:
        assert shape.shapeType == shapefile.POLYGON, (name, shape.shapeType)
        for ring in rings_of(shape):
            r = compact_ring(ring)
            if r is None:
                dropped += 1
                continue
            npoints += len(r)
            lines.append(" ".join(f"{x},{y}" for x, y in r))
    header = (f"# Natural Earth 1:110m Admin 0 countries (naturalearth_lowres from PyPI {GEOPANDAS}); "
              f"public domain (Natural Earth, naturalearthdata.com); made by `{COMMAND}`; "
              f"one ring per line of space-separated lon,lat (WGS84 degrees, 2 decimals), rings implicitly closed")
    world = "\n".join([header] + lines) + "\n"
    with open(os.path.join(args.out, "world-110m.txt"), "w", encoding="utf-8", newline="\n") as f:
        f.write(world)

    # 2. cities.txt
    entries, seen, dupes = [], set(), []
    def add(name, lat, lon):
        name = clean_name(name)
        if name in seen:
            dupes.append(name)
            return
        seen.add(name)
        entries.append(f"{name}\t{lat:.3f}\t{lon:.3f}".replace("-0.000", "0.000"))
    for name, shape in city_rows:
        assert shape.shapeType == shapefile.POINT and len(shape.points) == 1, name
        lon, lat = shape.points[0]
        add(name, lat, lon)
    for name, shape in country_rows:
        lon, lat = representative_point(shape)
        add(name, lat, lon)
    header = (f"# Natural Earth 1:110m populated places (naturalearth_cities) "
              f"then country points (area centroid of the largest naturalearth_lowres ring), from PyPI {GEOPANDAS}; "
              f"public domain (Natural Earth, naturalearthdata.com); made by `{COMMAND}`; name<TAB>lat<TAB>lon")
    with open(os.path.join(args.out, "cities.txt"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join([header] + entries) + "\n")

    print(f"world-110m.txt: {len(lines)} rings, {npoints} points, {len(world.encode())} bytes "
          f"({dropped} rings dropped)")
    print(f"cities.txt: {len(entries)} entries ({len(city_rows)} cities, {len(country_rows)} countries); "
          f"duplicates skipped: {dupes}")


if __name__ == "__main__":
    main()
