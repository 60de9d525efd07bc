//! Vehicle types as a shop's vehicle selector asks for them (Pegasus's `getLinkageTargets`):
//! narrowed by kind, id, maker and model series; one page of them in a stable order; and the
//! makers and model series of everything that matched, with their counts, so that one call
//! fills a make or a model-series list (`perPage` 0: the counts alone).

use std::collections::{BTreeMap, BTreeSet};

use super::vehicle_path::{Makers, Targets};
use crate::catalogue::{Manufacturer, ModelSeries, TargetType, Vehicle, YearMonth};
use crate::service::ServiceError;
use crate::service::asked::Asked;
use crate::service::context::Context;
use crate::service::field::Field;
use crate::store::{Catalogue, VehicleEntry, VehicleSummary};

/// The most vehicle types one page holds.
pub const MAX_PER_PAGE: usize = 100;
/// The most vehicle types one question may name.
pub const MAX_IDS: usize = 100;

/// A vehicle type named by id, with the kinds it was named as (`{type, id}`), if any.
#[derive(Debug, Clone)]
pub struct NamedTarget {
    pub ktype: String,
    pub kinds: Option<&'static [TargetType]>,
}

/// What is asked: every narrowing left empty or `None` narrows nothing.
#[derive(Debug, Clone)]
pub struct TargetQuery<'q> {
    pub kinds: Targets<'q>,
    /// The vehicle types named by id (at most `MAX_IDS`), where the request names any.
    pub ids: Option<Field<Vec<NamedTarget>>>,
    pub makers: Vec<u32>,
    pub model_series: Vec<u32>,
    /// The make as the vehicle rows write it (case-insensitive).
    pub make_name: Option<&'q str>,
    /// From 1.
    pub page: Field<usize>,
    /// 0: no rows, the counts only; at most `MAX_PER_PAGE`.
    pub per_page: Field<usize>,
    pub maker_counts: bool,
    pub series_counts: bool,
}

impl<'q> TargetQuery<'q> {
    /// Every vehicle type of `kinds`, one page of them, no counts.
    pub fn page(kinds: Targets<'q>, page: Field<usize>, per_page: Field<usize>) -> TargetQuery<'q> {
        TargetQuery {
            kinds,
            ids: None,
            makers: Vec::new(),
            model_series: Vec::new(),
            make_name: None,
            page,
            per_page,
            maker_counts: false,
            series_counts: false,
        }
    }

    fn ids(&self) -> &[NamedTarget] {
        self.ids.as_ref().map_or(&[], |ids| &ids.value)
    }
}

/// A vehicle type with its maker and model series, where the catalogue names them.
#[derive(Debug, Clone)]
pub struct TargetRow {
    pub vehicle: Vehicle,
    pub maker: Option<Manufacturer>,
    pub series: Option<ModelSeries>,
}

/// A maker or model series and how many matching vehicle types it has; a model series with
/// the years it was built.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetCount {
    pub id: u32,
    pub name: String,
    pub count: usize,
    pub years: Option<(YearMonth, Option<YearMonth>)>,
}

/// One page of the matching vehicle types, their total, and the counts asked for.
#[derive(Debug, Clone)]
pub struct TargetPage {
    pub total: usize,
    pub rows: Vec<TargetRow>,
    pub maker_counts: Option<Vec<TargetCount>>,
    pub series_counts: Option<Vec<TargetCount>>,
}

fn check(q: &TargetQuery<'_>) -> Result<(), ServiceError> {
    if let Some(ids) = q.ids.as_ref().filter(|ids| ids.value.len() > MAX_IDS) {
        return Err(ServiceError::bad_parameter(
            ids.name,
            format!("must hold at most {MAX_IDS} ids"),
        ));
    }
    if q.per_page.value > MAX_PER_PAGE {
        return Err(ServiceError::bad_parameter(
            q.per_page.name,
            format!("must be 0 to {MAX_PER_PAGE}"),
        ));
    }
    if q.page.value == 0 {
        return Err(ServiceError::bad_parameter(
            q.page.name,
            "must be 1 or more",
        ));
    }
    Ok(())
}

