"""Compares an exported SVG, as headless Chromium rendered it, with the app's screenshot of the
same frame: the closed set's and the path's pixels (pathlab's palette) must agree.

usage: svg_check.py APP.png SVG.png   (exit 1 when they differ by more than the tolerances)
The SVG is written at the view's zoom, so both draw a cell the same size: the closed cells
(crisp squares) within 5%, the path (an anti-aliased line of the same width) within 25%.
"""
import sys

from pixels import rows_of

CLOSED = (250, 186, 120)
PATH = (160, 220, 40)


def count(path, colour):
    rows, bpp = rows_of(path)
    n = 0
    for row in rows:
        for x in range(0, len(row), bpp):
            if all(abs(row[x + i] - colour[i]) <= 4 for i in range(3)):
                n += 1
    return n


app, svg = sys.argv[1], sys.argv[2]
ok = True
for name, colour, tol in (("closed", CLOSED, 0.05), ("path", PATH, 0.25)):
    a, s = count(app, colour), count(svg, colour)
    good = a > 0 and abs(s - a) <= tol * a
    ok &= good
    print(f"{name}: app {a} px, SVG in Chromium {s} px ({(s - a) / max(a, 1):+.1%}, within {tol:.0%}: {good})")
sys.exit(0 if ok else 1)
