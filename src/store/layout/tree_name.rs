//! The trees a store holds: each data set's and each index's name, label, sources and stored
//! index byte.

/// Every generation-managed tree: the data sets first, then the indexes derived from them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TreeName {
    Brands,
    Manufacturers,
    GenericArticles,
    Vehicles,
    Articles,
    Criteria,
    CrossReferences,
    Links,
    Prices,
    Kits,
    Media,
    Plates,
    RefnormArticle,
    CrossnumArticle,
    KtypeArticle,
    GenartKtypeArticle,
    KtypeKit,
    ManufacturerCompetitorRef,
    RefrevReference,
    CrossrevNumber,
    ArticleIds,
    ReplacedArticle,
    ComponentKit,
    ModelSeries,
    AssemblyGroups,
    GenartGroups,
    Texts,
    ArticleTexts,
    ArticleRecords,
    CriterionDefinitions,
    KeyValues,
    CriterionIds,
    Vins,
}

impl TreeName {
    /// In the order of their stored index byte (`index`): a tree added later comes last.
    pub const ALL: [TreeName; 33] = [
        TreeName::Brands,
        TreeName::Manufacturers,
        TreeName::GenericArticles,
        TreeName::Vehicles,
        TreeName::Articles,
        TreeName::Criteria,
        TreeName::CrossReferences,
        TreeName::Links,
        TreeName::Prices,
        TreeName::Kits,
        TreeName::Media,
        TreeName::Plates,
        TreeName::RefnormArticle,
        TreeName::CrossnumArticle,
        TreeName::KtypeArticle,
        TreeName::GenartKtypeArticle,
        TreeName::KtypeKit,
        TreeName::ManufacturerCompetitorRef,
        TreeName::RefrevReference,
        TreeName::CrossrevNumber,
        TreeName::ArticleIds,
        TreeName::ReplacedArticle,
        TreeName::ComponentKit,
        TreeName::ModelSeries,
        TreeName::AssemblyGroups,
        TreeName::GenartGroups,
        TreeName::Texts,
        TreeName::ArticleTexts,
        TreeName::ArticleRecords,
        TreeName::CriterionDefinitions,
        TreeName::KeyValues,
        TreeName::CriterionIds,
        TreeName::Vins,
    ];

