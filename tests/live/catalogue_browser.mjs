// The catalogue browser in headless Chromium, as a counter clerk uses it, against a live
// appliance: a number written three ways, an OE number with spaces, the vehicle path and the
// plate path to a part, an article page with its sections, a shared link opened fresh, a
// whitelisted counter PC, a brand-restricted provider, keyboard-only use, and axe-core's
// accessibility rules. Screenshots go to SHOTS (kept as CI artefacts).
//
//   node tests/live/catalogue_browser.mjs BASE DEMO_KEY BRAND2_KEY SHOTS
//   (NODE_PATH holding playwright-core and axe-core; the appliance has the demo provider, a
//   provider `brand2` restricted to brand 2 with BRAND2_KEY, and a provider `counter` whose
//   whitelist admits 127.0.0.1 without a key)
import { createRequire } from "node:module";
import { mkdirSync, readFileSync } from "node:fs";

const require = createRequire(process.env.NODE_PATH + "/");
const { chromium } = require("playwright-core");
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

const [base, demoKey, brand2Key, shots] = process.argv.slice(2);
mkdirSync(shots, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

let failures = 0;
let passed = 0;
async function check(name, body) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(10000);
  const page = await context.newPage();
  const elsewhere = [];
  page.on("request", (r) => {
    if (!r.url().startsWith(base)) elsewhere.push(r.url());
  });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  try {
    await body(page, context);
    if (elsewhere.length) throw new Error("requests to other hosts: " + elsewhere.join(", "));
    if (errors.length) throw new Error("script errors: " + errors.join("; "));
    passed++;
    console.log("ok   " + name);
  } catch (error) {
    failures++;
    console.log("FAIL " + name + ": " + error.message.split("\n")[0]);
    await page.screenshot({ path: `${shots}/failed-${name.replace(/\W+/g, "-")}.png`, fullPage: true }).catch(() => {});
  } finally {
    await context.close();
  }
}

function expect(condition, what) {
  if (!condition) throw new Error(what);
}

const heading = (page) => page.locator("main h1").innerText();

/** Waits until the view in the address is drawn: a navigation marks `main` busy at once
 * (synchronously, in the click's own handler) until the view's answers are in. */
async function drawn(page, inAddress) {
  await page.waitForFunction(
    (part) => location.search.includes(part) && !document.querySelector("main").hasAttribute("aria-busy"),
    inAddress,
  );
}

/** Opens the catalogue for a provider, entering its key in the page. */
async function signIn(page, provider, key, path = "/catalogue") {
  const sep = path.includes("?") ? "&" : "?";
  await page.goto(`${base}${path}${sep}provider=${provider}`);
  await page.getByLabel("Key (kept until this browser tab closes)").fill(key);
  await page.getByRole("button", { name: "Open the catalogue" }).click();
  await page.waitForFunction(() => document.querySelector("main h1")?.textContent !== "Who is looking?");
  expect(!page.url().includes(key), "the key is in the address: " + page.url());
}

async function search(page, text) {
  const box = page.locator("#number");
  await box.fill(text);
  await box.press("Enter");
  await page.waitForFunction((t) => document.querySelector("main h1")?.textContent.endsWith(" for " + t), text);
}

await check("a number written three ways finds the same article", async (page) => {
  await signIn(page, "demo", demoKey);
  for (const written of ["0 986 494 958", "0986-494.958", "0986494958"]) {
    await search(page, written);
    const row = page.locator("main tbody tr").first();
    expect((await row.innerText()).includes("0 986 494 958"), `${written}: ${await row.innerText()}`);
    expect((await row.innerText()).includes("Veltra Brakes"), written);
    expect(new URL(page.url()).searchParams.get("q") === written, "the search is in the address");
  }
  await page.screenshot({ path: `${shots}/search.png`, fullPage: true });
});

await check("an OE number written with spaces finds the brake pads", async (page) => {
  await signIn(page, "demo", demoKey);
  await search(page, "2800 67 91");
  const rows = await page.locator("main tbody tr").allInnerTexts();
  expect(rows.some((r) => r.includes("0 986 494 958") && r.includes("Brake Pad Set")), rows.join(" | "));
  expect(rows.some((r) => r.includes("OE number")), "the match names its kind: " + rows.join(" | "));
});

