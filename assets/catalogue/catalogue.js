// The counter's catalogue: one page whose address holds what is shown (a search, a vehicle, an
// article), so a link can be sent to a colleague and the back button works. Every answer comes
// from the appliance's JSON endpoint, through the same gate as any other client: the provider
// is named in the address, a key typed in is kept for this browser session only (never in the
// address), and a whitelisted counter PC needs none. Catalogue text reaches the page as text
// nodes only, never as markup.

import { WORDS } from "/catalogue/words.js";

const ENDPOINT = document.querySelector('meta[name="partscat-endpoint"]').content;
const KEY = "partscat.key";
const main = document.getElementById("main");
const input = document.getElementById("number");
const list = document.getElementById("suggestions");

// ---- the page's state, in its address

const query = () => new URLSearchParams(location.search);
const provider = () => query().get("provider") || "";

// ---- the reader's language: the address's `lang`, else the first of the browser's languages
// the catalogue holds; the page's words in it where `words.js` has them

/** The catalogue's languages, `{languageCode, languageName}`, once a provider is known. */
let held = [];
const chosenLanguage = () => query().get("lang") || "";

const preferred = () => (navigator.languages || []).map((l) => l.split("-")[0].toLowerCase());

/** The language answers are asked in: none before the catalogue's languages are known. */
function readingLanguage() {
  if (chosenLanguage()) return chosenLanguage();
  const codes = held.map((l) => l.languageCode);
  return preferred().find((l) => codes.includes(l)) || codes[0] || "";
}

/** The language of the page's own words (before signing in, the browser's). */
const wordsLanguage = () => readingLanguage() || preferred().find((l) => l in WORDS || l === "en") || "en";

/** The page's word `english` in the reader's language, `{name}`s filled from `values`. */
function t(english, values) {
  const text = WORDS[wordsLanguage()]?.[english] || english;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values?.[name] ?? ""));
}

/** The address of a view, keeping the provider and the chosen language. */
function address(fields) {
  const q = new URLSearchParams();
  if (provider()) q.set("provider", provider());
  if (chosenLanguage()) q.set("lang", chosenLanguage());
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined && value !== null && value !== "") q.set(name, String(value));
  }
  return "/catalogue?" + q.toString();
}

function go(fields) {
  history.pushState(null, "", address(fields));
  render();
}

