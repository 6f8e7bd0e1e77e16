"""Opens the web build in headless Chromium from a 127.0.0.1 server and checks what a class
meets first, driving the page as a user would through the DevTools protocol (cdp.py): the
built-in map renders (wall and path colours), a link's lesson shows its first step, a key press
steps the search forward, a map opened with the browser's file chooser (Ctrl+O) and one dropped
on the page open, Ctrl+S downloads the map, unsaved work is restored in the next visit, a
crowd batch draws its heatmap, and the page's console holds no error. With ../shared beside the repository
it also drops a Warframe voxel map (the 3D view on WebGL2) and times A* on den520d in the page.

usage: web_check.py SITE_DIR SHOT_DIR   (exit 1 when a check fails)
"""
import functools
import http.server
import os
import shutil
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from cdp import Browser  # noqa: E402
from pixels import KINDS, rows_of  # noqa: E402

KINDS["wall"] = lambda r, g, b: abs(r - 34) < 5 and abs(g - 34) < 5 and abs(b - 38) < 5

# A map no example has: a wall block over its whole left half, a corridor through it.
GIVEN = "type octile\nheight 32\nwidth 48\nmap\n" + "".join(
    ("@" * 24 if y != 16 else "." * 24) + "." * 24 + "\n" for y in range(32)
)

