//! The vehicle path for people and shops: the makes, a make's model series, a series' vehicle
//! types, and a vehicle type's assembly groups with the count of its parts under each; the
//! parts of one group are `getArticlesByKtype?assembly_group=`. Each route is one call of
//! `service::vehicles::vehicle_path` or `service::vehicles::linkage_targets`.

use crate::server::svc::reader_context::ReaderContext;

use poem_openapi::param::{Path, Query};
use poem_openapi::{Enum, Object, OpenApi};
use serde::Serialize;

use super::ApiTag;
use crate::catalogue::{ModelSeries, TargetType};
use crate::server::answers::records::Vehicle;
use crate::server::auth::Credentials;
use crate::server::json_body::JsonBody;
use crate::server::problem::{ApiError, Lookup};
use crate::service::field::Field;
use crate::service::vehicles::linkage_targets::{MAX_PER_PAGE, types_of_series};
use crate::service::vehicles::vehicle_path::{self, SeriesCount, Targets};

type Answer<T> = Result<JsonBody<T>, ApiError<Lookup>>;

/// A kind of vehicle type, by TecDoc's linkage-target codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename = "LinkageTargetType")]
pub enum Kind {
    /// Passenger car.
    P,
    /// Light commercial vehicle.
    L,
    /// Motorcycle.
    B,
    /// Commercial vehicle.
    C,
    /// Tractor.
    T,
    /// Engine.
    M,
    /// Axle.
    A,
    /// Body type.
    K,
    /// P and L.
    V,
    /// C and T.
    O,
}

/// The kinds a route's `linkage_target_type` names (partscat's own letters, as the document
/// defines them); none: every kind.
fn kinds(kind: Option<Kind>) -> Targets<'static> {
    use TargetType::*;
    Some(match kind? {
        Kind::P => &[PassengerCar],
        Kind::L => &[LightCommercial],
        Kind::B => &[Motorcycle],
        Kind::C => &[Commercial],
        Kind::T => &[Tractor],
        Kind::M => &[Engine],
        Kind::A => &[Axle],
        Kind::K => &[BodyType],
        Kind::V => &[PassengerCar, LightCommercial],
        Kind::O => &[Commercial, Tractor],
    })
}

/// A vehicle maker with vehicle types.
#[derive(Debug, Object, Serialize)]
#[oai(rename = "VehicleMake", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct VehicleMake {
    /// The maker's id (`getModelSeries/{mfrId}`).
    pub mfr_id: u32,
    pub name: String,
    /// The kinds of its vehicle types (`P`, `L`, `B`, `C`, `T`, `M`, `A`, `K`), one letter
    /// each.
    pub linkage_target_types: String,
    /// How many of its vehicle types are of the kind asked for.
    pub vehicle_types: u32,
}

/// The makes.
#[derive(Debug, Object, Serialize)]
#[oai(rename = "VehicleMakes", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct VehicleMakes {
    /// By id.
    pub makes: Vec<VehicleMake>,
}

/// A model series.
#[derive(Debug, Object, Serialize)]
#[oai(rename = "ModelSeriesEntry", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ModelSeriesEntry {
    /// Its id (`getVehicleTypes/{modelSeriesId}`).
    pub id: u32,
    pub name: String,
    /// `YYYY` or `YYYY-MM`.
    pub year_from: String,
    /// `YYYY` or `YYYY-MM`; absent while it is built.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year_to: Option<String>,
    /// How many of its vehicle types are of the kind asked for.
    pub vehicle_types: u32,
}

fn series_entry(s: ModelSeries, vehicle_types: usize) -> ModelSeriesEntry {
    ModelSeriesEntry {
        id: s.id,
        name: s.name,
        year_from: s.year_from.to_string(),
        year_to: s.year_to.map(|y| y.to_string()),
        vehicle_types: u32::try_from(vehicle_types).unwrap_or(u32::MAX),
    }
}

/// A make's model series.
#[derive(Debug, Object, Serialize)]
#[oai(rename = "MakeModelSeries", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct MakeModelSeries {
    pub mfr_id: u32,
    /// By name.
    pub model_series: Vec<ModelSeriesEntry>,
}

