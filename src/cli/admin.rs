//! `partscat admin`: provider administration. Only one process can open the store, so while
//! the server runs these commands talk to its admin API over the Unix socket; when it is
//! stopped they work on the store directly. Both ways run the same `partscat::service::admin` calls.

use clap::{Args, Subcommand};
use serde::Serialize;
use serde::de::DeserializeOwned;

use partscat::catalogue::utc_timestamp;
use partscat::clock::SystemClock;
use partscat::config::Settings;
use partscat::service::admin::{self, Change, NewProvider, Operator, Outcome, ProviderView};
use partscat::store::{AuditEntry, Store, StoreError};

#[derive(Args)]
pub struct AdminArgs {
    #[command(flatten)]
    common: super::Common,
    /// Print answers as JSON.
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: AdminCommand,
}

#[derive(Subcommand)]
enum AdminCommand {
    /// Providers: the accounts clients authenticate as.
    Provider {
        #[command(subcommand)]
        command: ProviderCommand,
    },
    /// A provider's static keys.
    Key {
        #[command(subcommand)]
        command: KeyCommand,
    },
    /// IPv4 addresses and CIDR ranges a provider is admitted from without a key.
    Whitelist {
        #[command(subcommand)]
        command: WhitelistCommand,
    },
    /// Sets a provider's scopes: read (lookups, prices), export, admin.
    Scopes {
        /// The provider's id.
        provider: String,
        /// Comma-separated: read,export,admin.
        #[arg(value_delimiter = ',', required = true)]
        scopes: Vec<String>,
    },
    /// Restricts a provider to brands (comma-separated ids), or `all` to lift it.
    Brands {
        /// The provider's id.
        provider: String,
        /// Comma-separated brand ids, or `all`.
        #[arg(value_delimiter = ',', required = true)]
        brands: Vec<String>,
    },
    /// Sets a provider's limits.
    Limits {
        /// The provider's id.
        provider: String,
        /// The longest dynamic address grant it may issue (1 to 24 hours).
        #[arg(long, value_name = "HOURS")]
        max_grant_hours: Option<u8>,
        /// Requests a second; 0: the server's `rate_limit_per_second`.
        #[arg(long, value_name = "N")]
        rate_limit: Option<u32>,
        /// Whether its end users' dynamic keys and address grants may export too.
        #[arg(long, value_name = "true|false")]
        dynamic_export: Option<bool>,
    },
    /// Sets the numeric alias calls may name a provider by (TecDoc clients send the provider
    /// as an integer), or `none` to remove it.
    Number {
        /// The provider's id.
        provider: String,
        /// A positive integer, or `none`.
        number: String,
    },
    /// The audit trail of admin actions and grants, newest last.
    Audit {
        /// How many entries.
        #[arg(long, default_value_t = 50, value_name = "N")]
        limit: usize,
    },
}

#[derive(Subcommand)]
enum ProviderCommand {
    /// Creates a provider and prints its first key (shown once).
    Create {
        /// The new provider's id: what clients give as `provider`.
        id: String,
        /// Display name (default: the id).
        #[arg(long)]
        name: Option<String>,
        /// Comma-separated scopes.
        #[arg(long, value_delimiter = ',', default_value = "read")]
        scopes: Vec<String>,
        /// Comma-separated brand ids it may see (default: every brand).
        #[arg(long, value_delimiter = ',')]
        brands: Vec<u32>,
        /// Comma-separated IPv4 addresses or CIDR ranges admitted without a key.
        #[arg(long, value_delimiter = ',')]
        whitelist: Vec<String>,
        /// The longest dynamic address grant it may issue (1 to 24 hours; default 1).
        #[arg(long, value_name = "HOURS")]
        max_grant_hours: Option<u8>,
        /// Requests a second (default: the server's `rate_limit_per_second`).
        #[arg(long, value_name = "N")]
        rate_limit: Option<u32>,
        /// Let its end users' dynamic keys and address grants export too (they always read).
        #[arg(long)]
        dynamic_export: bool,
        /// A numeric alias calls may name it by (TecDoc clients send the provider as an
        /// integer).
        #[arg(long, value_name = "N")]
        number: Option<u32>,
        /// Make no key: the provider is admitted by its whitelist only.
        #[arg(long)]
        no_key: bool,
    },
    /// Lists every provider.
    List,
    /// Shows one provider.
    Show {
        /// The provider's id.
        id: String,
    },
    /// Stops a provider's keys, whitelist and grants from admitting anyone.
    Disable {
        /// The provider's id.
        id: String,
    },
    /// Lets a disabled provider in again.
    Enable {
        /// The provider's id.
        id: String,
    },
    /// Deletes a provider with its keys and grants.
    Delete {
        /// The provider's id.
        id: String,
    },
    /// Changes a provider's display name.
    Rename {
        /// The provider's id.
        id: String,
        /// The new display name.
        name: String,
    },
}