window.addEventListener("popstate", render);
document.addEventListener("click", (event) => {
  const a = event.target.closest("a[data-view]");
  if (!a || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  history.pushState(null, "", a.href);
  render();
});

// ---- building the page without markup from data

function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** A link to another view of the catalogue. */
const view = (fields, ...text) => h("a", { href: address(fields), "data-view": "" }, ...text);

function show(title, ...content) {
  document.title = title + " · " + t("Parts catalogue");
  main.replaceChildren(h("h1", {}, title), ...content.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

function table(headings, rows) {
  return h(
    "table",
    {},
    h("thead", {}, h("tr", {}, headings.map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows.map((cells) => h("tr", {}, cells.map((c) => h("td", {}, c))))),
  );
}

// ---- calls

class Refused extends Error {
  constructor(status, text) {
    super(text);
    this.status = status;
  }
}

/** The key typed in this tab, as a header; none for a whitelisted PC. */
function keyHeader() {
  const key = sessionStorage.getItem(KEY);
  return key ? { "X-Api-Key": key } : {};
}

/** One operation of the JSON endpoint, for the page's provider. */
async function call(operation, fields) {
  const response = await fetch(ENDPOINT, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...keyHeader() },
    body: JSON.stringify({ [operation]: { provider: provider(), lang: readingLanguage() || undefined, ...fields } }),
  });
  let body = {};
  try {
    body = await response.json();
  } catch {
    // Answered below by the HTTP status.
  }
  const status = body.status ?? response.status;
  if (!response.ok || status >= 400) {
    throw new Refused(status || response.status, body.statusText || body.detail || response.statusText);
  }
  return body;
}

const ARTICLE_FIELDS = { includeMisc: true, includeGenericArticles: true };

async function articles(fields) {
  return call("getArticles", { ...ARTICLE_FIELDS, ...fields });
}

// ---- who is looking

function renderWho() {
  const who = document.getElementById("who");
  if (!provider()) return who.replaceChildren();
  const signOut = h(
    "button",
    {
      type: "button",
      class: "plain",
      id: "sign-out",
      onclick: () => {
        sessionStorage.removeItem(KEY);
        location.assign("/catalogue");
      },
    },
    t("Sign out"),
  );
  const [before, after] = t("Provider {name}", { name: "{name}" }).split("{name}");
  who.replaceChildren(before, h("strong", {}, provider()), after, " ", signOut);
}

function signIn(reason) {
  const fields = Object.fromEntries(query());
  const form = h(
    "form",
    {
      class: "signin",
      onsubmit: (event) => {
        event.preventDefault();
        const data = new FormData(event.target);
        const key = String(data.get("key") || "").trim();
        if (key) sessionStorage.setItem(KEY, key);
        else sessionStorage.removeItem(KEY);
        fields.provider = String(data.get("provider") || "").trim();
        history.replaceState(null, "", "/catalogue?" + new URLSearchParams(fields));
        render();
      },
    },
    h("label", {}, t("Provider"), h("input", { name: "provider", required: true, value: provider(), autocomplete: "username" })),
    h("label", {}, t("Key (kept until this browser tab closes)"),
      h("input", { name: "key", type: "password", autocomplete: "current-password" })),
    h("button", { type: "submit" }, t("Open the catalogue")),
  );
  show(
    t("Who is looking?"),
    reason ? h("p", { class: "error", role: "alert" }, reason) : null,
    h("p", {}, t("Name your provider. A counter PC on the provider's list of addresses needs no key.")),
    form,
  );
  form.querySelector(provider() ? "[name=key]" : "[name=provider]").focus();
}

// ---- suggestions as one types

const KINDS = {
  ArticleNumber: "Reference",
  OENumber: "OE number",
  TradeNumber: "Trade number",
  ComparableNumber: "Comparable number",
  EAN: "EAN",
};
const kindOf = (match) => (KINDS[match.matchType] ? t(KINDS[match.matchType]) : match.description || match.matchType);
const SUGGESTED = { reference: "Reference", oe: "OE number", trade: "Trade number", comparable: "Comparable number", ean: "EAN" };
const squeezed = (text) => text.toUpperCase().replace(/[^0-9A-Z]/g, "");

let asked = 0;
let options = [];

/** `suggestNumbers`: exact matches, then numbers that start with what was typed. */
async function suggestionsFor(text) {
  const q = new URLSearchParams({ provider: provider(), limit: "15" });
  if (readingLanguage()) q.set("lang", readingLanguage());
  const response = await fetch("/svc/suggestNumbers/" + encodeURIComponent(text) + "?" + q, { headers: keyHeader() });
  return response.ok ? (await response.json()).suggestions : [];
}

async function suggest() {
  const text = input.value;
  const ticket = ++asked;
  if (!provider() || squeezed(text).length < 2) return closeSuggestions();
  const rows = await suggestionsFor(text).catch(() => []);
  if (ticket !== asked) return;
  // Exact matches, then one group per kind of number (the sort keeps the catalogue's order).
  const kinds = Object.keys(SUGGESTED);
  const rank = (row) => (row.exact ? 0 : 1 + kinds.indexOf(row.kind));
  rows.sort((a, b) => rank(a) - rank(b));
  options = rows;
  list.replaceChildren();
  let group = null;
  rows.forEach((row, i) => {
    const name = row.exact ? t("Exact") : SUGGESTED[row.kind] ? t(SUGGESTED[row.kind]) : row.kind;
    if (name !== group) {
      group = name;
      list.append(h("li", { class: "group", role: "presentation" }, group));
    }
    list.append(
      h(
        "li",
        {
          role: "option",
          id: "suggestion-" + i,
          "aria-selected": "false",
          onmousedown: (event) => {
            event.preventDefault();
            pick(i);
          },
        },
        h("strong", {}, row.reference), " · ", row.brandName, " · ", row.genartName,
        row.kind !== "reference" ? h("span", { class: "quiet" }, " — ", t(SUGGESTED[row.kind] || row.kind), " ", row.number) : null,
      ),
    );
  });
  list.hidden = rows.length === 0;
  input.setAttribute("aria-expanded", String(rows.length > 0));
}

function closeSuggestions() {
  options = [];
  list.hidden = true;
  list.replaceChildren();
  input.setAttribute("aria-expanded", "false");
  input.removeAttribute("aria-activedescendant");
}

function selected() {
  const id = input.getAttribute("aria-activedescendant");
  return id ? Number(id.slice("suggestion-".length)) : -1;
}

function select(i) {
  list.querySelectorAll("[role=option]").forEach((li) => li.setAttribute("aria-selected", "false"));
  const li = document.getElementById("suggestion-" + i);
  if (!li) return input.removeAttribute("aria-activedescendant");
  li.setAttribute("aria-selected", "true");
  li.scrollIntoView({ block: "nearest" });
  input.setAttribute("aria-activedescendant", li.id);
}

function pick(i) {
  const row = options[i];
  closeSuggestions();
  if (row) go({ article: row.articleId });
}

let typing;
input.addEventListener("input", () => {
  clearTimeout(typing);
  typing = setTimeout(suggest, 120);
});
input.addEventListener("keydown", (event) => {
  const count = options.length;
  if (event.key === "ArrowDown" && count) {
    event.preventDefault();
    select((selected() + 1) % count);
  } else if (event.key === "ArrowUp" && count) {
    event.preventDefault();
    select((selected() - 1 + count) % count);
  } else if (event.key === "Escape") {
    closeSuggestions();
  } else if (event.key === "Enter" && selected() >= 0) {
    event.preventDefault();
    pick(selected());
  }
});
input.addEventListener("blur", () => setTimeout(closeSuggestions, 150));
document.getElementById("search").addEventListener("submit", (event) => {
  event.preventDefault();
  clearTimeout(typing);
  asked++;
  closeSuggestions();
  if (input.value.trim()) go({ q: input.value.trim() });
});

// ---- the views

const ARTICLE_HEADINGS = ["Reference", "Brand", "Generic article", "Status"];

/** A row per article; with `matched`, the number that matched and its kind too. */
function articleRows(found, matched) {
  return found.map((a) => {
    const generic = a.genericArticles?.[0] || {};
    const match = a.searchQueryMatches?.[0];
    const row = [
      view({ article: generic.legacyArticleId }, a.articleNumber),
      a.mfrName,
      generic.genericArticleDescription || "",
      a.misc?.articleStatusDescription || "",
    ];
    return matched ? [...row, match ? kindOf(match) + " " + match.match : ""] : row;
  });
}

async function searchView(text) {
  input.value = text;
  let answer = await articles({ searchQuery: text, searchType: 10, searchMatchType: "exact", perPage: 100 });
  let note = null;
  if (!answer.articles?.length) {
    answer = await articles({ searchQuery: text, searchType: 10, searchMatchType: "prefix", perPage: 100 });
    note = h("p", { class: "quiet" }, t("No number is exactly {name}. Numbers that start with it:", { name: text }));
  }
  const found = answer.articles || [];
  if (!found.length) return show(t("No article has the number {name}", { name: text }), h("p", {}, t("Check the number, or find the part by vehicle.")));
  show(
    found.length === 1 ? t("1 article for {name}", { name: text }) : t("{count} articles for {name}", { count: found.length, name: text }),
    note,
    table([...ARTICLE_HEADINGS.map((w) => t(w)), t("Matched")], articleRows(found, true)),
  );
}

function numberLinks(numbers) {
  return h("ul", {}, numbers.map((n) => h("li", {}, view({ q: n.articleNumber }, n.articleNumber), n.mfrName ? " · " + n.mfrName : "")));
}

/**
 * Shows an answer's picture address in `image`, or says the appliance's media store lacks it.
 * The address is signed for its one file: an <img> fetches it without the key.
 */
function showPicture(image, url, what) {
  image.addEventListener("error", () => image.replaceWith(missing(what)), { once: true });
  image.src = url;
}

/** A 360° set: a slider (or the arrow keys on it) turns it through its frames. */
function spinner(frames) {
  const label = (i) => t("{name}, frame {count} of {total}", { name: frames[i].headerDescription || t("360° view"), count: i + 1, total: frames.length });
  const image = h("img", { alt: label(0), width: 200, height: 200 });
  const urls = frames.map((f) => f.imageURL200);
  const slider = h("input", {
    type: "range",
    min: 1,
    max: frames.length,
    value: 1,
    "aria-label": t("Turn the part"),
    oninput: (event) => {
      const i = Number(event.target.value) - 1;
      image.src = urls[i];
      image.alt = label(i);
    },
  });
  const figure = h("figure", { class: "spin" }, image, slider, h("figcaption", {}, t("360° view: drag to turn")));
  showPicture(image, urls[0], t("360° view"));
  // Every frame fetched now, so that turning shows each at once.
  for (const url of urls.slice(1)) new Image().src = url;
  return figure;
}

const missing = (what) => h("p", { class: "quiet" }, t("{name}: not in this appliance's media store.", { name: what }));

/** One picture. */
function picture(record) {
  const image = h("img", { alt: record.headerDescription || record.fileName, width: 200, height: 200 });
  showPicture(image, record.imageURL200, image.alt);
  return image;
}

/** An article's pictures and 360° sets (frames in order). */
function images(all) {
  const sets = new Map();
  const single = [];
  for (const image of all) {
    if (image.typeDescription === "spin360") {
      if (!sets.has(image.set)) sets.set(image.set, []);
      sets.get(image.set).push(image);
    } else single.push(image);
  }
  return h(
    "div",
    { class: "images" },
    single.map(picture),
    [...sets.values()].map((frames) => spinner(frames.sort((a, b) => a.position - b.position))),
  );
}

/** A type's years of manufacture: "2013-08 – 2020-03", or "from 2018-04" while it is built. */
const years = (v) => (v.yearTo ? (v.yearFrom || "") + " – " + v.yearTo : v.yearFrom ? t("from {name}", { name: v.yearFrom }) : "");

function vehicleCells(v) {
  return [
    view({ ktype: v.linkageTargetId }, [v.mfrName, v.model, v.typeName].join(" ")),
    years(v),
    v.fuel || "",
    v.kw ? v.kw + " kW / " + v.hp + " hp" : "",
  ];
}

/** Kit contents or the kits an article is in: each row links to that article's page. */
const kitRows = (articles) => articles.map((p) => [view({ article: p.legacyArticleId }, p.articleNumber), p.mfrName,
  p.genericArticleDescription, String(p.quantity)]);

async function articleView(id) {
  const answer = await call("getArticles", { legacyArticleIds: [Number(id)], includeAll: true });
  const a = answer.articles?.[0];
  if (!a) return show(t("No such article"), h("p", {}, t("It may not be in your provider's brands.")));
  const generic = a.genericArticles?.[0] || {};
  const misc = a.misc || {};
  const section = (title, content, empty) =>
    h("section", { "aria-label": title }, h("h2", {}, title), content || h("p", { class: "quiet" }, empty || t("None.")));
  const replacements = [
    ...(a.replacedByArticles || []).map((r) => [t("Replaced by"), view({ q: r.articleNumber }, r.articleNumber), r.mfrName || ""]),
    ...(a.replacesArticles || []).map((r) => [t("Replaces"), view({ q: r.articleNumber }, r.articleNumber), r.mfrName || ""]),
  ];
  show(
    a.mfrName + " " + a.articleNumber,
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, t("Generic article")), h("dd", {}, generic.genericArticleDescription || ""),
      h("dt", {}, t("Status")), h("dd", {}, misc.articleStatusDescription || ""),
      h("dt", {}, t("Description")), h("dd", {}, misc.additionalDescription || ""),
      h("dt", {}, t("Per package")), h("dd", {}, misc.quantityPerPackage ?? ""),
      h("dt", {}, "EAN"), h("dd", {}, (a.gtins || []).join(", ")),
    ),
    a.images?.length ? section(t("Images"), images(a.images)) : null,
    section(t("Criteria"), a.articleCriteria?.length ? table([t("Criterion"), t("Value")],
      a.articleCriteria.map((c) => [c.criteriaDescription, c.formattedValue])) : null),
    section(t("OE numbers"), a.oemNumbers?.length ? numberLinks(a.oemNumbers) : null),
    section(t("Comparable numbers"), a.comparableNumbers?.length ? numberLinks(a.comparableNumbers) : null),
    section(t("Trade numbers"), a.tradeNumbers?.length ? numberLinks(a.tradeNumbers.map((n) => ({ articleNumber: n.tradeNumber || n.articleNumber || n }))) : null),
    section(t("Replacements"), replacements.length ? table([t("Relation"), t("Reference"), t("Brand")], replacements) : null),
    a.partsListArticles?.length
      ? section(t("Kit contents"), table([t("Reference"), t("Brand"), t("Generic article"), t("Quantity")],
        kitRows(a.partsListArticles)))
      : null,
    a.partOfKits?.length
      ? section(t("Part of kits"), table([t("Kit"), t("Brand"), t("Generic article"), t("Quantity in kit")], kitRows(a.partOfKits)))
      : null,
    section(t("Prices"), a.prices?.length ? table([t("Kind"), t("Price"), t("Valid from")],
      a.prices.map((p) => [p.kindOfPriceDescription, p.amount + " " + p.currencyCode, String(p.validDateFrom).replace(/^(\d{4})(\d{2})(\d{2})$/, "$1-$2-$3")])) : null),
    section(t("Vehicles it fits ({count})", { count: a.totalLinkages ?? a.linkages?.length ?? 0 }), a.linkages?.length
      ? table(["Vehicle", t("Years"), t("Fuel"), t("Power"), t("Position")], a.linkages.map((l) => [...vehicleCells(l.linkageTarget), l.position || ""]))
      : null),
  );
}

