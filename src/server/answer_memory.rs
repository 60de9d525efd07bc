//! The memory each request's answer holds, counted from its first poll until its body has
//! gone out (`limits::in_flight`): the request's future counted as it runs, and a body that
//! keeps the count until hyper has taken its last frame.

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Frame, SizeHint};
use poem::{Body, Response};

use crate::limits::in_flight::{Held, SMALL_BYTES};

/// A body holding its request's count while it is sent; its length and frames unchanged.
struct HeldBody {
    inner: http_body_util::combinators::BoxBody<Bytes, std::io::Error>,
    _held: Held,
}

impl http_body::Body for HeldBody {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// The answer, its body keeping `held` until sent where it holds more than a lookup's
/// few kilobytes (a small one is given back at once, costing no wrapper).
pub fn held_until_sent(mut response: Response, held: Held) -> Response {
    if held.bytes() < SMALL_BYTES {
        return response;
    }
    let inner = response.take_body().into();
    response.set_body(Body::from(http_body_util::combinators::BoxBody::new(
        HeldBody { inner, _held: held },
    )));
    response
}
