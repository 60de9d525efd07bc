//! A deterministic catalogue generator: the same size and seed give the same files, byte for
//! byte. It made the embedded demo catalogue and makes large catalogues for benchmarks and
//! scale tests, one `<type>.csv` per data set in the import formats.

mod articles;
mod criteria;
mod kits;
mod shape;
mod shaped_rows;
mod tables;
mod translations;
mod vehicle_numbers;
mod vehicle_tables;

use std::collections::HashSet;
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use articles::ArticleMaker;
pub use shape::Shape;
/// How many prices a shaped article can carry (`Shape::prices_per_article`).
pub const PRICE_KINDS: usize = shape::PRICE_KINDS.len();
use shape::Line;
use tables::*;
use translations::TextFiles;
use vehicle_numbers::{write_plates, write_vins};
use vehicle_tables::*;

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
    model_series: Writer,
    genarts: Writer,
    assembly_groups: Writer,
    genart_groups: Writer,
    vehicles: Writer,
    articles: Writer,
    key_values: Writer,
    criterion_definitions: Writer,
    criteria: Writer,
    crossrefs: Writer,
    competitor_refs: Writer,
    links: Writer,
    prices: Writer,
    kits: Writer,
    media: Writer,
    plates: Writer,
    vins: Writer,
    /// The texts in other languages, where the shape asks for them.
    translated: Option<TextFiles>,
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

/// Writes a catalogue of `articles` articles into `out` (created if missing).
pub fn generate(articles: usize, seed: u64, out: &Path) -> csv::Result<Summary> {
    generate_shaped(articles, seed, Shape::default(), out)
}

/// The demo catalogue's files: `DEMO_ARTICLES` of `DEMO_SEED`, with texts in other languages.
pub fn generate_demo(out: &Path) -> csv::Result<Summary> {
    let shape = Shape {
        translated: true,
        ..Shape::default()
    };
    generate_shaped(DEMO_ARTICLES, DEMO_SEED, shape, out)
}

/// `generate`, in the given shape.
pub fn generate_shaped(
    articles: usize,
    seed: u64,
    shape: Shape,
    out: &Path,
) -> csv::Result<Summary> {
    if let Some(problem) = shape.problem() {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, problem).into());
    }
    std::fs::create_dir_all(out)?;
    let mut f = Files::open(out, shape.translated)?;
    let mut rng = Rng(seed);
    let mut summary = Summary::default();
    let lines = shape::lines(shape.genarts);
    write_reference_lists(&mut f, &shape, &lines)?;
    let fits = shape.links_per_article.unwrap_or(0) as usize;
    let count = match shape.vehicles {
        Some(n) => n as usize,
        None => (articles / 10).max(300).max(fits * 2),
    };
    let vehicles = write_vehicles(&mut f, &mut rng, count)?;
    summary.vehicles = vehicles.len() as u64;
    let mut maker = ArticleMaker {
        rng,
        used: HashSet::new(),
        last_of_genart: Vec::new(),
        last_of_brand: Vec::new(),
        lines,
        shape,
    };
    summary.articles = maker.make(&mut f, articles, &vehicles)? as u64;
    write_plates(&mut f, seed, &vehicles)?;
    write_vins(&mut f, seed, &vehicles)?;
    f.flush()?;
    Ok(summary)
}

impl Files {
    fn open(out: &Path, translated: bool) -> csv::Result<Files> {
        Ok(Files {
            brands: writer(out, ImportType::Brands)?,
            manufacturers: writer(out, ImportType::Manufacturers)?,
            model_series: writer(out, ImportType::ModelSeries)?,
            genarts: writer(out, ImportType::GenericArticles)?,
            assembly_groups: writer(out, ImportType::AssemblyGroups)?,
            genart_groups: writer(out, ImportType::GenartGroups)?,
            vehicles: writer(out, ImportType::Vehicles)?,
            articles: writer(out, ImportType::Articles)?,
            key_values: writer(out, ImportType::KeyValues)?,
            criterion_definitions: writer(out, ImportType::CriterionDefinitions)?,
            criteria: writer(out, ImportType::Criteria)?,
            crossrefs: writer(out, ImportType::CrossReferences)?,
            competitor_refs: writer(out, ImportType::CompetitorReferences)?,
            links: writer(out, ImportType::Links)?,
            prices: writer(out, ImportType::Prices)?,
            kits: writer(out, ImportType::Kits)?,
            media: writer(out, ImportType::Media)?,
            plates: writer(out, ImportType::Plates)?,
            vins: writer(out, ImportType::Vins)?,
            translated: match translated {
                true => Some(TextFiles {
                    texts: writer(out, ImportType::Texts)?,
                    article_texts: writer(out, ImportType::ArticleTexts)?,
                }),
                false => None,
            },
        })
    }

