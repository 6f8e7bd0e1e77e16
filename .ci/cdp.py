"""A small client for the Chrome DevTools Protocol over a pipe (`--remote-debugging-pipe`:
JSON messages ended by a NUL byte, Chromium reading fd 3 and writing fd 4), so CI drives
headless Chromium as a user would — real key presses, the real file chooser, screenshots, the
console — with nothing but Python's standard library.
"""
import base64
import json
import os
import subprocess
import threading
import time


class Browser:
    def __init__(self, width=1280, height=800):
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def child_fds():
            # Out of the way first, so that 3 and 4 can be set whatever numbers the pipes got.
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--use-angle=swiftshader",
             "--enable-unsafe-swiftshader", "--hide-scrollbars", "--remote-debugging-pipe",
             f"--window-size={width},{height}", "about:blank"],
            preexec_fn=child_fds, close_fds=False,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._next, self._replies, self.events, self.gone = 0, {}, [], False
        self._cv = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        # The first tab may not be there the moment the browser answers.
        for _ in range(100):
            pages = [t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page"]
            if pages:
                break
            time.sleep(0.1)
        else:
            pages = [{"targetId": self.call("Target.createTarget", url="about:blank")["targetId"]}]
        page = pages[0]
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"],
                                 flatten=True)["sessionId"]
        for domain in ["Page", "Runtime", "Log"]:
            self.page(f"{domain}.enable")
        self.page("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=False)
        self.page("Page.setInterceptFileChooserDialog", enabled=True)

    def _read(self):
        buf = b""
        while True:
            try:
                chunk = os.read(self._from_chrome, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                # The browser is gone: wake every caller rather than let each wait it out.
                with self._cv:
                    self.gone = True
                    self._cv.notify_all()
                return
            buf += chunk
            while b"\0" in buf:
                msg, buf = buf.split(b"\0", 1)
                m = json.loads(msg)
                with self._cv:
                    if "id" in m:
                        self._replies[m["id"]] = m
                    else:
                        self.events.append(m)
                    self._cv.notify_all()

    def call(self, method, session=None, timeout=120, **params):
        with self._cv:
            self._next += 1
            i = self._next
        msg = {"id": i, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        with self._cv:
            if not self._cv.wait_for(lambda: i in self._replies or self.gone, timeout):
                raise TimeoutError(method)
            if i not in self._replies:
                raise RuntimeError(f"{method}: the browser has gone")
            reply = self._replies.pop(i)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def page(self, method, **params):
        return self.call(method, session=self.session, **params)

    def evaluate(self, expression, timeout=120):
        r = self.call("Runtime.evaluate", session=self.session, timeout=timeout,
                      expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def wait_event(self, method, timeout=30):
        with self._cv:
            ok = self._cv.wait_for(
                lambda: any(e["method"] == method for e in self.events), timeout)
            if not ok:
                raise TimeoutError(method)
            e = next(e for e in self.events if e["method"] == method)
            self.events.remove(e)
            return e["params"]

    def console_errors(self):
        """The page's errors so far: console.error, uncaught exceptions, failed loads."""
        out = []
        for e in self.events:
            p = e.get("params", {})
            if e["method"] == "Runtime.consoleAPICalled" and p["type"] in ("error", "assert"):
                out.append(" ".join(str(a.get("value", a.get("description"))) for a in p["args"]))
            elif e["method"] == "Runtime.exceptionThrown":
                out.append(p["exceptionDetails"].get("text", "exception") + " " + str(
                    p["exceptionDetails"].get("exception", {}).get("description", "")))
            elif e["method"] == "Log.entryAdded" and p["entry"]["level"] == "error":
                out.append(p["entry"]["text"] + " " + p["entry"].get("url", ""))
        return out

    def console(self):
        return [" ".join(str(a.get("value")) for a in e["params"]["args"])
                for e in self.events if e["method"] == "Runtime.consoleAPICalled"]

    def key(self, key, code, vk, modifiers=0):
        for kind in ["rawKeyDown", "keyUp"]:
            self.page("Input.dispatchKeyEvent", type=kind, key=key, code=code,
                      windowsVirtualKeyCode=vk, modifiers=modifiers)

    def click(self, x, y):
        for kind in ["mousePressed", "mouseReleased"]:
            self.page("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                      clickCount=1)

    def drag(self, points, pause=0.05):
        """The left button pressed at the first point, moved through the others, released at
        the last; a pause between events so that each lands in a frame of its own."""
        (x, y), rest = points[0], points[1:]
        self.page("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
        self.page("Input.dispatchMouseEvent", type="mousePressed", x=x, y=y, button="left",
                  clickCount=1)
        for x, y in rest:
            time.sleep(pause)
            self.page("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y, button="left",
                      buttons=1)
        time.sleep(pause)
        self.page("Input.dispatchMouseEvent", type="mouseReleased", x=x, y=y, button="left",
                  clickCount=1)

    def screenshot(self, png):
        data = self.page("Page.captureScreenshot", format="png")["data"]
        with open(png, "wb") as f:
            f.write(base64.b64decode(data))

    def settle(self, seconds=3.0):
        time.sleep(seconds)

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        for fd in (self._to_chrome, self._from_chrome):
            try:
                os.close(fd)
            except OSError:
                pass
