//! Names of brands, genarts and manufacturers, from the generation's name tables. An answer
//! copies a name into each record that carries it: the copies one request takes are counted,
//! and past the answer bound the request stops (a store imported under looser limits may
//! hold names of megabytes), so no answer multiplies a long name into gigabytes.

use std::cell::Cell;

use crate::store::{Catalogue, StoreError};

pub struct Names<'a> {
    catalogue: &'a Catalogue,
    copied: Cell<u64>,
}

impl<'a> Names<'a> {
    pub fn new(catalogue: &'a Catalogue) -> Self {
        Names {
            catalogue,
            copied: Cell::new(0),
        }
    }

    /// `name`, counted against the answer bound.
    fn counted(&self, name: &'a str) -> Result<&'a str, StoreError> {
        let copied = self.copied.get() + name.len() as u64;
        self.copied.set(copied);
        crate::limits::within_answer(copied).map_err(StoreError::Spent)?;
        Ok(name)
    }

    pub fn brand(&self, id: u32) -> Result<String, StoreError> {
        self.brand_name(id).map(str::to_owned)
    }

    /// The brand's name, borrowed (for loops that reuse their buffers); empty if unknown.
    pub fn brand_name(&self, id: u32) -> Result<&'a str, StoreError> {
        self.counted(
            self.catalogue
                .names()?
                .brands
                .get(&id)
                .map_or("", String::as_str),
        )
    }

    pub fn genart(&self, id: u32) -> Result<String, StoreError> {
        self.genart_name(id).map(str::to_owned)
    }

    /// The genart's name, borrowed; empty if unknown.
    pub fn genart_name(&self, id: u32) -> Result<&'a str, StoreError> {
        self.counted(
            self.catalogue
                .names()?
                .generic_articles
                .get(&id)
                .map_or("", String::as_str),
        )
    }

    pub fn manufacturer(&self, id: u32) -> Result<String, StoreError> {
        self.counted(
            self.catalogue
                .names()?
                .manufacturers
                .get(&id)
                .map_or("", String::as_str),
        )
        .map(str::to_owned)
    }
}