    fn flush(&mut self) -> csv::Result<()> {
        for w in [
            &mut self.brands,
            &mut self.manufacturers,
            &mut self.model_series,
            &mut self.genarts,
            &mut self.assembly_groups,
            &mut self.genart_groups,
            &mut self.vehicles,
            &mut self.articles,
            &mut self.key_values,
            &mut self.criterion_definitions,
            &mut self.criteria,
            &mut self.crossrefs,
            &mut self.competitor_refs,
            &mut self.links,
            &mut self.prices,
            &mut self.kits,
            &mut self.media,
            &mut self.plates,
            &mut self.vins,
        ] {
            w.flush()?;
        }
        if let Some(t) = &mut self.translated {
            t.texts.flush()?;
            t.article_texts.flush()?;
        }
        Ok(())
    }
}

/// The brands, the manufacturers (vehicle makers and competitors) and the generic articles.
fn write_reference_lists(f: &mut Files, shape: &Shape, lines: &[Line]) -> csv::Result<()> {
    for (id, name) in shape::brands(shape.brands) {
        let mut row = vec![id.to_string(), name];
        row.extend(shape::brand_address(id));
        f.brands.write_record(row)?;
    }
    for m in &MAKES {
        f.manufacturers
            .write_record([m.id.to_string().as_str(), m.name, "vehicle"])?;
    }
    for (id, name, _) in &COMPETITORS {
        f.manufacturers
            .write_record([id.to_string().as_str(), name, "parts"])?;
    }
    for line in lines {
        f.genarts.write_record([line.id.to_string(), line.name()])?;
    }
    write_model_series(f)?;
    write_assembly_groups(f, lines)?;
    criteria::write(&mut f.criterion_definitions, &mut f.key_values)?;
    match &mut f.translated {
        Some(t) => translations::write_texts(t),
        None => Ok(()),
    }
}

/// Every make's models as model series, built from January of the first year to December
/// of the last.
fn write_model_series(f: &mut Files) -> csv::Result<()> {
    for make in &MAKES {
        for (i, (name, first, last, _)) in make.models.iter().enumerate() {
            let to = match last {
                0 => String::new(),
                year => format!("{year}-12"),
            };
            f.model_series.write_record([
                model_series_id(make, i).to_string().as_str(),
                &make.id.to_string(),
                name,
                &format!("{first}-01"),
                &to,
            ])?;
        }
    }
    Ok(())
}

/// The passenger-car tree, and where each generic article sits in it (a variant where its
/// base does).
fn write_assembly_groups(f: &mut Files, lines: &[Line]) -> csv::Result<()> {
    for (sort, (id, parent, name, genarts)) in ASSEMBLY_GROUPS.iter().enumerate() {
        let parent = match parent {
            0 => String::new(),
            p => p.to_string(),
        };
        f.assembly_groups.write_record([
            id.to_string().as_str(),
            &parent,
            "passenger_car",
            name,
            &(sort + 1).to_string(),
        ])?;
        for genart in *genarts {
            for line in lines.iter().filter(|l| l.base.id == *genart) {
                f.genart_groups
                    .write_record([line.id.to_string(), id.to_string()])?;
            }
        }
    }
    Ok(())
}

fn write_vehicles(f: &mut Files, rng: &mut Rng, count: usize) -> csv::Result<Vec<Vehicle>> {
    let mut vehicles = Vec::with_capacity(count);
    for i in 0..count {
        let make = rng.below(MAKES.len() as u64) as usize;
        let model_index = rng.below(MAKES[make].models.len() as u64) as usize;
        let (model, first, last, body_style) = MAKES[make].models[model_index];
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
            &model_series_id(&MAKES[make], model_index).to_string(),
            "passenger_car",
            body_style,
            construction_type(body_style),
            engine_kind(fuel),
            "",
            "",
        ])?;
        vehicles.push(Vehicle { ktype, make });
    }
    Ok(vehicles)
}

impl Rng {
    /// Picks a pattern (a `&'static str`, so the borrow of `self` ends here).
    fn clone_pick(&mut self, items: &'static [&'static str]) -> &'static str {
        items[self.below(items.len() as u64) as usize]
    }
}
