//! The records of the vehicle → category path: vehicle types (whose value changed with
//! format 9, and whose version-1 values are still read), model series, the assembly-group
//! tree and the generic articles' places in it.

use super::{Code, Record, VALUE_VERSION, decode, encode, ym, ym_back};
use crate::catalogue::*;
use crate::store::codec;
use crate::store::keys::{KeyBuf, KeyReader};
use crate::store::layout::TreeName;

/// A vehicle's value as format 8 and earlier wrote it (version 1): one engine code, none of
/// the later fields. Read still, so a value the migration has not yet rewritten decodes.
type VehicleValueV1 = (
    String,
    String,
    String,
    String,
    String,
    u16,
    u16,
    u32,
    (u16, u8),
    Option<(u16, u8)>,
);

/// The value format 8 wrote for `v`, if it holds nothing that format could not.
pub fn vehicle_value_v1(v: &Vehicle) -> Option<Vec<u8>> {
    let plain = v.engines.len() <= 1
        && v.model_series.is_none()
        && v.target_type == TargetType::PassengerCar
        && v.body_style.is_empty()
        && v.construction_type.is_empty()
        && v.engine_kind.is_empty()
        && v.kw_to.is_none()
        && v.hp_to.is_none();
    plain.then(|| {
        encode((
            &v.make,
            &v.model,
            &v.type_name,
            v.engines.first().map_or("", String::as_str),
            &v.fuel,
            v.kw,
            v.hp,
            v.ccm,
            ym(v.year_from),
            v.year_to.map(ym),
        ))
    })
}

/// The version of vehicle values since format 9.
const VEHICLE_VERSION: u8 = 2;

type VehicleValue = (
    (String, String, String, Vec<String>, String),
    (u16, u16, u32, (u16, u8), Option<(u16, u8)>),
    (Option<u32>, u8, String, String, String),
    (Option<u16>, Option<u16>),
);

impl Record for Vehicle {
    const TREE: TreeName = TreeName::Vehicles;
    fn key(&self) -> Vec<u8> {
        KeyBuf::new().last_text(&self.ktype).done()
    }
    fn value(&self) -> Vec<u8> {
        let value: VehicleValue = (
            (
                self.make.clone(),
                self.model.clone(),
                self.type_name.clone(),
                self.engines.clone(),
                self.fuel.clone(),
            ),
            (
                self.kw,
                self.hp,
                self.ccm,
                ym(self.year_from),
                self.year_to.map(ym),
            ),
            (
                self.model_series,
                Code::code(self.target_type),
                self.body_style.clone(),
                self.construction_type.clone(),
                self.engine_kind.clone(),
            ),
            (self.kw_to, self.hp_to),
        );
        codec::encode(VEHICLE_VERSION, &value)
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        let ktype = KeyReader::new(key).last_text()?;
        match codec::split(value)? {
            (VEHICLE_VERSION, body) => {
                let (
                    (make, model, type_name, engines, fuel),
                    (kw, hp, ccm, from, to),
                    (model_series, target_type, body_style, construction_type, engine_kind),
                    (kw_to, hp_to),
                ) = codec::body::<VehicleValue>(body)?;
                Some(Vehicle {
                    ktype,
                    make,
                    model,
                    type_name,
                    engines,
                    fuel,
                    kw,
                    hp,
                    ccm,
                    year_from: ym_back(from),
                    year_to: to.map(ym_back),
                    model_series,
                    target_type: Code::from_code(target_type)?,
                    body_style,
                    construction_type,
                    engine_kind,
                    kw_to,
                    hp_to,
                })
            }
            (VALUE_VERSION, body) => {
                let (make, model, type_name, engine, fuel, kw, hp, ccm, from, to) =
                    codec::body::<VehicleValueV1>(body)?;
                Some(Vehicle {
                    ktype,
                    make,
                    model,
                    type_name,
                    engines: if engine.is_empty() {
                        Vec::new()
                    } else {
                        vec![engine]
                    },
                    fuel,
                    kw,
                    hp,
                    ccm,
                    year_from: ym_back(from),
                    year_to: to.map(ym_back),
                    model_series: None,
                    target_type: TargetType::PassengerCar,
                    body_style: String::new(),
                    construction_type: String::new(),
                    engine_kind: String::new(),
                    kw_to: None,
                    hp_to: None,
                })
            }
            _ => None,
        }
    }
}

impl Record for ModelSeries {
    const TREE: TreeName = TreeName::ModelSeries;
    fn key(&self) -> Vec<u8> {
        KeyBuf::new().u32(self.id).done()
    }
    fn value(&self) -> Vec<u8> {
        encode((
            self.manufacturer_id,
            &self.name,
            ym(self.year_from),
            self.year_to.map(ym),
        ))
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        let (manufacturer_id, name, from, to) =
            decode::<(u32, String, (u16, u8), Option<(u16, u8)>)>(value)?;
        Some(ModelSeries {
            id: KeyReader::new(key).u32()?,
            manufacturer_id,
            name,
            year_from: ym_back(from),
            year_to: to.map(ym_back),
        })
    }
}

impl Record for AssemblyGroup {
    const TREE: TreeName = TreeName::AssemblyGroups;
    fn key(&self) -> Vec<u8> {
        KeyBuf::new().u32(self.id).done()
    }
    fn value(&self) -> Vec<u8> {
        encode((
            self.parent,
            Code::code(self.target_type),
            &self.name,
            self.sort,
        ))
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        let (parent, target_type, name, sort) = decode::<(Option<u32>, u8, String, u32)>(value)?;
        Some(AssemblyGroup {
            id: KeyReader::new(key).u32()?,
            parent,
            target_type: Code::from_code(target_type)?,
            name,
            sort,
        })
    }
}

impl Record for GenartGroup {
    const TREE: TreeName = TreeName::GenartGroups;
    fn key(&self) -> Vec<u8> {
        KeyBuf::new().u32(self.genart).u32(self.node).done()
    }
    fn value(&self) -> Vec<u8> {
        encode(())
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        decode::<()>(value)?;
        let mut key = KeyReader::new(key);
        let genart = key.u32()?;
        let node = key.u32()?;
        Some(GenartGroup { genart, node })
    }
}
