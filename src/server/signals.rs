//! The signals operators send: SIGTERM and SIGINT stop the server (running requests finish,
//! the admin socket is removed, the store flushed); SIGHUP reloads what can change while it
//! serves, which is the HTTPS certificate, its key and the client CA, and never stops it,
//! with HTTPS or without. Every other setting is read at start: it takes a restart.

use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::watch;

/// SIGHUPs received, as a count that reloaders watch (`TlsFiles::renewals`).
#[derive(Clone)]
pub struct Hangups(watch::Receiver<u64>);

impl Hangups {
    /// Takes SIGHUP over from its default (which ends the process) at once, and counts each
    /// one from then on; `https` says whether a reloader listens. Call it on the runtime,
    /// as early as the server starts.
    pub fn listen(https: bool) -> std::io::Result<Hangups> {
        let mut hangup = signal(SignalKind::hangup())?;
        let (count, counted) = watch::channel(0u64);
        tokio::spawn(async move {
            while hangup.recv().await.is_some() {
                if https {
                    tracing::info!(
                        "SIGHUP: reloading the TLS certificate, key and client CA; other settings take a restart"
                    );
                } else {
                    tracing::info!(
                        "SIGHUP: nothing to reload without HTTPS; settings take a restart"
                    );
                }
                count.send_modify(|n| *n += 1);
            }
        });
        Ok(Hangups(counted))
    }

    /// Waits for the next SIGHUP (pending for ever once none can come).
    pub async fn next(&mut self) {
        if self.0.changed().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// Waits for SIGTERM or SIGINT (Ctrl-C).
pub async fn stop_requested() {
    let terminate = async {
        match signal(SignalKind::terminate()) {
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
