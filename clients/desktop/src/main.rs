//! Agent Control Center desktop app: the web client's bundle in a Tauri window. The page asks
//! this shell for the server's URL and keeps its refresh credential here (see README.md).

// No console window beside the app on Windows.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod credential;
mod server;

use std::sync::Arc;

use credential::CredentialStore;
use server::{Command, ServerUrl, USAGE};
use tauri::State;

type Store = Arc<CredentialStore>;

#[tauri::command]
fn server_url(server: State<'_, ServerUrl>) -> String {
    server.as_str().to_owned()
}

#[tauri::command]
async fn credential_get(store: State<'_, Store>) -> Result<Option<String>, String> {
    let store = Arc::clone(&store);
    keystore(move || store.get()).await
}

#[tauri::command]
async fn credential_set(store: State<'_, Store>, credential: String) -> Result<(), String> {
    let store = Arc::clone(&store);
    keystore(move || store.set(&credential)).await
}

#[tauri::command]
async fn credential_clear(store: State<'_, Store>) -> Result<(), String> {
    let store = Arc::clone(&store);
    keystore(move || store.clear()).await
}

/// Keystore calls block (D-Bus, Keychain), so they run off the UI and async threads.
async fn keystore<T: Send + 'static>(
    call: impl FnOnce() -> Result<T, keyring::Error> + Send + 'static,
) -> Result<T, String> {
    match tauri::async_runtime::spawn_blocking(call).await {
        Ok(result) => result.map_err(|e| format!("keystore: {e}")),
        Err(e) => Err(format!("keystore: {e}")),
    }
}

fn main() {
    let server = match server::parse_args(std::env::args().skip(1), std::env::var("ACC_SERVER_URL").ok()) {
        Ok(Command::Run(server)) => server,
        Ok(Command::Help) => {
            println!("{USAGE}");
            return;
        }
        Err(message) => {
            eprintln!("acc-desktop: {message}\n{USAGE}");
            std::process::exit(2);
        }
    };
    let store = match CredentialStore::for_server(&server) {
        Ok(store) => Arc::new(store),
        Err(e) => {
            eprintln!("acc-desktop: keystore: {e}");
            std::process::exit(1);
        }
    };
    tauri::Builder::default()
        .manage(server)
        .manage(store)
        .invoke_handler(tauri::generate_handler![server_url, credential_get, credential_set, credential_clear])
        .run(tauri::generate_context!())
        .expect("the desktop app failed to start");
}
