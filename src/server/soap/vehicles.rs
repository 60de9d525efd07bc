//! Vehicles as the operations answer them: a linkage target, and the vehicles an article
//! fits.

use super::call::Failure;
use super::messages::{ArticleLinkage, LinkageTarget};

/// A vehicle type as a linkage target.
pub fn linkage_target(v: &crate::catalogue::Vehicle) -> LinkageTarget {
    LinkageTarget {
        linkage_target_id: v.ktype.clone(),
        mfr_name: v.make.clone(),
        model: v.model.clone(),
        type_name: v.type_name.clone(),
        engine: v.engine.clone(),
        fuel: v.fuel.clone(),
        kw: v.kw.into(),
        hp: v.hp.into(),
        ccm: v.ccm,
        year_from: v.year_from.to_string(),
        year_to: v.year_to.map(|y| y.to_string()),
    }
}

/// The vehicles an article fits, with how it fits each.
pub fn linkages_of(
    catalogue: &crate::store::Catalogue,
    key: &crate::catalogue::ArticleKey,
) -> Result<Vec<ArticleLinkage>, Failure> {
    Ok(crate::service::lookups::applications(catalogue, key)?
        .into_iter()
        .map(|(link, v)| ArticleLinkage {
            linkage_target: linkage_target(&v),
            position: link.position,
            quantity: link.quantity,
            notes: link.notes,
        })
        .collect())
}
