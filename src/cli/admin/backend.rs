//! Where `partscat admin` acts: the running server's admin socket, or the store itself when
//! no server holds it.

use serde::Serialize;
use serde::de::DeserializeOwned;

use partscat::clock::SystemClock;
use partscat::config::Settings;
use partscat::service::admin::{self, Change, NewProvider, Operator, Outcome, ProviderView};
use partscat::store::{AuditEntry, Store, StoreError};

/// Where the calls go: the running server's admin socket, or the stopped server's store.
pub(super) enum Backend {
    Server {
        client: reqwest::blocking::Client,
        operator: String,
    },
    Store {
        store: Box<Store>,
        operator: Operator,
    },
}

/// The person at the terminal, for the audit trail.
pub(crate) fn user_name() -> String {
    std::env::var("SUDO_USER")
        .or_else(|_| std::env::var("USER"))
        .or_else(|_| std::env::var("LOGNAME"))
        .unwrap_or_else(|_| "unknown".into())
}

impl Backend {
    pub(super) fn open(settings: &Settings) -> Result<Backend, String> {
        let socket = settings.admin_socket_path();
        if let Some(path) = &socket
            && std::os::unix::net::UnixStream::connect(path).is_ok()
        {
            let client = reqwest::blocking::Client::builder()
                .unix_socket(path.as_path())
                .build()
                .map_err(|e| format!("cannot reach the admin socket {}: {e}", path.display()))?;
            return Ok(Backend::Server {
                client,
                operator: user_name(),
            });
        }
        let data = &settings.data_dir;
        if !partscat::store::exists_at(data) {
            return Err(format!(
                "there is no store at {} (and no server answers on its admin socket); pass --data or --config",
                data.display()
            ));
        }
        let store = Store::open(data).map_err(|e| match (e, &socket) {
            (StoreError::InUse(_), Some(path)) => format!(
                "the store at {} is in use by a running server, but nothing answers on the admin socket {}: is the server's admin_socket set differently?",
                data.display(),
                path.display()
            ),
            (e, _) => e.to_string(),
        })?;
        eprintln!(
            "(no server is running: working on the store at {} directly)",
            data.display()
        );
        Ok(Backend::Store {
            store: Box::new(store),
            operator: Operator(format!("command line ({})", user_name())),
        })
    }

    /// One call to the admin API; a problem+json answer becomes its `detail`.
    pub(super) fn call<T: DeserializeOwned>(
        client: &reqwest::blocking::Client,
        operator: &str,
        method: reqwest::Method,
        path: &str,
        body: Option<&impl Serialize>,
    ) -> Result<Option<T>, String> {
        let mut request = client
            .request(method, format!("http://partscat{path}"))
            .header("X-Partscat-Operator", operator);
        if let Some(body) = body {
            request = request.json(body);
        }
        let response = request
            .send()
            .map_err(|e| format!("the admin API did not answer: {e}"))?;
        let status = response.status();
        let text = response
            .text()
            .map_err(|e| format!("the admin API's answer cannot be read: {e}"))?;
        if !status.is_success() {
            let detail = serde_json::from_str::<serde_json::Value>(&text)
                .ok()
                .and_then(|v| v.get("detail")?.as_str().map(str::to_owned))
                .unwrap_or(text);
            return Err(detail);
        }
        if text.is_empty() {
            return Ok(None);
        }
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| format!("the admin API's answer cannot be read: {e}"))
    }

    pub(super) fn get<T: DeserializeOwned>(&self, path: &str) -> Result<T, String> {
        let Backend::Server { client, operator } = self else {
            return Err("not connected to a server".into());
        };
        Self::call(client, operator, reqwest::Method::GET, path, None::<&()>)?
            .ok_or_else(|| "the admin API answered nothing".into())
    }

    pub(super) fn send<T: DeserializeOwned>(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&impl Serialize>,
    ) -> Result<Option<T>, String> {
        let Backend::Server { client, operator } = self else {
            return Err("not connected to a server".into());
        };
        Self::call(client, operator, method, path, body)
    }

    pub(super) fn create(&self, new: NewProvider) -> Result<Outcome, String> {
        match self {
            Backend::Store { store, operator } => {
                admin::create(store, &SystemClock, operator, new).map_err(|e| e.to_string())
            }
            Backend::Server { .. } => self
                .send(reqwest::Method::POST, "/admin/providers", Some(&new))?
                .ok_or_else(|| "the admin API answered nothing".into()),
        }
    }

    pub(super) fn list(&self) -> Result<Vec<ProviderView>, String> {
        match self {
            Backend::Store { store, .. } => admin::list(store).map_err(|e| e.to_string()),
            Backend::Server { .. } => self.get("/admin/providers"),
        }
    }

    pub(super) fn show(&self, id: &str) -> Result<ProviderView, String> {
        match self {
            Backend::Store { store, .. } => admin::show(store, id).map_err(|e| e.to_string()),
            Backend::Server { .. } => self.get(&provider_path(id)),
        }
    }

    pub(super) fn change(&self, id: &str, change: Change) -> Result<Outcome, String> {
        match self {
            Backend::Store { store, operator } => {
                admin::change(store, &SystemClock, operator, id, change).map_err(|e| e.to_string())
            }
            Backend::Server { .. } => self
                .send(reqwest::Method::PATCH, &provider_path(id), Some(&change))?
                .ok_or_else(|| "the admin API answered nothing".into()),
        }
    }

    pub(super) fn delete(&self, id: &str) -> Result<(), String> {
        match self {
            Backend::Store { store, operator } => {
                admin::delete(store, &SystemClock, operator, id).map_err(|e| e.to_string())
            }
            Backend::Server { .. } => self
                .send::<serde_json::Value>(reqwest::Method::DELETE, &provider_path(id), None::<&()>)
                .map(|_| ()),
        }
    }

    pub(super) fn audit(&self, limit: usize) -> Result<Vec<AuditEntry>, String> {
        match self {
            Backend::Store { store, .. } => {
                admin::audit_trail(store, limit).map_err(|e| e.to_string())
            }
            Backend::Server { .. } => self.get(&format!("/admin/audit?limit={limit}")),
        }
    }
}

/// A provider's path; ids are letters, digits and `-_.`, but a mistyped one must not
/// become another path.
pub(super) fn provider_path(id: &str) -> String {
    let encoded: String = form_urlencoded::byte_serialize(id.as_bytes()).collect();
    format!("/admin/providers/{encoded}")
}