await check("suggestions as one types, exact first, grouped by kind", async (page) => {
  await signIn(page, "demo", demoKey);
  await page.locator("#number").pressSequentially("0986 494 95", { delay: 20 });
  const options = page.getByRole("option");
  await options.first().waitFor();
  const groups = await page.locator("#suggestions li.group").allInnerTexts();
  expect(groups.length > 0, "no groups");
  await page.screenshot({ path: `${shots}/suggestions.png` });
  await page.locator("#number").fill("0986494958");
  await page.waitForFunction(() => document.querySelector("#suggestions li.group")?.textContent === "Exact");
  expect((await options.first().innerText()).includes("0 986 494 958"), await options.first().innerText());
});

await check("by vehicle: make, model series, type, category, then a part", async (page) => {
  await signIn(page, "demo", demoKey);
  await page.getByRole("link", { name: "By vehicle", exact: true }).click();
  await drawn(page, "view=vehicle");
  await page.getByRole("link", { name: "AUDI", exact: true }).click();
  await drawn(page, "make=");
  await page.getByRole("link", { name: "A3 Sportback (8VA, 8VF)", exact: true }).click();
  await drawn(page, "series=");
  await page.screenshot({ path: `${shots}/vehicle.png`, fullPage: true });
  await page.getByRole("link", { name: "AUDI A3 Sportback (8VA, 8VF) 1.0 TSI" }).first().click();
  await drawn(page, "ktype=");
  // The vehicle's categories with their counts; each step has its own address.
  expect((await page.locator("main h2").allInnerTexts()).includes("Categories"), "the category tree");
  const ktypeAddress = page.url();
  await page.screenshot({ path: `${shots}/vehicle-categories.png`, fullPage: true });
  const pads = page.locator("main .tree a", { hasText: "Brake Pads" });
  const counted = Number((await pads.locator("xpath=following-sibling::span[1]").innerText()).replace(/\D/g, ""));
  await pads.click();
  await drawn(page, "group=");
  expect((await heading(page)).endsWith("Brake Pads"), await heading(page));
  expect((await page.locator("main p.quiet").last().innerText()) === counted + " parts",
    "the category's count is its parts: " + counted);
  const sections = await page.locator("main section h2").allInnerTexts();
  expect(sections.length === 1 && sections[0].startsWith("Brake Pad Set"), sections.join(", "));
  await page.screenshot({ path: `${shots}/vehicle-parts.png`, fullPage: true });
  await page.locator("main tbody tr a").first().click();
  await drawn(page, "article=");
  expect((await page.locator("main h2").allInnerTexts()).includes("Criteria"), "an article page");
  // Back, twice: the category's parts, then the vehicle's categories.
  await page.goBack();
  await drawn(page, "group=");
  await page.goBack();
  await page.waitForFunction((a) => location.href === a && !document.querySelector("main").hasAttribute("aria-busy"), ktypeAddress);
  // The trail leads back to the model series.
  await page.getByRole("navigation", { name: "Path" }).getByRole("link", { name: "A3 Sportback (8VA, 8VF)" }).click();
  await drawn(page, "series=");
  // An address shared from before the categories (a make by name) still opens.
  await page.goto(`${base}/catalogue?provider=demo&view=vehicle&make=AUDI`);
  await page.waitForFunction(() => document.querySelector("main h1")?.textContent === "AUDI");
});

await check("by plate: a key number to the vehicle's parts, page by page", async (page) => {
  await signIn(page, "demo", demoKey);
  await page.getByRole("link", { name: "By plate", exact: true }).click();
  await page.getByLabel("Plate or key number").fill("0696/SZ7");
  await page.getByRole("button", { name: "Find" }).click();
  await page.getByRole("link", { name: "OPEL INSIGNIA B (Z18) 1.4 TSI" }).click();
  await page.waitForFunction(() => document.querySelector("main h1")?.textContent.startsWith("OPEL INSIGNIA"));
  await page.getByRole("link", { name: "Every part of this vehicle" }).click();
  await drawn(page, "group=all");
  const first = await page.locator("main tbody tr").first().innerText();
  const next = page.getByRole("link", { name: "Next page" });
  if (await next.count()) {
    await next.click();
    await drawn(page, "after=");
    expect((await page.locator("main tbody tr").first().innerText()) !== first, "the next page holds other parts");
  }
  await page.screenshot({ path: `${shots}/plate.png`, fullPage: true });
});

