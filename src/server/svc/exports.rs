//! The export routes: per brand (`exportCatalogue`, `exportGolda`, `exportAtc`, `DMM`) or per
//! competitor manufacturer (`exportRefConcurrente`, `exportRefConcurrenteInterne`). Each
//! streams; see `streaming` for how memory stays flat.

use std::sync::Arc;

use poem::Request;
use poem::web::Data;
use poem_openapi::OpenApi;
use poem_openapi::param::Query;

use super::ApiTag;
use super::export_format::{csv_style, format_of, negotiated};
use super::export_rows::*;
use super::export_writers::{competitor_references, dmm, flat_catalogue, golda};
use crate::server::AppState;
use crate::server::answers::records::ARTICLE_PARTS;
use crate::server::auth::Credentials;
use crate::server::problem::{ApiError, Lookup};
use crate::server::streaming::{ExportResponse, stream};
use crate::server::svc::reader_context::ReaderContext;
use crate::service::exports::{self, Shown, known_brand, known_competitor};
use crate::service::names::NamedArticle;

type Export<J> = Result<ExportResponse<J>, ApiError<Lookup>>;

pub struct ExportApi;

// Each operation parameter is a function argument in poem-openapi.
#[allow(clippy::too_many_arguments)]
#[OpenApi(tag = "ApiTag::Exports")]
impl ExportApi {
    /// The catalogue of a brand.
    ///
    /// JSON: one nested object per article (criteria, numbers, prices, media, vehicles).
    /// `is_csv_export=true`: CSV, one row per article. `is_flat_export=true`: one row per
    /// article × vehicle (JSON objects, or CSV with `is_csv_export=true`).
    #[oai(
        path = "/svc/exportCatalogue",
        method = "get",
        operation_id = "exportCatalogue"
    )]
    async fn export_catalogue(
        &self,
        state: Data<&Arc<AppState>>,
        /// The brand to export.
        #[oai(
            example = "crate::server::svc::parameter_examples::brand_id",
            validator(minimum(value = "1"), maximum(value = "4294967295"))
        )]
        brand_id: Query<u32>,
        /// `true`: CSV instead of JSON.
        #[oai(default)]
        is_csv_export: Query<bool>,
        /// `true`: one row per article × vehicle.
        #[oai(default)]
        is_flat_export: Query<bool>,
        /// CSV: `true` starts the file with a UTF-8 byte-order mark, so that spreadsheets
        /// read it as UTF-8 (default: the `csv_bom` setting, `false` unless configured).
        bom: Query<Option<bool>>,
        /// CSV: `true` writes codes and dates a spreadsheet would misread (`0986…`,
        /// 13-digit EANs, `2016-03`) as text formulas, `="2016-03"` (default: the
        /// `csv_spreadsheet` setting, `false` unless configured).
        spreadsheet: Query<Option<bool>>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        _credentials: Credentials,
        /// The answer's language, in any case: one the catalogue holds (`getLanguages`), else its
        /// first (named by `Content-Language`); without it, `Accept-Language`'s, else its first.
        #[oai(name = "lang")]
        context: ReaderContext,
    ) -> Export<CatalogueExportRow> {
        let snapshot = context.snapshot();
        let brand = known_brand(snapshot, brand_id.0)?;
        let format = format_of(is_csv_export.0, csv_style(&state, &bom, &spreadsheet));
        let stem = format!("catalogue-{}", brand.id);
        if is_flat_export.0 {
            let write = flat_catalogue(&brand);
            return Ok(stream(
                format,
                &format!("{stem}-flat"),
                (*context).clone(),
                exports::brand_articles(&context, &brand),
                write,
            ));
        }
        Ok(stream(
            format,
            &stem,
            (*context).clone(),
            exports::brand_article_details(&context, &brand, ARTICLE_PARTS),
            |context, detail, w| {
                let vehicles = exports::applications(context, &detail.article)?
                    .into_iter()
                    .map(|l| Fitment {
                        ktype: l.ktype,
                        position: l.position,
                        quantity: l.quantity,
                        notes: l.notes,
                    })
                    .collect();
                w.row(&CatalogueArticle {
                    article: detail.into(),
                    vehicles,
                })
            },
        ))
    }

    /// The Golda distributor layout of a brand: one row per article × vehicle application.
    ///
    /// Each row holds the article, the vehicle (make, model, years), its first EAN and its
    /// current list price. JSON, or CSV with `is_csv_export=true` (`bom` and `spreadsheet`
    /// for spreadsheets). Streamed: memory stays flat however large the brand.
    #[oai(
        path = "/svc/exportGolda",
        method = "get",
        operation_id = "exportGolda"
    )]
    async fn export_golda(
        &self,
        state: Data<&Arc<AppState>>,
        /// The brand to export.
        #[oai(
            example = "crate::server::svc::parameter_examples::brand_id",
            validator(minimum(value = "1"), maximum(value = "4294967295"))
        )]
        brand_id: Query<u32>,
        /// `true`: CSV instead of JSON.
        #[oai(default)]
        is_csv_export: Query<bool>,
        /// CSV: `true` starts the file with a UTF-8 byte-order mark, so that spreadsheets
        /// read it as UTF-8 (default: the `csv_bom` setting, `false` unless configured).
        bom: Query<Option<bool>>,
        /// CSV: `true` writes codes and dates a spreadsheet would misread (`0986…`,
        /// 13-digit EANs, `2016-03`) as text formulas, `="2016-03"` (default: the
        /// `csv_spreadsheet` setting, `false` unless configured).
        spreadsheet: Query<Option<bool>>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        _credentials: Credentials,
        /// The answer's language, in any case: one the catalogue holds (`getLanguages`), else its
        /// first (named by `Content-Language`); without it, `Accept-Language`'s, else its first.
        #[oai(name = "lang")]
        context: ReaderContext,
    ) -> Export<GoldaRow> {
        let snapshot = context.snapshot();
        let brand = known_brand(snapshot, brand_id.0)?;
        let stem = format!("golda-{}", brand.id);
        let articles = exports::brand_articles(&context, &brand);
        let write = golda(&brand);
        Ok(stream(
            format_of(is_csv_export.0, csv_style(&state, &bom, &spreadsheet)),
            &stem,
            (*context).clone(),
            articles,
            write,
        ))
    }

    /// The technical criteria of a brand's articles: one row per article × criterion.
    ///
    /// Each row holds the article, the criterion's name, its value and its unit. JSON, or CSV
    /// with `is_csv_export=true`. Streamed.
    #[oai(path = "/svc/exportAtc", method = "get", operation_id = "exportAtc")]
    async fn export_atc(
        &self,
        state: Data<&Arc<AppState>>,
        /// The brand to export.
        #[oai(
            example = "crate::server::svc::parameter_examples::brand_id",
            validator(minimum(value = "1"), maximum(value = "4294967295"))
        )]
        brand_id: Query<u32>,
        /// `true`: CSV instead of JSON.
        #[oai(default)]
        is_csv_export: Query<bool>,
        /// CSV: `true` starts the file with a UTF-8 byte-order mark, so that spreadsheets
        /// read it as UTF-8 (default: the `csv_bom` setting, `false` unless configured).
        bom: Query<Option<bool>>,
        /// CSV: `true` writes codes and dates a spreadsheet would misread (`0986…`,
        /// 13-digit EANs, `2016-03`) as text formulas, `="2016-03"` (default: the
        /// `csv_spreadsheet` setting, `false` unless configured).
        spreadsheet: Query<Option<bool>>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        _credentials: Credentials,
        /// The answer's language, in any case: one the catalogue holds (`getLanguages`), else its
        /// first (named by `Content-Language`); without it, `Accept-Language`'s, else its first.
        #[oai(name = "lang")]
        context: ReaderContext,
    ) -> Export<AtcRow> {
        let snapshot = context.snapshot();
        let brand = known_brand(snapshot, brand_id.0)?;
        let stem = format!("atc-{}", brand.id);
        let articles = exports::brand_articles(&context, &brand);
        let format = format_of(is_csv_export.0, csv_style(&state, &bom, &spreadsheet));
        Ok(stream(
            format,
            &stem,
            (*context).clone(),
            articles,
            move |context, named: NamedArticle, w| {
                let article = &named.article;
                for c in exports::criteria(context, article)? {
                    w.row(&AtcRow {
                        brand_id: brand.id,
                        brand_name: brand.name.clone(),
                        reference: article.reference.clone(),
                        genart: article.genart,
                        genart_name: named.genart_name.clone(),
                        criterion: c.name,
                        value: c.value,
                        unit: c.unit,
                    })?;
                }
                Ok(())
            },
        ))
    }

    /// A competitor manufacturer's numbers and the maker's articles they match.
    ///
    /// JSON, or CSV when the client's `Accept` prefers `text/csv`.
    #[oai(
        path = "/svc/exportRefConcurrente",
        method = "get",
        operation_id = "exportRefConcurrente"
    )]
    async fn export_ref_concurrente(
        &self,
        state: Data<&Arc<AppState>>,
        req: &Request,
        /// The competitor (a parts maker).
        #[oai(
            example = "crate::server::svc::parameter_examples::manufacturer_id",
            validator(minimum(value = "1"), maximum(value = "4294967295"))
        )]
        manufacturer_id: Query<u32>,
        /// CSV: `true` starts the file with a UTF-8 byte-order mark, so that spreadsheets
        /// read it as UTF-8 (default: the `csv_bom` setting, `false` unless configured).
        bom: Query<Option<bool>>,
        /// CSV: `true` writes codes and dates a spreadsheet would misread (`0986…`,
        /// 13-digit EANs, `2016-03`) as text formulas, `="2016-03"` (default: the
        /// `csv_spreadsheet` setting, `false` unless configured).
        spreadsheet: Query<Option<bool>>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        _credentials: Credentials,
        /// The answer's language, in any case: one the catalogue holds (`getLanguages`), else its
        /// first (named by `Content-Language`); without it, `Accept-Language`'s, else its first.
        #[oai(name = "lang")]
        context: ReaderContext,
    ) -> Export<CompetitorReferenceRow> {
        let snapshot = context.snapshot();
        let maker = known_competitor(snapshot, manufacturer_id.0)?;
        let stem = format!("competitor-refs-{}", maker.id);
        // A brand-restricted provider gets its brands' rows only.
        let hits = exports::competitor_numbers(snapshot, &maker);
        let write = competitor_references(maker, Shown::VisibleTo(context.caller().clone()));
        Ok(stream(
            negotiated(req, csv_style(&state, &bom, &spreadsheet)),
            &stem,
            (*context).clone(),
            hits,
            write,
        ))
    }

    /// The same as `exportRefConcurrente`, restricted to one of the maker's brands.
    ///
    /// The competitor's numbers that match articles of `brand_id`, one row each. JSON, or
    /// CSV when the client's `Accept` prefers `text/csv`. Streamed.
    #[oai(
        path = "/svc/exportRefConcurrenteInterne",
        method = "get",
        operation_id = "exportRefConcurrenteInterne"
    )]
    async fn export_ref_concurrente_interne(
        &self,
        state: Data<&Arc<AppState>>,
        req: &Request,
        /// The competitor (a parts maker).
        #[oai(
            example = "crate::server::svc::parameter_examples::manufacturer_id",
            validator(minimum(value = "1"), maximum(value = "4294967295"))
        )]
        manufacturer_id: Query<u32>,
        /// The maker's brand the rows are restricted to.
        #[oai(
            example = "crate::server::svc::parameter_examples::brand_id",
            validator(minimum(value = "1"), maximum(value = "4294967295"))
        )]
        brand_id: Query<u32>,
        /// CSV: `true` starts the file with a UTF-8 byte-order mark, so that spreadsheets
        /// read it as UTF-8 (default: the `csv_bom` setting, `false` unless configured).
        bom: Query<Option<bool>>,
        /// CSV: `true` writes codes and dates a spreadsheet would misread (`0986…`,
        /// 13-digit EANs, `2016-03`) as text formulas, `="2016-03"` (default: the
        /// `csv_spreadsheet` setting, `false` unless configured).
        spreadsheet: Query<Option<bool>>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        _credentials: Credentials,
        /// The answer's language, in any case: one the catalogue holds (`getLanguages`), else its
        /// first (named by `Content-Language`); without it, `Accept-Language`'s, else its first.
        #[oai(name = "lang")]
        context: ReaderContext,
    ) -> Export<CompetitorReferenceRow> {
        let snapshot = context.snapshot();
        let maker = known_competitor(snapshot, manufacturer_id.0)?;
        let brand = known_brand(snapshot, brand_id.0)?;
        let stem = format!("competitor-refs-{}-brand-{}", maker.id, brand.id);
        let hits = exports::competitor_numbers(snapshot, &maker);
        let write = competitor_references(maker, Shown::Brand(brand.id));
        Ok(stream(
            negotiated(req, csv_style(&state, &bom, &spreadsheet)),
            &stem,
            (*context).clone(),
            hits,
            write,
        ))
    }

    /// The digital media manifest of a brand: its articles with images, documents and
    /// 360-degree spin sets (frames in order). Articles without media are left out.
    ///
    /// JSON, or CSV when the client's `Accept` prefers `text/csv`.
    #[oai(path = "/svc/DMM", method = "get", operation_id = "DMM")]
    async fn dmm(
        &self,
        state: Data<&Arc<AppState>>,
        req: &Request,
        /// The brand to export.
        #[oai(
            example = "crate::server::svc::parameter_examples::brand_id",
            validator(minimum(value = "1"), maximum(value = "4294967295"))
        )]
        brand_id: Query<u32>,
        /// CSV: `true` starts the file with a UTF-8 byte-order mark, so that spreadsheets
        /// read it as UTF-8 (default: the `csv_bom` setting, `false` unless configured).
        bom: Query<Option<bool>>,
        /// CSV: `true` writes codes and dates a spreadsheet would misread (`0986…`,
        /// 13-digit EANs, `2016-03`) as text formulas, `="2016-03"` (default: the
        /// `csv_spreadsheet` setting, `false` unless configured).
        spreadsheet: Query<Option<bool>>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        _credentials: Credentials,
        /// The answer's language, in any case: one the catalogue holds (`getLanguages`), else its
        /// first (named by `Content-Language`); without it, `Accept-Language`'s, else its first.
        #[oai(name = "lang")]
        context: ReaderContext,
    ) -> Export<DmmArticle> {
        let snapshot = context.snapshot();
        let brand = known_brand(snapshot, brand_id.0)?;
        let stem = format!("dmm-{}", brand.id);
        let articles = exports::brand_articles(&context, &brand);
        Ok(stream(
            negotiated(req, csv_style(&state, &bom, &spreadsheet)),
            &stem,
            (*context).clone(),
            articles,
            move |c, article, w| dmm(c, &brand, article, w),
        ))
    }
}

/// What `exportCatalogue` answers: nested articles, or flat rows with `is_flat_export`.
#[derive(Debug, poem_openapi::Union)]
#[oai(rename = "CatalogueExportRow")]
pub enum CatalogueExportRow {
    Article(CatalogueArticle),
    Flat(FlatCatalogueRow),
}
