// CI's driver for the web build (.ci/web_check.py), loaded by drive.html beside the site's own
// index.html: once the app runs, it does what the page's query asks, as a user would.
//   ?keys=Home,ArrowRight   key presses on the canvas, one after another
//   ?drop=a.map,a.map.scen  those files (fetched from the site) dropped on the canvas together
const query = new URLSearchParams(location.search);
const pause = (ms) => new Promise((done) => setTimeout(done, ms));

async function drive() {
  const canvas = document.getElementById("pathlab");
  canvas.focus();
  await pause(500);
  for (const key of (query.get("keys") || "").split(",").filter(Boolean)) {
    for (const type of ["keydown", "keyup"]) {
      canvas.dispatchEvent(new KeyboardEvent(type, { key, code: key, bubbles: true, cancelable: true }));
    }
    await pause(500);
  }
  const drop = (query.get("drop") || "").split(",").filter(Boolean);
  if (drop.length > 0) {
    const files = new DataTransfer();
    for (const name of drop) {
      const bytes = await (await fetch(name)).blob();
      files.items.add(new File([bytes], name));
    }
    canvas.dispatchEvent(new DragEvent("drop", { dataTransfer: files, bubbles: true, cancelable: true }));
  }
  console.log("drive.js: done");
}

// The app runs once its loading line is gone (src/app/web.rs removes it).
const waiting = setInterval(() => {
  if (!document.getElementById("pathlab-status")) {
    clearInterval(waiting);
    setTimeout(drive, 2000);
  }
}, 100);
