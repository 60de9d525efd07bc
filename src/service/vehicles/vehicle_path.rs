//! The way shops find parts by vehicle: make → model series → vehicle type → assembly group
//! → the parts that fit. Makes are the vehicle makers with vehicle types (of the target types
//! asked for); a vehicle type's maker is its model series' maker, or, in a catalogue without
//! model series, the vehicle maker of its `make` name. A node's count is the articles the
//! caller may see that fit the vehicle and whose generic article sits at or below the node.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::catalogue::{
    ArticleKey, AssemblyGroup, Manufacturer, ManufacturerKind, ModelSeries, TargetType, Vehicle,
};
use crate::service::ServiceError;
use crate::service::asked::Asked;
use crate::service::caller::Caller;
use crate::service::categories::category_tree::{Nodes, Tree};
use crate::service::context::Context;
use crate::service::field::Field;
use crate::store::Catalogue;

/// A vehicle maker with the target types of its vehicle types, and how many of its types
/// are of the target types asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct Make {
    pub maker: Manufacturer,
    pub target_types: BTreeSet<TargetType>,
    pub vehicle_types: usize,
}

/// A model series and how many of its vehicle types are of the target types asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesCount {
    pub series: ModelSeries,
    pub vehicle_types: usize,
}

/// Which target types a question is about: `None` is every type.
pub type Targets<'t> = Option<&'t [TargetType]>;

fn wanted(targets: Targets<'_>, t: TargetType) -> bool {
    targets.is_none_or(|ts| ts.contains(&t))
}

/// The vehicle makers, by id, and by upper-case name for vehicles without a model series:
/// read once, asked for each vehicle type of an answer.
pub struct Makers {
    by_id: BTreeMap<u32, Manufacturer>,
    by_name: HashMap<String, u32>,
    series: HashMap<u32, ModelSeries>,
}

impl Makers {
    pub fn read(catalogue: &Catalogue) -> Result<Makers, ServiceError> {
        let mut by_id = BTreeMap::new();
        let mut by_name = HashMap::new();
        for m in catalogue.records::<Manufacturer>() {
            let m = m?;
            if m.kind == ManufacturerKind::VehicleMaker {
                by_name.insert(m.name.to_uppercase(), m.id);
                by_id.insert(m.id, m);
            }
        }
        let series = catalogue
            .records::<ModelSeries>()
            .map(|s| s.map(|s| (s.id, s)))
            .collect::<Result<_, _>>()?;
        Ok(Makers {
            by_id,
            by_name,
            series,
        })
    }

    /// The maker of a vehicle type.
    pub fn of(&self, v: &Vehicle) -> Option<u32> {
        self.maker_of(&v.make, v.model_series)
    }

    /// The maker of a vehicle type of `make` and `series`.
    pub fn maker_of(&self, make: &str, series: Option<u32>) -> Option<u32> {
        match series.and_then(|id| self.series.get(&id)) {
            Some(series) => Some(series.manufacturer_id),
            None => self.by_name.get(&make.to_uppercase()).copied(),
        }
    }

    /// A vehicle maker by id.
    pub fn maker(&self, id: u32) -> Option<&Manufacturer> {
        self.by_id.get(&id)
    }

    /// A model series by id.
    /// Every model series, by id.
    pub fn all_series(&self) -> impl Iterator<Item = (&u32, &ModelSeries)> {
        self.series.iter()
    }

    pub fn series(&self, id: u32) -> Option<&ModelSeries> {
        self.series.get(&id)
    }

    /// The model series of a maker, and the make names (upper case) whose types without a
    /// model series are its.
    pub fn parts_of(&self, maker: u32) -> (Vec<u32>, Vec<&str>) {
        let series = self
            .series
            .values()
            .filter(|s| s.manufacturer_id == maker)
            .map(|s| s.id)
            .collect();
        let names = self
            .by_name
            .iter()
            .filter(|(_, id)| **id == maker)
            .map(|(name, _)| name.as_str())
            .collect();
        (series, names)
    }
}

/// The maker (`manuId`) and model series (`modId`) of a vehicle type.
pub fn maker_and_series(
    catalogue: &Catalogue,
    v: &Vehicle,
) -> Result<(Option<u32>, Option<u32>), ServiceError> {
    let makers = Makers::read(catalogue)?;
    Ok((makers.of(v), v.model_series))
}

