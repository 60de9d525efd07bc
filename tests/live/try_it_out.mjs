// Presses "Try it out" and "Execute" on every operation of /docs in headless Chromium, with
// the values the UI pre-fills, after authorising with the demo key as a user does (the
// Authorize dialog). Every answer must be 2xx and hold something (not an empty list);
// syncTecdoc must answer 409 (the demo appliance follows no upstream).
//   node tests/live/try_it_out.mjs BASE_URL KEY   (NODE_PATH holds playwright-core)
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');
const [base, key] = process.argv.slice(2);
const later = new Map([['/svc/syncTecdoc', /^409/]]);

// An answer that says nothing: an empty list, or an object whose lists are all empty.
function empty(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return text.trim().split('\n').length < 2; // CSV: a header and no row
  }
  if (Array.isArray(value)) return value.length === 0;
  const lists = Object.values(value).filter(Array.isArray);
  return lists.length > 0 && lists.every((l) => l.length === 0);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
let failed = 0;
try {
  const page = await browser.newPage();
  await page.goto(`${base}/docs`);
  await page.waitForSelector('.opblock');

  // Authorize: the key in the query scheme, as the first call of a new user.
  await page.click('.btn.authorize');
  const scheme = page.locator('.auth-container').filter({ hasText: 'ApiKeyQuery' });
  await scheme.locator('input').fill(key);
  await scheme.locator('button.authorize').click();
  await page.click('.btn-done');

  const operations = page.locator('.opblock');
  const count = await operations.count();
  for (let i = 0; i < count; i++) {
    const op = operations.nth(i);
    const path = (await op.locator('.opblock-summary-path').getAttribute('data-path')) || '?';
    await op.locator('.opblock-summary').first().click();
    await op.locator('.try-out__btn').click();
    await op.locator('.execute').click();
    const status = op.locator('.live-responses-table .response .response-col_status').first();
    let code;
    try {
      await status.waitFor({ timeout: 20000 });
      code = (await status.innerText()).trim();
    } catch {
      // The UI sends nothing when a pre-filled value fails the document's own schema.
      const invalid = await op.locator('.invalid').evaluateAll((els) =>
        els.map((e) => e.getAttribute('placeholder') || e.getAttribute('title') || e.tagName));
      code = `no request sent (the UI refused: ${invalid.join(', ') || 'unknown'})`;
    }
    const body = await op
      .locator('.live-responses-table .response-col_description .microlight')
      .first()
      .innerText()
      .catch(() => '');
    const expected = later.get(path) || /^2\d\d/;
    const ok = expected.test(code) && (later.has(path) || !empty(body));
    if (!ok) {
      failed++;
      console.log(`${path}: ${code}, not as expected: ${body.slice(0, 300)}`);
    } else {
      console.log(`${path}: ${code}`);
    }
    // Close it again, so the next operation's controls are the only ones open.
    await op.locator('.opblock-summary').first().click();
  }
  console.log(`${count - failed} of ${count} operations answered as expected with the pre-filled values`);

  // The lookup's other answer is a choice away: leave `mainref` out, send `crossrefs`.
  const lookup = operations.filter({
    has: page.locator('[data-path="/svc/getCrossRefsOrArticle/{reference}"]'),
  });
  await lookup.locator('.opblock-summary').first().click();
  // It is still in "Try it out" from the pass above.
  if (!(await lookup.locator('.execute').isVisible())) {
    await lookup.locator('.try-out__btn').click();
  }
  await lookup.locator('tr[data-param-name="mainref"] select').selectOption('none');
  await lookup.locator('tr[data-param-name="crossrefs"] select').selectOption('crossReferences');
  await lookup.locator('.execute').click();
  // The answer shown is replaced when the new one arrives.
  const answer = lookup
    .locator('.live-responses-table .response-col_description .microlight', {
      hasText: '"crossReferences"',
    })
    .first();
  const arrived = await answer.waitFor({ timeout: 20000 }).then(() => true, () => false);
  if (!arrived) {
    failed++;
    const shown = await lookup.locator('.live-responses-table').first().innerText().catch(() => '');
    console.log(`getCrossRefsOrArticle with crossrefs chosen: ${shown.slice(0, 300)}`);
  } else {
    console.log('getCrossRefsOrArticle with crossrefs chosen instead of mainref: cross-references');
  }
} finally {
  await browser.close();
}
process.exit(failed === 0 ? 0 : 1);
