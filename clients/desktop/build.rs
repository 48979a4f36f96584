fn main() {
    // Declaring the app's commands makes them subject to capabilities: only what
    // capabilities/default.json grants, to the bundled page in the main window, can call them.
    let commands = tauri_build::AppManifest::new().commands(&[
        "server_url",
        "credential_get",
        "credential_set",
        "credential_clear",
    ]);
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(commands)).expect("tauri build script");
}
