//! `serve`: the certificate checked, the store opened, the inbox and the demo prepared, then
//! the server run until it is stopped.

use std::process::ExitCode;
use std::sync::Arc;

use partscat::config::Settings;
use partscat::import;
use partscat::store::{self, Store};
use partscat::{demo, server};

use super::open_store;

/// Creates the import inbox if it is missing and says where it is; a server that cannot
/// create it still serves (its imports answer that the file is missing there).
fn prepare_inbox(inbox: &std::path::Path) {
    match std::fs::create_dir_all(inbox) {
        Ok(()) => tracing::info!(inbox = %inbox.display(), "import inbox"),
        Err(e) => tracing::warn!(
            inbox = %inbox.display(),
            error = %e,
            "the import inbox cannot be created; importArticles will find no files"
        ),
    }
}

/// What `--demo` does before the server starts: the demo's files into an empty inbox, and
/// the demo provider (created on the store's first start, kept after), with its key printed.
fn prepare_demo(store: &Store, settings: &Settings, demo_key: Option<&str>) -> Result<(), String> {
    match demo::seed_inbox(&settings.inbox) {
        Ok(0) => {}
        Ok(files) => tracing::info!(
            files,
            inbox = %settings.inbox.display(),
            "the demo catalogue's files are in the empty import inbox, for importArticles to try"
        ),
        Err(e) => tracing::warn!(error = %e, "the demo files could not be put into the inbox"),
    }
    let outcome = demo::prepare_demo_provider(store, &partscat::clock::SystemClock, demo_key)
        .map_err(|e| e.to_string())?;
    let number = store
        .provider(demo::DEMO_PROVIDER)
        .map_err(|e| e.to_string())?
        .and_then(|record| record.number);
    match number {
        Some(number) => println!(
            "demo provider:      {} (or {number}, for clients that send an integer)",
            demo::DEMO_PROVIDER
        ),
        None => println!("demo provider:      {}", demo::DEMO_PROVIDER),
    }
    match outcome {
        demo::DemoKey::Created(key) | demo::DemoKey::Kept(key) => {
            println!("demo key:           {key}")
        }
        demo::DemoKey::Added(key) => println!("demo key:           {key} (added)"),
        demo::DemoKey::Unchanged => println!(
            "demo key:           unchanged (the one printed when this store was first served; --demo-key KEY adds one)"
        ),
    }
    Ok(())
}

