//! Prices of a vehicle type's articles and kits, answered as their `/svc` routes answer them.

use super::{Operation, cached, operation};
use crate::server::answers::prices;
use crate::server::soap::messages::*;
use crate::service::vehicle_articles::{Paging, Selection};

pub(super) fn operations() -> Vec<Operation> {
    vec![
        operation::<GetPricesByKtypeRequest, prices::KtypePrices>(
            "getPricesByKtype",
            "The prices of the articles linked to a vehicle type.",
            |call, r| {
                cached(prices::ktype_prices_built(
                    call.state,
                    call.context,
                    &r.linkage_target_id,
                    &Selection::default(),
                    &Paging::All,
                )?)
            },
        ),
        operation::<GetKitPriceRequest, prices::GenartPrices>(
            "getKitPrice",
            "Single-article (isKit false) or kit (isKit true) prices of a generic article for a vehicle type; a kit's price is its own list price, else the sum of its components'.",
            |call, r| {
                cached(prices::genart_prices(
                    call.state,
                    call.context,
                    r.generic_article_id,
                    r.is_kit,
                    &r.linkage_target_id,
                )?)
            },
        ),
        operation::<GetExhaustKitPriceRequest, prices::ExhaustKit>(
            "getExhaustKitPrice",
            "The exhaust kit price of a vehicle type: its exhaust kits, else the cheapest fitting part of each exhaust generic article.",
            |call, r| {
                cached(prices::exhaust_kit(
                    call.state,
                    call.context,
                    &r.linkage_target_id,
                )?)
            },
        ),
    ]
}
