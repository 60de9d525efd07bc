//! Where a price is computed: an article's prices, a kit's price for a Ktype, the prices of a
//! generic article for a Ktype and the exhaust kit of a Ktype. A kit's price is its own
//! current list price where it has one, else the sum of its components' current list prices
//! times their quantities (in one currency); a component without one leaves the kit without
//! an amount. A component of a brand the caller may not see is left out, as from every
//! answer, and leaves a kit without its own price without an amount too: nothing of that
//! brand's articles, their prices included, reaches the caller.

use super::ServiceError;
use super::articles::lookups::known_vehicle;
use super::caller::Caller;
use super::context::Context;
use super::names::{NamedArticle, Names};
use super::vehicles::vehicle_articles::{Describe, Listed, Paging, Selection};
use crate::catalogue::{Amount, ArticleKey, Date, KitComponent, Price, current_list_price};
use crate::store::Catalogue;

/// An article and every price it has.
#[derive(Debug)]
pub struct ArticlePrices {
    pub article: NamedArticle,
    pub prices: Vec<Price>,
}

/// Where a kit's price comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KitSource {
    /// The kit's own list price.
    Own,
    /// The sum of its components' list prices times their quantities.
    Components,
    /// A component has no current list price (or they differ in currency, or the caller may
    /// not see its brand): no amount.
    Incomplete,
}

/// One component of a kit with its current list price per piece.
#[derive(Debug)]
pub struct ComponentPrice {
    pub article: NamedArticle,
    pub quantity: u32,
    pub unit: Option<Price>,
}

/// A kit's price: of a kit article, or of an exhaust kit composed of the parts that fit.
#[derive(Debug)]
pub struct KitPrice {
    pub kit: Option<NamedArticle>,
    pub source: KitSource,
    /// The currency and the amount; none when `source` is `Incomplete`.
    pub total: Option<(String, Amount)>,
    pub components: Vec<ComponentPrice>,
}

/// The prices of a generic article for a Ktype: of its single articles or of its kits.
#[derive(Debug)]
pub enum GenartPrices {
    Articles(Vec<ArticlePrices>),
    Kits(Vec<KitPrice>),
}

/// Prices as of one day, read from one catalogue, articles named in the reader's language:
/// only reading it can fail.
pub struct Pricing<'a> {
    catalogue: &'a Catalogue,
    caller: &'a Caller,
    names: Names<'a>,
    today: Date,
}

impl<'a> Pricing<'a> {
    pub fn new(context: &'a Context) -> Self {
        Pricing {
            catalogue: context.snapshot(),
            caller: context.caller(),
            names: context.names(),
            today: Date::today(),
        }
    }

    /// The article of `key`, named; none where the catalogue lacks it.
    fn named(&self, key: &ArticleKey) -> Result<Option<NamedArticle>, ServiceError> {
        self.catalogue
            .article(key)?
            .map(|a| self.names.named(a))
            .transpose()
    }

    /// The articles of the keys with their prices, in the keys' order.
    pub fn article_prices(&self, keys: &[ArticleKey]) -> Result<Vec<ArticlePrices>, ServiceError> {
        let mut out = Vec::with_capacity(keys.len());
        for key in keys {
            let Some(article) = self.named(key)? else {
                continue;
            };
            out.push(ArticlePrices {
                article,
                prices: self.catalogue.prices_of(key)?,
            });
        }
        Ok(out)
    }

    fn current_list_price(&self, key: &ArticleKey) -> Result<Option<Price>, ServiceError> {
        Ok(current_list_price(
            self.catalogue.prices_of(key)?,
            self.today,
        ))
    }

    /// The article with the lowest current list price; the first where none has one.
    fn cheapest(&self, keys: &[ArticleKey]) -> Result<Option<ArticleKey>, ServiceError> {
        let mut best: Option<(Option<Amount>, &ArticleKey)> = None;
        for key in keys {
            let amount = self.current_list_price(key)?.map(|p| p.amount);
            let better = match &best {
                None => true,
                Some((None, _)) => amount.is_some(),
                Some((Some(b), _)) => amount.is_some_and(|a| a < *b),
            };
            if better {
                best = Some((amount, key));
            }
        }
        Ok(best.map(|(_, k)| k.clone()))
    }

    fn kit_prices(&self, kits: &[ArticleKey], ktype: &str) -> Result<Vec<KitPrice>, ServiceError> {
        let mut out = Vec::with_capacity(kits.len());
        for kit in kits {
            let components = self.catalogue.kit_components(kit, ktype)?;
            out.push(self.kit_price(Some(kit), &components)?);
        }
        Ok(out)
    }

