//! How each export writes an item of its scan as rows: an article's flat rows (one per
//! vehicle), its Golda and DMM rows, a competitor number's row.

use super::export_rows::*;
use crate::catalogue::CrossHit;
use crate::catalogue::{self as model, Date};
use crate::server::answers::records::Vehicle;
use crate::server::streaming::{RowWriter, WriteItem};
use crate::service::ServiceError;
use crate::service::context::Context;
use crate::service::exports::{self, Shown, Vehicles};

/// The rows of one article × vehicle each, from one buffer row per export refilled with
/// `clone_from` so its strings keep their allocations: the scan allocates per article, not
/// per row.
pub(super) fn flat_catalogue(
    context: &Context,
    brand_id: u32,
) -> Result<WriteItem<model::Article, FlatCatalogueRow>, ServiceError> {
    let mut vehicles = Vehicles::<Vehicle>::default();
    let mut row = FlatCatalogueRow {
        brand_id,
        brand_name: context.names().brand(brand_id)?,
        ..Default::default()
    };
    Ok(Box::new(
        move |context: &Context, article: model::Article, w: &mut RowWriter<_>| {
            let names = context.names();
            row.reference.clone_from(&article.reference);
            row.genart = article.genart;
            row.genart_name.clear();
            row.genart_name.push_str(names.genart_name(article.genart)?);
            row.description.clone_from(&article.description);
            row.status.clear();
            row.status.push_str(status_name(article.status.into()));
            row.ean.clear();
            row.ean
                .push_str(article.eans.first().map_or("", String::as_str));
            let links = exports::applications(context, &article)?;
            if links.is_empty() {
                row.clear_vehicle();
                w.row(&row)?;
            }
            for link in links {
                match vehicles.get(context, &link.ktype)? {
                    Some(v) => row.set_vehicle(v),
                    None => {
                        row.clear_vehicle();
                        row.ktype = link.ktype;
                    }
                }
                row.position = link.position;
                row.quantity = Some(link.quantity);
                w.row(&row)?;
            }
            Ok(())
        },
    ))
}

/// The Golda rows of one article: one per vehicle application.
pub(super) fn golda(
    context: &Context,
    brand_id: u32,
) -> Result<WriteItem<model::Article, GoldaRow>, ServiceError> {
    let mut vehicles = Vehicles::<Vehicle>::default();
    let day = Date::today();
    let mut row = GoldaRow {
        brand_id,
        brand_name: context.names().brand(brand_id)?,
        ..Default::default()
    };
    Ok(Box::new(
        move |context: &Context, article: model::Article, w: &mut RowWriter<_>| {
            let (snapshot, names) = (context.snapshot(), context.names());
            let price = exports::list_price(snapshot, &article, day)?;
            row.reference.clone_from(&article.reference);
            row.genart = article.genart;
            row.genart_name.clear();
            row.genart_name.push_str(names.genart_name(article.genart)?);
            row.ean.clear();
            row.ean
                .push_str(article.eans.first().map_or("", String::as_str));
            row.price = price
                .as_ref()
                .map(|p| p.amount.to_string())
                .unwrap_or_default();
            row.currency = price.map(|p| p.currency).unwrap_or_default();
            let links = exports::applications(context, &article)?;
            if links.is_empty() {
                row.set_vehicle(None, "");
                w.row(&row)?;
            }
            for link in links {
                row.set_vehicle(vehicles.get(context, &link.ktype)?, &link.ktype);
                w.row(&row)?;
            }
            Ok(())
        },
    ))
}

/// The row of one competitor number, where its article is shown.
pub(super) fn competitor_references(
    maker: model::Manufacturer,
    shown: Shown,
) -> impl FnMut(&Context, CrossHit, &mut RowWriter<CompetitorReferenceRow>) -> Result<(), ServiceError>
+ Send
+ 'static {
    move |context, hit, w| {
        let Some(article) = exports::matched_article(context, &hit, &shown)? else {
            return Ok(());
        };
        let names = context.names();
        w.row(&CompetitorReferenceRow {
            manufacturer_id: maker.id,
            manufacturer_name: maker.name.clone(),
            competitor_number: hit.number,
            brand_id: article.key.brand_id,
            brand_name: names.brand(article.key.brand_id)?,
            reference: article.reference.clone(),
            genart: article.genart,
            genart_name: names.genart(article.genart)?,
            description: article.description,
        })
    }
}

/// The media manifest row of one article; none for an article without media.
pub(super) fn dmm(
    context: &Context,
    brand: &model::Brand,
    article: model::Article,
    w: &mut RowWriter<DmmArticle>,
) -> Result<(), ServiceError> {
    let Some(manifest) = exports::media_manifest(context, &article)? else {
        return Ok(());
    };
    let files = |media: Vec<model::Media>| {
        media
            .into_iter()
            .map(|m| DmmFile {
                position: m.position,
                uri: m.uri,
                description: m.description,
            })
            .collect()
    };
    w.row(&DmmArticle {
        brand_id: brand.id,
        brand_name: brand.name.clone(),
        reference: article.reference,
        genart: article.genart,
        genart_name: context.names().genart(article.genart)?,
        images: files(manifest.images),
        documents: files(manifest.documents),
        spin_sets: manifest
            .spin_sets
            .into_iter()
            .map(|(set, frames)| DmmSpinSet {
                set,
                frames: frames.into_iter().map(|f| f.uri).collect(),
            })
            .collect(),
    })
}
