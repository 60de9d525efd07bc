//! An article's rows where the shape gives their number: cross numbers, prices and images
//! drawn to a mean per article instead of the generator's own mix.

use std::collections::HashSet;

use super::articles::{ArticleMaker, price_text};
use super::shape::{Line, PRICE_KINDS, competitor_number};
use super::tables::GenArt;
use super::vehicle_tables::MAKES;
use super::{Files, Vehicle};
use crate::catalogue::normalise_reference;

/// The share of each kind among shaped cross numbers, in percent: OE, competitor, trade;
/// the rest internal.
const OE_SHARE: u64 = 55;
const COMPETITOR_SHARE: u64 = 30;
const TRADE_SHARE: u64 = 10;

impl ArticleMaker {
    /// About `mean` cross numbers, every kind in `crossrefs`: OE numbers (most of the
    /// article's first vehicle's make), competitors', trade and internal numbers.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn shaped_cross_references(
        &mut self,
        f: &mut Files,
        b: &str,
        r: &str,
        brand: u32,
        mean: f64,
        ktypes: &[usize],
        vehicles: &[Vehicle],
    ) -> csv::Result<()> {
        let mut numbers = HashSet::new();
        for _ in 0..self.rng.count(mean) {
            let roll = self.rng.below(100);
            let (kind, maker, number) = if roll < OE_SHARE {
                let make = match ktypes.first() {
                    Some(&v) if self.rng.percent(80) => &MAKES[vehicles[v].make],
                    _ => self.rng.pick(&MAKES),
                };
                let pattern = self.rng.clone_pick(make.oe_patterns);
                ("oe", make.id, self.rng.pattern(pattern))
            } else if roll < OE_SHARE + COMPETITOR_SHARE {
                let (id, number) = competitor_number(&mut self.rng);
                ("competitor", id, number)
            } else if roll < OE_SHARE + COMPETITOR_SHARE + TRADE_SHARE {
                let prefix = ["VT", "NV", "AS", "KD"][(brand - 1) as usize % 4];
                (
                    "trade",
                    0,
                    format!("{prefix}{}", self.rng.pattern(" ######")),
                )
            } else {
                let other = self.last_of_brand.iter().find(|(id, _)| *id != brand);
                match other {
                    Some((_, reference)) => ("internal", 0, reference.clone()),
                    None => continue,
                }
            };
            if numbers.insert((kind, maker, normalise_reference(&number))) {
                let maker = match maker {
                    0 => String::new(),
                    id => id.to_string(),
                };
                f.crossrefs.write_record([b, r, kind, &maker, &number])?;
            }
        }
        Ok(())
    }

    /// About `mean` prices, each of another type or currency (`PRICE_KINDS` in turn).
    pub(super) fn shaped_prices(
        &mut self,
        f: &mut Files,
        b: &str,
        r: &str,
        g: &GenArt,
        mean: f64,
    ) -> csv::Result<()> {
        let list = g.price_cents as u64 * self.rng.between(60, 160) / 100;
        let count = self.rng.count(mean).min(PRICE_KINDS.len());
        for (kind, currency, percent) in &PRICE_KINDS[..count] {
            let amount = price_text(list * u64::from(*percent) / 100);
            f.prices
                .write_record([b, r, kind, currency, &amount, "2026-01-01", ""])?;
        }
        Ok(())
    }

    /// About `mean` images, one position each.
    pub(super) fn images(
        &mut self,
        f: &mut Files,
        b: &str,
        r: &str,
        line: &Line,
        mean: f64,
    ) -> csv::Result<()> {
        let path = format!("media/{b}/{}", normalise_reference(r));
        let name = line.name();
        for position in 0..self.rng.count(mean) {
            f.media.write_record([
                b,
                r,
                "image",
                "",
                &position.to_string(),
                &format!("{path}-{position}.jpg"),
                &name,
            ])?;
        }
        Ok(())
    }
}
