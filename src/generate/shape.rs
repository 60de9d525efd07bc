//! The shape of a generated catalogue beyond its size: how many brands, generic articles and
//! vehicles it holds, and how many rows of each kind hang off an article. Every field left
//! `None` keeps the generator's own shape, byte for byte; a field given draws from the same
//! seed, so a shape is as repeatable as the default.

use super::Rng;
use super::tables::{BRANDS, COMPETITORS, GENARTS, GenArt, criterion_text};

#[derive(Debug, Clone, Copy, Default)]
pub struct Shape {
    /// Each plain article fits exactly this many vehicles. `None`: 3 to 7.
    pub links_per_article: Option<u32>,
    /// Link rows with a position and a quantity. `None`: with them unless
    /// `links_per_article` is given (a fitment file's rows are that short).
    pub link_details: Option<bool>,
    /// Cross numbers per plain article on average (OE, competitor, trade, internal, all in
    /// `crossrefs`). `None`: 1–3 OE and 1–2 competitor numbers (`competitor_refs`), a trade
    /// number for a fifth, an internal one for a tenth.
    pub crossrefs_per_article: Option<f64>,
    /// Prices per plain article on average. `None`: a list price, a net one for 30 %.
    pub prices_per_article: Option<f64>,
    /// Criteria per article, exactly. `None`: those of its generic article (0–3).
    pub criteria_per_article: Option<u32>,
    /// Media files per article on average (images). `None`: an image for 60 %, a document
    /// for some, a 360-degree set for 2 %.
    pub media_per_article: Option<f64>,
    /// Exhaust systems and brake sets, kits of their components, among the articles.
    /// `None`: with them; without, every article is a plain one.
    pub kits: Option<bool>,
    /// The maker's brands. `None`: the table's four.
    pub brands: Option<u32>,
    /// Generic articles. `None`: the table's sixteen; more are variants of those.
    pub genarts: Option<u32>,
    /// Vehicle types. `None`: a tenth of the articles, at least 300.
    pub vehicles: Option<u32>,
    /// With the texts in German and French, and some in Bulgarian (`texts`,
    /// `article_texts`), as the demo catalogue holds them.
    pub translated: bool,
}

impl Shape {
    /// What makes the shape impossible, if anything: an article cannot fit more vehicles
    /// than there are.
    pub(super) fn problem(&self) -> Option<String> {
        match (self.vehicles, self.links_per_article) {
            (Some(vehicles), Some(links)) if links > vehicles => Some(format!(
                "--links-per-article {links} asks for more vehicles than --vehicles {vehicles} makes"
            )),
            _ => None,
        }
    }

    pub(super) fn kits(&self) -> bool {
        self.kits.unwrap_or(true)
    }

    pub(super) fn link_details(&self) -> bool {
        self.link_details
            .unwrap_or(self.links_per_article.is_none())
    }
}

/// A generic article of the catalogue: one of the table's, or a variant of one (its id past
/// the table's, its name the table's with a type number), written with its base's patterns,
/// criteria and prices.
#[derive(Clone, Copy)]
pub(super) struct Line {
    pub id: u32,
    pub variant: u32,
    pub base: &'static GenArt,
}

impl Line {
    pub fn of(base: &'static GenArt) -> Line {
        Line {
            id: base.id,
            variant: 0,
            base,
        }
    }

    pub fn name(&self) -> String {
        match self.variant {
            0 => self.base.name.to_owned(),
            n => format!("{}, type {}", self.base.name, n + 1),
        }
    }
}

/// The first id of a variant generic article.
const FIRST_VARIANT_ID: u32 = 20_000;

/// The catalogue's generic articles: the table's, then variants of them in turn until there
/// are `count` (at least the table's, which the kits need).
pub(super) fn lines(count: Option<u32>) -> Vec<Line> {
    let mut lines: Vec<Line> = GENARTS.iter().map(Line::of).collect();
    let count = count.map_or(lines.len(), |c| c as usize);
    let mut k = 0;
    while lines.len() < count {
        lines.push(Line {
            id: FIRST_VARIANT_ID + k as u32,
            variant: 1 + (k / GENARTS.len()) as u32,
            base: &GENARTS[k % GENARTS.len()],
        });
        k += 1;
    }
    lines
}