/// A page of a model series' vehicle types.
#[derive(Debug, Object, Serialize)]
#[oai(rename = "SeriesVehicleTypes", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct SeriesVehicleTypes {
    /// The series, with how many vehicle types of the kind asked for it has.
    pub model_series: ModelSeriesEntry,
    pub page: u32,
    pub per_page: u32,
    /// This page's types, by type name and Ktype.
    pub vehicle_types: Vec<Vehicle>,
}

/// An assembly group (a category) of a vehicle type's tree.
#[derive(Debug, Object, Serialize)]
#[oai(rename = "AssemblyGroupCount", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct AssemblyGroupCount {
    /// Its id (`getArticlesByKtype?assembly_group=`).
    pub id: u32,
    /// Absent for a root.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<u32>,
    pub name: String,
    /// The parts the caller may see that fit the vehicle, at or below it.
    pub articles: u32,
    /// Whether a group below it is in the answer.
    pub has_children: bool,
}

/// A vehicle type's assembly groups.
#[derive(Debug, Object, Serialize)]
#[oai(rename = "VehicleAssemblyGroups", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct VehicleAssemblyGroups {
    pub vehicle: Vehicle,
    /// Every group of its tree (or only those with parts), parents before their children,
    /// siblings by their sort order.
    pub assembly_groups: Vec<AssemblyGroupCount>,
}

pub struct VehiclePathApi;

