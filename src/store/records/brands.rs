//! A brand as stored: its name, and its address where the catalogue keeps one (a brand
//! without one keeps the first layout, so stores written before addresses read the same).

use super::{Record, codec, decode, encode};
use crate::catalogue::{Brand, BrandAddress};
use crate::store::keys::{KeyBuf, KeyReader};
use crate::store::layout::TreeName;

/// A brand with an address (format 15); one without keeps the first layout, `(name,)`.
const BRAND_VERSION: u8 = 2;

type AddressValue = (
    String,
    String,
    String,
    String,
    String,
    String,
    String,
    String,
);

impl Record for Brand {
    const TREE: TreeName = TreeName::Brands;
    fn key(&self) -> Vec<u8> {
        KeyBuf::new().u32(self.id).done()
    }
    fn value(&self) -> Vec<u8> {
        let a = &self.address;
        if a.is_empty() {
            return encode((&self.name,));
        }
        let address: AddressValue = (
            a.street.clone(),
            a.zip.clone(),
            a.city.clone(),
            a.country.clone(),
            a.phone.clone(),
            a.fax.clone(),
            a.email.clone(),
            a.website.clone(),
        );
        codec::encode(BRAND_VERSION, &(&self.name, address))
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        let (name, address) = match codec::split(value)? {
            (BRAND_VERSION, body) => {
                let (name, (street, zip, city, country, phone, fax, email, website)) =
                    codec::body::<(String, AddressValue)>(body)?;
                let address = BrandAddress {
                    street,
                    zip,
                    city,
                    country,
                    phone,
                    fax,
                    email,
                    website,
                };
                (name, address)
            }
            _ => (decode::<(String,)>(value)?.0, BrandAddress::default()),
        };
        Some(Brand {
            id: KeyReader::new(key).u32()?,
            name,
            address,
        })
    }
}