await check("an article page shows its sections, numbers linking to their searches", async (page) => {
  await signIn(page, "demo", demoKey);
  await search(page, "0986494958");
  await page.getByRole("link", { name: "0 986 494 958" }).first().click();
  await drawn(page, "article=");
  expect((await heading(page)) === "Veltra Brakes 0 986 494 958", await heading(page));
  const sections = await page.locator("main h2").allInnerTexts();
  for (const wanted of ["Criteria", "OE numbers", "Comparable numbers", "Replacements", "Prices"]) {
    expect(sections.includes(wanted), `${wanted} not in ${sections.join(", ")}`);
  }
  expect(sections.some((s) => s.startsWith("Vehicles it fits (")), sections.join(", "));
  // Its picture, from the appliance's own media store.
  await page.waitForFunction(() => document.querySelector("section[aria-label=Images] img")?.naturalWidth > 0);
  await page.screenshot({ path: `${shots}/article.png`, fullPage: true });
  await page.getByRole("link", { name: "2800 67 91" }).click();
  await page.waitForFunction(() => new URL(location.href).searchParams.get("q") === "2800 67 91");
});

await check("a kit's page lists its contents, each a link to its own page", async (page) => {
  await signIn(page, "demo", demoKey);
  await search(page, "0 986 A45 240");
  await page.getByRole("link", { name: "0 986 A45 240" }).first().click();
  await drawn(page, "article=");
  const contents = page.getByRole("region", { name: "Kit contents" });
  const rows = await contents.locator("tbody tr").allInnerTexts();
  expect(rows.some((r) => r.includes("0 986 478 849") && r.includes("Brake Disc") && r.includes("2")), rows.join(" | "));
  await page.screenshot({ path: `${shots}/kit.png`, fullPage: true });
  await contents.getByRole("link", { name: "0 986 478 849" }).click();
  await drawn(page, "article=");
  expect((await heading(page)) === "Veltra Brakes 0 986 478 849", await heading(page));
  // And back: the disc names the kit it is part of.
  const kits = await page.getByRole("region", { name: "Part of kits" }).locator("tbody tr").allInnerTexts();
  expect(kits.some((r) => r.includes("0 986 A45 240") && r.includes("2")), kits.join(" | "));
});

await check("a 360° set turns with the slider, frame by frame", async (page) => {
  await signIn(page, "demo", demoKey);
  await search(page, "KD 31-2883");
  await page.getByRole("link", { name: "KD 31-2883" }).first().click();
  await drawn(page, "article=");
  const turn = page.getByRole("slider", { name: "Turn the part" });
  await page.waitForFunction(() => !document.querySelector(".spin input").disabled);
  const spin = page.locator(".spin img");
  const first = await spin.getAttribute("src");
  expect(first.includes("/ws/3.0/documents/demo/") && first.includes("&sig="), first);
  await turn.focus();
  for (let i = 0; i < 9; i++) await page.keyboard.press("ArrowRight");
  expect((await spin.getAttribute("alt")).endsWith("frame 10 of 24"), await spin.getAttribute("alt"));
  expect((await spin.getAttribute("src")) !== first, "the frame changed");
  await page.waitForFunction(() => document.querySelector(".spin img").naturalWidth > 0);
  await page.screenshot({ path: `${shots}/spin.png`, fullPage: true });
});

