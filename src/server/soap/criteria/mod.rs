//! The criteria's reference lists: `getCriteria2` (every numbered criterion) and
//! `getKeyValues` (a key table's keys).

use serde_json::Value;

pub mod messages;

use crate::server::soap::call::{Call, Failure, answer};
use crate::service::field::Field;
use crate::service::reference_lists::criteria;
use messages::*;

pub fn get_criteria2(call: &Call<'_>, _: GetCriteria2Request) -> Result<Value, Failure> {
    let records = criteria::criteria(call.context)?
        .into_iter()
        .map(|c| Criteria2Record {
            criteria_id: c.id.into(),
            criteria_name: c.name,
            criteria_short_name: c.short_name,
            criteria_type: c.kind.map(|k| k.letter().into()),
            criteria_unit: c.unit,
            is_interval: c.interval,
            successor_id: c.successor.map(i64::from),
        })
        .collect();
    answer(&Criteria2List::of(records))
}

pub fn get_key_values(call: &Call<'_>, r: GetKeyValuesRequest) -> Result<Value, Failure> {
    let table = Field::new("keyTableId", r.key_table_id);
    let table_id = r.key_table_id.unwrap_or(0);
    let records = criteria::key_values(call.context, table)?
        .into_iter()
        .map(|(key_id, key_value)| KeyValuesRecord {
            key_id,
            key_table_id: table_id,
            key_value,
        })
        .collect();
    answer(&KeyValuesList::of(records))
}