// ---- the vehicle path: make → model series → type → category → parts, each step its own
// address (`view=vehicle&make=…&series=…`, then `ktype=…&group=…`)

/** Each choice a link with its count, as a list of cards. */
const choices = (items) => h("ul", { class: "cards choices" }, items.map(([fields, text, count]) =>
  h("li", {}, view(fields, text), h("span", { class: "quiet" }, " " + count))));

/** The path walked so far, each step a link back to it. */
const trail = (steps) => h("nav", { "aria-label": t("Path"), class: "trail" },
  steps.flatMap(([fields, text], i) => [i ? " › " : "", view(fields, text)]));

async function vehicleView(q) {
  const facets = (fields) => call("getLinkageTargets", { linkageTargetType: "P", perPage: 0, ...fields });
  const makes = (await facets({ includeMfrFacets: true })).mfrFacets?.counts || [];
  const asked = q.get("make") || "";
  // A make by id, or by name as older addresses give it.
  const make = makes.find((m) => String(m.id) === asked || m.name.toUpperCase() === asked.toUpperCase());
  const everyMake = [{ view: "vehicle" }, t("All makes")];
  if (!make) {
    return show(t("Find by vehicle"), h("p", { class: "quiet" }, t("Choose the make.")),
      choices(makes.map((m) => [{ view: "vehicle", make: m.id }, m.name, t("({count} types)", { count: m.count })])));
  }
  const series = (await facets({ mfrIds: [make.id], includeVehicleModelSeriesFacets: true }))
    .vehicleModelSeriesFacets?.counts || [];
  const chosen = series.find((s) => String(s.id) === q.get("series"));
  if (!chosen) {
    return show(make.name, trail([everyMake]), h("p", { class: "quiet" }, t("Choose the model.")),
      choices(series.map((s) => [{ view: "vehicle", make: make.id, series: s.id }, s.name, t("({count} types)", { count: s.count })])));
  }
  const page = Math.max(1, Number(q.get("page")) || 1);
  const found = await call("getLinkageTargets", { linkageTargetType: "P", vehicleModelSeriesIds: [chosen.id], perPage: 100, page });
  const here = { view: "vehicle", make: make.id, series: chosen.id };
  show(
    make.name + " " + chosen.name,
    trail([everyMake, [{ view: "vehicle", make: make.id }, make.name]]),
    h("p", { class: "quiet" }, t("{count} types; choose one to see its parts by category.", { count: found.total })),
    table(["Type", t("Years"), t("Fuel"), t("Power")], (found.linkageTargets || []).map(vehicleCells)),
    h("div", { class: "pager" },
      page > 1 ? view({ ...here, page: page - 1 }, t("Previous page")) : null,
      page * 100 < found.total ? view({ ...here, page: page + 1 }, t("Next page")) : null),
  );
}

