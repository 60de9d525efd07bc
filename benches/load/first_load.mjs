// The catalogue page's first load in headless Chromium, from a fresh browser context each
// time: the bytes it transfers, and the time from navigation until the first view (the home
// view, which asks the appliance for its brands) is drawn. Five loads; prints each and the
// median.
//
//   NODE_PATH=… node first_load.mjs BASE KEY
import { createRequire } from "node:module";

const require = createRequire(process.env.NODE_PATH + "/");
const { chromium } = require("playwright-core");
const [base, key] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const times = [];
let bytes = 0;
for (let i = 0; i < 5; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript((k) => sessionStorage.setItem("partscat.key", k), key);
  let sum = 0;
  page.on("response", async (r) => {
    if (r.request().resourceType() !== "fetch") sum += (await r.body().catch(() => Buffer.alloc(0))).length;
  });
  const started = Date.now();
  await page.goto(`${base}/catalogue?provider=demo`);
  await page.waitForFunction(() => document.querySelector("main h1")?.textContent === "Find a part", null, { timeout: 10000 });
  times.push(Date.now() - started);
  bytes = sum;
  await context.close();
}
await browser.close();
times.sort((a, b) => a - b);
console.log(`first load: ${times.join(", ")} ms (median ${times[2]} ms); page, script and style ${bytes} bytes`);
