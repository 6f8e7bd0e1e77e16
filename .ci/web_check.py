"""Opens the web build in headless Chromium from a 127.0.0.1 server and checks what a class
meets first: the built-in map renders (wall and path colours), a link's lesson shows its first
step, a step forward changes the picture, a dropped map opens; and the page's console holds no
error in any of them.

usage: web_check.py SITE_DIR SHOT_DIR   (exit 1 on the first failed check)
"""
import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(__file__))
from pixels import KINDS, rows_of  # noqa: E402

KINDS["wall"] = lambda r, g, b: abs(r - 34) < 5 and abs(g - 34) < 5 and abs(b - 38) < 5

# A map no example has: a wall block over its whole left half, a corridor through it.
GIVEN = "type octile\nheight 32\nwidth 48\nmap\n" + "".join(
    ("@" * 24 if y != 16 else "." * 24) + "." * 24 + "\n" for y in range(32)
)


def serve(site):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=site)
    handler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def shoot(url, png):
    """The page at `url` after 25 s of virtual time, as a 1280 × 800 screenshot; the console's
    errors."""
    cmd = ["chromium", "--headless", "--no-sandbox", "--use-angle=swiftshader",
           "--enable-unsafe-swiftshader", "--hide-scrollbars", "--window-size=1280,800",
           "--virtual-time-budget=25000", "--enable-logging=stderr", "--v=0",
           f"--screenshot={png}", url]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if not os.path.exists(png) or os.path.getsize(png) == 0:
        sys.exit(f"web_check: no screenshot of {url}:\n{out.stderr[-3000:]}")
    console = [l for l in out.stderr.splitlines() if ":CONSOLE" in l]
    errors = [l for l in console if re.search(r"ERROR:CONSOLE|\b(Uncaught|panicked|error)\b", l, re.I)]
    return console, errors


def count(png, names):
    rows, bpp = rows_of(png)
    counts = dict.fromkeys(names, 0)
    for row in rows:
        for x in range(0, len(row) // bpp):
            r, g, b = row[x * bpp:x * bpp + 3]
            for k in names:
                if KINDS[k](r, g, b):
                    counts[k] += 1
    return counts


def differ(a, b):
    ra, bpp = rows_of(a)
    rb, _ = rows_of(b)
    return sum(1 for y in range(len(ra)) for x in range(0, len(ra[y]), bpp)
               if ra[y][x:x + 3] != rb[y][x:x + 3])


def main():
    site, shots = sys.argv[1], sys.argv[2]
    os.makedirs(shots, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    page = open(os.path.join(site, "index.html")).read()
    with open(os.path.join(site, "drive.html"), "w") as f:
        f.write(page.replace("</body>", '<script src="drive.js"></script>\n</body>'))
    shutil.copy(os.path.join(here, "web", "drive.js"), site)
    with open(os.path.join(site, "given.map"), "w") as f:
        f.write(GIVEN)
    base = f"http://127.0.0.1:{serve(site)}/"
    failed = []

    def check(what, ok, detail):
        print(f"web_check: {what}: {'ok' if ok else 'FAILED'} ({detail})")
        if not ok:
            failed.append(what)

    def page_of(name, url):
        png = os.path.join(shots, f"web-{name}.png")
        console, errors = shoot(base + url, png)
        check(f"{name}: no console error", not errors, "; ".join(errors)[:2000] or f"{len(console)} console lines")
        return png

    default = page_of("default", "")
    c = count(default, ["wall", "green"])
    check("the built-in map renders", c["wall"] >= 5000 and c["green"] >= 100, c)

    lesson = page_of("lesson1", "#lesson=1")
    c = count(lesson, ["current"])
    check("#lesson=1 shows its first step (a control outlined)", c["current"] >= 50, c)

    at = {}
    for name, keys in [("keys-none", ""), ("keys-home", "Home"), ("keys-step", "Home,ArrowRight")]:
        at[name] = page_of(name, f"drive.html?keys={keys}#example=default")
    n = differ(at["keys-none"], at["keys-home"])
    check("Home rewinds the run (the picture changes)", n >= 500, f"{n} pixels differ")
    n = differ(at["keys-home"], at["keys-step"])
    check("→ steps forward (the picture changes)", n >= 3, f"{n} pixels differ")

    dropped = page_of("dropped", "drive.html?drop=given.map#example=default")
    before, after = count(at["keys-none"], ["wall"]), count(dropped, ["wall"])
    check("a dropped .map opens (its wall block shows)", after["wall"] >= 2 * before["wall"],
          f"walls {before['wall']} before, {after['wall']} after")
    if failed:
        sys.exit(f"web_check: failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
