//! `partscat admin`: provider administration. Only one process can open the store, so while
//! the server runs these commands talk to its admin API over the Unix socket; when it is
//! stopped they work on the store directly. Both ways run the same `partscat::service::admin` calls.

mod backend;
mod commands;

use serde::Serialize;

use backend::Backend;
pub(crate) use backend::user_name;
pub(crate) use commands::AdminArgs;
use commands::{AdminCommand, KeyCommand, ProviderCommand, WhitelistCommand};

use partscat::catalogue::utc_timestamp;
use partscat::service::admin::{Change, NewProvider, Outcome, ProviderView};
use partscat::store::AuditEntry;

pub fn run(args: AdminArgs) -> Result<std::process::ExitCode, String> {
    let settings = super::common_settings(&args.common)?;
    let backend = Backend::open(&settings)?;
    let json = args.json;
    match args.command {
        AdminCommand::Provider { command } => provider(&backend, command, json),
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
        AdminCommand::Strict { provider, strict } => print_outcome(
            &backend.change(&provider, Change::SetStrict { strict })?,
            json,
        ),
        AdminCommand::Number { provider, number } => {
            let number = parse_number(&number)?;
            print_outcome(
                &backend.change(&provider, Change::SetNumber { number })?,
                json,
            )
        }
        AdminCommand::Audit { limit } => {
            print_either(json, &backend.audit(limit)?, |e| print_audit(e))
        }
    }?;
    Ok(std::process::ExitCode::SUCCESS)
}

/// `provider …`: create, list, show, disable, enable, rename or delete one.
fn provider(backend: &Backend, command: ProviderCommand, json: bool) -> Result<(), String> {
    match command {
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
            strict,
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
                strict: Some(strict),
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
    }
}

/// A provider's number, or `none`.
fn parse_number(text: &str) -> Result<Option<u32>, String> {
    match text.trim() {
        "none" => Ok(None),
        number => number.parse::<u32>().map(Some).map_err(|_| {
            format!("'{text}' is not a provider number (a positive integer) or `none`")
        }),
    }
}

/// The audit trail, one entry a line.
fn print_audit(entries: &[AuditEntry]) {
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
    println!(
        "unknown fields:    {}",
        if p.strict {
            "refused (strict)"
        } else {
            "ignored and named"
        }
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
