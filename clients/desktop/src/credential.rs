//! The device's refresh credential for one server, in the OS keystore (Secret Service on Linux,
//! Keychain on macOS, Credential Manager on Windows). It is the only thing this app stores.

use keyring::{Entry, Error};

use crate::server::ServerUrl;

const SERVICE: &str = "dev.acc.desktop";

pub struct CredentialStore {
    entry: Entry,
}

impl CredentialStore {
    /// One entry per server origin, so signing in to a second server does not sign out of the first.
    pub fn for_server(server: &ServerUrl) -> Result<Self, Error> {
        Ok(Self { entry: Entry::new(SERVICE, server.as_str())? })
    }

    /// None when this device is signed out; a keystore failure is an error, not "signed out".
    pub fn get(&self) -> Result<Option<String>, Error> {
        match self.entry.get_password() {
            Ok(credential) => Ok(Some(credential)),
            Err(Error::NoEntry) => Ok(None),
            Err(e) => Err(e),
        }
    }

    pub fn set(&self, credential: &str) -> Result<(), Error> {
        // An empty secret would read back as signed in with nothing to refresh.
        if credential.is_empty() {
            return Err(Error::Invalid("credential".into(), "is empty".into()));
        }
        self.entry.set_password(credential)
    }

    /// Signing out twice, or on a device that never signed in, is not an error.
    pub fn clear(&self) -> Result<(), Error> {
        match self.entry.delete_credential() {
            Ok(()) | Err(Error::NoEntry) => Ok(()),
            Err(e) => Err(e),
        }
    }
}

// Most tests use keyring's mock store, which runs anywhere; the one marked `ignore` needs a real
// keystore, and build.sh runs it against gnome-keyring in a private D-Bus session.
#[cfg(test)]
mod tests {
    use super::*;
    use keyring::mock::MockCredential;

    fn store() -> CredentialStore {
        keyring::set_default_credential_builder(keyring::mock::default_credential_builder());
        CredentialStore::for_server(&ServerUrl::parse("https://acc.example.com").unwrap()).unwrap()
    }

    fn fail_next_call(store: &CredentialStore) {
        let mock = store.entry.get_credential().downcast_ref::<MockCredential>().unwrap();
        mock.set_error(Error::NoStorageAccess("locked".into()));
    }

    #[test]
    fn set_get_clear() {
        let store = store();
        assert_eq!(store.get().unwrap(), None);
        store.set("first").unwrap();
        store.set("rotated").unwrap();
        assert_eq!(store.get().unwrap().as_deref(), Some("rotated"));
        store.clear().unwrap();
        assert_eq!(store.get().unwrap(), None);
    }

    #[test]
    fn clearing_when_signed_out_succeeds() {
        let store = store();
        store.clear().unwrap();
        store.clear().unwrap();
    }

    #[test]
    fn an_empty_credential_is_refused() {
        let store = store();
        assert!(matches!(store.set(""), Err(Error::Invalid(..))));
        assert_eq!(store.get().unwrap(), None);
    }

    #[test]
    fn a_locked_keystore_is_an_error_not_signed_out() {
        let store = store();
        store.set("secret").unwrap();
        fail_next_call(&store);
        assert!(matches!(store.get(), Err(Error::NoStorageAccess(_))));
        fail_next_call(&store);
        assert!(matches!(store.clear(), Err(Error::NoStorageAccess(_))));
        assert_eq!(store.get().unwrap().as_deref(), Some("secret"));
    }

    #[test]
    #[ignore = "needs an OS keystore; build.sh runs it in a private D-Bus session with gnome-keyring"]
    fn the_os_keystore_keeps_the_credential() {
        // The platform's store by name, since the other tests may have made the mock the default.
        let open = || {
            let credential = keyring::default::default_credential_builder()
                .build(None, SERVICE, "https://keystore-test.invalid")
                .unwrap();
            CredentialStore { entry: Entry::new_with_credential(credential) }
        };
        let store = open();
        store.clear().unwrap();
        assert_eq!(store.get().unwrap(), None);
        store.set("first").unwrap();
        store.set("rotated").unwrap();
        // A second handle reads it back, so it was stored, not kept in memory.
        assert_eq!(open().get().unwrap().as_deref(), Some("rotated"));
        store.clear().unwrap();
        assert_eq!(open().get().unwrap(), None);
    }
}
