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
use crate::service::names::NamedArticle;

/// The rows of one article × vehicle each, from one buffer row per export refilled with
/// `clone_from` so its strings keep their allocations: the scan allocates per article, not
/// per row.
pub(super) fn flat_catalogue(brand: &model::Brand) -> WriteItem<NamedArticle, FlatCatalogueRow> {
    let mut vehicles = Vehicles::<Vehicle>::default();
    let mut row = FlatCatalogueRow {
        brand_id: brand.id,
        brand_name: brand.name.clone(),
        ..Default::default()
    };
    Box::new(
        move |context: &Context, named: NamedArticle, w: &mut RowWriter<_>| {
            let article = &named.article;
            row.reference.clone_from(&article.reference);
            row.genart = article.genart;
            row.genart_name.clone_from(&named.genart_name);
            row.description.clone_from(&article.description);
            row.status.clear();
            row.status.push_str(status_name(article.status.into()));
            row.ean.clear();
            row.ean
                .push_str(article.eans.first().map_or("", String::as_str));
            let links = exports::applications(context, article)?;
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
    )
}

/// The Golda rows of one article: one per vehicle application.
pub(super) fn golda(brand: &model::Brand) -> WriteItem<NamedArticle, GoldaRow> {
    let mut vehicles = Vehicles::<Vehicle>::default();
    let day = Date::today();
    let mut row = GoldaRow {
        brand_id: brand.id,
        brand_name: brand.name.clone(),
        ..Default::default()
    };
    Box::new(
        move |context: &Context, named: NamedArticle, w: &mut RowWriter<_>| {
            let article = &named.article;
            let price = exports::list_price(context.snapshot(), article, day)?;
            row.reference.clone_from(&article.reference);
            row.genart = article.genart;
            row.genart_name.clone_from(&named.genart_name);
            row.ean.clear();
            row.ean
                .push_str(article.eans.first().map_or("", String::as_str));
            row.price = price
                .as_ref()
                .map(|p| p.amount.to_string())
                .unwrap_or_default();
            row.currency = price.map(|p| p.currency).unwrap_or_default();
            let links = exports::applications(context, article)?;
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
    )
}

/// The row of one competitor number, where its article is shown.
pub(super) fn competitor_references(
    maker: model::Manufacturer,
    shown: Shown,
) -> impl FnMut(&Context, CrossHit, &mut RowWriter<CompetitorReferenceRow>) -> Result<(), ServiceError>
+ Send
+ 'static {
    move |context, hit, w| {
        let Some(named) = exports::matched_article(context, &hit, &shown)? else {
            return Ok(());
        };
        let article = named.article;
        w.row(&CompetitorReferenceRow {
            manufacturer_id: maker.id,
            manufacturer_name: maker.name.clone(),
            competitor_number: hit.number,
            brand_id: article.key.brand_id,
            brand_name: named.brand_name,
            reference: article.reference,
            genart: article.genart,
            genart_name: named.genart_name,
            description: article.description,
        })
    }
}

/// The media manifest row of one article; none for an article without media.
pub(super) fn dmm(
    context: &Context,
    brand: &model::Brand,
    named: NamedArticle,
    w: &mut RowWriter<DmmArticle>,
) -> Result<(), ServiceError> {
    let article = named.article;
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
        genart_name: named.genart_name,
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
