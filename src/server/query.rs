//! A request's query, parsed once: the gate parses it on the way in and keeps it with the
//! request, and what reads the query before the handler (authentication, the gate's brand,
//! `/svc`'s parameter check) reads these pairs.

use std::sync::Arc;

use poem::Request;

/// The query's `name=value` pairs, decoded, in order.
#[derive(Debug, Clone, Default)]
pub struct QueryPairs(Arc<Vec<(String, String)>>);

impl QueryPairs {
    /// Parses `query` (the part after `?`).
    pub fn parse(query: Option<&str>) -> QueryPairs {
        let pairs = form_urlencoded::parse(query.unwrap_or("").as_bytes())
            .map(|(name, value)| (name.into_owned(), value.into_owned()))
            .collect();
        QueryPairs(Arc::new(pairs))
    }

    /// The pairs the gate kept with `req`, or (a request that did not pass it) parsed now.
    pub fn of(req: &Request) -> QueryPairs {
        req.extensions()
            .get::<QueryPairs>()
            .cloned()
            .unwrap_or_else(|| QueryPairs::parse(req.uri().query()))
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// The first value of `name`.
    pub fn first(&self, name: &str) -> Option<&str> {
        self.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_decoded_in_order_and_kept() {
        let pairs = QueryPairs::parse(Some("a=1&b=x%20y&a=2&c"));
        let all: Vec<_> = pairs.iter().collect();
        assert_eq!(all, [("a", "1"), ("b", "x y"), ("a", "2"), ("c", "")]);
        assert_eq!(pairs.first("a"), Some("1"));
        assert_eq!(pairs.first("d"), None);
        assert_eq!(QueryPairs::parse(None).iter().count(), 0);
    }
}
