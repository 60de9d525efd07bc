//! `partscat admin`'s commands and flags.

use clap::{Args, Subcommand};

#[derive(Args)]
pub(crate) struct AdminArgs {
    #[command(flatten)]
    pub(crate) common: super::super::Common,
    /// Print answers as JSON.
    #[arg(long, global = true)]
    pub(crate) json: bool,
    #[command(subcommand)]
    pub(crate) command: AdminCommand,
}

#[derive(Subcommand)]
pub(crate) enum AdminCommand {
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
    /// Whether a provider's Pegasus calls that give a field TecDoc does not define are
    /// refused (true: 400 naming the field) or answered with the field ignored and named in
    /// the answer's `Partscat-Ignored-Fields` header (false, the default).
    Strict {
        /// The provider's id.
        provider: String,
        #[arg(value_name = "true|false", action = clap::ArgAction::Set)]
        strict: bool,
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
pub(crate) enum ProviderCommand {
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
        /// Refuse its Pegasus calls that give a field TecDoc does not define (400 naming it),
        /// rather than answer them with the field ignored: for a developer integrating.
        #[arg(long)]
        strict: bool,
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
pub(crate) enum KeyCommand {
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
pub(crate) enum WhitelistCommand {
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
