//! What a record refers to, looked up: every reference between data sets must hold, for
//! `check` and for a commit that retires rows others refer to.

use crate::catalogue::*;
use crate::store::error::StoreError;
use crate::store::indexes::DataTrees;
use crate::store::keys::{self, KeyBuf};
use crate::store::layout::TreeName;
use crate::store::records::Record;

use super::LISTED;

/// Decodes one record and checks what it refers to exists; the problem, if any.
pub(super) fn check_record(
    c: &impl DataTrees,
    tree: TreeName,
    k: &[u8],
    v: &[u8],
) -> Result<Option<String>, StoreError> {
    let refs = Refs(c);
    let outcome = match tree {
        TreeName::Brands => decoded::<Brand>(k, v).map(drop),
        TreeName::Manufacturers => decoded::<Manufacturer>(k, v).map(drop),
        TreeName::GenericArticles => decoded::<GenericArticle>(k, v).map(drop),
        TreeName::Vehicles => decoded::<Vehicle>(k, v).and_then(|x| refs.of_vehicle(&x)),
        TreeName::ModelSeries => decoded::<ModelSeries>(k, v).and_then(|m| refs.maker(&m)),
        TreeName::AssemblyGroups => decoded::<AssemblyGroup>(k, v).and_then(|n| refs.parent(&n)),
        TreeName::GenartGroups => decoded::<GenartGroup>(k, v).and_then(|g| refs.placed(&g)),
        TreeName::Articles => decoded::<Article>(k, v).and_then(|a| refs.of_article(&a)),
        TreeName::Texts => decoded::<Translation>(k, v).and_then(|t| refs.translated(&t)),
        TreeName::ArticleTexts => {
            decoded::<ArticleText>(k, v).and_then(|t| refs.article(&t.article))
        }
        TreeName::Criteria => decoded::<Criterion>(k, v).and_then(|x| refs.article(&x.article)),
        TreeName::KeyValues => decoded::<KeyValue>(k, v).map(drop),
        TreeName::CriterionDefinitions => decoded::<CriterionDefinition>(k, v).map(drop),
        TreeName::Links => decoded::<Link>(k, v).and_then(|l| {
            refs.vehicle(&l.ktype, "link")?;
            refs.article(&l.article)
        }),
        TreeName::Prices => decoded::<Price>(k, v).and_then(|p| refs.article(&p.article)),
        TreeName::Media => decoded::<Media>(k, v).and_then(|m| refs.article(&m.article)),
        TreeName::CrossReferences => decoded::<CrossReference>(k, v).and_then(|x| {
            refs.of_cross_number(&x)?;
            refs.article(&x.article)
        }),
        TreeName::Plates => decoded::<Plate>(k, v)
            .and_then(|p| refs.vehicle(&p.ktype, &format!("plate {} {}", p.country, p.written))),
        TreeName::Vins => decoded::<VinPattern>(k, v)
            .and_then(|p| refs.vehicle(&p.ktype, &format!("VIN pattern {}", p.pattern))),
        TreeName::Kits => decoded::<KitComponent>(k, v).and_then(|kit| {
            refs.article(&kit.kit)?;
            refs.article(&kit.component)?;
            refs.vehicle(&kit.ktype, "kit")
        }),
        index => Err(format!("{} is not a data set", index.label())),
    };
    Ok(outcome.err())
}

fn decoded<R: Record>(k: &[u8], v: &[u8]) -> Result<R, String> {
    R::decode(k, v).ok_or_else(|| format!("record {} cannot be decoded", hex::encode(k)))
}

/// The rows a record refers to, each looked up; a reference to a row that is not there is
/// the record's problem (and so is a table that cannot be read).
struct Refs<'c, C>(&'c C);