pub(super) fn serve(
    mut settings: Settings,
    demo: bool,
    demo_key: Option<String>,
) -> Result<ExitCode, String> {
    // The demo catalogue holds its texts in four languages: served in all of them unless
    // the settings name others than the default English alone.
    if demo && settings.catalogue_languages == ["en"] {
        settings.catalogue_languages = demo::DEMO_LANGUAGES.map(str::to_owned).to_vec();
    }
    // SIGHUP reloads; it never ends the process, not even while the store opens.
    let runtime =
        tokio::runtime::Runtime::new().map_err(|e| format!("cannot start the runtime: {e}"))?;
    let hangups = runtime
        .block_on(async { server::signals::Hangups::listen(settings.https()) })
        .map_err(|e| format!("cannot take SIGHUP: {e}"))?;
    // The certificate checked before anything is bound or opened: a wrong file stops here.
    let self_signed = settings.tls_cert.is_none() && settings.tls_self_signed;
    if let Some(files) = server::tls_files(&settings).filter(|_| !self_signed) {
        files.load()?;
        println!("HTTPS certificate:  SHA-256 {}", files.fingerprint()?);
    }
    // Bound before the store is opened or created: a busy port leaves nothing behind.
    let listeners = server::bind(&settings.listen).map_err(|e| e.to_string())?;
    let store = Arc::new(open_store(&settings)?);
    if let Some(files) = server::tls_files(&settings).filter(|_| self_signed) {
        let made = server::self_signed::ensure(
            &settings.data_dir,
            &settings.listen,
            settings.base_url.as_deref(),
        )?;
        files.load()?;
        println!(
            "HTTPS certificate:  SHA-256 {} (self-signed{}, {})",
            files.fingerprint()?,
            if made { ", made now" } else { "" },
            files.cert.display()
        );
    }
    partscat::limits::set_answer_bytes(settings.limits.answer_bytes());
    partscat::limits::in_flight::set_in_flight_bytes(settings.limits.answers_in_flight_bytes());
    // A store whose blocks do not decode would answer every lookup with a 500: refused.
    store::check::probe(&store).map_err(|e| {
        format!(
            "the store at {} is damaged ({e}); `partscat check` lists what, and `partscat restore` brings a backup back",
            settings.data_dir.display()
        )
    })?;
    tracing::info!(data = %settings.data_dir.display(), "store open");
    for wide in store::wider_than_owner(&settings.data_dir) {
        tracing::warn!(
            path = %wide.display(),
            "others than the owner may read this part of the store (it holds key hashes, grants and the audit trail): chmod go-rwx"
        );
    }
    prepare_inbox(&settings.inbox);
    if demo {
        prepare_demo(&store, &settings, demo_key.as_deref())?;
    }
    for line in server::addresses::startup_lines(&settings) {
        println!("{line}");
    }
    let state = server::AppState::new(store.clone(), settings);
    let result = runtime.block_on(async {
        let loader = state.clone();
        tokio::task::spawn_blocking(move || load_then_ready(loader, demo));
        server::run(state, listeners, hangups).await
    });
    store.flush().map_err(|e| e.to_string())?;
    result.map_err(|e| e.to_string())?;
    tracing::info!("stopped; the store is flushed");
    Ok(ExitCode::SUCCESS)
}

/// The demo's pictures into the media store where it lacks them, once the demo catalogue is
/// loaded into a new store (a store that holds another catalogue gets none): the catalogue
/// browser shows images and 360-degree sets with no media source. Where one is set, the
/// files are its to give (`apiDMM` with `download360` fetches them).
fn draw_demo_pictures(state: &server::AppState) {
    if state.settings.media.source.is_some() {
        return;
    }
    let dir = &state.settings.media.dir;
    let drawn = partscat::media::MediaStore::open(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))
        .and_then(|media| demo::fill_media_store(&state.store, &media));
    match drawn {
        Ok(0) => {}
        Ok(pictures) => tracing::info!(
            pictures,
            media_dir = %dir.display(),
            "the demo catalogue's pictures are drawn into the media store"
        ),
        Err(e) => tracing::warn!(error = %e, "the demo pictures could not be drawn"),
    }
}

/// Loads the demo catalogue if asked (and draws its pictures), reads every table's block
/// index (no lookup waits for one), then says ready.
fn load_then_ready(loader: Arc<server::AppState>, demo: bool) {
    if demo {
        loader.set_loading("loading the demo catalogue");
        match demo::load_demo_catalogue(&loader.store, &import::Quiet) {
            Ok(Some(report)) => {
                tracing::info!("demo catalogue loaded: {}", report.verdict_line());
                loader.set_loading("drawing the demo catalogue's pictures");
                draw_demo_pictures(&loader);
            }
            Ok(None) => tracing::info!(
                "the store holds a catalogue already; the demo catalogue was not loaded"
            ),
            Err(e) => {
                tracing::error!("the demo catalogue could not be loaded: {e}");
                return;
            }
        }
    }
    // No lookup waits for a table's block index: all are read before ready.
    let started = std::time::Instant::now();
    loader.set_loading("reading the block index of every table");
    match loader.store.catalogue().warm() {
        Ok(()) => tracing::info!(
            seconds = started.elapsed().as_secs_f64(),
            "read the block index of every table"
        ),
        Err(e) => tracing::warn!("a table's block index could not be read: {e}"),
    }
    loader.set_ready();
}