    fn kit_price(
        &self,
        kit: Option<&ArticleKey>,
        components: &[KitComponent],
    ) -> Result<KitPrice, ServiceError> {
        let mut lines = Vec::with_capacity(components.len());
        let mut sum: Option<(String, Amount)> = Some((String::new(), Amount(0)));
        for c in components {
            if !self.caller.provider.sees_brand(c.component.brand_id) {
                sum = None;
                continue;
            }
            let Some(article) = self.named(&c.component)? else {
                continue;
            };
            let unit = self.current_list_price(&c.component)?;
            sum = match (sum, &unit) {
                (Some((currency, total)), Some(p))
                    if currency.is_empty() || currency == p.currency =>
                {
                    Some((p.currency.clone(), total + p.amount.times(c.quantity)))
                }
                _ => None,
            };
            lines.push(ComponentPrice {
                article,
                quantity: c.quantity,
                unit,
            });
        }
        let (own, kit) = match kit {
            Some(k) => (self.current_list_price(k)?, self.named(k)?),
            None => (None, None),
        };
        let (source, total) = match (own, sum) {
            (Some(p), _) => (KitSource::Own, Some((p.currency, p.amount))),
            (None, Some(total)) if !lines.is_empty() => (KitSource::Components, Some(total)),
            _ => (KitSource::Incomplete, None),
        };
        Ok(KitPrice {
            kit,
            source,
            total,
            components: lines,
        })
    }
}

/// Single-article (`is_kit` false) or kit prices of a generic article for a Ktype, of the
/// brands the caller may see. An unknown Ktype or generic article is a not-found.
pub fn genart_prices(
    context: &Context,
    genart: u32,
    is_kit: bool,
    ktype: &str,
) -> Result<GenartPrices, ServiceError> {
    let (catalogue, caller) = (context.snapshot(), context.caller());
    known_vehicle(catalogue, ktype)?;
    if catalogue.generic_article(genart)?.is_none() {
        return Err(ServiceError::NotFound(format!(
            "no generic article has the id {genart}"
        )));
    }
    let pricing = Pricing::new(context);
    let kits = catalogue.kits_by_ktype(ktype)?;
    if is_kit {
        let mut of_genart = Vec::new();
        for kit in caller.visible(kits) {
            if catalogue.article(&kit)?.is_some_and(|a| a.genart == genart) {
                of_genart.push(kit);
            }
        }
        return Ok(GenartPrices::Kits(pricing.kit_prices(&of_genart, ktype)?));
    }
    let fitting = caller.visible(catalogue.articles_by_genart_ktype(genart, ktype)?);
    let singles: Vec<_> = fitting.into_iter().filter(|k| !kits.contains(k)).collect();
    Ok(GenartPrices::Articles(pricing.article_prices(&singles)?))
}

/// The prices of the articles of the vehicle type `ktype` the caller may see, as `selection`
/// and `paging` ask for them; an unknown Ktype is not found.
pub fn ktype_prices(
    context: &Context,
    ktype: &str,
    selection: &Selection,
    paging: &Paging,
) -> Result<Listed<ArticlePrices>, ServiceError> {
    known_vehicle(context.snapshot(), ktype)?;
    let keys = selection.keys(context.snapshot(), context.caller(), ktype)?;
    let describe: Describe<ArticlePrices> =
        |context, keys| Pricing::new(context).article_prices(keys);
    Listed::of(context, keys, paging, describe)
}

/// The exhaust kits of a Ktype: the kits defined for it whose components are all of the
/// exhaust generic articles (the catalogue's terms name them); where none is, one kit of the
/// cheapest fitting part of each of them (none where no part fits). An unknown Ktype is a
/// not-found.
pub fn exhaust_kits(context: &Context, ktype: &str) -> Result<Vec<KitPrice>, ServiceError> {
    let exhaust = context.exhaust_genarts();
    let (catalogue, caller) = (context.snapshot(), context.caller());
    known_vehicle(catalogue, ktype)?;
    let pricing = Pricing::new(context);
    let mut kits = Vec::new();
    for kit in caller.visible(catalogue.kits_by_ktype(ktype)?) {
        let components = catalogue.kit_components(&kit, ktype)?;
        let mut all_exhaust = !components.is_empty();
        for c in &components {
            let genart = catalogue.article(&c.component)?.map(|a| a.genart);
            all_exhaust &= genart.is_some_and(|g| exhaust.contains(&g));
        }
        if all_exhaust {
            kits.push(pricing.kit_price(Some(&kit), &components)?);
        }
    }
    if !kits.is_empty() {
        return Ok(kits);
    }
    let mut parts = Vec::new();
    for &genart in exhaust {
        let fitting = caller.visible(catalogue.articles_by_genart_ktype(genart, ktype)?);
        if let Some(cheapest) = pricing.cheapest(&fitting)? {
            parts.push(KitComponent {
                kit: cheapest.clone(),
                ktype: ktype.to_owned(),
                component: cheapest,
                quantity: 1,
            });
        }
    }
    if !parts.is_empty() {
        kits.push(pricing.kit_price(None, &parts)?);
    }
    Ok(kits)
}
