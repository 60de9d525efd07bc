//! Every vehicle type's place on the vehicle path (make, model series, kind, type name),
//! read once per generation of the vehicles table and shared with the next generation while
//! that table stays the same: a make's or a model series' types and their counts are found
//! from it without decoding every vehicle on each request.

use std::collections::HashMap;
use std::sync::Arc;

use super::Catalogue;
use crate::catalogue::TargetType;
use crate::store::error::StoreError;
use crate::store::indexes::DataTrees;
use crate::store::layout::TreeName;

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

/// Every vehicle type, in Ktype order, and where to find those of a model series or, without
/// one, of a make.
#[derive(Debug, Default)]
pub struct VehicleSummary {
    pub entries: Vec<VehicleEntry>,
    /// Places in `entries`, by model series.
    pub by_series: HashMap<u32, Vec<usize>>,
    /// Places in `entries` of the types without a model series, by make in upper case.
    pub by_make: HashMap<String, Vec<usize>>,
}

impl Catalogue {
    /// The vehicle types' summary, read on first use in this generation.
    pub fn vehicle_summary(&self) -> Result<Arc<VehicleSummary>, StoreError> {
        // An answer read from the summary is an answer read from the vehicles table: the
        // answer cache must see that read whether or not this call decodes a row.
        self.tree(TreeName::Vehicles);
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
        let mut by_series: HashMap<u32, Vec<usize>> = HashMap::new();
        let mut by_make: HashMap<String, Vec<usize>> = HashMap::new();
        for (place, v) in entries.iter().enumerate() {
            match v.model_series {
                Some(series) => by_series.entry(series).or_default().push(place),
                None => by_make
                    .entry(v.make.to_uppercase())
                    .or_default()
                    .push(place),
            }
        }
        let summary = Arc::new(VehicleSummary {
            entries,
            by_series,
            by_make,
        });
        Ok(self.vehicle_summary.get_or_init(|| summary).clone())
    }
}