impl<C: DataTrees> Refs<'_, C> {
    fn has(&self, t: TreeName, key: Vec<u8>) -> Result<bool, String> {
        self.0.tree(t).contains_key(&key).map_err(|e| e.to_string())
    }

    fn article(&self, a: &ArticleKey) -> Result<(), String> {
        if self.has(TreeName::Articles, keys::article_key(a))? {
            return Ok(());
        }
        Err(format!(
            "refers to article {}/{} which does not exist",
            a.brand_id, a.reference
        ))
    }

    /// `what` (a link, a plate, a kit) refers to vehicle type `ktype`.
    fn vehicle(&self, ktype: &str, what: &str) -> Result<(), String> {
        if self.has(TreeName::Vehicles, ktype.as_bytes().to_vec())? {
            return Ok(());
        }
        Err(format!(
            "{what} refers to Ktype {ktype} which does not exist"
        ))
    }

    /// An article's brand and generic article.
    fn of_article(&self, a: &Article) -> Result<(), String> {
        if !self.has(TreeName::Brands, KeyBuf::new().u32(a.key.brand_id).done())? {
            return Err(format!(
                "article {} refers to brand {} which does not exist",
                a.reference, a.key.brand_id
            ));
        }
        if !self.has(
            TreeName::GenericArticles,
            KeyBuf::new().u32(a.genart).done(),
        )? {
            return Err(format!(
                "article {} refers to genart {} which does not exist",
                a.reference, a.genart
            ));
        }
        Ok(())
    }

    /// A vehicle's model series, where it names one.
    fn of_vehicle(&self, v: &Vehicle) -> Result<(), String> {
        match v.model_series {
            Some(m) if !self.has(TreeName::ModelSeries, KeyBuf::new().u32(m).done())? => {
                Err(format!(
                    "Ktype {} refers to model series {m} which does not exist",
                    v.ktype
                ))
            }
            _ => Ok(()),
        }
    }

    /// A model series' maker, which must make vehicles.
    fn maker(&self, m: &ModelSeries) -> Result<(), String> {
        let key = KeyBuf::new().u32(m.manufacturer_id).done();
        let maker = self.0.tree(TreeName::Manufacturers).get(&key);
        match maker.map_err(|e| e.to_string())? {
            None => Err(format!(
                "model series {} refers to manufacturer {} which does not exist",
                m.id, m.manufacturer_id
            )),
            Some(v) => match Manufacturer::decode(&key, &v).map(|x| x.kind) {
                Some(ManufacturerKind::VehicleMaker) => Ok(()),
                _ => Err(format!(
                    "model series {} refers to manufacturer {}, which is not a vehicle maker",
                    m.id, m.manufacturer_id
                )),
            },
        }
    }

    /// An assembly group's parent: there, of the same target type, and not below the node.
    fn parent(&self, node: &AssemblyGroup) -> Result<(), String> {
        let table = self.0.tree(TreeName::AssemblyGroups);
        let mut tree = std::collections::HashMap::from([(node.id, node.clone())]);
        let mut up = node.parent;
        // Up to the root, a node that is not there, or one seen already (a cycle).
        while let Some(id) = up.filter(|id| !tree.contains_key(id)) {
            let key = KeyBuf::new().u32(id).done();
            let Some(v) = table.get(&key).map_err(|e| e.to_string())? else {
                break;
            };
            let above = AssemblyGroup::decode(&key, &v)
                .ok_or_else(|| format!("assembly group {id} cannot be decoded"))?;
            up = above.parent;
            tree.insert(id, above);
        }
        match crate::catalogue::tree::place_problem(node, &tree) {
            Some(problem) => Err(format!("node {}: {problem}", node.id)),
            None => Ok(()),
        }
    }

    /// A generic article's place: the generic article and the node.
    fn placed(&self, g: &GenartGroup) -> Result<(), String> {
        if !self.has(
            TreeName::GenericArticles,
            KeyBuf::new().u32(g.genart).done(),
        )? {
            return Err(format!(
                "genart {} placed under node {} does not exist",
                g.genart, g.node
            ));
        }
        if !self.has(TreeName::AssemblyGroups, KeyBuf::new().u32(g.node).done())? {
            return Err(format!(
                "genart {} is placed under node {} which does not exist",
                g.genart, g.node
            ));
        }
        Ok(())
    }

    /// What a translation names: its generic article, node or model series (a term names
    /// nothing).
    fn translated(&self, t: &Translation) -> Result<(), String> {
        let (tree, what) = match t.kind {
            TextKind::GenericArticle => (TreeName::GenericArticles, "genart"),
            TextKind::AssemblyGroup => (TreeName::AssemblyGroups, "assembly group"),
            TextKind::ModelSeries => (TreeName::ModelSeries, "model series"),
            TextKind::Term => return Ok(()),
        };
        let id: u32 = t
            .key
            .parse()
            .map_err(|_| format!("the {what} text's key '{}' is not an id", t.key))?;
        match self.has(tree, KeyBuf::new().u32(id).done())? {
            true => Ok(()),
            false => Err(format!(
                "the {} text of {what} {id} names one that does not exist",
                t.language
            )),
        }
    }

    /// A cross number's manufacturer, where it names one.
    fn of_cross_number(&self, x: &CrossReference) -> Result<(), String> {
        match x.manufacturer_id {
            Some(m) if !self.has(TreeName::Manufacturers, KeyBuf::new().u32(m).done())? => {
                Err(format!(
                    "cross number {} refers to manufacturer {m} which does not exist",
                    x.number
                ))
            }
            _ => Ok(()),
        }
    }
}

/// The data sets whose rows refer to rows of `tree`.
fn referring_to(tree: TreeName) -> &'static [TreeName] {
    use TreeName::*;
    match tree {
        Brands => &[Articles],
        GenericArticles => &[Articles, GenartGroups, Texts],
        Manufacturers => &[CrossReferences, ModelSeries],
        ModelSeries => &[Vehicles, Texts],
        AssemblyGroups => &[AssemblyGroups, GenartGroups, Texts],
        Vehicles => &[Links, Kits, Plates, Vins],
        Articles => &[
            ArticleTexts,
            Criteria,
            CrossReferences,
            Links,
            Prices,
            Kits,
            Media,
        ],
        _ => &[],
    }
}

/// After rows of `shrunk` were retired: the rows of the data sets that refer to them whose
/// references no longer hold, counted, the first few described.
pub(in crate::store) fn dangling(
    trees: &impl DataTrees,
    shrunk: &[TreeName],
) -> Result<(u64, Vec<String>), StoreError> {
    let mut dependents: Vec<TreeName> = shrunk
        .iter()
        .flat_map(|t| referring_to(*t))
        .copied()
        .collect();
    dependents.sort();
    dependents.dedup();
    let (mut count, mut first) = (0u64, Vec::new());
    for tree in dependents {
        for entry in trees.tree(tree).iter() {
            let (k, v) = entry?;
            if let Some(problem) = check_record(trees, tree, &k, &v)? {
                count += 1;
                if first.len() < LISTED {
                    first.push(format!("{}: {problem}", tree.label()));
                }
            }
        }
    }
    Ok((count, first))
}
