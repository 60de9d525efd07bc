//! The articles of a generated catalogue, one at a time: reference, status, EANs, criteria,
//! cross numbers, links, prices and media, each from the generator's tables and its seed.

use std::collections::HashSet;

use super::shape::{Line, competitor_number, criteria_of, criterion_value};
use super::tables::*;
use super::vehicle_tables::MAKES;
use super::{Article, Files, Rng, Shape, Vehicle};
use crate::catalogue::normalise_reference;

pub(super) struct ArticleMaker {
    pub(super) rng: Rng,
    pub(super) used: HashSet<(u32, String)>,
    /// The latest article of each genart, for replacement references.
    pub(super) last_of_genart: Vec<(u32, String)>,
    /// The latest article of each brand, for internal cross-references.
    pub(super) last_of_brand: Vec<(u32, String)>,
    /// The generic articles plain articles are drawn from.
    pub(super) lines: Vec<Line>,
    pub(super) shape: Shape,
}

/// A genart of the table by id; the kit builders name ids the table holds.
pub(super) fn genart(id: u32) -> csv::Result<Line> {
    GENARTS
        .iter()
        .find(|g| g.id == id)
        .map(Line::of)
        .ok_or_else(|| {
            std::io::Error::other(format!("genart {id} is not in the generator's table")).into()
        })
}

