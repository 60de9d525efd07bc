//! A deterministic catalogue generator: the same size and seed give the same files, byte for
//! byte. It made the embedded demo catalogue and makes large catalogues for benchmarks and
//! scale tests, one `<type>.csv` per data set in the import formats.

mod tables;

use std::collections::HashSet;
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use tables::*;

use crate::catalogue::normalise_reference;
use crate::import::ImportType;

/// The seed of the embedded demo catalogue.
pub const DEMO_SEED: u64 = 2026;
/// The size of the embedded demo catalogue.
pub const DEMO_ARTICLES: usize = 2000;

/// SplitMix64: small, fast, and the same on every platform.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn between(&mut self, low: u64, high: u64) -> u64 {
        low + self.below(high - low + 1)
    }
    fn percent(&mut self, p: u64) -> bool {
        self.below(100) < p
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
    /// Fills a pattern: `#` a digit, `@` a capital letter, anything else as is.
    fn pattern(&mut self, pattern: &str) -> String {
        pattern
            .chars()
            .map(|c| match c {
                '#' => char::from(b'0' + self.below(10) as u8),
                '@' => char::from(b'A' + self.below(26) as u8),
                other => other,
            })
            .collect()
    }
}

type Writer = csv::Writer<BufWriter<File>>;

struct Files {
    brands: Writer,
    manufacturers: Writer,
    genarts: Writer,
    vehicles: Writer,
    articles: Writer,
    criteria: Writer,
    crossrefs: Writer,
    competitor_refs: Writer,
    links: Writer,
    prices: Writer,
    kits: Writer,
    media: Writer,
    plates: Writer,
}

/// The file of a data set, named and headed as imports read it. A record with more or fewer
/// fields than the header is an error of the csv writer, so the rows keep to the columns.
fn writer(out: &Path, data_set: ImportType) -> csv::Result<Writer> {
    let mut w = csv::Writer::from_writer(BufWriter::with_capacity(
        256 * 1024,
        File::create(out.join(format!("{}.csv", data_set.name())))?,
    ));
    w.write_record(data_set.columns().names())?;
    Ok(w)
}

/// Rows written per file.
#[derive(Debug, Default, Clone, Copy)]
pub struct Summary {
    pub articles: u64,
    pub vehicles: u64,
    pub rows: u64,
}

struct Vehicle {
    ktype: String,
    make: usize,
}

struct Article {
    brand: u32,
    reference: String,
    genart: &'static GenArt,
    ktypes: Vec<usize>,
}

/// The shape of a generated catalogue beyond its size.
#[derive(Debug, Clone, Copy, Default)]
pub struct Shape {
    /// Link-heavy, as real fitment data is: each plain article fits exactly this many
    /// vehicles, its link rows as short as a fitment file's (no position, quantity or note).
    /// `None`: 3 to 7 vehicles, with positions and quantities.
    pub links_per_article: Option<u32>,
}

/// Writes a catalogue of `articles` articles into `out` (created if missing).
pub fn generate(articles: usize, seed: u64, out: &Path) -> csv::Result<Summary> {
    generate_shaped(articles, seed, Shape::default(), out)
}

