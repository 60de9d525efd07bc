//! The HTTP server: poem on tokio, listening on every configured address, stopping gracefully
//! on SIGTERM or Ctrl-C and flushing the store before it exits.

mod health;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use poem::listener::{Listener, TcpListener};
use poem::{EndpointExt, Route, Server, get};

use crate::config::Settings;
use crate::store::Store;

/// What every handler can reach.
pub struct AppState {
    pub store: Arc<Store>,
    pub settings: Settings,
    ready: AtomicBool,
}

impl AppState {
    pub fn new(store: Arc<Store>, settings: Settings) -> Arc<AppState> {
        Arc::new(AppState {
            store,
            settings,
            ready: AtomicBool::new(false),
        })
    }

    pub fn is_ready(&self) -> bool {
        self.ready.load(Ordering::Acquire)
    }

    pub fn set_ready(&self) {
        self.ready.store(true, Ordering::Release);
    }
}

pub fn app(state: Arc<AppState>) -> impl poem::Endpoint {
    Route::new()
        .at("/health", get(health::health))
        .at("/ready", get(health::ready))
        .data(state)
}

/// Serves until SIGTERM or Ctrl-C, then lets running requests finish (up to 10 s).
pub async fn run(state: Arc<AppState>) -> std::io::Result<()> {
    let addresses = state.settings.listen.clone();
    // poem binds when it starts serving and its error does not say which address failed.
    for address in &addresses {
        std::net::TcpListener::bind(address).map_err(|e| {
            std::io::Error::new(e.kind(), format!("cannot listen on {address}: {e}"))
        })?;
    }
    let mut listener = TcpListener::bind(addresses[0]).boxed();
    for address in &addresses[1..] {
        listener = listener.combine(TcpListener::bind(*address)).boxed();
    }
    for address in &addresses {
        tracing::info!(%address, "listening");
    }
    Server::new(listener)
        .run_with_graceful_shutdown(app(state), shutdown_signal(), Some(Duration::from_secs(10)))
        .await
}

async fn shutdown_signal() {
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {},
        _ = terminate => {},
    }
    tracing::info!("shutting down");
}
