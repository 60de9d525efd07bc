//! Prices of a vehicle type's articles and kits, answered as their `/svc` routes answer them.

use super::{Operation, operation};
use crate::server::answers::prices;
use crate::server::soap::call::answer;
use crate::server::soap::messages::*;
use crate::service::vehicle_articles::{Paging, Selection};

pub(super) fn operations() -> Vec<Operation> {
    vec![
        operation::<GetPricesByKtypeRequest, prices::KtypePrices>(
            "getPricesByKtype",
            "The prices of the articles linked to a vehicle type.",
            |call, r| {
                answer(&prices::ktype_prices_whole(
                    call.context,
                    &r.linkage_target_id,
                    &Selection::default(),
                    &Paging::All,
                )?)
            },
        )
        .cached(),
        operation::<GetKitPriceRequest, prices::GenartPrices>(
            "getKitPrice",
            "Single-article (isKit false) or kit (isKit true) prices of a generic article for a vehicle type; a kit's price is its own list price, else the sum of its components'.",
            |call, r| {
                answer(&prices::genart_prices_built(
                    call.context,
                    r.generic_article_id,
                    r.is_kit,
                    &r.linkage_target_id,
                )?)
            },
        )
        .cached(),
        operation::<GetExhaustKitPriceRequest, prices::ExhaustKit>(
            "getExhaustKitPrice",
            "The exhaust kit price of a vehicle type: its exhaust kits, else the cheapest fitting part of each exhaust generic article.",
            |call, r| {
                answer(&prices::exhaust_kit_built(
                    call.context,
                    &call.state.settings.exhaust_genarts,
                    &r.linkage_target_id,
                )?)
            },
        )
        .cached(),
    ]
}