/// The vehicle types the question names, before the page is cut: for ids, their rows
/// (`owned`); else the places of the catalogue's vehicle summary that a model series or a
/// maker narrows to, or every place.
fn matching<'s>(
    summary: &'s VehicleSummary,
    owned: &'s mut Vec<VehicleEntry>,
    catalogue: &Catalogue,
    makers: &Makers,
    q: &TargetQuery<'_>,
) -> Result<Vec<&'s VehicleEntry>, ServiceError> {
    let keep = |v: &VehicleEntry| {
        q.kinds.is_none_or(|ks| ks.contains(&v.target_type))
            && (q.makers.is_empty()
                || makers
                    .maker_of(&v.make, v.model_series)
                    .is_some_and(|m| q.makers.contains(&m)))
            && (q.model_series.is_empty()
                || v.model_series.is_some_and(|s| q.model_series.contains(&s)))
            && q.make_name
                .is_none_or(|m| v.make.eq_ignore_ascii_case(m.trim()))
    };
    if !q.ids().is_empty() {
        let mut seen = BTreeSet::new();
        for named in q.ids() {
            let Some(v) = catalogue.vehicle(named.ktype.trim())? else {
                continue;
            };
            let of_kind = named.kinds.is_none_or(|ks| ks.contains(&v.target_type));
            if of_kind && seen.insert(v.ktype.clone()) {
                owned.push(VehicleEntry {
                    ktype: v.ktype,
                    make: v.make,
                    model_series: v.model_series,
                    target_type: v.target_type,
                    type_name: v.type_name,
                });
            }
        }
        return Ok(owned.iter().filter(|v| keep(v)).collect());
    }
    // The places a model series or a maker narrows to, in Ktype order.
    let mut places: Vec<usize> = if !q.model_series.is_empty() {
        q.model_series
            .iter()
            .flat_map(|s| summary.by_series.get(s).into_iter().flatten().copied())
            .collect()
    } else if !q.makers.is_empty() {
        let mut places = Vec::new();
        for &maker in &q.makers {
            let (series, names) = makers.parts_of(maker);
            for s in series {
                places.extend(summary.by_series.get(&s).into_iter().flatten());
            }
            for name in names {
                places.extend(summary.by_make.get(name).into_iter().flatten());
            }
        }
        places
    } else {
        return Ok(summary.entries.iter().filter(|v| keep(v)).collect());
    };
    places.sort_unstable();
    places.dedup();
    Ok(places
        .into_iter()
        .map(|p| &summary.entries[p])
        .filter(|v| keep(v))
        .collect())
}

