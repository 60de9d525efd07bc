//! A request's way through the server is one future, built and moved once per request: its
//! size is what each request copies. Eleven middleware layers made it 13,888 bytes; one
//! endpoint for every step (`src/server/passage.rs`) makes it about 4.3 KB.

use std::sync::Arc;

use partscat::config::Settings;
use partscat::server::{AppState, app};
use partscat::store::Store;

#[test]
fn a_request_s_future_stays_small() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open(dir.path()).unwrap());
    let settings = Settings {
        data_dir: dir.path().to_path_buf(),
        ..Default::default()
    };
    let app = app(AppState::new(store, settings));
    let req = poem::Request::builder().uri_str("/health").finish();
    let bytes = std::mem::size_of_val(&poem::Endpoint::call(&app, req));
    assert!(bytes < 8 * 1024, "a request's future holds {bytes} bytes");
}