/// The makers with vehicle types of `targets`, by id.
pub fn makes(catalogue: &Catalogue, targets: Targets<'_>) -> Result<Vec<Make>, ServiceError> {
    let makers = Makers::read(catalogue)?;
    let mut types: BTreeMap<u32, (BTreeSet<TargetType>, usize)> = BTreeMap::new();
    for v in &catalogue.vehicle_summary()?.entries {
        if let Some(maker) = makers.maker_of(&v.make, v.model_series) {
            let (kinds, count) = types.entry(maker).or_default();
            kinds.insert(v.target_type);
            *count += usize::from(wanted(targets, v.target_type));
        }
    }
    Ok(types
        .into_iter()
        .filter(|(_, (_, count))| *count > 0)
        .filter_map(|(id, (target_types, vehicle_types))| {
            Some(Make {
                maker: makers.by_id.get(&id)?.clone(),
                target_types,
                vehicle_types,
            })
        })
        .collect())
}

/// A maker's model series with vehicle types of `targets`, by name then id, with their
/// counts. An unknown maker has none.
pub fn model_series(
    context: &Context,
    maker: u32,
    targets: Targets<'_>,
) -> Result<Vec<SeriesCount>, ServiceError> {
    let catalogue = context.snapshot();
    let names = context.names();
    let makers = Makers::read(catalogue)?;
    let mut counts: HashMap<u32, usize> = HashMap::new();
    for v in &catalogue.vehicle_summary()?.entries {
        if wanted(targets, v.target_type)
            && let Some(series) = v.model_series
        {
            *counts.entry(series).or_default() += 1;
        }
    }
    let mut found: Vec<SeriesCount> = makers
        .series
        .into_values()
        .filter(|s| s.manufacturer_id == maker)
        .filter_map(|series| {
            let vehicle_types = *counts.get(&series.id)?;
            let name = names.model_series(series.id, &series.name);
            Some(name.map(|name| SeriesCount {
                series: ModelSeries { name, ..series },
                vehicle_types,
            }))
        })
        .collect::<Result<_, _>>()?;
    found.sort_by(|a, b| (&a.series.name, a.series.id).cmp(&(&b.series.name, b.series.id)));
    Ok(found)
}

/// The makers with vehicle types of `targets`, as `makes` finds them, for a request that
/// says where its answer is for.
pub fn vehicle_makes(
    context: &Context,
    asked: &Asked<'_>,
    targets: Targets<'_>,
) -> Result<Vec<Make>, ServiceError> {
    asked.check()?;
    makes(context.snapshot(), targets)
}

/// The model series of the `maker` a request names (required), as `model_series` finds
/// them.
pub fn series_of_maker(
    context: &Context,
    asked: &Asked<'_>,
    maker: Field<Option<i64>>,
    targets: Targets<'_>,
) -> Result<Vec<SeriesCount>, ServiceError> {
    asked.check()?;
    model_series(context, maker.required()?.id()?, targets)
}

/// A vehicle maker's model series as `model_series` finds them; an unknown maker is not
/// found.
pub fn maker_series(
    context: &Context,
    maker: u32,
    targets: Targets<'_>,
) -> Result<Vec<SeriesCount>, ServiceError> {
    if Makers::read(context.snapshot())?.maker(maker).is_none() {
        return Err(ServiceError::NotFound(format!(
            "no vehicle maker has id {maker}"
        )));
    }
    model_series(context, maker, targets)
}

/// One node of a vehicle's tree, with the articles found at or below it.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupCount {
    pub group: AssemblyGroup,
    pub articles: usize,
    /// Whether a node below it has articles for the vehicle (or, without a vehicle, any
    /// node below it at all).
    pub has_children: bool,
}

/// The articles the caller may see of each generic article, fitting `ktype`.
fn fitting_by_genart(
    catalogue: &Catalogue,
    caller: &Caller,
    ktype: &str,
    genarts: impl IntoIterator<Item = u32>,
) -> Result<BTreeMap<u32, Vec<ArticleKey>>, ServiceError> {
    let mut found = BTreeMap::new();
    for genart in genarts {
        let keys = caller.visible(catalogue.articles_by_genart_ktype(genart, ktype)?);
        if !keys.is_empty() {
            found.insert(genart, keys);
        }
    }
    Ok(found)
}

/// That the `kinds` a request names (where it names any) hold the kind of the vehicle type
/// `ktype` (where it names one the catalogue holds).
pub fn kind_named(
    catalogue: &Catalogue,
    kinds: Field<Option<&[TargetType]>>,
    ktype: Option<&str>,
) -> Result<(), ServiceError> {
    let (Some(_), Some(ktype)) = (kinds.value, ktype) else {
        return Ok(());
    };
    match catalogue.vehicle(ktype.trim())? {
        Some(v) => kind_of(kinds, ktype, &v),
        None => Ok(()),
    }
}