/** The vehicle type's category tree as nested lists, each category a link with its count. */
function categoryTree(ktype, nodes, parent) {
  const below = nodes.filter((n) => (n.parentNodeId ?? null) === parent);
  if (!below.length) return null;
  return h("ul", { class: "tree" }, below.map((n) => h("li", {},
    view({ ktype, group: n.assemblyGroupNodeId }, n.assemblyGroupName),
    h("span", { class: "quiet" }, " (" + n.articleCount + ")"),
    categoryTree(ktype, nodes, n.assemblyGroupNodeId))));
}

async function ktypeView(q) {
  const ktype = q.get("ktype");
  const genart = q.get("genart") || "";
  const brand = q.get("brand") || "";
  const after = q.get("after") || "";
  const crit = q.get("crit") || "";
  // Older addresses filter every part without a category.
  const group = q.get("group") || (genart || brand || after ? "all" : "");
  const [vehicle, tree] = await Promise.all([
    call("getLinkageTargets", { linkageTargetIds: [ktype] }),
    call("getChildNodesAllLinkingTarget2", { linkingTargetId: Number(ktype), linked: true, childNodes: true })
      .catch(() => ({ data: { array: [] } })),
  ]);
  const v = vehicle.linkageTargets?.[0];
  if (!v) return show(t("No vehicle {name}", { name: ktype }), h("p", {}, t("No vehicle type has this number.")));
  const nodes = tree.data?.array || [];
  const title = [v.mfrName, v.model, v.typeName].join(" ");
  const facts = h("p", { class: "quiet" }, [v.engine, v.fuel, v.kw && v.kw + " kW", years(v)].filter(Boolean).join(" · "));
  const vehicleSteps = [[{ view: "vehicle" }, t("All makes")]];
  if (v.mfrId) vehicleSteps.push([{ view: "vehicle", make: v.mfrId }, v.mfrName]);
  if (v.mfrId && v.vehicleModelSeriesId) {
    vehicleSteps.push([{ view: "vehicle", make: v.mfrId, series: v.vehicleModelSeriesId }, v.vehicleModelSeriesName]);
  }
  if (!group) {
    const roots = nodes.filter((n) => n.parentNodeId === undefined).length;
    return show(title, trail(vehicleSteps), facts,
      h("p", {}, view({ ktype, group: "all" }, t("Every part of this vehicle"))),
      h("h2", {}, t("Categories")),
      roots ? categoryTree(ktype, nodes, null) : h("p", { class: "quiet" }, t("The catalogue places none of this vehicle's parts in a category.")));
  }
  const node = nodes.find((n) => String(n.assemblyGroupNodeId) === group);
  const path = [];
  for (let n = node; n; n = nodes.find((p) => p.assemblyGroupNodeId === n.parentNodeId)) path.unshift(n);
  const page = await articles({
    linkageTargetId: ktype,
    assemblyGroupNodeIds: node ? [node.assemblyGroupNodeId] : [],
    perPage: 25,
    cursor: after || undefined,
    genericArticleIds: genart ? [Number(genart)] : [],
    dataSupplierIds: brand ? [Number(brand)] : [],
    criteriaFilters: criteriaFiltersOf(crit),
    includeGenericArticleFacets: true,
    includeDataSupplierFacets: true,
    includeCriteriaFacets: true,
    includeArticleCriteria: true,
    includeImages: true,
    includePrices: true,
  });
  const here = { ktype, group, genart, brand, crit };
  const change = (event) => go({ ...here, [event.target.name]: event.target.value });
  const facet = (label, name, counts, id, text, current) =>
    h("label", {}, label, h("select", { name, onchange: change }, h("option", { value: "" }, t("All")),
      counts.map((c) => h("option", { value: c[id], selected: String(c[id]) === current }, c[text] + " (" + c.count + ")"))));
  const groups = new Map();
  for (const a of page.articles || []) {
    const name = a.genericArticles?.[0]?.genericArticleDescription || t("Other");
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name).push(a);
  }
  show(
    node ? title + ": " + node.assemblyGroupName : title,
    trail([...vehicleSteps, [{ ktype }, title],
      ...path.slice(0, -1).map((n) => [{ ktype, group: n.assemblyGroupNodeId }, n.assemblyGroupName])]),
    facts,
    h(
      "div",
      { class: "filters" },
      facet(t("Generic article"), "genart", page.genericArticleFacets?.counts || [], "genericArticleId", "genericArticleDescription", genart),
      facet(t("Brand"), "brand", page.dataSupplierFacets?.counts || [], "dataSupplierId", "mfrName", brand),
      criteriaFilters(page.criteriaFacets?.counts || [], crit, (value) => go({ ...here, crit: value, after: "" })),
    ),
    h("p", { class: "quiet" }, t("{count} parts", { count: page.totalMatchingArticles })),
    [...groups].map(([name, found]) => h("section", { "aria-label": name }, h("h2", {}, name), partsTable(found))),
    h("div", { class: "pager" },
      after ? view(here, t("First page")) : null,
      page.nextCursor ? view({ ...here, after: page.nextCursor }, t("Next page")) : null),
  );
}

