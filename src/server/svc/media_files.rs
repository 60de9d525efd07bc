//! `mediaFile`: an article's image, 360-degree frame or document, from the local media store
//! (the catalogue browser's pictures, and any integrator's). The rules are
//! `service::media_files`'.

use std::sync::Arc;

use poem::web::Data;
use poem::{IntoResponse, Response};
use poem_openapi::param::{Header, Path, Query};
use poem_openapi::registry::{
    MetaHeader, MetaMediaType, MetaResponse, MetaResponses, MetaSchema, MetaSchemaRef, Registry,
};
use poem_openapi::{ApiResponse, OpenApi};

use super::ApiTag;
use crate::media::MediaStore;
use crate::server::AppState;
use crate::server::auth::Credentials;
use crate::server::media_answer;
use crate::server::problem::{ApiError, Lookup, Problem};
use crate::service::context::Context;
use crate::service::media_files::{MediaFile, SAVED_ONLY, media_file};

pub struct MediaFileApi;

#[OpenApi(tag = "ApiTag::Lookups")]
impl MediaFileApi {
    /// An article's media file.
    ///
    /// The image, 360-degree frame or document `uri` names, as `getArticles` answers it
    /// (`images[].imageURL400`, `pdfs[].url`) for the article `articleId`, from the local
    /// media store (setting `media_dir`, filled by `apiDMM` with `download360`). Pictures and
    /// PDFs are answered with their type; a file of any other type as
    /// `application/octet-stream`, to save. Its `ETag` is the SHA-256 of its content.
    #[oai(
        path = "/svc/mediaFile/:articleId",
        method = "get",
        operation_id = "mediaFile"
    )]
    #[allow(clippy::too_many_arguments)]
    async fn media_file(
        &self,
        state: Data<&Arc<AppState>>,
        /// The article's `legacyArticleId`.
        #[oai(
            name = "articleId",
            example = "crate::server::svc::parameter_examples::article_id",
            validator(minimum(value = "1"), maximum(value = "2147483647"))
        )]
        article_id: Path<u32>,
        /// The file's URI, as `getArticles` names it.
        #[oai(
            example = "crate::server::svc::parameter_examples::media_uri",
            validator(min_length = 1, max_length = 1000)
        )]
        uri: Query<String>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        /// The `ETag` of a copy the client keeps: answered 304 while it is current.
        #[oai(name = "If-None-Match")]
        if_none_match: Header<Option<String>>,
        _credentials: Credentials,
        context: Data<&Context>,
    ) -> Result<MediaFileResponse, ApiError<Lookup>> {
        let (state, caller, article_id) = (state.0.clone(), context.caller().clone(), *article_id);
        // The entry's read and the file's checks touch the disk: off the async threads.
        let found = tokio::task::spawn_blocking(move || {
            let media = MediaStore::reading(&state.settings.media.dir);
            let max_bytes = state.settings.media.max_file_mb.saturating_mul(1024 * 1024);
            media_file(&state.store, &media, max_bytes, &caller, article_id, &uri)
        })
        .await
        .map_err(Problem::internal)??;
        Ok(MediaFileResponse::of(found, if_none_match.0.as_deref()))
    }
}

/// The file, streamed, or 304 where the client's copy is current.
pub struct MediaFileResponse(Response);

impl MediaFileResponse {
    fn of(found: MediaFile, if_none_match: Option<&str>) -> MediaFileResponse {
        MediaFileResponse(media_answer::answer(found, if_none_match))
    }
}

impl IntoResponse for MediaFileResponse {
    fn into_response(self) -> Response {
        self.0
    }
}

impl ApiResponse for MediaFileResponse {
    fn meta() -> MetaResponses {
        let etag = || MetaHeader {
            name: "ETag".into(),
            description: Some("The SHA-256 of the file's content, quoted.".into()),
            required: true,
            deprecated: false,
            schema: MetaSchemaRef::Inline(Box::new(MetaSchema::new("string"))),
        };
        let binary = |content_type| MetaMediaType {
            content_type,
            schema: MetaSchemaRef::Inline(Box::new(MetaSchema {
                format: Some("binary"),
                ..MetaSchema::new("string")
            })),
        };
        MetaResponses {
            responses: vec![
                MetaResponse {
                    description: "The file: a picture or a PDF with its type, anything else as bytes to save.",
                    status: Some(200),
                    status_range: None,
                    content: vec![
                        binary("image/*"),
                        binary("application/pdf"),
                        binary(SAVED_ONLY),
                    ],
                    headers: vec![etag()],
                },
                MetaResponse {
                    description: "The copy `If-None-Match` names is current.",
                    status: Some(304),
                    status_range: None,
                    content: vec![],
                    headers: vec![etag()],
                },
            ],
        }
    }

    fn register(_registry: &mut Registry) {}
}