/// The maker's brands: the table's four, then invented names numbered on.
/// A brand's address (invented, `.example` addresses): street, zip, city, country, phone,
/// fax, email and website, as `brands.csv` writes them.
pub(super) fn brand_address(id: u32) -> [String; 8] {
    const CITIES: [(&str, &str, &str, &str); 4] = [
        ("70", "Stuttgart", "DE", "+49 711"),
        ("50", "Köln", "DE", "+49 221"),
        ("69", "Lyon", "FR", "+33 4"),
        ("41", "Göteborg", "SE", "+46 31"),
    ];
    let (zip, city, country, phone) = CITIES[id as usize % CITIES.len()];
    [
        format!("Werkstraße {id}"),
        format!("{zip}{:03}", id % 1000),
        city.to_owned(),
        country.to_owned(),
        format!("{phone} {id:06}"),
        String::new(),
        format!("catalogue@brand{id}.example"),
        format!("https://brand{id}.example"),
    ]
}

pub(super) fn brands(count: Option<u32>) -> Vec<(u32, String)> {
    const FIRST: [&str; 8] = [
        "Arden", "Borsa", "Celto", "Dravo", "Elmar", "Fenix", "Garro", "Helva",
    ];
    const SECOND: [&str; 4] = ["Parts", "Automotive", "Components", "Technik"];
    let count = count.map_or(BRANDS.len(), |c| c as usize);
    (0..count)
        .map(|i| match BRANDS.get(i) {
            Some((id, name)) => (*id, (*name).to_owned()),
            None => {
                let k = i - BRANDS.len();
                let name = format!("{} {}", FIRST[k % 8], SECOND[k / 8 % 4]);
                let name = match k / 32 {
                    0 => name,
                    n => format!("{name} {}", n + 1),
                };
                (i as u32 + 1, name)
            }
        })
        .collect()
}

impl Rng {
    /// A count whose mean is `mean`: its whole part, plus one as often as its fraction says.
    pub(super) fn count(&mut self, mean: f64) -> usize {
        let whole = mean.floor();
        let extra = self.below(1_000_000) < ((mean - whole) * 1_000_000.0) as u64;
        whole as usize + usize::from(extra)
    }

    /// The brand an article of this generic article is made under: its own, or with more
    /// brands one of those that share its number (modulo the table's four) — each brand
    /// keeps to its lines.
    pub(super) fn brand_of(&mut self, base: &GenArt, brands: Option<u32>) -> u32 {
        let table = BRANDS.len() as u32;
        match brands {
            None => base.brand,
            Some(n) if n < base.brand => (base.brand - 1) % n + 1,
            Some(n) => {
                base.brand + table * self.below(u64::from((n - base.brand) / table + 1)) as u32
            }
        }
    }
}

/// The price types and currencies a shaped article's prices take, in turn.
pub(super) const PRICE_KINDS: [(&str, &str, u32); 8] = [
    ("list", "EUR", 100),
    ("net", "EUR", 70),
    ("list", "CHF", 105),
    ("list", "GBP", 88),
    ("net", "CHF", 74),
    ("net", "GBP", 62),
    ("list", "PLN", 430),
    ("list", "SEK", 1150),
];

/// Criteria every generic article may carry, after its own: name, unit, low and high value
/// (0 and 0: a text).
pub(super) const MORE_CRITERIA: [(&str, &str, u32, u32); 8] = [
    ("Weight", "kg", 1, 40),
    ("Material", "", 0, 0),
    ("Length", "mm", 50, 900),
    ("Width", "mm", 20, 400),
    ("Height", "mm", 20, 400),
    ("Diameter", "mm", 10, 400),
    ("Emission Standard", "", 0, 0),
    ("Thickness", "mm", 2, 40),
];

/// Up to `n` criteria for an article of `base`: its own, then the shared ones it does not
/// already have.
pub(super) fn criteria_of(base: &GenArt, n: usize) -> Vec<(&'static str, &'static str, u32, u32)> {
    let mut picked: Vec<_> = base.criteria.iter().copied().take(n).collect();
    for c in MORE_CRITERIA {
        if picked.len() >= n {
            break;
        }
        if !picked.iter().any(|p| p.0 == c.0) {
            picked.push(c);
        }
    }
    picked
}

/// A criterion's value: a number in its range, or one of its texts.
pub(super) fn criterion_value(rng: &mut Rng, name: &str, low: u32, high: u32) -> String {
    match high {
        0 => super::criteria::stored(name, criterion_text(name, rng.next())),
        _ => rng.between(u64::from(low), u64::from(high)).to_string(),
    }
}

/// A competitor and one of its numbers.
pub(super) fn competitor_number(rng: &mut Rng) -> (u32, String) {
    let (id, _, patterns) = *rng.pick(&COMPETITORS);
    let pattern = rng.clone_pick(patterns);
    (id, rng.pattern(pattern))
}