/** The criteria filters of an address (`crit=13:1,7:300`), as `criteriaFilters` takes them. */
function criteriaFiltersOf(text) {
  return (text ? text.split(",") : [])
    .map((pair) => pair.split(":"))
    .filter(([id, value]) => id && value !== undefined)
    .map(([id, value]) => ({ criteriaId: Number(id), rawValue: decodeURIComponent(value) }));
}

const criterionLabel = (c) => c.criteriaDescription + (c.criteriaUnitDescription ? " (" + c.criteriaUnitDescription + ")" : "");

/**
 * A select per criterion that tells the parts apart (more than one value) or narrows them
 * now, each value with its count; choosing one narrows the page by it, `All` lifts it.
 */
function criteriaFilters(counts, crit, apply) {
  const chosen = criteriaFiltersOf(crit);
  const byCriterion = new Map();
  for (const c of counts) {
    if (!byCriterion.has(c.criteriaId)) byCriterion.set(c.criteriaId, []);
    byCriterion.get(c.criteriaId).push(c);
  }
  const setting = (id, value) => {
    const others = chosen.filter((f) => f.criteriaId !== id);
    const next = value === "" ? others : [...others, { criteriaId: id, rawValue: value }];
    apply(next.map((f) => f.criteriaId + ":" + encodeURIComponent(f.rawValue)).join(","));
  };
  return [...byCriterion].map(([id, values]) => {
    const current = chosen.find((f) => f.criteriaId === id)?.rawValue;
    if (values.length < 2 && current === undefined) return null;
    return h("label", {}, criterionLabel(values[0]),
      h("select", { name: "criterion-" + id, onchange: (event) => setting(id, event.target.value) },
        h("option", { value: "" }, t("All")),
        values.map((c) => h("option", { value: c.rawValue, selected: c.rawValue === current }, c.formattedValue + " (" + c.count + ")"))));
  });
}

