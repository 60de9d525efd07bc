//! Prices of a vehicle type's articles and kits, answered as their `/svc` routes answer them.

use serde_json::Value;

pub mod messages;

use crate::server::answers::prices;
use crate::server::soap::call::{Call, Failure, answer};
use crate::service::vehicles::vehicle_articles::{Paging, Selection};
use messages::*;

pub fn get_prices_by_ktype(call: &Call<'_>, r: GetPricesByKtypeRequest) -> Result<Value, Failure> {
    answer(&prices::ktype_prices_whole(
        call.context,
        &r.linkage_target_id,
        &Selection::default(),
        &Paging::All,
    )?)
}

pub fn get_kit_price(call: &Call<'_>, r: GetKitPriceRequest) -> Result<Value, Failure> {
    answer(&prices::genart_prices_built(
        call.context,
        r.generic_article_id,
        r.is_kit,
        &r.linkage_target_id,
    )?)
}

pub fn get_exhaust_kit_price(
    call: &Call<'_>,
    r: GetExhaustKitPriceRequest,
) -> Result<Value, Failure> {
    answer(&prices::exhaust_kit_built(
        call.context,
        &r.linkage_target_id,
    )?)
}
