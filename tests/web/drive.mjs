// Drives the web page in headless Chromium for tests/web.rs: `node drive.mjs NPM_FOLDER CHROMIUM
// BASE_URL`. One browser serves every request of a test program. A request is a line on standard
// input, `{"id": N, "steps": [...]}`; it runs in a page of its own, in a browser context of its own
// (nothing kept between requests), and its answer is a line on standard output: `{"id": N,
// "results": [...]}`, one result per step, or `{"id": N, "error": TEXT}` saying which step failed
// and why. Requests run side by side. The browser closes when standard input ends.
//
// Steps: each is an object with one key. {"open": "index.html?args=..."}; {"frames": N} waits until
// the page has drawn N frames of its model (document.body.dataset.frames) and gives the time waited
// and the time since the page was opened, in ms; {"more": N} as many frames more than it has drawn
// now; {"model": NAME} waits until the page shows NAME; {"failure": true} waits for the page's
// failure line and gives it; {"said": TEXT} waits until the page's messages hold TEXT and gives them
// all; {"shot": PATH} saves the canvas as a PNG; {"key": "s"} presses a key on the canvas; {"drag":
// [x0, y0, x1, y1]} drags the left button across the canvas, {"swipe": [x0, y0, x1, y1]} a finger;
// {"upload": [PATH...]} gives files to the file input; {"link": NAME} waits for the download link
// of NAME and gives its size in bytes (and its text, for a .json); {"eval": JS} gives what the
// expression is in the page.
import { createRequire } from "node:module";

import { createInterface } from "node:readline";

const [npm, chromium, base] = process.argv.slice(2);
const require = createRequire(`${npm}/`);
const puppeteer = require("puppeteer-core");

const WAIT_MS = 60000;
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"],
});

// One request's steps, in a page of a browser context of its own; what each step gave.
async function run(id, steps) {
  const context = await browser.createBrowserContext();
  const results = [];
  let step;
  let opened = Date.now();
  try {
    const page = await context.newPage();
    await page.setViewport({ width: 1200, height: 1000, hasTouch: true });
    page.on("pageerror", (e) => process.stderr.write(`request ${id}: page error: ${e.message}\n`));
    const canvas = async () => page.$("#picture");
    const frames = () => page.evaluate(() => Number(document.body.dataset.frames || 0));
    const failure = () => page.evaluate(() => document.body.dataset.failure || null);
    const waitFor = async (what, test, arg) => {
      try {
        await page.waitForFunction(test, { timeout: WAIT_MS, polling: 20 }, arg);
      } catch (e) {
        const said = await page.evaluate(() => document.getElementById("said")?.textContent ?? "");
        throw new Error(`waited ${WAIT_MS} ms for ${what}; the page said: ${JSON.stringify(said)}`);
      }
    };
    for (step of steps) {
      const [kind, arg] = Object.entries(step)[0];
      const started = Date.now();
      if (kind === "open") {
        opened = Date.now();
        await page.goto(`${base}/${arg}`);
        results.push(null);
      } else if (kind === "frames") {
        await waitFor(`${arg} frames`, (n) => Number(document.body.dataset.frames || 0) >= n
          || document.body.dataset.failure, arg);
        const failed = await failure();
        if (failed) throw new Error(`the page failed: ${failed}`);
        results.push({ waited_ms: Date.now() - started, opened_ms: Date.now() - opened, frames: await frames() });
      } else if (kind === "more") {
        const now = await frames();
        await waitFor(`${arg} more frames`, (n) => Number(document.body.dataset.frames || 0) >= n, now + arg);
        results.push({ waited_ms: Date.now() - started, frames: await frames() });
      } else if (kind === "model") {
        await waitFor(`the model ${arg}`, (name) => document.body.dataset.model === name, arg);
        results.push(null);
      } else if (kind === "failure") {
        await waitFor("the page's failure", () => document.body.dataset.failure);
        results.push(await failure());
      } else if (kind === "said") {
        await waitFor(`the line ${JSON.stringify(arg)}`,
          (text) => document.getElementById("said").textContent.includes(text), arg);
        results.push(await page.evaluate(() => document.getElementById("said").textContent));
      } else if (kind === "shot") {
        await (await canvas()).screenshot({ path: arg });
        results.push(null);
      } else if (kind === "key") {
        await (await canvas()).focus();
        await page.keyboard.press(arg === " " ? "Space" : arg);
        results.push(null);
      } else if (kind === "drag") {
        const box = await (await canvas()).boundingBox();
        const [x0, y0, x1, y1] = arg;
        await page.mouse.move(box.x + x0, box.y + y0);
        await page.mouse.down();
        for (let i = 1; i <= 10; i++) {
          await page.mouse.move(box.x + x0 + ((x1 - x0) * i) / 10, box.y + y0 + ((y1 - y0) * i) / 10);
        }
        await page.mouse.up();
        results.push(null);
      } else if (kind === "swipe") {
        const box = await (await canvas()).boundingBox();
        const [x0, y0, x1, y1] = arg;
        await page.touchscreen.touchStart(box.x + x0, box.y + y0);
        for (let i = 1; i <= 10; i++) {
          await page.touchscreen.touchMove(box.x + x0 + ((x1 - x0) * i) / 10, box.y + y0 + ((y1 - y0) * i) / 10);
        }
        await page.touchscreen.touchEnd();
        results.push(null);
      } else if (kind === "upload") {
        await (await page.$("#file")).uploadFile(...arg);
        results.push(null);
      } else if (kind === "link") {
        await waitFor(`the download ${arg}`, (name) => document.querySelector(`#downloads a[download="${name}"]`), arg);
        results.push(await page.evaluate(async (name) => {
          const link = document.querySelector(`#downloads a[download="${name}"]`);
          const bytes = new Uint8Array(await (await fetch(link.href)).arrayBuffer());
          return { bytes: bytes.length, text: name.endsWith(".json") ? new TextDecoder().decode(bytes) : null };
        }, arg));
      } else if (kind === "eval") {
        results.push(await page.evaluate(arg));
      } else {
        throw new Error(`no such step: ${kind}`);
      }
    }
    return { id, results };
  } catch (e) {
    return { id, error: `step ${JSON.stringify(step)}: ${e.message}` };
  } finally {
    await context.close();
  }
}

const running = [];
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { id, steps } = JSON.parse(line);
  running.push(run(id, steps).then((answer) => process.stdout.write(JSON.stringify(answer) + "\n")));
}
await Promise.allSettled(running);
await browser.close();
