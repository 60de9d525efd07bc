//! `partscat media`: which media files of the catalogue the local media store holds and
//! which it lacks, asked of the running server over its admin socket, or read from the
//! store directly when it is stopped.

use std::process::ExitCode;

use partscat::config::Settings;
use partscat::media::MediaStore;
use partscat::service::media_inventory;
use serde_json::Value;

pub fn run(
    settings: Settings,
    brand: Option<u32>,
    list: usize,
    json: bool,
) -> Result<ExitCode, String> {
    let inventory = match super::server_job::admin_client(settings.admin_socket_path().as_deref())?
    {
        Some(client) => {
            let brand = brand.map(|b| format!("&brand={b}")).unwrap_or_default();
            super::server_job::call(
                client.get(format!("http://partscat/admin/media?list={list}{brand}")),
            )?
        }
        None => {
            let media = MediaStore::reading(&settings.media.dir);
            let store = super::open_store(&settings)?;
            if let Some(brand) = brand
                && store
                    .catalogue()
                    .brand(brand)
                    .map_err(|e| e.to_string())?
                    .is_none()
            {
                return Err(format!("no brand has the id {brand}"));
            }
            let found = media_inventory::inventory(&store, &media, brand, list)
                .map_err(|e| e.to_string())?;
            serde_json::to_value(found).map_err(|e| e.to_string())?
        }
    };
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&inventory).map_err(|e| e.to_string())?
        );
    } else {
        print_inventory(&inventory);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_inventory(inventory: &Value) {
    println!(
        "media store {}",
        inventory["mediaDir"].as_str().unwrap_or("?")
    );
    println!(
        "{:<10} {:>10} {:>10} {:>10}",
        "kind", "entries", "present", "missing"
    );
    for k in inventory["kinds"].as_array().into_iter().flatten() {
        println!(
            "{:<10} {:>10} {:>10} {:>10}",
            k["kind"].as_str().unwrap_or("?"),
            k["entries"].as_u64().unwrap_or(0),
            k["present"].as_u64().unwrap_or(0),
            k["missing"].as_u64().unwrap_or(0)
        );
    }
    for m in inventory["missing"].as_array().into_iter().flatten() {
        println!(
            "missing: brand {} {} {}: {}",
            m["brandId"],
            m["reference"].as_str().unwrap_or("?"),
            m["kind"].as_str().unwrap_or("?"),
            m["uri"].as_str().unwrap_or("?")
        );
    }
}