/// That the `kinds` a request names (where it names any) hold the kind of `vehicle`, the
/// vehicle type the request names as `ktype`.
pub fn kind_of(
    kinds: Field<Option<&[TargetType]>>,
    ktype: &str,
    vehicle: &Vehicle,
) -> Result<(), ServiceError> {
    match kinds.value {
        Some(ks) if !ks.contains(&vehicle.target_type) => Err(ServiceError::bad_parameter(
            kinds.name,
            format!(
                "does not name vehicle type {ktype}'s kind, {}",
                vehicle.target_type.code()
            ),
        )),
        _ => Ok(()),
    }
}

/// The vehicle type `ktype`, or a bad parameter naming `field`.
pub fn vehicle(
    catalogue: &Catalogue,
    ktype: &str,
    field: &'static str,
) -> Result<Vehicle, ServiceError> {
    catalogue.vehicle(ktype.trim())?.ok_or_else(|| {
        ServiceError::bad_parameter(
            field,
            format!("{ktype} is not a vehicle type of the catalogue"),
        )
    })
}

/// The nodes of the vehicle's tree that `which` names with their counts; `only_linked`
/// keeps the nodes with articles for the vehicle.
pub fn groups_for_vehicle(
    context: &Context,
    vehicle: &Vehicle,
    which: Nodes,
    only_linked: bool,
) -> Result<Vec<GroupCount>, ServiceError> {
    let (catalogue, caller, names) = (context.snapshot(), context.caller(), context.names());
    let tree = Tree::read(catalogue, vehicle.target_type)?;
    let placed: BTreeSet<u32> = tree.genarts.values().flatten().copied().collect();
    let fitting = fitting_by_genart(catalogue, caller, &vehicle.ktype, placed)?;
    let count = |node: u32| -> usize {
        tree.genarts_below(node)
            .iter()
            .filter_map(|g| fitting.get(g))
            .map(Vec::len)
            .sum()
    };
    let mut found = Vec::new();
    for id in tree.select(which)? {
        let articles = count(id);
        if only_linked && articles == 0 {
            continue;
        }
        let kids = tree.children.get(&Some(id)).map_or(&[][..], Vec::as_slice);
        let has_children = kids.iter().any(|k| !only_linked || count(*k) > 0);
        found.push(GroupCount {
            group: crate::service::categories::category_tree::named(&names, &tree.nodes[&id])?,
            articles,
            has_children,
        });
    }
    Ok(found)
}

/// The vehicle type `ktype` and its tree's nodes with their counts (`linked`: only those
/// with parts); an unknown vehicle type is not found.
pub fn vehicle_tree(
    context: &Context,
    ktype: &str,
    linked: bool,
) -> Result<(Vehicle, Vec<GroupCount>), ServiceError> {
    let vehicle = context
        .snapshot()
        .vehicle(ktype.trim())?
        .ok_or_else(|| ServiceError::NotFound(format!("no vehicle type has Ktype {ktype}")))?;
    let groups = groups_for_vehicle(context, &vehicle, Nodes::Below(None), linked)?;
    let vehicle = crate::service::articles::article_detail::vehicle_in(&context.names(), vehicle)?;
    Ok((vehicle, groups))
}

/// The articles the caller may see that fit `vehicle` and sit at or below any of `nodes`, in
/// article order. A node outside the vehicle's tree is a bad parameter naming `field`.
pub fn articles_under(
    catalogue: &Catalogue,
    caller: &Caller,
    vehicle: &Vehicle,
    nodes: &[u32],
    field: &'static str,
) -> Result<Vec<ArticleKey>, ServiceError> {
    let tree = Tree::read(catalogue, vehicle.target_type)?;
    let genarts = tree.genarts_below_all(nodes).map_err(|node| {
        ServiceError::bad_parameter(
            field,
            format!(
                "{node} is not a node of the {} assembly-group tree",
                vehicle.target_type.code()
            ),
        )
    })?;
    let mut keys: Vec<ArticleKey> = fitting_by_genart(catalogue, caller, &vehicle.ktype, genarts)?
        .into_values()
        .flatten()
        .collect();
    keys.sort();
    Ok(keys)
}

#[cfg(test)]
mod tests;
