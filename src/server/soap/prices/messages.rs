//! Prices of a vehicle type's articles and kits.

request!(
    /// `getPricesByKtype`: prices of the articles linked to a vehicle type.
    GetPricesByKtypeRequest {
        /// The vehicle type (Ktype).
        linkage_target_id: String,
    }
);

request!(
    /// `getKitPrice`: single-article or kit prices of a generic article for a vehicle type.
    GetKitPriceRequest {
        /// The generic article (genart).
        generic_article_id: u32,
        /// true: kit prices; false: single articles.
        is_kit: bool,
        /// The vehicle type (Ktype).
        linkage_target_id: String,
    }
);

request!(
    /// `getExhaustKitPrice`: the exhaust kit price of a vehicle type.
    GetExhaustKitPriceRequest {
        /// The vehicle type (Ktype).
        linkage_target_id: String,
    }
);
