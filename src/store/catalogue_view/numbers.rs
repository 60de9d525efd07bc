//! Finding articles by a number: their own reference, a cross number (OE, trade, comparable,
//! EAN), or a replacement, matched exactly or by prefix or suffix of the normalised number.

use super::Catalogue;
use crate::budget::Budget;
use crate::catalogue::*;
use crate::store::error::StoreError;
use crate::store::indexes::{self, DataTrees};
use crate::store::keys::{self, KeyBuf, KeyReader};
use crate::store::layout::TreeName;
use crate::store::packed::Entry;
use crate::store::records::Code;

impl Catalogue {
    /// Articles whose own reference normalises to the same as `written`, across brands.
    pub fn articles_by_reference(&self, written: &str) -> Result<Vec<ArticleKey>, StoreError> {
        self.references_matching(
            &normalise_reference(written),
            NumberMatch::Exact,
            &Budget::unlimited(),
        )
    }

    /// Articles whose normalised reference matches `number` (already normalised) as `how`
    /// says, in index order; a scan stops when the budget is spent.
    pub fn references_matching(
        &self,
        number: &str,
        how: NumberMatch,
        budget: &Budget,
    ) -> Result<Vec<ArticleKey>, StoreError> {
        Ok(self
            .number_entries(
                TreeName::RefnormArticle,
                TreeName::RefrevReference,
                number,
                how,
                budget,
            )?
            .iter()
            .filter_map(|(k, _)| reference_entry(k))
            .collect())
    }

    /// The first `limit` references and the first `limit` cross numbers that start with
    /// `number` (already normalised), each in index order: what a suggestion list shows,
    /// read without the rest of the range however many numbers share the start.
    pub fn numbers_starting_with(
        &self,
        number: &str,
        limit: usize,
    ) -> Result<(Vec<ArticleKey>, Vec<CrossHit>), StoreError> {
        let first = |tree| -> Result<Vec<Entry>, StoreError> {
            if number.is_empty() {
                return Ok(Vec::new());
            }
            self.tree(tree)
                .scan_prefix(number.as_bytes().to_vec())
                .take(limit)
                .collect()
        };
        let references = first(TreeName::RefnormArticle)?
            .iter()
            .filter_map(|(k, _)| reference_entry(k))
            .collect();
        let cross = first(TreeName::CrossnumArticle)?
            .iter()
            .filter_map(|(k, v)| cross_entry(k, v))
            .collect();
        Ok((references, cross))
    }

    /// Articles whose replaced-by numbers match `number` (already normalised) as `how` says,
    /// each with the number that matched: the articles a matching number replaces. Exact and
    /// prefix read a range of the index; suffix reads all of it, which holds one entry per
    /// replacement, not per article.
    pub fn articles_replaced_by(
        &self,
        number: &str,
        how: NumberMatch,
        budget: &Budget,
    ) -> Result<Vec<(ArticleKey, String)>, StoreError> {
        let mut found = Vec::new();
        if number.is_empty() {
            return Ok(found);
        }
        let range = match how {
            NumberMatch::Exact => keys::text_prefix(number),
            NumberMatch::Prefix => number.as_bytes().to_vec(),
            NumberMatch::Suffix | NumberMatch::PrefixOrSuffix => Vec::new(),
        };
        let mut read = 0usize;
        self.tree(TreeName::ReplacedArticle)
            .visit_prefix(&range, |k, _| {
                budget.check_every(read)?;
                read += 1;
                let mut r = KeyReader::new(k);
                if let (Some(replacing), Some(article)) = (r.text(), r.last_article())
                    && how.accepts(replacing.as_bytes(), number.as_bytes())
                {
                    found.push((article, replacing));
                }
                Ok(())
            })?;
        Ok(found)
    }

    /// The articles `article` replaces: those of its brand that name it as replaced-by.
    pub fn replaced_articles(&self, article: &ArticleKey) -> Result<Vec<ArticleKey>, StoreError> {
        let found = self.articles_replaced_by(
            &article.reference,
            NumberMatch::Exact,
            &Budget::unlimited(),
        )?;
        Ok(found
            .into_iter()
            .map(|(replaced, _)| replaced)
            .filter(|replaced| replaced.brand_id == article.brand_id)
            .collect())
    }

    /// Articles that carry `written` as a cross number (OE, competitor, internal, trade, EAN).
    pub fn articles_by_cross_number(&self, written: &str) -> Result<Vec<CrossHit>, StoreError> {
        self.cross_numbers_matching(
            &normalise_reference(written),
            NumberMatch::Exact,
            &Budget::unlimited(),
        )
    }

