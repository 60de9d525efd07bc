//! A request's query, parsed once: the gate parses it on the way in and keeps it with the
//! request, and what reads the query before the handler (authentication, the gate's brand,
//! `/svc`'s parameter check) reads these pairs.

use std::sync::Arc;

use poem::Request;

/// The query's `name=value` pairs, decoded, in order.
#[derive(Debug, Clone, Default)]
pub struct QueryPairs(Arc<Decoded>);

/// Every pair's name and value decoded one after the other into one text, and where each
/// ends: a request's pairs in two allocations, not two per pair.
#[derive(Debug, Default)]
struct Decoded {
    text: String,
    /// (end of the name, end of the value) in `text`; a name starts where the pair before
    /// ends.
    ends: Vec<(usize, usize)>,
}

impl QueryPairs {
    /// Parses `query` (the part after `?`).
    pub fn parse(query: Option<&str>) -> QueryPairs {
        let query = query.unwrap_or("");
        let mut decoded = Decoded {
            text: String::with_capacity(query.len()),
            ends: Vec::new(),
        };
        for (name, value) in form_urlencoded::parse(query.as_bytes()) {
            decoded.text.push_str(&name);
            let name_end = decoded.text.len();
            decoded.text.push_str(&value);
            decoded.ends.push((name_end, decoded.text.len()));
        }
        QueryPairs(Arc::new(decoded))
    }

    /// The pairs the gate kept with `req`, or (a request that did not pass it) parsed now.
    pub fn of(req: &Request) -> QueryPairs {
        req.extensions()
            .get::<QueryPairs>()
            .cloned()
            .unwrap_or_else(|| QueryPairs::parse(req.uri().query()))
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        let Decoded { text, ends } = &*self.0;
        let starts = std::iter::once(0).chain(ends.iter().map(|&(_, value_end)| value_end));
        starts.zip(ends).map(|(start, &(name_end, value_end))| {
            (&text[start..name_end], &text[name_end..value_end])
        })
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
        // Encoded names, empty names and values, a `+` for a space, side by side.
        let pairs = QueryPairs::parse(Some("x%26y=%3D&=v&k=&a+b=c+d"));
        let all: Vec<_> = pairs.iter().collect();
        assert_eq!(all, [("x&y", "="), ("", "v"), ("k", ""), ("a b", "c d")]);
    }
}
