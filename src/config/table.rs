//! Every setting, declared once: its key in the config file, its environment variable, its
//! default as the help shows it, and the one function that sets it from text. The file layer,
//! the environment layer, the help and the warnings about unknown names all come from these
//! rows; `Settings` holds the values.

use std::path::PathBuf;

pub use super::setting::Setting;
use super::setting::setting;
use super::values::*;

/// The server's, the catalogue's, the media store's and the bounds' settings, in the order of
/// the documented default file (`[sync]`'s are in `sync.rs`).
pub const SETTINGS: [Setting; 54] = [
    setting("listen", "PARTSCAT_LISTEN", "127.0.0.1:8080", |s, t| {
        s.listen = parse_listen(t)?;
        Ok(())
    }),
    setting("data_dir", "PARTSCAT_DATA", "partscat-data", |s, t| {
        s.data_dir = PathBuf::from(t);
        Ok(())
    }),
    setting("cache_mb", "PARTSCAT_CACHE_MB", "1024", |s, t| {
        s.cache_mb = parse_cache_mb(t)?;
        Ok(())
    }),
    setting("inbox", "PARTSCAT_INBOX", "<data_dir>-inbox", |s, t| {
        s.inbox = PathBuf::from(t);
        Ok(())
    }),
    setting(
        "import_wait_ms",
        "PARTSCAT_IMPORT_WAIT_MS",
        "2000",
        |s, t| {
            s.import_wait_ms = number(t, "a number of milliseconds")?;
            Ok(())
        },
    ),
    setting(
        "answer_cache_mb",
        "PARTSCAT_ANSWER_CACHE_MB",
        "128",
        |s, t| {
            s.answer_cache_mb = number(t, "a size in MiB")?;
            Ok(())
        },
    ),
    setting(
        "trusted_proxies",
        "PARTSCAT_TRUSTED_PROXIES",
        "none",
        |s, t| {
            s.trusted_proxies = parse_networks(t)?;
            Ok(())
        },
    ),
    setting("cors_origins", "PARTSCAT_CORS_ORIGINS", "none", |s, t| {
        s.cors_origins = parse_origins(t)?;
        Ok(())
    }),
    setting(
        "rate_limit_per_second",
        "PARTSCAT_RATE_LIMIT_PER_SECOND",
        "0 (no limit)",
        |s, t| {
            s.rate_limit_per_second = number(t, "a number of requests a second")?;
            Ok(())
        },
    ),
    setting(
        "admin_socket",
        "PARTSCAT_ADMIN_SOCKET",
        "<data_dir>/admin.sock",
        // Set empty, it means no admin socket at all.
        |s, t| {
            s.admin_socket = Some(PathBuf::from(t.trim()));
            Ok(())
        },
    ),
    setting(
        "audit_retention_days",
        "PARTSCAT_AUDIT_RETENTION_DAYS",
        "365",
        |s, t| {
            s.audit_retention_days = parse_retention(t)?;
            Ok(())
        },
    ),
    setting("metrics", "PARTSCAT_METRICS", "open", |s, t| {
        s.metrics = parse_metrics(t)?;
        Ok(())
    }),
    setting("log", "PARTSCAT_LOG", "info", |s, t| {
        s.log = t.to_owned();
        Ok(())
    }),
    setting("log_format", "PARTSCAT_LOG_FORMAT", "text", |s, t| {
        s.log_format = parse_log_format(t)?;
        Ok(())
    }),
    setting(
        "work_budget_ms",
        "PARTSCAT_WORK_BUDGET_MS",
        "10000",
        |s, t| {
            s.work_budget_ms = number(t, "a number of milliseconds")?;
            Ok(())
        },
    ),
    setting(
        "max_connections",
        "PARTSCAT_MAX_CONNECTIONS",
        "0 (from the open-file limit)",
        |s, t| {
            s.max_connections = number(t, "a number of connections")?;
            Ok(())
        },
    ),
    setting(
        "base_url",
        "PARTSCAT_BASE_URL",
        "the request's Host",
        |s, t| {
            s.base_url = parse_base_url(t)?;
            Ok(())
        },
    ),
    setting(
        "tls_cert",
        "PARTSCAT_TLS_CERT",
        "none (plain HTTP)",
        |s, t| {
            s.tls_cert = path(t);
            Ok(())
        },
    ),
    setting("tls_key", "PARTSCAT_TLS_KEY", "none", |s, t| {
        s.tls_key = path(t);
        Ok(())
    }),
    setting(
        "tls_self_signed",
        "PARTSCAT_TLS_SELF_SIGNED",
        "false (the packaged file: true)",
        |s, t| {
            s.tls_self_signed = boolean(t)?;
            Ok(())
        },
    ),
    setting("client_ca", "PARTSCAT_CLIENT_CA", "none", |s, t| {
        s.client_ca = path(t);
        Ok(())
    }),
    setting("soap_prefix", "PARTSCAT_SOAP_PREFIX", "/ws/3.0", |s, t| {
        s.soap_prefix = parse_prefix(t)?;
        Ok(())
    }),
    setting("brand_name", "PARTSCAT_BRAND_NAME", "Parts", |s, t| {
        s.brand_name = parse_brand_name(t)?;
        Ok(())
    }),
    setting("route_prefix", "PARTSCAT_ROUTE_PREFIX", "svc", |s, t| {
        s.route_prefix = parse_route_prefix(t)?;
        Ok(())
    }),
    setting("csv_bom", "PARTSCAT_CSV_BOM", "false", |s, t| {
        s.csv_bom = boolean(t)?;
        Ok(())
    }),
    setting(
        "csv_spreadsheet",
        "PARTSCAT_CSV_SPREADSHEET",
        "false",
        |s, t| {
            s.csv_spreadsheet = boolean(t)?;
            Ok(())
        },
    ),
    setting(
        "change_feed_versions",
        "PARTSCAT_CHANGE_FEED_VERSIONS",
        "100",
        |s, t| {
            s.change_feed.versions = at_least_one(t, "data versions")?;
            Ok(())
        },
    ),
    setting(
        "change_feed_days",
        "PARTSCAT_CHANGE_FEED_DAYS",
        "30",
        |s, t| {
            s.change_feed.days = at_least_one(t, "days")?;
            Ok(())
        },
    ),
    setting(
        "deliveries_dir",
        "PARTSCAT_DELIVERIES_DIR",
        "none",
        |s, t| {
            s.deliveries_dir = path(t);
            Ok(())
        },
    ),
    setting(
        "media_dir",
        "PARTSCAT_MEDIA_DIR",
        "<data_dir>-media",
        |s, t| {
            s.media.dir = PathBuf::from(t);
            Ok(())
        },
    ),
    setting("media_source", "PARTSCAT_MEDIA_SOURCE", "none", |s, t| {
        s.media.source = text(t);
        Ok(())
    }),
    setting(
        "media_ca_file",
        "PARTSCAT_MEDIA_CA_FILE",
        "none (the system's CAs)",
        |s, t| {
            s.media.source_trust.ca_file = path(t);
            Ok(())
        },
    ),
    setting(
        "media_pin_sha256",
        "PARTSCAT_MEDIA_PIN_SHA256",
        "none",
        |s, t| {
            s.media.source_trust.pin_sha256 = parse_pin(t)?;
            Ok(())
        },
    ),
    setting(
        "publish_target",
        "PARTSCAT_PUBLISH_TARGET",
        "none",
        |s, t| {
            s.media.publish_target = text(t);
            Ok(())
        },
    ),
    setting("publish_user", "PARTSCAT_PUBLISH_USER", "none", |s, t| {
        s.media.publish_user = text(t);
        Ok(())
    }),
    setting(
        "publish_password_file",
        "PARTSCAT_PUBLISH_PASSWORD_FILE",
        "none",
        |s, t| {
            s.media.publish_password_file = path(t);
            Ok(())
        },
    ),
    setting(
        "publish_ca_file",
        "PARTSCAT_PUBLISH_CA_FILE",
        "none (the system's CAs)",
        |s, t| {
            s.media.publish_trust.ca_file = path(t);
            Ok(())
        },
    ),
    setting(
        "publish_pin_sha256",
        "PARTSCAT_PUBLISH_PIN_SHA256",
        "none",
        |s, t| {
            s.media.publish_trust.pin_sha256 = parse_pin(t)?;
            Ok(())
        },
    ),
    setting(
        "media_download_images",
        "PARTSCAT_MEDIA_DOWNLOAD_IMAGES",
        "false",
        |s, t| {
            s.media.download_images = boolean(t)?;
            Ok(())
        },
    ),
    setting(
        "media_max_file_mb",
        "PARTSCAT_MEDIA_MAX_FILE_MB",
        "50",
        |s, t| {
            s.media.max_file_mb = u64::from(at_least_one(t, "MiB")?);
            Ok(())
        },
    ),
    setting(
        "media_concurrency",
        "PARTSCAT_MEDIA_CONCURRENCY",
        "4",
        |s, t| {
            s.media.concurrency = at_least_one(t, "downloads")?;
            Ok(())
        },
    ),
    setting(
        "catalogue.exhaust_genarts",
        "PARTSCAT_EXHAUST_GENARTS",
        "4000,4010,4020,4030,4040",
        |s, t| {
            s.exhaust_genarts = parse_genarts(t)?;
            Ok(())
        },
    ),
    setting(
        "catalogue.languages",
        "PARTSCAT_CATALOGUE_LANGUAGES",
        "en",
        |s, t| {
            s.catalogue_languages = parse_languages(t)?;
            s.catalogue_languages_set = true;
            Ok(())
        },
    ),
    setting(
        "catalogue.countries",
        "PARTSCAT_CATALOGUE_COUNTRIES",
        "none",
        |s, t| {
            s.catalogue_countries = parse_countries(t)?;
            Ok(())
        },
    ),
    // The bounds on what comes from outside; `Limits::set` knows each one's least value.
    setting(
        "limits.text_bytes",
        "PARTSCAT_LIMIT_TEXT_BYTES",
        "512",
        |s, t| s.limits.set("text_bytes", t),
    ),
    setting(
        "limits.number_bytes",
        "PARTSCAT_LIMIT_NUMBER_BYTES",
        "64",
        |s, t| s.limits.set("number_bytes", t),
    ),
    setting(
        "limits.uri_bytes",
        "PARTSCAT_LIMIT_URI_BYTES",
        "2048",
        |s, t| s.limits.set("uri_bytes", t),
    ),
    setting(
        "limits.row_bytes",
        "PARTSCAT_LIMIT_ROW_BYTES",
        "65536",
        |s, t| s.limits.set("row_bytes", t),
    ),
    setting(
        "limits.answer_mb",
        "PARTSCAT_LIMIT_ANSWER_MB",
        "64",
        |s, t| s.limits.set("answer_mb", t),
    ),
    setting(
        "limits.answers_in_flight_mb",
        "PARTSCAT_LIMIT_ANSWERS_IN_FLIGHT_MB",
        "512",
        |s, t| s.limits.set("answers_in_flight_mb", t),
    ),
    setting(
        "limits.feed_mb",
        "PARTSCAT_LIMIT_FEED_MB",
        "8192",
        |s, t| s.limits.set("feed_mb", t),
    ),
    setting(
        "limits.import_mb",
        "PARTSCAT_LIMIT_IMPORT_MB",
        "65536",
        |s, t| s.limits.set("import_mb", t),
    ),
    setting(
        "limits.transfer_deadline_s",
        "PARTSCAT_LIMIT_TRANSFER_DEADLINE_S",
        "3600",
        |s, t| s.limits.set("transfer_deadline_s", t),
    ),
    setting(
        "limits.transfer_min_rate_kib",
        "PARTSCAT_LIMIT_TRANSFER_MIN_RATE_KIB",
        "4",
        |s, t| s.limits.set("transfer_min_rate_kib", t),
    ),
];
