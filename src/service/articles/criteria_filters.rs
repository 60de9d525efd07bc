//! A search narrowed by criteria (Pegasus's `criteriaFilters`) and its matches counted per
//! criterion value (`includeCriteriaFacets`). As TecDoc takes them: several values of one
//! criterion are alternatives, several criteria must all hold; a value matches as written,
//! or as the same number (`300` and `300.0`).

use std::collections::BTreeMap;

use super::criteria::{ShownCriterion, shown};
use crate::catalogue::Criterion;
use crate::service::ServiceError;
use crate::service::field::Field;
use crate::service::names::Names;
use crate::store::Criteria;

/// The criterion values a search's articles must carry: per criterion, its alternatives.
#[derive(Debug, Default)]
pub struct CriteriaWanted {
    by_id: BTreeMap<u32, Vec<String>>,
}

impl CriteriaWanted {
    /// The filters as a request gives them: (criterion number, raw value) each.
    pub fn of(filters: Field<&[(i64, String)]>) -> Result<CriteriaWanted, ServiceError> {
        let mut by_id: BTreeMap<u32, Vec<String>> = BTreeMap::new();
        for (id, value) in filters.value {
            let id = u32::try_from(*id).map_err(|_| {
                ServiceError::bad_parameter(
                    filters.name,
                    format!("{id} is not a criterion number (getCriteria2's criteriaId)"),
                )
            })?;
            by_id.entry(id).or_default().push(value.trim().to_owned());
        }
        Ok(CriteriaWanted { by_id })
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// Whether an article's criteria carry every criterion wanted, each with one of its
    /// values.
    pub fn held_by(&self, criteria: &Criteria, rows: &[Criterion]) -> bool {
        self.by_id.iter().all(|(&id, values)| {
            rows.iter().any(|row| {
                criteria.id_of(&row.name) == Some(id)
                    && values.iter().any(|v| same_value(v, &row.value))
            })
        })
    }
}

/// Whether a value asked for is the value held: as written, or as the same number.
fn same_value(asked: &str, held: &str) -> bool {
    let number = |v: &str| v.trim().replace(',', ".").parse::<f64>().ok();
    asked == held.trim() || matches!((number(asked), number(held)), (Some(a), Some(b)) if a == b)
}

/// The matches per criterion value, each with a row that holds it (whose name and unit the
/// facet shows).
#[derive(Debug, Default)]
pub struct CriteriaCounts(BTreeMap<(u32, String), (u32, Criterion)>);

/// A criterion value with its matches.
pub struct CriterionFacet {
    pub criterion: ShownCriterion,
    pub count: u32,
}

impl CriteriaCounts {
    /// Counts a match's criteria.
    pub fn add(&mut self, criteria: &Criteria, rows: Vec<Criterion>) {
        for row in rows {
            let id = criteria.id_of(&row.name).unwrap_or(0);
            self.0.entry((id, row.value.clone())).or_insert((0, row)).0 += 1;
        }
    }

    /// The counts in the criteria's and values' order, their texts in the names' language.
    pub fn facets(
        self,
        names: &Names<'_>,
        criteria: &Criteria,
    ) -> Result<Vec<CriterionFacet>, ServiceError> {
        self.0
            .into_values()
            .map(|(count, row)| {
                Ok(CriterionFacet {
                    criterion: shown(names, criteria, row)?,
                    count,
                })
            })
            .collect()
    }
}
