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
        // As `application/x-www-form-urlencoded` reads it: pairs split at `&` (empty ones
        // skipped), a name at its first `=`, `+` a space, then percent-decoding. The bytes are
        // searched with `memchr`, and a pair without `%` or `+` (most) is copied as it is.
        let bytes = query.as_bytes();
        let mut start = 0;
        let ends = memchr::memchr_iter(b'&', bytes).chain(std::iter::once(bytes.len()));
        for end in ends {
            // `&` and `=` are ASCII: the slices fall on characters' bounds.
            let pair = &query[start..end];
            start = end + 1;
            if pair.is_empty() {
                continue;
            }
            let (name, value) = match memchr::memchr(b'=', pair.as_bytes()) {
                Some(equals) => (&pair[..equals], &pair[equals + 1..]),
                None => (pair, ""),
            };
            let escaped = memchr::memchr2(b'%', b'+', pair.as_bytes()).is_some();
            decoded.push(name, value, escaped);
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
        let Decoded { text, ends } = &*self.0;
        let mut start = 0;
        for &(name_end, value_end) in ends {
            if &text[start..name_end] == name {
                return Some(&text[name_end..value_end]);
            }
            start = value_end;
        }
        None
    }
}

impl Decoded {
    fn push(&mut self, name: &str, value: &str, escaped: bool) {
        self.push_part(name, escaped);
        let name_end = self.text.len();
        self.push_part(value, escaped);
        self.ends.push((name_end, self.text.len()));
    }

    fn push_part(&mut self, part: &str, escaped: bool) {
        if !escaped {
            self.text.push_str(part);
            return;
        }
        let spaced = part.replace('+', " ");
        self.text
            .push_str(&percent_encoding::percent_decode_str(&spaced).decode_utf8_lossy());
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

    #[test]
    fn pairs_read_as_the_form_encoding_reads_them() {
        let queries = [
            "",
            "&&",
            "a",
            "a=",
            "=",
            "a=b=c",
            "provider=demo&api_key=pc_key&mainref",
            "q=%2B1+2%202&x=%zz&y=%4&z=%C3%A9&bad=%FF%FE",
            "&a=1&&b=%26&",
            "plus+name=+&%3D=%3d",
        ];
        for query in queries {
            let ours: Vec<(String, String)> = QueryPairs::parse(Some(query))
                .iter()
                .map(|(n, v)| (n.to_owned(), v.to_owned()))
                .collect();
            let form: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
                .map(|(n, v)| (n.into_owned(), v.into_owned()))
                .collect();
            assert_eq!(ours, form, "{query}");
        }
    }
}
