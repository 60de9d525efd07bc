//! The request's context on a `/svc` route whose answer holds texts: the gate built it (with
//! the language of the `lang` parameter or the `Accept-Language` header); as a handler's
//! parameter it declares `lang` in the document, so a route takes `lang` exactly where its
//! answer has texts to write in it, and the parameter check refuses it elsewhere.

use std::ops::Deref;

use poem::Request;
use poem_openapi::registry::{MetaParamIn, MetaSchema, MetaSchemaRef};
use poem_openapi::{ApiExtractor, ApiExtractorType, ExtractParamOptions};

use crate::server::problem::Problem;
use crate::service::context::Context;

/// The request's context, for a handler whose answer is written in the reader's language.
pub struct ReaderContext(Context);

impl Deref for ReaderContext {
    type Target = Context;

    fn deref(&self) -> &Context {
        &self.0
    }
}

impl<'a> ApiExtractor<'a> for ReaderContext {
    const TYPES: &'static [ApiExtractorType] = &[ApiExtractorType::Parameter];

    type ParamType = String;
    type ParamRawType = String;

    fn param_in() -> Option<MetaParamIn> {
        Some(MetaParamIn::Query)
    }

    fn param_schema_ref() -> Option<MetaSchemaRef> {
        Some(MetaSchemaRef::Inline(Box::new(MetaSchema {
            min_length: Some(2),
            max_length: Some(2),
            pattern: Some("^[A-Za-z]{2}$".into()),
            example: Some("en".into()),
            ..MetaSchema::new("string")
        })))
    }

    async fn from_request(
        request: &'a Request,
        _body: &mut poem::RequestBody,
        _param_opts: ExtractParamOptions<String>,
    ) -> poem::Result<ReaderContext> {
        context_of(request).map(ReaderContext)
    }
}

/// The context the gate kept with `request`.
pub fn context_of(request: &Request) -> poem::Result<Context> {
    request
        .extensions()
        .get::<Context>()
        .cloned()
        .ok_or_else(|| Problem::internal("request context missing").into())
}
