//! Who a call is made by once it is authenticated, and what that caller may do and see: the
//! one place scopes and brand visibility are decided, whatever protocol the call came in by.

use std::sync::Arc;

use super::ServiceError;
use crate::accounts::{ProviderRecord, Scope};
use crate::catalogue::ArticleKey;

/// The authenticated caller: its provider and the credential that admitted it.
#[derive(Debug, Clone)]
pub struct Caller {
    pub provider: Arc<ProviderRecord>,
    pub credential: Credential,
}

/// What admitted a call: the provider's own credentials, or a grant it handed an end user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credential {
    StaticKey,
    Whitelist,
    DynamicKey,
    AddressGrant,
    /// A media address an answer gave, signed for one file (`media_links`).
    SignedAddress,
}

impl Credential {
    /// The provider's own key or whitelisted address, not an end user's grant.
    pub fn is_static(self) -> bool {
        matches!(self, Credential::StaticKey | Credential::Whitelist)
    }
}

impl Caller {
    /// Whether the call may use the scope: its provider has it, and an end user's dynamic
    /// key, address grant or signed media address is limited to `read` (and `export` where the provider allows
    /// it), whatever else the provider may do.
    pub fn may_use(&self, scope: Scope) -> bool {
        let end_user_may = match scope {
            Scope::Read => true,
            Scope::Export => {
                self.provider.dynamic_export && self.credential != Credential::SignedAddress
            }
            Scope::Admin | Scope::Sync => false,
        };
        self.provider.scopes.contains(&scope) && (self.credential.is_static() || end_user_may)
    }

    /// The brands this caller may see; empty: every brand.
    pub fn brands(&self) -> &[u32] {
        &self.provider.brands
    }

    /// Refuses a brand this caller may not see.
    pub fn require_brand(&self, brand_id: u32) -> Result<(), ServiceError> {
        if self.provider.sees_brand(brand_id) {
            return Ok(());
        }
        Err(ServiceError::Forbidden(format!(
            "Access denied: provider `{}` may not see brand {brand_id}",
            self.provider.id
        )))
    }

    /// Keeps the articles of brands this caller may see.
    pub fn visible(&self, mut keys: Vec<ArticleKey>) -> Vec<ArticleKey> {
        keys.retain(|k| self.provider.sees_brand(k.brand_id));
        keys
    }
}