await check("a shared link opened fresh asks for the key once, then shows the same view", async (page, context) => {
  await signIn(page, "demo", demoKey);
  await search(page, "0986494958");
  await page.getByRole("link", { name: "0 986 494 958" }).first().click();
  await drawn(page, "article=");
  const shared = page.url();
  const title = await heading(page);
  const fresh = await browser.newContext();
  try {
    const other = await fresh.newPage();
    await other.goto(shared);
    await other.getByLabel("Key (kept until this browser tab closes)").fill(demoKey);
    await other.getByRole("button", { name: "Open the catalogue" }).click();
    await other.waitForFunction((t) => document.querySelector("main h1")?.textContent === t, title);
    expect(other.url() === shared, other.url());
    await other.getByRole("button", { name: "Sign out" }).click();
    await other.waitForFunction(() => document.querySelector("main h1")?.textContent === "Who is looking?");
  } finally {
    await fresh.close();
  }
  expect(context !== undefined, "context");
});

await check("a whitelisted counter PC needs no key", async (page) => {
  await page.goto(`${base}/catalogue?provider=counter&q=0986494958`);
  await page.waitForFunction(() => document.querySelector("main h1")?.textContent.endsWith(" for 0986494958"));
  expect((await page.locator("main tbody tr").count()) >= 1, "found");
});

await check("a brand-restricted provider never sees another brand", async (page) => {
  await signIn(page, "brand2", brand2Key, "/catalogue?q=0986494958");
  expect((await heading(page)).startsWith("No article has the number"), await heading(page));
  // Its categories count its own parts only: no brakes, its filters.
  await page.goto(`${base}/catalogue?provider=brand2&ktype=10219`);
  await page.waitForFunction(() => document.querySelector("main .tree"));
  const tree = await page.locator("main .tree").first().innerText();
  expect(!tree.includes("Brake System") && tree.includes("Filters"), tree);
  await page.goto(`${base}/catalogue?provider=brand2&ktype=10219&group=all`);
  await page.waitForFunction(() => document.querySelector("main h1")?.textContent.startsWith("AUDI") &&
    document.querySelector("main section"));
  const text = await page.locator("main").innerText();
  for (const other of ["Veltra Brakes", "Astrel Exhaust", "Korda Chassis"]) {
    expect(!text.includes(other), `${other} shown to brand2`);
  }
  expect(text.includes("Norvik Filters"), "its own brand is shown");
  const brands = await page.getByLabel("Brand").locator("option").allInnerTexts();
  expect(brands.length === 2 && brands[1].startsWith("Norvik Filters"), brands.join(", "));
  await page.screenshot({ path: `${shots}/restricted.png`, fullPage: true });
});

await check("keyboard only: a search, a suggestion, an article", async (page) => {
  await page.goto(`${base}/catalogue?provider=counter`);
  await page.waitForFunction(() => document.querySelector("main h1")?.textContent === "Find a part");
  // From the top of the page: the home link, then the search box.
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.id === "number"), "Tab reaches the search box");
  await page.keyboard.type("0986494958");
  // The suggestions of the whole number (on a loaded machine, those of a part of it may come
  // first, between two keystrokes).
  await page.waitForFunction(() =>
    document.querySelector("#suggestions [role=option]")?.textContent.includes("0 986 494 958"));
  await page.keyboard.press("ArrowDown");
  expect(
    await page.evaluate(() => document.querySelector("#suggestions [aria-selected=true]") !== null),
    "ArrowDown selects a suggestion",
  );
  await page.keyboard.press("Enter");
  await drawn(page, "article=");
  expect((await heading(page)).includes("0 986 494 958"), await heading(page));
});

await check("the language switch shows the catalogue and the page in German, then French", async (page) => {
  await signIn(page, "demo", demoKey);
  const switcher = page.getByLabel("Language");
  await switcher.selectOption("de");
  await page.waitForFunction(() => document.querySelector("main h1")?.textContent === "Teil finden");
  expect(new URL(page.url()).searchParams.get("lang") === "de", "the language is in the address");
  expect((await page.locator("html").getAttribute("lang")) === "de", "the page says it is German");
  const box = page.locator("#number");
  await box.fill("0 986 494 958");
  await box.press("Enter");
  await page.waitForFunction(() => document.querySelector("main h1")?.textContent.endsWith(" zu 0 986 494 958"));
  const row = await page.locator("main tbody tr").first().innerText();
  expect(row.includes("Bremsbelagsatz, Scheibenbremse"), row);
  expect((await page.locator("main thead").innerText()).includes("Artikelnummer"), "German headings");
  await page.screenshot({ path: `${shots}/german.png`, fullPage: true });
  // The address keeps the language on every link; French is one choice away.
  await page.locator("main tbody a").first().click();
  await drawn(page, "article=");
  expect(new URL(page.url()).searchParams.get("lang") === "de", "the article page keeps German");
  await page.getByLabel("Sprache").selectOption("fr");
  await page.waitForFunction(() => document.querySelector("main")?.innerText.includes("Jeu de plaquettes de frein"));
  expect((await page.locator("main").innerText()).includes("Critères"), "French section headings");
});