/** An article's list price, in the reader's language; "" where it has none. */
function priceText(prices) {
  const price = (prices || []).find((p) => p.kindOfPriceKey === 1) || prices?.[0];
  if (!price) return "";
  try {
    return new Intl.NumberFormat(wordsLanguage(), { style: "currency", currency: price.currencyCode }).format(price.price);
  } catch {
    return price.price + " " + price.currencyCode;
  }
}

/**
 * The parts of one generic article: each row with its thumbnail, number, brand, the criteria
 * whose values tell these parts apart, its status and its list price (where any has one).
 */
function partsTable(found) {
  const criteria = new Map();
  for (const a of found) {
    for (const c of a.articleCriteria || []) {
      if (!criteria.has(c.criteriaId)) criteria.set(c.criteriaId, { label: criterionLabel(c), values: new Set() });
      criteria.get(c.criteriaId).values.add(c.formattedValue);
    }
  }
  const telling = [...criteria].filter(([, c]) => c.values.size > 1).slice(0, 4);
  const priced = found.some((a) => a.prices?.length);
  const headings = [h("span", { class: "hidden-label" }, t("Picture")), t("Reference"), t("Brand"),
    ...telling.map(([, c]) => c.label), t("Status"), priced ? t("Price") : null].filter((x) => x !== null);
  const rows = found.map((a) => {
    const generic = a.genericArticles?.[0] || {};
    const image = a.images?.find((i) => i.typeDescription === "image") || a.images?.[0];
    const value = (id) => (a.articleCriteria || []).filter((c) => c.criteriaId === id).map((c) => c.formattedValue).join(", ");
    return [
      image ? h("img", { src: image.imageURL100, alt: "", width: 50, height: 50, loading: "lazy" }) : "",
      view({ article: generic.legacyArticleId }, a.articleNumber),
      a.mfrName,
      ...telling.map(([id]) => value(id)),
      a.misc?.articleStatusDescription || "",
      ...(priced ? [priceText(a.prices)] : []),
    ];
  });
  return table(headings, rows);
}