/// `generate`, in the given shape.
pub fn generate_shaped(
    articles: usize,
    seed: u64,
    shape: Shape,
    out: &Path,
) -> csv::Result<Summary> {
    std::fs::create_dir_all(out)?;
    let mut f = Files {
        brands: writer(out, ImportType::Brands)?,
        manufacturers: writer(out, ImportType::Manufacturers)?,
        genarts: writer(out, ImportType::GenericArticles)?,
        vehicles: writer(out, ImportType::Vehicles)?,
        articles: writer(out, ImportType::Articles)?,
        criteria: writer(out, ImportType::Criteria)?,
        crossrefs: writer(out, ImportType::CrossReferences)?,
        competitor_refs: writer(out, ImportType::CompetitorReferences)?,
        links: writer(out, ImportType::Links)?,
        prices: writer(out, ImportType::Prices)?,
        kits: writer(out, ImportType::Kits)?,
        media: writer(out, ImportType::Media)?,
        plates: writer(out, ImportType::Plates)?,
    };
    let mut rng = Rng(seed);
    let mut summary = Summary::default();
    for (id, name) in BRANDS {
        f.brands.write_record([id.to_string().as_str(), name])?;
    }
    for m in &MAKES {
        f.manufacturers
            .write_record([m.id.to_string().as_str(), m.name, "vehicle"])?;
    }
    for (id, name, _) in &COMPETITORS {
        f.manufacturers
            .write_record([id.to_string().as_str(), name, "parts"])?;
    }
    for g in &GENARTS {
        f.genarts
            .write_record([g.id.to_string().as_str(), g.name])?;
    }
    let fits = shape.links_per_article.map(|n| n as usize);
    let vehicles = write_vehicles(
        &mut f,
        &mut rng,
        (articles / 10).max(300).max(fits.unwrap_or(0) * 2),
    )?;
    summary.vehicles = vehicles.len() as u64;

    let mut maker = ArticleMaker {
        rng,
        used: HashSet::new(),
        last_of_genart: Vec::new(),
        last_of_brand: Vec::new(),
        fits,
    };
    let mut made = 0;
    while made < articles {
        let left = articles - made;
        let roll = maker.rng.below(100);
        made += if roll < 6 && left >= 6 {
            maker.exhaust_system(&mut f, &vehicles)?
        } else if roll < 10 && left >= 3 {
            maker.brake_set(&mut f, &vehicles)?
        } else {
            let genart = loop {
                let g = maker.rng.pick(&GENARTS);
                if g.price_cents > 0 && !EXHAUST_PARTS.contains(&g.id) {
                    break g;
                }
            };
            let ktypes = maker.vehicles_fitted(&vehicles, 3, 7);
            maker.article(&mut f, genart, ktypes, &vehicles)?;
            1
        };
    }
    summary.articles = made as u64;
    write_plates(&mut f, seed, &vehicles)?;
    for w in [
        &mut f.brands,
        &mut f.manufacturers,
        &mut f.genarts,
        &mut f.vehicles,
        &mut f.articles,
        &mut f.criteria,
        &mut f.crossrefs,
        &mut f.competitor_refs,
        &mut f.links,
        &mut f.prices,
        &mut f.kits,
        &mut f.media,
        &mut f.plates,
    ] {
        w.flush()?;
    }
    Ok(summary)
}

fn write_vehicles(f: &mut Files, rng: &mut Rng, count: usize) -> csv::Result<Vec<Vehicle>> {
    let mut vehicles = Vec::with_capacity(count);
    for i in 0..count {
        let make = rng.below(MAKES.len() as u64) as usize;
        let (model, first, last) = *rng.pick(MAKES[make].models);
        let (type_name, engine, fuel, kw, ccm) = ENGINES[*rng.pick(MAKES[make].engines)];
        let ktype = (10_000 + i * 3 + rng.below(3) as usize).to_string();
        let from_year = first as u64 + rng.below(2);
        let year_from = format!("{from_year}-{:02}", rng.between(1, 12));
        let year_to = if last == 0 {
            String::new()
        } else {
            format!("{last}-{:02}", rng.between(1, 12))
        };
        let hp = ((kw as f64) * 1.35962).round() as u32;
        f.vehicles.write_record([
            ktype.as_str(),
            MAKES[make].name,
            model,
            type_name,
            engine,
            fuel,
            &kw.to_string(),
            &hp.to_string(),
            &ccm.to_string(),
            &year_from,
            &year_to,
        ])?;
        vehicles.push(Vehicle { ktype, make });
    }
    Ok(vehicles)
}

/// A German key number (HSN/TSN) for every vehicle type, a few shared by two types, and a
/// British plate for about half. Drawn from a generator of their own, so the other files
/// stay as they were before plates existed.
fn write_plates(f: &mut Files, seed: u64, vehicles: &[Vehicle]) -> csv::Result<()> {
    let mut rng = Rng(seed ^ 0x504C_4154_4553);
    let mut last_key = String::new();
    for v in vehicles {
        let hsn = 400 + MAKES[v.make].id * 37;
        if last_key.is_empty() || !rng.percent(10) {
            last_key = format!("{hsn:04}/{}", rng.pattern("@@#"));
        }
        f.plates.write_record(["DE", &last_key, &v.ktype, ""])?;
        if rng.percent(50) {
            f.plates
                .write_record(["GB", &rng.pattern("@@## @@@"), &v.ktype, ""])?;
        }
    }
    Ok(())
}

