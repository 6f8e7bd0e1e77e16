"""Counts pixels of pathlab's palette in a rectangle of a screenshot, with no image library.

usage: pixels.py FILE X0 X1 Y0 Y1 NAME=MIN ...  (exit 1 when a count is under its minimum)
names: grey (lit obstacle voxels), orange (closed set), green (path), sight (a clear
line-of-sight segment), agent (the flying agent and its trail), moving (moving obstacles),
badge (an oracle badge that agrees), walk (a GPS of the brain walk), heat (the cognitive
map's brown), jump (jump point search's jumps), polygon (a navmesh's polygon outlines),
inferno (a crowd heatmap's purples), fast (a vehicle path's top-speed yellow)
"""
import struct
import sys
import zlib


def rows_of(path):
    data = open(path, "rb").read()
    w, h = struct.unpack(">II", data[16:24])
    depth, ctype = data[24], data[25]
    assert depth == 8 and ctype in (2, 6), (depth, ctype)
    bpp = 3 if ctype == 2 else 4
    pos, idat = 8, b""
    while pos < len(data):
        n = struct.unpack(">I", data[pos:pos + 4])[0]
        if data[pos + 4:pos + 8] == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else (b if pb <= pc else c))) & 255
        rows.append(line)
        prev = line
    return rows, bpp


KINDS = {
    "grey": lambda r, g, b: abs(r - g) < 12 and abs(g - b) < 20 and 60 < r < 170,
    "orange": lambda r, g, b: r > 150 and 90 < g < 190 and b < 120,
    "green": lambda r, g, b: g > 150 and r < 180 and b < 80,
    "sight": lambda r, g, b: r < 20 and abs(g - 200) < 20 and abs(b - 120) < 20,
    # Jump point search's jumps and jump points (70, 110, 200).
    "jump": lambda r, g, b: abs(r - 70) < 12 and abs(g - 110) < 12 and abs(b - 200) < 12,
    # A vehicle path at top speed (250, 210, 30).
    "fast": lambda r, g, b: abs(r - 250) < 12 and abs(g - 210) < 20 and b < 70,
    # A navmesh's polygon outlines (90, 100, 130).
    "polygon": lambda r, g, b: abs(r - 90) < 8 and abs(g - 100) < 8 and abs(b - 130) < 8,
    # A hierarchy's inter-edges and graph vertices (215, 35, 35), a query's temporary edges
    # (245, 170, 20).
    "inter": lambda r, g, b: abs(r - 215) < 10 and abs(g - 35) < 10 and abs(b - 35) < 10,
    "temp": lambda r, g, b: abs(r - 245) < 10 and abs(g - 170) < 12 and abs(b - 20) < 12,
    # The magenta of the node being expanded (220, 30, 200), a lesson's outline of a control.
    "current": lambda r, g, b: abs(r - 220) < 14 and g < 70 and abs(b - 200) < 16,
    "agent": lambda r, g, b: r < 40 and 50 < g < 120 and 110 < b < 240 and b > 1.8 * g,
    "moving": lambda r, g, b: r < 10 and g > 90 and b > 100 and abs(b - 1.1 * g) < 15,
    "badge": lambda r, g, b: abs(r - 40) < 6 and abs(g - 130) < 6 and abs(b - 70) < 6,
    "walk": lambda r, g, b: (abs(r - 225) < 12 and abs(g - 70) < 12 and abs(b - 160) < 12)
    or (abs(r - 150) < 12 and abs(g - 40) < 12 and abs(b - 110) < 12),
    # The cognitive map's brown (110, 70, 20) laid translucent over free hexes: warm, darker
    # than the orange closed set, not the trees' green.
    "heat": lambda r, g, b: r < 225 and r - g >= 8 and g - b >= 12 and r - b >= 30,
    # A crowd heatmap's inferno purples and magentas (low and middle counts): green well under
    # red and blue; neither the walls' near-black nor the free cells' near-white.
    "inferno": lambda r, g, b: g < 60 and b > 50 and r > 20,
}

if __name__ == "__main__":
    path, x0, x1, y0, y1 = sys.argv[1], *map(int, sys.argv[2:6])
    want = dict((k, int(v)) for k, v in (a.split("=") for a in sys.argv[6:]))
    rows, bpp = rows_of(path)
    counts = dict.fromkeys(want, 0)
    for y in range(y0, y1):
        for x in range(x0, x1):
            r, g, b = rows[y][x * bpp:x * bpp + 3]
            for k in want:
                if KINDS[k](r, g, b):
                    counts[k] += 1
    print(f"{path}: " + ", ".join(f"{k} {counts[k]} (at least {want[k]})" for k in want))
    sys.exit(0 if all(counts[k] >= want[k] for k in want) else 1)
