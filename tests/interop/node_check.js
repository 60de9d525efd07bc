// The Node `soap` package against the running appliance: both WSDLs load unchanged, every
// operation is called on both endpoints and agrees with its JSON twin, and dynamic access
// works end to end (a key from addDynamicAPIKey; addDynamicAddress for a client bound to
// 127.0.0.2).
//
// Usage: node node_check.js BASE_URL PROVIDER KEY
const http = require('http');
const https = require('https');
const soap = require('soap');

const [base, provider, key] = process.argv.slice(2);
const services = `${base}/ws/3.0/services`;
const failures = [];
const check = (ok, what) => {
  if (!ok) {
    failures.push(what);
    console.log(`FAIL ${what}`.slice(0, 2000));
  }
};

const CALLS = {
  getVersionInfo: {},
  getBrands: {},
  getAmBrands: { lang: 'en' },
  getLanguages: { lang: 'en' },
  getCountries: {},
  getGenericArticles: {},
  getManufacturers: {},
  getArticles: { searchQuery: '0986-478-379', searchMatchType: 'exact', includeAll: true },
  getArticleDirectSearchAllNumbersWithState: {
    articleNumber: '9N0 690 938 B', numberType: 10, searchExact: true, sortType: 1,
  },
  getVehicleByIds3: { carIds: { array: [10219, 999999] }, motorCodes: true },
  getVehicleByIds4: { carIds: { array: [10219] } },
  getArticleLinkages: { dataSupplierId: 1, articleNumber: '0 986 478 379' },
  // 84: the numeric id the demo's import gives 0 986 478 849.
  getArticleLinkedAllLinkingTarget4: {
    articleId: 84, countryGroupFlag: false, linkingTargetManuId: 0, withMainArticles: true,
  },
  // The makes of its vehicle types: a fitment list's first step.
  getArticleLinkedAllLinkingTargetManufacturer2: { articleId: 84, linkingTargetType: 'P' },
  getArticleLinkedAllLinkingTargetManufacturer: { articleId: 84 },
  getPegasusVersionInfo2: {},
  // The demo's criteria, and its key table of shock absorber types.
  getCriteria2: { lang: 'de' },
  getKeyValues: { keyTableId: 1, lang: 'fr' },
  getShortCuts2: { linked: true, linkingTargetId: 10219, linkingTargetType: 'P' },
  getVehiclesByVIN: { vin: 'WAUKSK2X5MA123456', country: 'DE' },
  getAmBrandAddress: { brandNo: 1 },
  getCountryGroups: { lang: 'fr' },
  // The demo's AUDI engine CHZD, and the types carrying it by its number.
  getMotorIdsByManuIdCriteria2: { manuId: 2, motorCode: 'CHZD' },
  getVehicleIdsByMotor2: { motorId: 6496379095573538, countryGroupFlag: false },
  // The vehicle makers' part numbers of the same VIN's vehicle.
  getOEArticlesByVIN: {
    vin: 'WAUKSK2X5MA123456', includeAftermarketMatches: true, includeGenericArticleFacets: true,
  },
  getArticleLinkedAllLinkingTarget3: { articleId: 84, withMainArticles: true },
  // Two of its links: 84 × 2^32 + the Ktype.
  getArticleLinkedAllLinkingTargetsByIds3: {
    articleId: 84,
    immediateAttributs: true,
    linkedArticlePairs: {
      array: [
        { articleLinkId: 360777263083, linkingTargetId: 10219 },
        { articleLinkId: 360777263018, linkingTargetId: 10154 },
      ],
    },
  },
  // A German key number of the demo's plates file.
  getVehiclesByKeyNumberPlates: {
    country: 'DE', keySystemNumber: '0696/SZ7', keySystemType: 0, details: true,
  },
  getLinkageTargets: {
    linkageTargetIds: [{ type: 'P', id: '10219' }], mfrIds: [2], includeVehicleModelSeriesFacets: true,
  },
  getManufacturers2: { linkingTargetType: 'P', countryGroupFlag: false },
  getModelSeries: { manuId: 2, countryGroupFlag: false },
  getModelSeries2: { manuId: 2, linkingTargetType: 'P' },
  getVehicleIdsByCriteria: { manuId: 2, modId: 201, carType: 'P' },
  getChildNodesAllLinkingTarget2: { linkingTargetId: 10219, linked: true, childNodes: false },
  getArticleIdsWithState: {
    linkingTargetId: 10219, linkingTargetType: 'P', assemblyGroupNodeId: 100010, sort: 1,
  },
  getDirectArticlesByIds6: {
    articleId: { array: [39, 84] }, attributs: true, basicData: true, documents: true, eanNumbers: true,
    immediateAttributs: true, immediateInfo: false, info: false, mainArticles: true,
    normalAustauschPrice: false, oeNumbers: true, prices: true, replacedByNumbers: true,
    replacedNumbers: true, thumbnails: true, usageNumbers: true,
  },
  getDirectArticlesByIds7: {
    articleId: { array: [39] }, attributs: false, basicData: true, documents: true, eanNumbers: false,
    immediateAttributs: false, immediateInfo: false, info: false, mainArticles: false,
    normalAustauschPrice: false, oeNumbers: false, prices: false, replacedByNumbers: false,
    replacedNumbers: false, thumbnails: true, usageNumbers: false,
  },
  // The demo's kit 0 986 A45 240, for one of its vehicle types.
  getArticlePartList: { articleId: 610, linkingTargetId: 10219 },
  getAutoCompleteSuggestions: { lang: 'en', searchQuery: 'fil' },
  getPricesByKtype: { linkageTargetId: '10219' },
  getKitPrice: { genericArticleId: 82, isKit: false, linkageTargetId: '10219' },
  getExhaustKitPrice: { linkageTargetId: '10219' },
  addDynamicAddress: { address: '127.0.0.9', validityHours: 1 },
  addDynamicAPIKey: { validityHours: 1 },
};
const FRESH = { addDynamicAPIKey: ['apiKey', 'expiresAt'], addDynamicAddress: ['expiresAt'] };