struct ArticleMaker {
    rng: Rng,
    used: HashSet<(u32, String)>,
    /// The latest article of each genart, for replacement references.
    last_of_genart: Vec<(u32, String)>,
    /// The latest article of each brand, for internal cross-references.
    last_of_brand: Vec<(u32, String)>,
    /// Each article fits exactly this many vehicles, its link rows without position and
    /// quantity (`Shape::links_per_article`).
    fits: Option<usize>,
}

/// A genart of the table by id; the kit builders name ids the table holds.
fn genart(id: u32) -> csv::Result<&'static GenArt> {
    GENARTS.iter().find(|g| g.id == id).ok_or_else(|| {
        std::io::Error::other(format!("genart {id} is not in the generator's table")).into()
    })
}

fn price_text(cents: u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// EAN-13 with a valid check digit.
fn ean13(rng: &mut Rng, brand: u32) -> String {
    let mut digits = format!("40{brand}{:09}", rng.below(1_000_000_000));
    let sum: u32 = digits
        .chars()
        .rev()
        .enumerate()
        .map(|(i, c)| c.to_digit(10).unwrap_or(0) * if i % 2 == 0 { 3 } else { 1 })
        .sum();
    digits.push(char::from(b'0' + ((10 - sum % 10) % 10) as u8));
    digits
}

impl ArticleMaker {
    fn pick_vehicles(&mut self, vehicles: &[Vehicle], low: u64, high: u64) -> Vec<usize> {
        let mut picked = Vec::new();
        for _ in 0..self.rng.between(low, high) {
            let v = self.rng.below(vehicles.len() as u64) as usize;
            if !picked.contains(&v) {
                picked.push(v);
            }
        }
        picked
    }

    /// The vehicles an article fits: `low` to `high` of them, or exactly as many as the
    /// shape says.
    fn vehicles_fitted(&mut self, vehicles: &[Vehicle], low: u64, high: u64) -> Vec<usize> {
        match self.fits {
            Some(n) => self.pick_exactly(vehicles, n),
            None => self.pick_vehicles(vehicles, low, high),
        }
    }

    /// `n` different vehicles (there are at least twice as many).
    fn pick_exactly(&mut self, vehicles: &[Vehicle], n: usize) -> Vec<usize> {
        let mut picked = Vec::with_capacity(n);
        while picked.len() < n.min(vehicles.len()) {
            let v = self.rng.below(vehicles.len() as u64) as usize;
            if !picked.contains(&v) {
                picked.push(v);
            }
        }
        picked
    }

    fn reference(&mut self, g: &GenArt) -> String {
        // Small pattern spaces fill up in large catalogues: after a few collisions, add a
        // variant suffix, as makers do when a number range runs out.
        let mut attempt = 0;
        loop {
            let pattern = self.rng.clone_pick(g.patterns);
            let mut written = self.rng.pattern(pattern);
            if attempt >= 8 {
                written.push_str(
                    &self
                        .rng
                        .pattern(["/#", "/##", "/###", "/####"][(attempt / 8 - 1).min(3)]),
                );
            }
            if self.used.insert((g.brand, normalise_reference(&written))) {
                return written;
            }
            attempt += 1;
        }
    }

    /// Writes one article with everything that hangs off it.
    fn article(
        &mut self,
        f: &mut Files,
        g: &'static GenArt,
        ktypes: Vec<usize>,
        vehicles: &[Vehicle],
    ) -> csv::Result<Article> {
        let brand = g.brand;
        let reference = self.reference(g);
        let b = brand.to_string();
        let r = reference.as_str();
        let kit = g.price_cents == 0;

        let status_roll = self.rng.below(100);
        let previous = self
            .last_of_genart
            .iter()
            .find(|(id, _)| *id == g.id)
            .map(|(_, r)| r.clone());
        let (status, replaced_by) = match (status_roll, previous) {
            (0..=2, Some(newer)) => ("discontinued", newer),
            (3..=4, _) => ("announced", String::new()),
            _ => ("active", String::new()),
        };
        let eans = if !kit && self.rng.percent(80) {
            ean13(&mut self.rng, brand)
        } else {
            String::new()
        };
        let mut description = g.name.to_owned();
        if !g.position.is_empty() {
            description.push_str(", ");
            description.push_str(g.position);
        }
        let unit = if g.id == 4040 || g.id == BRAKE_DISC {
            "2"
        } else {
            "1"
        };
        f.articles.write_record([
            &b,
            r,
            &g.id.to_string(),
            &description,
            status,
            &eans,
            unit,
            &replaced_by,
        ])?;
        for &(name, unit, low, high) in g.criteria {
            let value = if high == 0 {
                criterion_text(name, self.rng.next()).to_owned()
            } else {
                self.rng.between(low as u64, high as u64).to_string()
            };
            f.criteria.write_record([&b, r, name, &value, unit])?;
        }

        if !kit {
            self.cross_references(f, &b, r, brand, &ktypes, vehicles)?;
        }
        for &v in &ktypes {
            let quantity = if g.id == BRAKE_DISC || g.id == 854 {
                "2"
            } else {
                "1"
            };
            let (position, quantity) = if self.fits.is_some() {
                ("", "")
            } else {
                (g.position, quantity)
            };
            f.links
                .write_record([&b, r, vehicles[v].ktype.as_str(), position, quantity, ""])?;
        }
        if !kit {
            let list = g.price_cents as u64 * self.rng.between(60, 160) / 100;
            f.prices
                .write_record([&b, r, "list", "EUR", &price_text(list), "2026-01-01", ""])?;
            if self.rng.percent(30) {
                f.prices.write_record([
                    &b,
                    r,
                    "net",
                    "EUR",
                    &price_text(list * 70 / 100),
                    "2026-01-01",
                    "2026-12-31",
                ])?;
            }
        }
        self.media(f, &b, r, g)?;

        match self.last_of_genart.iter_mut().find(|(id, _)| *id == g.id) {
            Some(slot) => slot.1 = reference.clone(),
            None => self.last_of_genart.push((g.id, reference.clone())),
        }
        match self.last_of_brand.iter_mut().find(|(id, _)| *id == brand) {
            Some(slot) => slot.1 = reference.clone(),
            None => self.last_of_brand.push((brand, reference.clone())),
        }
        Ok(Article {
            brand,
            reference,
            genart: g,
            ktypes,
        })
    }

    fn cross_references(
        &mut self,
        f: &mut Files,
        b: &str,
        r: &str,
        brand: u32,
        ktypes: &[usize],
        vehicles: &[Vehicle],
    ) -> csv::Result<()> {
        let mut numbers = HashSet::new();
        for _ in 0..self.rng.between(1, 3) {
            let make = match ktypes.first() {
                Some(&v) if self.rng.percent(80) => &MAKES[vehicles[v].make],
                _ => self.rng.pick(&MAKES),
            };
            let pattern = self.rng.clone_pick(make.oe_patterns);
            let number = self.rng.pattern(pattern);
            if numbers.insert((make.id, normalise_reference(&number))) {
                f.crossrefs
                    .write_record([b, r, "oe", &make.id.to_string(), &number])?;
            }
        }
        if self.rng.percent(20) {
            let number = format!(
                "{}{}",
                ["VT", "NV", "AS", "KD"][(brand - 1) as usize % 4],
                self.rng.pattern(" #####")
            );
            f.crossrefs.write_record([b, r, "trade", "", &number])?;
        }
        if self.rng.percent(10) {
            let other = self
                .last_of_brand
                .iter()
                .find(|(id, _)| *id != brand)
                .map(|(_, reference)| reference.clone());
            if let Some(other) = other {
                f.crossrefs.write_record([b, r, "internal", "", &other])?;
            }
        }
        for _ in 0..self.rng.between(1, 2) {
            let (id, _, patterns) = *self.rng.pick(&COMPETITORS);
            let pattern = self.rng.clone_pick(patterns);
            let number = self.rng.pattern(pattern);
            if numbers.insert((id, normalise_reference(&number))) {
                f.competitor_refs
                    .write_record([b, r, &id.to_string(), &number])?;
            }
        }
        Ok(())
    }

    fn media(&mut self, f: &mut Files, b: &str, r: &str, g: &GenArt) -> csv::Result<()> {
        let path = format!("media/{b}/{}", normalise_reference(r));
        if self.rng.percent(60) {
            f.media
                .write_record([b, r, "image", "", "0", &format!("{path}.jpg"), g.name])?;
        }
        if g.brand >= 3 && self.rng.percent(10) {
            f.media.write_record([
                b,
                r,
                "document",
                "",
                "0",
                &format!("{path}-mounting.pdf"),
                "Mounting instructions",
            ])?;
        }
        if self.rng.percent(2) {
            for frame in 0..24 {
                f.media.write_record([
                    b,
                    r,
                    "spin360",
                    "main",
                    &frame.to_string(),
                    &format!("{path}/360/{frame:02}.jpg"),
                    "",
                ])?;
            }
        }
        Ok(())
    }

    /// An exhaust system: five component articles and the kit made of them, for 1 to 4 vehicles.
    fn exhaust_system(&mut self, f: &mut Files, vehicles: &[Vehicle]) -> csv::Result<usize> {
        let ktypes = self.vehicles_fitted(vehicles, 1, 4);
        let mut parts = Vec::new();
        for id in EXHAUST_PARTS {
            parts.push(self.article(f, genart(id)?, ktypes.clone(), vehicles)?);
        }
        let quantities = [1, 1, 1, 1, 1];
        self.kit(
            f,
            genart(EXHAUST_SYSTEM)?,
            &parts,
            &quantities,
            ktypes,
            vehicles,
        )?;
        Ok(6)
    }

    /// A brake set: two discs and a pad set.
    fn brake_set(&mut self, f: &mut Files, vehicles: &[Vehicle]) -> csv::Result<usize> {
        let ktypes = self.vehicles_fitted(vehicles, 1, 4);
        let parts = [
            self.article(f, genart(BRAKE_DISC)?, ktypes.clone(), vehicles)?,
            self.article(f, genart(BRAKE_PADS)?, ktypes.clone(), vehicles)?,
        ];
        self.kit(f, genart(BRAKE_KIT)?, &parts, &[2, 1], ktypes, vehicles)?;
        Ok(3)
    }

    fn kit(
        &mut self,
        f: &mut Files,
        g: &'static GenArt,
        parts: &[Article],
        quantities: &[u32],
        ktypes: Vec<usize>,
        vehicles: &[Vehicle],
    ) -> csv::Result<()> {
        let kit = self.article(f, g, ktypes, vehicles)?;
        let kb = kit.brand.to_string();
        for &v in &kit.ktypes {
            for (part, quantity) in parts.iter().zip(quantities) {
                f.kits.write_record([
                    &kb,
                    kit.reference.as_str(),
                    vehicles[v].ktype.as_str(),
                    &part.brand.to_string(),
                    &part.reference,
                    &quantity.to_string(),
                ])?;
            }
        }
        // Half the kits carry a price of their own, a little under the sum of their parts.
        if self.rng.percent(50) {
            let parts_sum: u64 = parts
                .iter()
                .zip(quantities)
                .map(|(p, q)| p.genart.price_cents as u64 * *q as u64)
                .sum();
            f.prices.write_record([
                &kb,
                kit.reference.as_str(),
                "list",
                "EUR",
                &price_text(parts_sum * 90 / 100),
                "2026-01-01",
                "",
            ])?;
        }
        Ok(())
    }
}

impl Rng {
    /// Picks a pattern (a `&'static str`, so the borrow of `self` ends here).
    fn clone_pick(&mut self, items: &'static [&'static str]) -> &'static str {
        items[self.below(items.len() as u64) as usize]
    }
}