# In every page, from its start: when the app's first frame is up (the loading line removed
# by src/app/web.rs once eframe's runner has started), in ms since the page was asked for.
FIRST_FRAME = """
window.__firstFrame = new Promise((done) => {
  const t = setInterval(() => {
    if (document.getElementById("pathlab") && !document.getElementById("pathlab-status")) {
      clearInterval(t);
      done(performance.now());
    }
  }, 5);
});
"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(site):
    handler = functools.partial(Quiet, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


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
    site, shots = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(shots, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    given = os.path.join(site, "given.map")
    with open(given, "w") as f:
        f.write(GIVEN)
    bench = os.path.join(here, "..", "..", "shared", "benchmarks")
    base = f"http://127.0.0.1:{serve(site)}/"
    failed = []

    def check(what, ok, detail):
        print(f"web_check: {what}: {'ok' if ok else 'FAILED'} ({detail})", flush=True)
        if not ok:
            failed.append(what)

    b = Browser()
    b.page("Page.addScriptToEvaluateOnNewDocument", source=FIRST_FRAME)

    def shot(name, wait=3.0):
        b.settle(wait)
        png = os.path.join(shots, f"web-{name}.png")
        b.screenshot(png)
        return png

    def open_page(name, url):
        """A fresh page (the query makes each URL a new document); its first frame's time."""
        with b._cv:
            b.events.clear()
        b.page("Page.navigate", url=f"{base}?case={name}{url}")
        first = b.evaluate("window.__firstFrame")
        b.evaluate("document.getElementById('pathlab').focus()")
        return first

    def no_errors(name):
        errors = b.console_errors()
        check(f"{name}: no console error", not errors, "; ".join(errors)[:2000] or "none")

    def drop(paths):
        """Files dropped on the middle of the map, as a file manager drops them."""
        data = {"items": [], "files": paths, "dragOperationsMask": 1}
        for kind in ["dragEnter", "dragOver", "drop"]:
            b.page("Input.dispatchDragEvent", type=kind, x=580, y=360, data=data)

    try:
        first = open_page("default", "")
        default = shot("default")
        c = count(default, ["wall", "green"])
        check("the built-in map renders", c["wall"] >= 5000 and c["green"] >= 100, c)
        no_errors("default")

        open_page("lesson", "#lesson=1")
        c = count(shot("lesson1"), ["current"])
        check("#lesson=1 shows its first step (a control outlined)", c["current"] >= 50, c)
        no_errors("lesson")

        open_page("step", "#example=default")
        at_start = shot("step-0")
        b.key("ArrowRight", "ArrowRight", 39)
        one = shot("step-1")
        n = differ(at_start, one)
        check("→ steps the search forward (the picture changes)", n >= 3, f"{n} pixels differ")
        b.key("End", "End", 35)
        c = count(shot("step-end"), ["green"])
        check("End runs it to its path", c["green"] >= 100, c)
        walls_before = count(at_start, ["wall"])["wall"]

        # File ▸ Open by its shortcut: the browser's file chooser, answered with the map.
        b.key("o", "KeyO", 79, modifiers=2)
        chooser = b.wait_event("Page.fileChooserOpened")
        b.page("DOM.setFileInputFiles", files=[given], backendNodeId=chooser["backendNodeId"])
        c = count(shot("picked"), ["wall"])
        check("a .map opened with the file chooser shows", c["wall"] >= 2 * walls_before,
              f"walls {walls_before} before, {c['wall']} after")
        # Ctrl+S saves the opened map: in a page, a download of the same name and text.
        downloads = os.path.join(shots, "downloads")
        os.makedirs(downloads, exist_ok=True)
        # The page's own setting: headless Chromium 156 cancels downloads allowed only at the
        # browser's level (Browser.setDownloadBehavior).
        b.page("Page.setDownloadBehavior", behavior="allow", downloadPath=downloads)
        b.key("s", "KeyS", 83, modifiers=2)
        saved = os.path.join(downloads, "given.map")
        for _ in range(100):
            if os.path.exists(saved):
                break
            time.sleep(0.1)
        text = open(saved).read() if os.path.exists(saved) else None
        check("Ctrl+S downloads the map as it was opened", text == GIVEN,
              f"{saved}: {'missing' if text is None else f'{len(text)} characters'}")
        no_errors("step, file chooser and save")

        # Run ▸ Crowd heatmaps (the menu's fixed place at 1280 × 800), then Run batch: 10,000
        # agents planned by A* on the CPU, their traffic drawn as a heatmap.
        open_page("crowd", "#example=default")
        b.click(128, 12)
        b.settle(1.0)
        b.click(225, 186)
        b.settle(2.0)
        b.click(60, 113)
        c = count(shot("crowd", 5.0), ["inferno"])
        check("a crowd batch plans and draws its heatmap", c["inferno"] >= 1000, c)
        no_errors("crowd")

        # Unsaved work survives the page: a wall painted with the brush is kept in local
        # storage, the next visit offers it back, and Restore shows it. How many cells the drag
        # paints depends on how many of its moves land in frames of their own (a slow machine
        # paints fewer): a few cells' worth of wall pixels (a cell is about 13 × 13) is enough.
        open_page("paint", "#example=default")
        b.settle(2.0)
        b.click(91, 61)
        b.drag([(x, 480) for x in range(300, 600, 10)])
        b.settle(4.0)
        kept = b.evaluate("(localStorage.getItem('pathlab-recovery') || '').length")
        open_page("restore", "")
        b.settle(2.0)
        b.click(513, 426)
        c = count(shot("restored"), ["wall"])
        check("unsaved work is offered back in the next visit and restored",
              c["wall"] >= walls_before + 500, f"{kept} characters kept; walls {walls_before} before, {c['wall']} after")
        no_errors("paint and restore")
        # Restored work is unsaved again: forgotten, so that later pages open without asking.
        b.evaluate("localStorage.removeItem('pathlab-recovery')")

        open_page("drop", "#example=default")
        drop([given])
        c = count(shot("dropped"), ["wall"])
        check("a dropped .map opens", c["wall"] >= 2 * walls_before,
              f"walls {walls_before} before, {c['wall']} after")
        no_errors("drop")

        simple = os.path.join(bench, "warframe-3d", "Simple.3dmap")
        if os.path.exists(simple):
            open_page("voxel", "#example=default")
            drop([os.path.abspath(simple), os.path.abspath(simple + ".3dscen")])
            c = count(shot("voxel", 8.0), ["grey", "green"])
            check("a .3dmap dropped with its scenario opens in 3D (lit greys)",
                  c["grey"] >= 2000, c)
            no_errors("voxel")

        den = os.path.join(bench, "movingai-grid", "dao", "den520d.map")
        if os.path.exists(den):
            for f in [den, den + ".scen"]:
                shutil.copy(f, site)
            open_page("bench", "#example=default")
            t0 = time.time()
            r = b.evaluate("""(async () => {
                const m = await import("./pathlab.js");
                const map = await (await fetch("den520d.map")).text();
                const scen = await (await fetch("den520d.map.scen")).text();
                return m.bench_astar(map, scen, 20);
            })()""", timeout=600)
            print(f"web_check: A* on den520d in the page (every 20th problem): {r} "
                  f"({time.time() - t0:.1f} s)", flush=True)
            check("A* in the page finds every optimal length", " correct " in r and
                  r.split()[1] == r.split()[3], r)
            no_errors("bench")
        print(f"web_check: time to the first frame: {first:.0f} ms", flush=True)
    finally:
        b.close()
    if failed:
        sys.exit(f"web_check: failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