await check("a category page tells the parts apart and narrows them by criteria, in French", async (page) => {
  await signIn(page, "demo", demoKey);
  // The key stays with the tab: a shared address opens at once.
  await page.goto(`${base}/catalogue?provider=demo&lang=fr&ktype=10678&group=100301`);
  await drawn(page, "group=100301");
  const who = await page.locator("#who").innerText();
  expect(who.startsWith("Fournisseur demo") && !who.includes("undefined"), who);
  const labels = await page.locator("main .filters label").allInnerTexts();
  expect(labels[0].startsWith("Article générique") && labels[1].startsWith("Marque"), labels.join(" | "));
  // Each row: its thumbnail, number, brand, the criteria whose values differ, status, price.
  const headings = await page.locator("main thead th").allInnerTexts();
  expect(headings.includes("Prix") && headings.length > 6, headings.join(" | "));
  await page.waitForFunction(() => [...document.querySelectorAll("main tbody img")].some((i) => i.naturalWidth > 0));
  const cells = await page.locator("main tbody tr").first().locator("td").allInnerTexts();
  expect(cells.length === headings.length && cells.slice(3, -2).some((c) => c !== ""), cells.join(" | "));
  await page.screenshot({ path: `${shots}/category-parts.png`, fullPage: true });
  // A criterion's value narrows the page to the parts counted beside it.
  const filter = page.locator('main .filters select[name^="criterion-"]').first();
  const option = (await filter.locator("option").nth(1).innerText()).trim();
  const counted = Number(option.match(/\((\d+)\)$/)[1]);
  await filter.selectOption({ index: 1 });
  await drawn(page, "crit=");
  expect((await page.locator("main tbody tr").count()) === counted, option);
  expect((await page.locator("main p.quiet").last().innerText()) === counted + " pièces", option);
  // All again: the filter is lifted.
  await page.locator('main .filters select[name^="criterion-"]').first().selectOption("");
  await page.waitForFunction(() => !location.search.includes("crit=") && !document.querySelector("main[aria-busy]"));
});

for (const [name, path] of [
  ["home", "/catalogue?provider=counter"],
  ["home in German", "/catalogue?provider=counter&lang=de"],
  ["search", "/catalogue?provider=counter&q=0986494958"],
  ["article", "/catalogue?provider=counter&q=0986494958"],
  ["vehicle", "/catalogue?provider=counter&view=vehicle&make=AUDI"],
  ["vehicle series", "/catalogue?provider=counter&view=vehicle&make=2&series=201"],
  ["vehicle categories", "/catalogue?provider=counter&ktype=10219"],
  ["vehicle parts", "/catalogue?provider=counter&ktype=10219&group=100011"],
  ["vehicle parts in French", "/catalogue?provider=counter&lang=fr&ktype=10678&group=100301"],
  ["plate", "/catalogue?provider=counter&view=plate&plate=0696/SZ7"],
  ["sign-in", "/catalogue"],
]) {
  await check(`no accessibility violations (axe-core): ${name}`, async (page) => {
    await page.goto(base + path);
    await page.waitForFunction(() => document.querySelector("main h1") && !document.querySelector("main[aria-busy]"));
    if (name === "article") {
      await page.locator("main tbody a").first().click();
      await drawn(page, "article=");
    }
    // Injected by the test: the page's own policy admits this origin's scripts only.
    await page.evaluate(axeSource);
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
    const found = result.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.help}`);
    expect(found.length === 0, found.join("; "));
  });
}

await browser.close();
console.log(`${passed} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