    /// The data sets, in the order their rows may depend on each other.
    pub const DATA: &'static [TreeName] = &[
        TreeName::Brands,
        TreeName::Manufacturers,
        TreeName::ModelSeries,
        TreeName::GenericArticles,
        TreeName::AssemblyGroups,
        TreeName::GenartGroups,
        TreeName::Vehicles,
        TreeName::Texts,
        TreeName::Articles,
        TreeName::ArticleTexts,
        TreeName::KeyValues,
        TreeName::CriterionDefinitions,
        TreeName::Criteria,
        TreeName::CrossReferences,
        TreeName::Links,
        TreeName::Prices,
        TreeName::Kits,
        TreeName::Media,
        TreeName::Plates,
        TreeName::Vins,
    ];

    /// The indexes, each derived from data sets.
    pub const INDEXES: &'static [TreeName] = &[
        TreeName::RefnormArticle,
        TreeName::CrossnumArticle,
        TreeName::KtypeArticle,
        TreeName::GenartKtypeArticle,
        TreeName::KtypeKit,
        TreeName::ManufacturerCompetitorRef,
        TreeName::RefrevReference,
        TreeName::CrossrevNumber,
        TreeName::ArticleIds,
        TreeName::ReplacedArticle,
        TreeName::ComponentKit,
        TreeName::ArticleRecords,
        TreeName::CriterionIds,
    ];

    /// The stored name: what the tree maps, as `key_value`.
    pub fn name(self) -> &'static str {
        match self {
            TreeName::Brands => "brandid_brand",
            TreeName::Manufacturers => "manufacturerid_manufacturer",
            TreeName::GenericArticles => "genartid_genart",
            TreeName::Vehicles => "ktype_vehicle",
            TreeName::Articles => "articlekey_article",
            TreeName::Criteria => "articlekey_criterion",
            TreeName::CrossReferences => "articlekey_crossref",
            TreeName::Links => "articlekey_link",
            TreeName::Prices => "articlekey_price",
            TreeName::Kits => "kitkey_component",
            TreeName::Media => "articlekey_media",
            TreeName::Plates => "plate_ktype",
            TreeName::RefnormArticle => "refnorm_article",
            TreeName::CrossnumArticle => "crossnum_article",
            TreeName::KtypeArticle => "ktype_article",
            TreeName::GenartKtypeArticle => "genartktype_article",
            TreeName::KtypeKit => "ktype_kit",
            TreeName::ManufacturerCompetitorRef => "manufacturer_competitorref",
            TreeName::RefrevReference => "refrev_reference",
            TreeName::CrossrevNumber => "crossrev_number",
            TreeName::ArticleIds => "article_ids",
            TreeName::ReplacedArticle => "replacement_article",
            TreeName::ComponentKit => "component_kit",
            TreeName::ModelSeries => "modelseriesid_modelseries",
            TreeName::AssemblyGroups => "nodeid_assemblygroup",
            TreeName::GenartGroups => "genartnode",
            TreeName::Texts => "kindkeylanguage_text",
            TreeName::ArticleTexts => "articlekeylanguage_description",
            TreeName::ArticleRecords => "articleprefix_record",
            TreeName::CriterionDefinitions => "criterionid_definition",
            TreeName::KeyValues => "keytablekey_value",
            TreeName::CriterionIds => "criterion_ids",
            TreeName::Vins => "vinpattern_ktype",
        }
    }

    /// What `check` and its messages call it: a data set by its import name, an index by
    /// what it finds.
    pub fn label(self) -> &'static str {
        match self {
            TreeName::Brands => "brands",
            TreeName::Manufacturers => "manufacturers",
            TreeName::GenericArticles => "genarts",
            TreeName::Vehicles => "vehicles",
            TreeName::Articles => "articles",
            TreeName::Criteria => "criteria",
            TreeName::CrossReferences => "crossrefs",
            TreeName::Links => "links",
            TreeName::Prices => "prices",
            TreeName::Kits => "kits",
            TreeName::Media => "media",
            TreeName::Plates => "plates",
            TreeName::RefnormArticle => "index: articles by reference",
            TreeName::CrossnumArticle => "index: articles by cross number",
            TreeName::KtypeArticle => "index: articles by Ktype",
            TreeName::GenartKtypeArticle => "index: articles by genart and Ktype",
            TreeName::KtypeKit => "index: kits by Ktype",
            TreeName::ManufacturerCompetitorRef => "index: competitor refs by manufacturer",
            TreeName::RefrevReference => "index: references by their end",
            TreeName::CrossrevNumber => "index: cross numbers by their end",
            TreeName::ArticleIds => "index: numeric article ids",
            TreeName::ReplacedArticle => "index: articles by the numbers replacing them",
            TreeName::ComponentKit => "index: kits by their components",
            TreeName::ModelSeries => "model_series",
            TreeName::AssemblyGroups => "assembly_groups",
            TreeName::GenartGroups => "genart_groups",
            TreeName::Texts => "texts",
            TreeName::ArticleTexts => "article_texts",
            TreeName::ArticleRecords => "index: each article with its rows",
            TreeName::CriterionDefinitions => "criterion_definitions",
            TreeName::KeyValues => "key_values",
            TreeName::CriterionIds => "index: numbers of the criteria",
            TreeName::Vins => "vins",
        }
    }

    pub fn from_name(name: &str) -> Option<TreeName> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }

    pub fn is_index(self) -> bool {
        Self::INDEXES.contains(&self)
    }

    /// The data sets an index is derived from: a change to any of them rebuilds it.
    pub fn sources(self) -> &'static [TreeName] {
        match self {
            TreeName::RefnormArticle => &[TreeName::Articles],
            TreeName::CrossnumArticle => &[TreeName::Articles, TreeName::CrossReferences],
            TreeName::KtypeArticle => &[TreeName::Links],
            TreeName::GenartKtypeArticle => &[TreeName::Articles, TreeName::Links],
            TreeName::KtypeKit | TreeName::ComponentKit => &[TreeName::Kits],
            TreeName::ManufacturerCompetitorRef => &[TreeName::CrossReferences],
            TreeName::RefrevReference => &[TreeName::Articles],
            TreeName::CrossrevNumber => &[TreeName::Articles, TreeName::CrossReferences],
            TreeName::ArticleIds | TreeName::ReplacedArticle => &[TreeName::Articles],
            TreeName::CriterionIds => &[TreeName::Criteria, TreeName::CriterionDefinitions],
            TreeName::ArticleRecords => &[
                TreeName::Articles,
                TreeName::CrossReferences,
                TreeName::Criteria,
                TreeName::Prices,
                TreeName::Media,
                TreeName::ArticleTexts,
                TreeName::Texts,
            ],
            _ => &[],
        }
    }

    /// Indexes whose value is a list of the articles of all entries with one key.
    pub fn is_list(self) -> bool {
        matches!(
            self,
            TreeName::KtypeArticle | TreeName::GenartKtypeArticle | TreeName::KtypeKit
        )
    }

    pub fn stored_name(self, generation: u64) -> String {
        format!("{}@{generation}", self.name())
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// Parses `<name>@<generation>`; `None` for trees outside the generation scheme.
pub fn parse_stored_name(stored: &str) -> Option<(&str, u64)> {
    let (name, generation) = stored.rsplit_once('@')?;
    Some((name, generation.parse().ok()?))
}