// Data as text: node-soap gives some numbers as strings and one-item lists as objects, and
// drops empty elements (an element that holds only an empty list too).
function empty(v) {
  return v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0) ||
    (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);
}
function plain(value) {
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) {
      const kept = empty(v) ? v : plain(v);
      if (empty(kept)) continue;
      out[k] = kept;
    }
    return out;
  }
  return String(value);
}
function sameData(a, b) {
  if (Array.isArray(a) !== Array.isArray(b)) {
    // one item: node-soap may give the object itself
    return sameData(Array.isArray(a) ? a : [a], Array.isArray(b) ? b : [b]);
  }
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => sameData(x, b[i]));
  if (a && typeof a === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b || {})]);
    return [...keys].every((k) => b && sameData(a[k], b[k]));
  }
  return a === b;
}

async function jsonCall(style, operation, fields) {
  const body = { [operation]: style === 'DLW' ? { arg0: fields } : fields };
  const res = await fetch(`${services}/PartsToCat${style}.jsonEndpoint?api_key=${key}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.json();
}

async function client(style, credential) {
  const c = await soap.createClientAsync(`${services}/PartsToCat${style}.soapEndpoint?wsdl`);
  const query = credential ? `?api_key=${credential}` : '';
  c.setEndpoint(`${services}/PartsToCat${style}.soapEndpoint${query}`);
  return c;
}

const args = (style, fields) => (style === 'DLW' ? { arg0: fields } : fields);

(async () => {
  for (const style of ['DLB', 'DLW']) {
    const c = await client(style, key);
    const described = c.describe()[`PartsToCat${style}`][`PartsToCat${style}Soap`];
    check(
      Object.keys(CALLS).every((op) => op in described),
      `${style}: the WSDL lists every operation (${Object.keys(described)})`,
    );
    for (const [operation, extra] of Object.entries(CALLS)) {
      const fields = { provider, ...extra };
      const [answer] = await c[`${operation}Async`](args(style, fields));
      check(String(answer.status) === '200', `${style} ${operation}: ${answer.statusText}`);
      const soapData = plain(answer);
      const twin = plain(await jsonCall(style, operation, fields));
      for (const field of FRESH[operation] || []) {
        check(soapData[field] && twin[field], `${operation} gives ${field}`);
        delete soapData[field];
        delete twin[field];
      }
      check(sameData(soapData, twin), `${style} ${operation}: SOAP and JSON agree\n soap ${JSON.stringify(soapData)}\n json ${JSON.stringify(twin)}`);
    }
    console.log(`${style}: ${Object.keys(CALLS).length} operations`);
  }

  // A dynamic key opens /svc and SOAP.
  const dlb = await client('DLB', key);
  const [issued] = await dlb.addDynamicAPIKeyAsync({ provider, validityHours: 1 });
  const svc = await fetch(`${base}/svc/getArticlesByKtype/10219?provider=${provider}&api_key=${issued.apiKey}`);
  check(svc.status === 200, `the dynamic key opens /svc (${svc.status})`);
  const withDynamic = await client('DLW', issued.apiKey);
  const [brands] = await withDynamic.getBrandsAsync({ arg0: { provider } });
  check(String(brands.status) === '200', `the dynamic key opens SOAP (${brands.statusText})`);
  const [refused] = await dlb.addDynamicAPIKeyAsync({ provider, validityHours: 25 });
  check(String(refused.status) === '400', `25 hours refused (${refused.statusText})`);

  // An address grant admits a client bound to 127.0.0.2 without a key.
  const from = (localAddress) => ({
    httpAgent: new http.Agent({ localAddress }),
    httpsAgent: new https.Agent({ localAddress }),
  });
  const from2 = from('127.0.0.2');
  const keyless = await client('DLB', null);
  const [granted] = await dlb.addDynamicAddressAsync({ provider, address: '127.0.0.2' });
  check(String(granted.status) === '200', `grant for 127.0.0.2 (${granted.statusText})`);
  const [admitted] = await keyless.getBrandsAsync({ provider }, from2);
  check(String(admitted.status) === '200', `127.0.0.2 admitted by its grant (${admitted.statusText})`);
  const from3 = from('127.0.0.3');
  const [other] = await keyless.getBrandsAsync({ provider }, from3);
  check(String(other.status) === '401', `127.0.0.3 not admitted (${other.status})`);

  if (failures.length) {
    console.log(`node soap: ${failures.length} failed`);
    process.exit(1);
  }
  console.log('node soap: all passed');
})().catch((e) => {
  console.error('node soap: error', e.message, e.body || '');
  process.exit(1);
});