/// Counts by key, named by `name`, by name then id.
fn counted(
    counts: BTreeMap<u32, usize>,
    name: impl Fn(u32) -> String,
    years: impl Fn(u32) -> Option<(YearMonth, Option<YearMonth>)>,
) -> Vec<TargetCount> {
    let mut out: Vec<TargetCount> = counts
        .into_iter()
        .map(|(id, count)| TargetCount {
            id,
            name: name(id),
            count,
            years: years(id),
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
    out
}

/// The page of vehicle types `q` asks for: ordered by make, model series, type name and
/// Ktype, so that pages do not overlap. Only the page's vehicle rows are read.
pub fn linkage_targets(
    context: &Context,
    asked: &Asked<'_>,
    q: &TargetQuery<'_>,
) -> Result<TargetPage, ServiceError> {
    asked.check()?;
    check(q)?;
    let (catalogue, names) = (context.snapshot(), context.names());
    let makers = Makers::read(catalogue)?;
    // A model series' name in the reader's language (the series are few: named once each).
    let mut series_names = BTreeMap::new();
    for (&id, series) in makers.all_series() {
        series_names.insert(id, names.model_series(id, &series.name)?);
    }
    let series_name = |id: u32| series_names.get(&id).cloned().unwrap_or_default();
    let summary = catalogue.vehicle_summary()?;
    let mut owned = Vec::new();
    let mut found = matching(&summary, &mut owned, catalogue, &makers, q)?;
    let maker = |v: &VehicleEntry| makers.maker_of(&v.make, v.model_series);
    let count_by = |key: &dyn Fn(&VehicleEntry) -> Option<u32>| {
        let mut counts = BTreeMap::new();
        for v in &found {
            if let Some(k) = key(v) {
                *counts.entry(k).or_insert(0) += 1;
            }
        }
        counts
    };
    let maker_counts = q.maker_counts.then(|| {
        counted(
            count_by(&maker),
            |id| makers.maker(id).map(|m| m.name.clone()).unwrap_or_default(),
            |_| None,
        )
    });
    let series_years = |id: u32| makers.series(id).map(|s| (s.year_from, s.year_to));
    let series_counts = q
        .series_counts
        .then(|| counted(count_by(&|v| v.model_series), series_name, series_years));
    let total = found.len();
    let mut rows = Vec::new();
    let (page, per_page) = (q.page.value, q.per_page.value);
    if per_page > 0 {
        let order = |v: &&VehicleEntry| {
            (
                maker(v)
                    .and_then(|m| makers.maker(m))
                    .map_or_else(|| v.make.clone(), |m| m.name.clone()),
                v.model_series.map(series_name).unwrap_or_default(),
                v.type_name.clone(),
                v.ktype.parse::<u64>().unwrap_or(u64::MAX),
                v.ktype.clone(),
            )
        };
        found.sort_by_cached_key(order);
        let start = (page - 1).saturating_mul(per_page);
        for entry in found.iter().skip(start).take(per_page) {
            let Some(vehicle) = catalogue.vehicle(&entry.ktype)? else {
                continue;
            };
            let series = vehicle.model_series.and_then(|id| {
                let series = makers.series(id)?;
                Some(ModelSeries {
                    name: series_name(id),
                    ..series.clone()
                })
            });
            rows.push(TargetRow {
                maker: maker(entry).and_then(|m| makers.maker(m)).cloned(),
                series,
                vehicle: crate::service::articles::article_detail::vehicle_in(&names, vehicle)?,
            });
        }
    }
    Ok(TargetPage {
        total,
        rows,
        maker_counts,
        series_counts,
    })
}

/// A page of a model series' vehicle types (of `kinds`), with the series; an unknown series
/// is not found.
pub fn types_of_series(
    context: &Context,
    series: u32,
    kinds: Targets<'_>,
    page: Field<usize>,
    per_page: Field<usize>,
) -> Result<(ModelSeries, TargetPage), ServiceError> {
    let found = context
        .snapshot()
        .records::<ModelSeries>()
        .find(|s| s.as_ref().is_ok_and(|s| s.id == series))
        .transpose()?
        .ok_or_else(|| ServiceError::NotFound(format!("no model series has id {series}")))?;
    let q = TargetQuery {
        model_series: vec![series],
        ..TargetQuery::page(kinds, page, per_page)
    };
    let found = ModelSeries {
        name: context.names().model_series(found.id, &found.name)?,
        ..found
    };
    Ok((found, linkage_targets(context, &Asked::new(), &q)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_beyond_its_bounds_is_refused_by_the_field_it_came_in() {
        let (page, per_page) = (Field::new("p", 1), Field::new("pp", MAX_PER_PAGE + 1));
        let mut q = TargetQuery::page(None, page, per_page);
        let named = |q: &TargetQuery<'_>| match check(q) {
            Err(ServiceError::BadParameter { parameter, .. }) => parameter,
            other => panic!("{other:?}"),
        };
        assert_eq!(named(&q), "pp");
        q.per_page.value = 10;
        q.page.value = 0;
        assert_eq!(named(&q), "p");
        q.page.value = 1;
        let one = NamedTarget {
            ktype: "1".into(),
            kinds: None,
        };
        q.ids = Some(Field::new("ids", vec![one; MAX_IDS + 1]));
        assert_eq!(named(&q), "ids");
        q.ids = Some(Field::new("ids", Vec::new()));
        assert!(check(&q).is_ok());
    }
}
