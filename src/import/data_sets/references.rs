//! What a staged row refers to, looked up in the catalogue as the import will leave it: the
//! first reference that does not hold is the row's rejection.

use super::Parsed;
use crate::catalogue::*;
use crate::store::{Staging, StoreError};

/// What a translation names, where the catalogue lacks it (a term names nothing).
fn named_by(s: &mut Staging<'_>, t: &Translation) -> Result<Option<String>, StoreError> {
    let Ok(id) = t.key.parse::<u32>() else {
        return Ok(None);
    };
    let (held, what) = match t.kind {
        TextKind::GenericArticle => (s.has_generic_article(id)?, "genart"),
        TextKind::AssemblyGroup => (s.has_assembly_group(id)?, "assembly group"),
        TextKind::ModelSeries => (s.has_model_series(id)?, "model series"),
        TextKind::Term => return Ok(None),
    };
    Ok((!held).then(|| format!("refers to {what} {id} which is not in the catalogue")))
}

/// What is wrong with a criterion its row numbers: a number no definition has, one defined
/// under another name, a key its key table lacks.
fn numbered_criterion(
    s: &mut Staging<'_>,
    c: &Criterion,
    id: u32,
) -> Result<Option<String>, StoreError> {
    let Some(definition) = s.criterion_definition(id)? else {
        return Ok(Some(format!(
            "column 'criterion_id': refers to criterion {id} which is not in the catalogue's \
             criterion_definitions"
        )));
    };
    if definition.name != c.name {
        return Ok(Some(format!(
            "column 'criterion_id': criterion {id} is '{}', not '{}'",
            definition.name, c.name
        )));
    }
    if let Some(table) = definition.key_table
        && !s.has_key(table, &c.value)?
    {
        return Ok(Some(format!(
            "column 'value': '{}' is not a key of key table {table} (criterion {id} takes \
             its values from it)",
            c.value
        )));
    }
    Ok(None)
}

fn show(a: &ArticleKey) -> String {
    format!("brand {} reference {}", a.brand_id, a.reference)
}

impl Parsed {
    /// The first thing this row refers to that the catalogue does not hold.
    pub(super) fn missing_reference(
        &self,
        s: &mut Staging<'_>,
    ) -> Result<Option<String>, StoreError> {
        fn article(s: &mut Staging<'_>, a: &ArticleKey) -> Result<Option<String>, StoreError> {
            Ok((!s.has_article(a)?).then(|| {
                format!(
                    "refers to article {} which is not in the catalogue",
                    show(a)
                )
            }))
        }
        fn vehicle(s: &mut Staging<'_>, ktype: &str) -> Result<Option<String>, StoreError> {
            Ok((!s.has_vehicle(ktype)?)
                .then(|| format!("refers to ktype {ktype} which is not in the catalogue")))
        }
        Ok(match self {
            Parsed::Brand(_) | Parsed::Manufacturer(_) | Parsed::GenericArticle(_) => None,
            // Checked as a whole file (`assembly_tree`): its rows refer to each other.
            Parsed::AssemblyGroup(_) => None,
            Parsed::ModelSeries(m) => (!s.has_manufacturer(m.manufacturer_id)?).then(|| {
                format!(
                    "refers to manufacturer {} which is not in the catalogue",
                    m.manufacturer_id
                )
            }),
            Parsed::GenartGroup(g) => {
                if !s.has_generic_article(g.genart)? {
                    Some(format!(
                        "refers to genart {} which is not in the catalogue",
                        g.genart
                    ))
                } else if !s.has_assembly_group(g.node)? {
                    Some(format!(
                        "refers to assembly group {} which is not in the catalogue",
                        g.node
                    ))
                } else {
                    None
                }
            }
            Parsed::Vehicle(v) => match v.model_series {
                Some(m) if !s.has_model_series(m)? => Some(format!(
                    "refers to model series {m} which is not in the catalogue"
                )),
                _ => None,
            },
            Parsed::Article(a) => {
                if !s.has_brand(a.key.brand_id)? {
                    Some(format!(
                        "refers to brand {} which is not in the catalogue",
                        a.key.brand_id
                    ))
                } else if !s.has_generic_article(a.genart)? {
                    Some(format!(
                        "refers to genart {} which is not in the catalogue",
                        a.genart
                    ))
                } else {
                    None
                }
            }
            Parsed::Translation(t) => named_by(s, t)?,
            Parsed::ArticleText(t) => article(s, &t.article)?,
            Parsed::KeyValue(_) | Parsed::CriterionDefinition(_) => None,
            Parsed::Criterion(c, id) => match article(s, &c.article)? {
                None => match id {
                    Some(id) => numbered_criterion(s, c, *id)?,
                    None => None,
                },
                missing => missing,
            },
            Parsed::CrossReference(c) => match c.manufacturer_id {
                Some(m) if !s.has_manufacturer(m)? => Some(format!(
                    "refers to manufacturer {m} which is not in the catalogue"
                )),
                _ => article(s, &c.article)?,
            },
            Parsed::Link(l) => match article(s, &l.article)? {
                None => vehicle(s, &l.ktype)?,
                missing => missing,
            },
            Parsed::Price(p) => article(s, &p.article)?,
            Parsed::KitComponent(k) => match article(s, &k.kit)? {
                None => match article(s, &k.component)? {
                    None => vehicle(s, &k.ktype)?,
                    missing => missing,
                },
                missing => missing,
            },
            Parsed::Media(m) => article(s, &m.article)?,
            Parsed::Plate(p) => vehicle(s, &p.ktype)?,
            Parsed::Vin(v) => vehicle(s, &v.ktype)?,
        })
    }
}