async function plateView(q) {
  const country = q.get("country") || "DE";
  const plate = q.get("plate") || "";
  const form = h(
    "form",
    {
      class: "filters",
      onsubmit: (event) => {
        event.preventDefault();
        const data = new FormData(event.target);
        go({ view: "plate", country: data.get("country"), plate: String(data.get("plate")).trim() });
      },
    },
    h("label", {}, t("Country"), h("input", { name: "country", value: country, size: 3, maxlength: 2 })),
    h("label", {}, t("Plate or key number"), h("input", { name: "plate", value: plate, required: true })),
    h("button", { type: "submit" }, t("Find")),
  );
  if (!plate) return show(t("Find by plate"), form);
  const found = (await call("getVehiclesByKeyNumberPlates", { country, keySystemNumber: plate, keySystemType: 0 })).data?.array || [];
  show(
    t("Find by plate"),
    form,
    found.length
      ? h("ul", {}, found.map((v) => h("li", {}, view({ ktype: v.carId }, v.carName))))
      : h("p", {}, t("No vehicle is known under {name} in {country}.", { name: plate, country })),
  );
}

async function home() {
  const brands = (await call("getBrands", {})).data?.array || [];
  show(
    t("Find a part"),
    h("p", {}, t("Type any number above: the maker's reference, an OE, competitor or trade number, or an EAN, written any way.")),
    h("ul", {}, h("li", {}, view({ view: "vehicle" }, t("Find by vehicle: make, model, type, category"))),
      h("li", {}, view({ view: "plate" }, t("Find by registration plate or key number")))),
    h("p", { class: "quiet" }, t("Brands in this catalogue: {name}", { name: brands.map((b) => b.brandName).join(", ") })),
  );
}