#[derive(Subcommand)]
enum KeyCommand {
    /// Adds a static key (for rotation) and prints it (shown once).
    Add {
        /// The provider's id.
        provider: String,
    },
    /// Revokes a key, named by its id (see `provider show`) or by the key itself.
    Revoke {
        /// The provider's id.
        provider: String,
        /// The key's id, the key itself, or an end user's dynamic key.
        key: String,
    },
}

#[derive(Subcommand)]
enum WhitelistCommand {
    /// Admits addresses or ranges without a key.
    Add {
        /// The provider's id.
        provider: String,
        /// IPv4 addresses or CIDR ranges (`192.168.1.20`, `10.0.0.0/24`).
        #[arg(required = true)]
        entries: Vec<String>,
    },
    /// Removes addresses or ranges.
    Remove {
        /// The provider's id.
        provider: String,
        /// Addresses or ranges as they were added.
        #[arg(required = true)]
        entries: Vec<String>,
    },
}

/// Where the calls go: the running server's admin socket, or the stopped server's store.
enum Backend {
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
pub(super) fn user_name() -> String {
    std::env::var("SUDO_USER")
        .or_else(|_| std::env::var("USER"))
        .or_else(|_| std::env::var("LOGNAME"))
        .unwrap_or_else(|_| "unknown".into())
}

impl Backend {
    fn open(settings: &Settings) -> Result<Backend, String> {
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
    fn call<T: DeserializeOwned>(
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

    fn get<T: DeserializeOwned>(&self, path: &str) -> Result<T, String> {
        let Backend::Server { client, operator } = self else {
            return Err("not connected to a server".into());
        };
        Self::call(client, operator, reqwest::Method::GET, path, None::<&()>)?
            .ok_or_else(|| "the admin API answered nothing".into())
    }

    fn send<T: DeserializeOwned>(
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

    fn create(&self, new: NewProvider) -> Result<Outcome, String> {
        match self {
            Backend::Store { store, operator } => {
                admin::create(store, &SystemClock, operator, new).map_err(|e| e.to_string())
            }
            Backend::Server { .. } => self
                .send(reqwest::Method::POST, "/admin/providers", Some(&new))?
                .ok_or_else(|| "the admin API answered nothing".into()),
        }
    }

    fn list(&self) -> Result<Vec<ProviderView>, String> {
        match self {
            Backend::Store { store, .. } => admin::list(store).map_err(|e| e.to_string()),
            Backend::Server { .. } => self.get("/admin/providers"),
        }
    }

    fn show(&self, id: &str) -> Result<ProviderView, String> {
        match self {
            Backend::Store { store, .. } => admin::show(store, id).map_err(|e| e.to_string()),
            Backend::Server { .. } => self.get(&provider_path(id)),
        }
    }

    fn change(&self, id: &str, change: Change) -> Result<Outcome, String> {
        match self {
            Backend::Store { store, operator } => {
                admin::change(store, &SystemClock, operator, id, change).map_err(|e| e.to_string())
            }
            Backend::Server { .. } => self
                .send(reqwest::Method::PATCH, &provider_path(id), Some(&change))?
                .ok_or_else(|| "the admin API answered nothing".into()),
        }
    }

    fn delete(&self, id: &str) -> Result<(), String> {
        match self {
            Backend::Store { store, operator } => {
                admin::delete(store, &SystemClock, operator, id).map_err(|e| e.to_string())
            }
            Backend::Server { .. } => self
                .send::<serde_json::Value>(reqwest::Method::DELETE, &provider_path(id), None::<&()>)
                .map(|_| ()),
        }
    }

    fn audit(&self, limit: usize) -> Result<Vec<AuditEntry>, String> {
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
fn provider_path(id: &str) -> String {
    let encoded: String = form_urlencoded::byte_serialize(id.as_bytes()).collect();
    format!("/admin/providers/{encoded}")
}

pub fn run(args: AdminArgs) -> Result<std::process::ExitCode, String> {
    let settings = super::settings(&args.common, super::ServeFlags::default())?;
    let backend = Backend::open(&settings)?;
    let json = args.json;
    match args.command {
        AdminCommand::Provider { command } => match command {
            ProviderCommand::Create {
                id,
                name,
                scopes,
                brands,
                whitelist,
                max_grant_hours,
                rate_limit,
                dynamic_export,
                number,
                no_key,
            } => {
                let outcome = backend.create(NewProvider {
                    id,
                    name,
                    scopes,
                    brands,
                    whitelist,
                    max_grant_hours,
                    rate_limit_per_second: rate_limit,
                    dynamic_export: Some(dynamic_export),
                    number,
                    with_key: !no_key,
                })?;
                print_outcome(&outcome, json)
            }
            ProviderCommand::List => print_either(json, &backend.list()?, |p| print_table(p)),
            ProviderCommand::Show { id } => print_either(json, &backend.show(&id)?, print_provider),
            ProviderCommand::Disable { id } => {
                print_outcome(&backend.change(&id, Change::Disable)?, json)
            }
            ProviderCommand::Enable { id } => {
                print_outcome(&backend.change(&id, Change::Enable)?, json)
            }
            ProviderCommand::Rename { id, name } => {
                print_outcome(&backend.change(&id, Change::Rename { name })?, json)
            }
            ProviderCommand::Delete { id } => {
                backend.delete(&id)?;
                print_either(json, &serde_json::json!({ "deleted": id }), |_| {
                    println!("deleted provider {id}, its keys and its grants")
                })
            }
        },
        AdminCommand::Key { command } => match command {
            KeyCommand::Add { provider } => {
                print_outcome(&backend.change(&provider, Change::AddKey)?, json)
            }
            KeyCommand::Revoke { provider, key } => {
                let outcome = backend.change(&provider, Change::RevokeKey { key })?;
                if !json {
                    println!("revoked");
                }
                print_outcome(&outcome, json)
            }
        },
        AdminCommand::Whitelist { command } => {
            let (provider, change) = match command {
                WhitelistCommand::Add { provider, entries } => {
                    (provider, Change::AddWhitelist { entries })
                }
                WhitelistCommand::Remove { provider, entries } => {
                    (provider, Change::RemoveWhitelist { entries })
                }
            };
            print_outcome(&backend.change(&provider, change)?, json)
        }
        AdminCommand::Scopes { provider, scopes } => print_outcome(
            &backend.change(&provider, Change::SetScopes { scopes })?,
            json,
        ),
        AdminCommand::Brands { provider, brands } => {
            let brands = parse_brands(&brands)?;
            print_outcome(
                &backend.change(&provider, Change::SetBrands { brands })?,
                json,
            )
        }
        AdminCommand::Limits {
            provider,
            max_grant_hours,
            rate_limit,
            dynamic_export,
        } => {
            if max_grant_hours.is_none() && rate_limit.is_none() && dynamic_export.is_none() {
                return Err("give --max-grant-hours, --rate-limit or --dynamic-export".into());
            }
            let change = Change::SetLimits {
                max_grant_hours,
                rate_limit_per_second: rate_limit,
                dynamic_export,
            };
            print_outcome(&backend.change(&provider, change)?, json)
        }
        AdminCommand::Number { provider, number } => {
            let number = match number.trim() {
                "none" => None,
                text => Some(text.parse::<u32>().map_err(|_| {
                    format!("'{number}' is not a provider number (a positive integer) or `none`")
                })?),
            };
            print_outcome(
                &backend.change(&provider, Change::SetNumber { number })?,
                json,
            )
        }
        AdminCommand::Audit { limit } => print_either(json, &backend.audit(limit)?, |entries| {
            for e in entries {
                println!(
                    "{}  {:<14} {:<18} {}  {}",
                    utc_timestamp(e.at),
                    e.action,
                    e.provider,
                    e.operator,
                    e.detail
                );
            }
        }),
    }?;
    Ok(std::process::ExitCode::SUCCESS)
}

/// `all` lifts the restriction; otherwise brand ids.
fn parse_brands(items: &[String]) -> Result<Vec<u32>, String> {
    if let [all] = items
        && all.trim() == "all"
    {
        return Ok(Vec::new());
    }
    items
        .iter()
        .map(|s| {
            s.trim()
                .parse::<u32>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("'{s}' is not a brand id (a positive integer) or `all`"))
        })
        .collect()
}

/// As JSON, or for people.
fn print_either<T: Serialize>(json: bool, value: &T, human: impl FnOnce(&T)) -> Result<(), String> {
    if json {
        print_json(value)
    } else {
        human(value);
        Ok(())
    }
}

fn print_json(value: &impl Serialize) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    println!("{text}");
    Ok(())
}

fn print_outcome(outcome: &Outcome, json: bool) -> Result<(), String> {
    if json {
        return print_json(outcome);
    }
    print_provider(&outcome.provider);
    if let Some(key) = &outcome.key {
        println!();
        println!("key: {key}");
        println!("(shown this once: the server keeps only its hash)");
    }
    Ok(())
}

fn or_all<T: ToString>(items: &[T], empty: &str) -> String {
    if items.is_empty() {
        empty.to_owned()
    } else {
        items
            .iter()
            .map(T::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn print_provider(p: &ProviderView) {
    println!("provider:          {}", p.id);
    println!("name:              {}", p.name);
    if let Some(number) = p.number {
        println!("number:            {number}");
    }
    println!(
        "enabled:           {}",
        if p.enabled { "yes" } else { "no" }
    );
    println!("scopes:            {}", p.scopes.join(", "));
    println!("keys:              {}", or_all(&p.keys, "none"));
    println!("brands:            {}", or_all(&p.brands, "all"));
    println!("whitelist:         {}", or_all(&p.whitelist, "none"));
    println!("max grant hours:   {}", p.max_grant_hours);
    let rate = match p.rate_limit_per_second {
        0 => "the server's".to_owned(),
        n => format!("{n}/s"),
    };
    println!("rate limit:        {rate}");
    println!(
        "end users export:  {}",
        if p.dynamic_export { "yes" } else { "no" }
    );
}

fn print_table(providers: &[ProviderView]) {
    let header = [
        "PROVIDER",
        "NUMBER",
        "ENABLED",
        "SCOPES",
        "KEYS",
        "BRANDS",
        "WHITELIST",
    ];
    let rows: Vec<[String; 7]> = providers
        .iter()
        .map(|p| {
            [
                p.id.clone(),
                p.number.map_or("-".into(), |n| n.to_string()),
                if p.enabled { "yes" } else { "no" }.to_owned(),
                p.scopes.join(","),
                p.keys.len().to_string(),
                or_all(&p.brands, "all"),
                or_all(&p.whitelist, "-"),
            ]
        })
        .collect();
    // Each column as wide as its widest cell, so long scope lists keep the columns aligned.
    let mut widths = header.map(str::len);
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 7]| {
        let mut text = String::new();
        for (i, (cell, width)) in cells.iter().zip(widths).enumerate() {
            match i {
                6 => text.push_str(cell),
                _ => text.push_str(&format!("{cell:<width$}  ")),
            }
        }
        println!("{}", text.trim_end());
    };
    line(header);
    for row in &rows {
        line(row.each_ref().map(String::as_str));
    }
}
