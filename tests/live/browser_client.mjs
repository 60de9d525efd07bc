// A shop's page on another origin calling the appliance from an end user's browser, as
// TecDoc's JavaScript client does: the shop's server hands the user a key made by
// addDynamicAPIKey, and the page posts JavaScript object literals to the JSON endpoint with
// it. In headless Chromium: a page of the origin cors_origins names gets its answers (and
// reads Content-Language); a page of another origin is refused by the browser's CORS check.
//
//   node tests/live/browser_client.mjs BASE DEMO_KEY NAMED_PORT OTHER_PORT
//   (NODE_PATH holding playwright-core; the appliance runs with
//   cors_origins = http://127.0.0.1:NAMED_PORT)
import { createRequire } from "node:module";
import { createServer } from "node:http";

const require = createRequire(process.env.NODE_PATH + "/");
const { chromium } = require("playwright-core");

const [base, demoKey, namedPort, otherPort] = process.argv.slice(2);
const endpoint = `${base}/ws/3.0/services/PartsToCatDLB.jsonEndpoint`;

// The shop's server: makes the end user's key with the provider's own key.
const granted = await fetch(`${endpoint}?api_key=${demoKey}`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ addDynamicAPIKey: { provider: "demo", validityHours: 12 } }),
}).then((r) => r.json());
if (granted.status !== 200) throw new Error("addDynamicAPIKey: " + JSON.stringify(granted));
const userKey = granted.apiKey;

// The shop's pages, on two origins.
const page = `<!doctype html><html lang="en"><title>shop</title><body><script>
window.call = async (body) => {
  try {
    const r = await fetch(${JSON.stringify(endpoint)}, {
      method: "POST",
      headers: { "content-type": "application/json", "api-key": ${JSON.stringify(userKey)} },
      body,
    });
    return { http: r.status, language: r.headers.get("content-language"), answer: await r.json() };
  } catch (e) {
    return { error: String(e) };
  }
};
</script></body></html>`;
const servers = [namedPort, otherPort].map((port) => {
  const server = createServer((_, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(page);
  });
  server.listen(Number(port), "127.0.0.1");
  return server;
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

let failures = 0;
let passed = 0;
async function check(name, port, expectation) {
  const context = await browser.newContext();
  const tab = await context.newPage();
  try {
    await tab.goto(`http://127.0.0.1:${port}/`);
    // TecDoc's JavaScript client writes object literals, names unquoted.
    const result = await tab.evaluate(() =>
      window.call("{getLanguages:{provider:'demo',lang:'HU'}}"));
    expectation(result);
    passed++;
    console.log("ok   " + name);
  } catch (error) {
    failures++;
    console.log("FAIL " + name + ": " + error.message.split("\n")[0]);
  } finally {
    await context.close();
  }
}

function expect(condition, what) {
  if (!condition) throw new Error(what);
}

await check("a page of the named origin calls with the end user's key", namedPort, (r) => {
  expect(!r.error, "the call failed: " + r.error);
  expect(r.http === 200 && r.answer.status === 200, "answered " + JSON.stringify(r));
  expect(r.answer.data.array.length > 0, "no languages: " + JSON.stringify(r.answer));
  expect(r.language === "en", "Content-Language: " + r.language);
});
await check("a page of another origin is refused", otherPort, (r) => {
  expect(r.error && r.error.includes("Failed to fetch"), "it was answered: " + JSON.stringify(r));
});

await browser.close();
for (const server of servers) server.close();
console.log(`${passed} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
