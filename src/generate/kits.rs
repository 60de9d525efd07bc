//! The sets a generated catalogue holds besides single articles: exhaust systems and brake
//! sets, each a kit with its components.

use super::articles::{ArticleMaker, genart, price_text};
use super::shape::Line;
use super::tables::*;
use super::{Article, Files, Vehicle};

impl ArticleMaker {
    /// An exhaust system: five component articles and the kit made of them, for 1 to 4 vehicles.
    pub(super) fn exhaust_system(
        &mut self,
        f: &mut Files,
        vehicles: &[Vehicle],
    ) -> csv::Result<usize> {
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
    pub(super) fn brake_set(&mut self, f: &mut Files, vehicles: &[Vehicle]) -> csv::Result<usize> {
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
        g: Line,
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