// Each operation parameter is a function argument in poem-openapi.
#[allow(clippy::too_many_arguments)]
#[OpenApi(tag = "ApiTag::Vehicles")]
impl VehiclePathApi {
    /// The vehicle makes.
    ///
    /// The vehicle makers with vehicle types of `linkage_target_type`, with how many each has.
    #[oai(
        path = "/svc/getVehicleMakes",
        method = "get",
        operation_id = "getVehicleMakes"
    )]
    async fn get_vehicle_makes(
        &self,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        /// Only vehicle types of this kind: `P` passenger car, `L` light commercial, `B`
        /// motorcycle, `C` commercial vehicle, `T` tractor, `M` engine, `A` axle, `K` body
        /// type; `V` is P and L, `O` is C and T. Default: every kind.
        linkage_target_type: Query<Option<Kind>>,
        _credentials: Credentials,
        /// The answer's language, in any case: one the catalogue holds (`getLanguages`), else its
        /// first (named by `Content-Language`); without it, `Accept-Language`'s, else its first.
        #[oai(name = "lang")]
        context: ReaderContext,
    ) -> Answer<VehicleMakes> {
        let kinds = kinds(linkage_target_type.0);
        let makes = vehicle_path::makes(context.snapshot(), kinds)?
            .into_iter()
            .map(|m| VehicleMake {
                mfr_id: m.maker.id,
                name: m.maker.name,
                linkage_target_types: m.target_types.iter().map(|t| t.code()).collect(),
                vehicle_types: u32::try_from(m.vehicle_types).unwrap_or(u32::MAX),
            })
            .collect();
        Ok(JsonBody(VehicleMakes { makes }))
    }

    /// A make's model series.
    ///
    /// The model series of a vehicle maker with vehicle types of `linkage_target_type`, by
    /// name. An unknown maker is 404.
    #[oai(
        path = "/svc/getModelSeries/:mfr_id",
        method = "get",
        operation_id = "getModelSeries"
    )]
    async fn get_model_series(
        &self,
        /// The vehicle maker (`mfrId` of `getVehicleMakes`).
        #[oai(
            example = "crate::server::svc::parameter_examples::vehicle_maker",
            validator(minimum(value = "1"), maximum(value = "4294967295"))
        )]
        mfr_id: Path<u32>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        /// Only vehicle types of this kind (as `getVehicleMakes`).
        linkage_target_type: Query<Option<Kind>>,
        _credentials: Credentials,
        /// The answer's language, in any case: one the catalogue holds (`getLanguages`), else its
        /// first (named by `Content-Language`); without it, `Accept-Language`'s, else its first.
        #[oai(name = "lang")]
        context: ReaderContext,
    ) -> Answer<MakeModelSeries> {
        let kinds = kinds(linkage_target_type.0);
        let found = vehicle_path::maker_series(&context, mfr_id.0, kinds)?;
        Ok(JsonBody(MakeModelSeries {
            mfr_id: mfr_id.0,
            model_series: found
                .into_iter()
                .map(
                    |SeriesCount {
                         series,
                         vehicle_types,
                     }| series_entry(series, vehicle_types),
                )
                .collect(),
        }))
    }

    /// A model series' vehicle types, a page at a time.
    ///
    /// An unknown model series is 404; `page` beyond the last answers an empty page.
    #[oai(
        path = "/svc/getVehicleTypes/:model_series_id",
        method = "get",
        operation_id = "getVehicleTypes"
    )]
    async fn get_vehicle_types(
        &self,
        /// The model series (`id` of `getModelSeries`).
        #[oai(
            example = "crate::server::svc::parameter_examples::model_series",
            validator(minimum(value = "1"), maximum(value = "4294967295"))
        )]
        model_series_id: Path<u32>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        /// Only vehicle types of this kind (as `getVehicleMakes`).
        linkage_target_type: Query<Option<Kind>>,
        /// The page, from 1 (default 1).
        #[oai(validator(minimum(value = "1"), maximum(value = "100000")))]
        page: Query<Option<u32>>,
        /// Vehicle types a page (1 to 100, default 100).
        #[oai(validator(minimum(value = "1"), maximum(value = "100")))]
        per_page: Query<Option<u32>>,
        _credentials: Credentials,
        /// The answer's language, in any case: one the catalogue holds (`getLanguages`), else its
        /// first (named by `Content-Language`); without it, `Accept-Language`'s, else its first.
        #[oai(name = "lang")]
        context: ReaderContext,
    ) -> Answer<SeriesVehicleTypes> {
        let kinds = kinds(linkage_target_type.0);
        let page = page.0.unwrap_or(1);
        let per_page = per_page.0.unwrap_or(MAX_PER_PAGE as u32);
        let (series, found) = types_of_series(
            &context,
            model_series_id.0,
            kinds,
            Field::new("page", page as usize),
            Field::new("per_page", per_page as usize),
        )?;
        Ok(JsonBody(SeriesVehicleTypes {
            model_series: series_entry(series, found.total),
            page,
            per_page,
            vehicle_types: found
                .rows
                .iter()
                .map(|r| Vehicle::from(&r.vehicle))
                .collect(),
        }))
    }

    /// A vehicle type's assembly groups, with the count of its parts under each.
    ///
    /// The categories of the vehicle's tree (brake system → disc brake → brake pads), each
    /// with the parts the caller may see that fit the vehicle at or below it. With `linked`
    /// (default true) only the groups with parts. An unknown Ktype is 404. A group's parts:
    /// `getArticlesByKtype/{ktype}?assembly_group={id}`.
    #[oai(
        path = "/svc/getAssemblyGroups/:ktype",
        method = "get",
        operation_id = "getAssemblyGroups"
    )]
    async fn get_assembly_groups(
        &self,
        /// The vehicle type (Ktype).
        #[oai(
            example = "crate::server::svc::parameter_examples::ktype",
            validator(min_length = 1, max_length = 40)
        )]
        ktype: Path<String>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        /// false: every group of the tree, with or without parts (default true).
        linked: Query<Option<bool>>,
        _credentials: Credentials,
        /// The answer's language, in any case: one the catalogue holds (`getLanguages`), else its
        /// first (named by `Content-Language`); without it, `Accept-Language`'s, else its first.
        #[oai(name = "lang")]
        context: ReaderContext,
    ) -> Answer<VehicleAssemblyGroups> {
        let linked = linked.0.unwrap_or(true);
        let (vehicle, groups) = vehicle_path::vehicle_tree(&context, &ktype, linked)?;
        Ok(JsonBody(VehicleAssemblyGroups {
            vehicle: Vehicle::from(&vehicle),
            assembly_groups: groups
                .into_iter()
                .map(|g| AssemblyGroupCount {
                    id: g.group.id,
                    parent_id: g.group.parent,
                    name: g.group.name,
                    articles: u32::try_from(g.articles).unwrap_or(u32::MAX),
                    has_children: g.has_children,
                })
                .collect(),
        }))
    }
}
