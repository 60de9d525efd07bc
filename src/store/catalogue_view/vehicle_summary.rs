//! Every vehicle type's place on the vehicle path (make, model series, kind, type name),
//! read once per generation of the vehicles table and shared with the next generation while
//! that table stays the same: a make's or a model series' types and their counts are found
//! from it without decoding every vehicle on each request.

use std::sync::Arc;

use super::Catalogue;
use crate::catalogue::TargetType;
use crate::store::error::StoreError;

/// One vehicle type, as the vehicle path narrows and orders it.
#[derive(Debug, Clone)]
pub struct VehicleEntry {
    pub ktype: String,
    /// The make as the vehicle row writes it.
    pub make: String,
    pub model_series: Option<u32>,
    pub target_type: TargetType,
    pub type_name: String,
}

/// Every vehicle type, in Ktype order.
#[derive(Debug, Default)]
pub struct VehicleSummary {
    pub entries: Vec<VehicleEntry>,
}

impl Catalogue {
    /// The vehicle types' summary, read on first use in this generation.
    pub fn vehicle_summary(&self) -> Result<Arc<VehicleSummary>, StoreError> {
        if let Some(summary) = self.vehicle_summary.get() {
            return Ok(summary.clone());
        }
        let mut entries = Vec::new();
        for v in self.vehicles() {
            let v = v?;
            entries.push(VehicleEntry {
                ktype: v.ktype,
                make: v.make,
                model_series: v.model_series,
                target_type: v.target_type,
                type_name: v.type_name,
            });
        }
        let summary = Arc::new(VehicleSummary { entries });
        Ok(self.vehicle_summary.get_or_init(|| summary).clone())
    }
}