pub(super) fn price_text(cents: u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// EAN-13 with a valid check digit.
pub(super) fn ean13(rng: &mut Rng, brand: u32) -> String {
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
    /// `articles` articles: exhaust systems and brake sets among plain articles; the count
    /// made (a set is not split at the end).
    pub(super) fn make(
        &mut self,
        f: &mut Files,
        articles: usize,
        vehicles: &[Vehicle],
    ) -> csv::Result<usize> {
        let mut made = 0;
        while made < articles {
            let left = articles - made;
            let roll = self.rng.below(100);
            let kits = self.shape.kits();
            made += if kits && roll < 6 && left >= 6 {
                self.exhaust_system(f, vehicles)?
            } else if kits && roll < 10 && left >= 3 {
                self.brake_set(f, vehicles)?
            } else {
                // With kits, exhaust parts are made as the systems' components only.
                let genart = loop {
                    let line = *self.rng.pick(&self.lines);
                    let component = kits && EXHAUST_PARTS.contains(&line.base.id);
                    if line.base.price_cents > 0 && !component {
                        break line;
                    }
                };
                let ktypes = self.vehicles_fitted(vehicles, 3, 7);
                self.article(f, genart, ktypes, vehicles)?;
                1
            };
        }
        Ok(made)
    }

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
    pub(super) fn vehicles_fitted(
        &mut self,
        vehicles: &[Vehicle],
        low: u64,
        high: u64,
    ) -> Vec<usize> {
        match self.shape.links_per_article {
            Some(n) => self.pick_exactly(vehicles, n as usize),
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

    fn reference(&mut self, g: &GenArt, brand: u32) -> String {
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
            if self.used.insert((brand, normalise_reference(&written))) {
                return written;
            }
            attempt += 1;
        }
    }

    /// Writes one article with everything that hangs off it.
    pub(super) fn article(
        &mut self,
        f: &mut Files,
        line: Line,
        ktypes: Vec<usize>,
        vehicles: &[Vehicle],
    ) -> csv::Result<Article> {
        let g = line.base;
        let brand = self.rng.brand_of(g, self.shape.brands);
        let reference = self.reference(g, brand);
        let b = brand.to_string();
        let r = reference.as_str();
        let kit = g.price_cents == 0;

        let status_roll = self.rng.below(100);
        let previous = self
            .last_of_genart
            .iter()
            .find(|(id, _)| *id == line.id)
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
        let mut description = line.name();
        if !g.position.is_empty() {
            description.push_str(", ");
            description.push_str(g.position);
        }
        let unit = if g.id == 4040 || g.id == BRAKE_DISC {
            "2"
        } else {
            "1"
        };
        if let Some(t) = &mut f.translated {
            super::translations::write_article_texts(t, &b, r, g)?;
        }
        f.articles.write_record([
            &b,
            r,
            &line.id.to_string(),
            &description,
            status,
            &eans,
            unit,
            &replaced_by,
        ])?;
        let criteria = match self.shape.criteria_per_article {
            Some(n) => criteria_of(g, n as usize),
            None => g.criteria.to_vec(),
        };
        for (name, unit, low, high) in criteria {
            let value = criterion_value(&mut self.rng, name, low, high);
            let number = super::criteria::number_of(name);
            f.criteria
                .write_record([&b, r, name, &value, unit, &number])?;
        }

        if !kit {
            match self.shape.crossrefs_per_article {
                Some(mean) => {
                    self.shaped_cross_references(f, &b, r, brand, mean, &ktypes, vehicles)?
                }
                None => self.cross_references(f, &b, r, brand, &ktypes, vehicles)?,
            }
        }
        self.links(f, &b, r, g, &ktypes, vehicles)?;
        if !kit {
            match self.shape.prices_per_article {
                Some(mean) => self.shaped_prices(f, &b, r, g, mean)?,
                None => self.prices(f, &b, r, g)?,
            }
        }
        match self.shape.media_per_article {
            Some(mean) => self.images(f, &b, r, &line, mean)?,
            None => self.media(f, &b, r, &line, brand)?,
        }

        self.remember(line.id, brand, &reference);
        Ok(Article {
            brand,
            reference,
            genart: g,
            ktypes,
        })
    }

    /// The article's link rows: one per vehicle it fits.
    fn links(
        &self,
        f: &mut Files,
        b: &str,
        r: &str,
        g: &GenArt,
        ktypes: &[usize],
        vehicles: &[Vehicle],
    ) -> csv::Result<()> {
        for &v in ktypes {
            let quantity = if g.id == BRAKE_DISC || g.id == 854 {
                "2"
            } else {
                "1"
            };
            let (position, quantity) = match self.shape.link_details() {
                true => (g.position, quantity),
                false => ("", ""),
            };
            f.links
                .write_record([b, r, vehicles[v].ktype.as_str(), position, quantity, ""])?;
        }
        Ok(())
    }

    /// The article's list price, and a net price for some.
    fn prices(&mut self, f: &mut Files, b: &str, r: &str, g: &GenArt) -> csv::Result<()> {
        let list = g.price_cents as u64 * self.rng.between(60, 160) / 100;
        f.prices
            .write_record([b, r, "list", "EUR", &price_text(list), "2026-01-01", ""])?;
        if self.rng.percent(30) {
            f.prices.write_record([
                b,
                r,
                "net",
                "EUR",
                &price_text(list * 70 / 100),
                "2026-01-01",
                "2026-12-31",
            ])?;
        }
        Ok(())
    }

    /// The latest article of its generic article and of its brand, for the next ones'
    /// replacements and internal cross-references.
    fn remember(&mut self, genart: u32, brand: u32, reference: &str) {
        match self.last_of_genart.iter_mut().find(|(id, _)| *id == genart) {
            Some(slot) => slot.1 = reference.to_owned(),
            None => self.last_of_genart.push((genart, reference.to_owned())),
        }
        match self.last_of_brand.iter_mut().find(|(id, _)| *id == brand) {
            Some(slot) => slot.1 = reference.to_owned(),
            None => self.last_of_brand.push((brand, reference.to_owned())),
        }
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
            let (id, number) = competitor_number(&mut self.rng);
            if numbers.insert((id, normalise_reference(&number))) {
                f.competitor_refs
                    .write_record([b, r, &id.to_string(), &number])?;
            }
        }
        Ok(())
    }

    fn media(
        &mut self,
        f: &mut Files,
        b: &str,
        r: &str,
        line: &Line,
        brand: u32,
    ) -> csv::Result<()> {
        let path = format!("media/{b}/{}", normalise_reference(r));
        if self.rng.percent(60) {
            f.media
                .write_record([b, r, "image", "", "0", &format!("{path}.jpg"), &line.name()])?;
        }
        if brand >= 3 && self.rng.percent(10) {
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
}