    /// Articles whose cross numbers match `number` (already normalised) as `how` says; a
    /// scan stops when the budget is spent.
    pub fn cross_numbers_matching(
        &self,
        number: &str,
        how: NumberMatch,
        budget: &Budget,
    ) -> Result<Vec<CrossHit>, StoreError> {
        Ok(self
            .number_entries(
                TreeName::CrossnumArticle,
                TreeName::CrossrevNumber,
                number,
                how,
                budget,
            )?
            .iter()
            .filter_map(|(k, v)| cross_entry(k, v))
            .collect())
    }

    /// The entries of a number index (keys start with a normalised number and 0xFF) whose
    /// number matches. Exact and prefix matches are one range of the index; a suffix match is
    /// one range of the reversed index `reversed`, then an exact range per number it finds.
    fn number_entries(
        &self,
        tree: TreeName,
        reversed: TreeName,
        number: &str,
        how: NumberMatch,
        budget: &Budget,
    ) -> Result<Vec<Entry>, StoreError> {
        let mut found = Vec::new();
        if number.is_empty() {
            return Ok(found);
        }
        let mut read = 0usize;
        let mut range = |prefix: Vec<u8>, found: &mut Vec<Entry>| -> Result<(), StoreError> {
            self.tree(tree).visit_prefix(&prefix, |k, v| {
                budget.check_every(read)?;
                read += 1;
                let stored = k.split(|&b| b == keys::SEP).next().unwrap_or(&[]);
                if how.accepts(stored, number.as_bytes()) {
                    found.push((k.to_vec(), v.to_vec()));
                }
                Ok(())
            })
        };
        if matches!(how, NumberMatch::Exact) {
            range(keys::text_prefix(number), &mut found)?;
            return Ok(found);
        }
        if matches!(how, NumberMatch::Prefix | NumberMatch::PrefixOrSuffix) {
            range(number.as_bytes().to_vec(), &mut found)?;
        }
        if matches!(how, NumberMatch::Suffix | NumberMatch::PrefixOrSuffix) {
            let mut numbers = Vec::new();
            for (i, entry) in self
                .tree(reversed)
                .scan_prefix(indexes::reversed(number))
                .enumerate()
            {
                budget.check_every(i)?;
                let mut whole = entry?.0;
                whole.reverse();
                // A number that also starts with the query was found by the prefix range.
                if how == NumberMatch::Suffix || !whole.starts_with(number.as_bytes()) {
                    numbers.push(whole);
                }
            }
            // Index order: the answer reads the same whichever way a number was found.
            numbers.sort_unstable();
            let mut exact = Vec::new();
            for whole in numbers {
                let mut prefix = whole;
                prefix.push(keys::SEP);
                range(prefix, &mut exact)?;
            }
            found.extend(exact);
            found.sort_unstable();
        }
        Ok(found)
    }

    /// The maker's articles that a competitor manufacturer's numbers point to, by number.
    pub fn competitor_references_of(
        &self,
        manufacturer_id: u32,
    ) -> impl Iterator<Item = Result<CrossHit, StoreError>> + Send + 'static {
        self.tree(TreeName::ManufacturerCompetitorRef)
            .scan_prefix(KeyBuf::new().u32(manufacturer_id).done())
            .map(move |entry| {
                let (k, v) = entry?;
                let mut r = KeyReader::new(&k);
                r.u32();
                r.text();
                let article = r.last_article().ok_or_else(|| {
                    StoreError::Damaged("a competitor index key cannot be read".into())
                })?;
                Ok(CrossHit {
                    article,
                    kind: CrossKind::Competitor,
                    manufacturer_id: Some(manufacturer_id),
                    number: String::from_utf8_lossy(&v).into_owned(),
                })
            })
    }
}

/// The article of an entry of the reference index.
fn reference_entry(key: &[u8]) -> Option<ArticleKey> {
    let mut r = KeyReader::new(key);
    let (reference, brand_id) = (r.text()?, r.u32()?);
    Some(ArticleKey {
        brand_id,
        reference,
    })
}

/// The hit of an entry of the cross number index (its value is the number as written).
fn cross_entry(key: &[u8], value: &[u8]) -> Option<CrossHit> {
    let mut r = KeyReader::new(key);
    r.text();
    let kind = r.u8().and_then(CrossKind::from_code)?;
    let manufacturer = r.u32()?;
    Some(CrossHit {
        article: r.last_article()?,
        kind,
        manufacturer_id: Some(manufacturer).filter(|&m| m != 0),
        number: String::from_utf8_lossy(value).into_owned(),
    })
}