/** The header's words in the reader's language, and the switch between the catalogue's. */
function renderHeader() {
  document.documentElement.lang = wordsLanguage();
  document.querySelector(".home").textContent = t("Parts catalogue");
  document.querySelector("label[for=number]").textContent = t("Any number: reference, OE, competitor, trade number or EAN");
  input.placeholder = t("Any number: 0 986 494 048, OE, EAN…");
  document.querySelector("#search button").textContent = t("Search");
  list.setAttribute("aria-label", t("Suggestions"));
  document.querySelector("nav[aria-label]").setAttribute("aria-label", t("Find by"));
  document.getElementById("by-vehicle").textContent = t("By vehicle");
  document.getElementById("by-plate").textContent = t("By plate");
  const switcher = document.getElementById("language");
  switcher.hidden = held.length < 2;
  switcher.querySelector("span").textContent = t("Language");
  const select = switcher.querySelector("select");
  select.replaceChildren(...held.map((l) =>
    h("option", { value: l.languageCode, selected: l.languageCode === readingLanguage() }, l.languageName)));
}

document.querySelector("#language select").addEventListener("change", (event) => {
  const fields = Object.fromEntries(query());
  fields.lang = event.target.value;
  history.pushState(null, "", "/catalogue?" + new URLSearchParams(fields));
  held = [];
  render();
});

async function render() {
  renderWho();
  closeSuggestions();
  const q = query();
  for (const id of ["by-vehicle", "by-plate"]) {
    document.getElementById(id).href = address({ view: id.slice(3) });
  }
  if (provider() && !held.length) {
    // Named in the language chosen in the address, else the catalogue's default.
    held = (await call("getLanguages", {}).catch(() => ({}))).data?.array || [];
  }
  renderHeader();
  if (!provider()) return signIn();
  main.setAttribute("aria-busy", "true");
  try {
    if (q.get("article")) await articleView(q.get("article"));
    else if (q.get("q")) await searchView(q.get("q"));
    else if (q.get("ktype")) await ktypeView(q);
    else if (q.get("view") === "vehicle") await vehicleView(q);
    else if (q.get("view") === "plate") await plateView(q);
    else await home();
  } catch (error) {
    if (error instanceof Refused && error.status === 401) return signIn(t("This provider needs its key from this PC: {name}", { name: error.message }));
    if (error instanceof Refused && error.status === 403) return show(t("Not for this provider"), h("p", { class: "error" }, error.message));
    show(t("Something went wrong"), h("p", { class: "error", role: "alert" }, error.message));
  } finally {
    main.removeAttribute("aria-busy");
  }
}

render();
