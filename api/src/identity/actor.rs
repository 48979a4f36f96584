//! Who is calling, and what they may do: roles bound at organization, workspace or project scope.
//!
//! Every service method takes an [`Actor`] and asks it, through [`Actor::authorize`], for the
//! permission it needs on a [`ScopePath`]. The answer hides other tenants: an object of another
//! organization, or one the caller cannot even read, is `NOT_FOUND`, never `FORBIDDEN`.

use std::fmt;
use std::str::FromStr;

use uuid::Uuid;

use crate::error::CommonError;

/// Roles in rising order of power: a role can do everything the roles before it can.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Viewer,
    Member,
    Operator,
    Admin,
    Owner,
}

impl Role {
    pub const ALL: [Role; 5] = [Role::Viewer, Role::Member, Role::Operator, Role::Admin, Role::Owner];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Viewer => "viewer",
            Role::Member => "member",
            Role::Operator => "operator",
            Role::Admin => "admin",
            Role::Owner => "owner",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = CommonError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Role::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| CommonError::validation(format!("unknown role `{s}`")))
    }
}

/// What an operation needs; each maps to the least role that grants it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permission {
    /// See the object and everything under it.
    Read,
    /// Create and change tasks, criteria and dependencies.
    WriteTasks,
    /// Start, cancel and steer runs.
    OperateRuns,
    /// Create and change projects and workspaces, settings, members and their roles.
    Administer,
    /// Grant or revoke the owner role.
    Own,
}

impl Permission {
    fn least_role(self) -> Role {
        match self {
            Permission::Read => Role::Viewer,
            Permission::WriteTasks => Role::Member,
            Permission::OperateRuns => Role::Operator,
            Permission::Administer => Role::Admin,
            Permission::Own => Role::Owner,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScopeKind {
    Organization,
    Workspace,
    Project,
}

impl ScopeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ScopeKind::Organization => "organization",
            ScopeKind::Workspace => "workspace",
            ScopeKind::Project => "project",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [ScopeKind::Organization, ScopeKind::Workspace, ScopeKind::Project].into_iter().find(|k| k.as_str() == s)
    }
}

/// Where an object lives: its organization and, when it has them, workspace and project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScopePath {
    pub organization_id: Uuid,
    pub workspace_id: Option<Uuid>,
    pub project_id: Option<Uuid>,
}

impl ScopePath {
    pub fn organization(organization_id: Uuid) -> Self {
        Self { organization_id, workspace_id: None, project_id: None }
    }

    pub fn workspace(organization_id: Uuid, workspace_id: Uuid) -> Self {
        Self { organization_id, workspace_id: Some(workspace_id), project_id: None }
    }

    pub fn project(organization_id: Uuid, workspace_id: Uuid, project_id: Uuid) -> Self {
        Self { organization_id, workspace_id: Some(workspace_id), project_id: Some(project_id) }
    }

    fn contains(&self, grant: &Grant) -> bool {
        match grant.scope_kind {
            ScopeKind::Organization => grant.scope_id == self.organization_id,
            ScopeKind::Workspace => Some(grant.scope_id) == self.workspace_id,
            ScopeKind::Project => Some(grant.scope_id) == self.project_id,
        }
    }
}

/// A role binding as the actor carries it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Grant {
    pub role: Role,
    pub scope_kind: ScopeKind,
    pub scope_id: Uuid,
}

/// An authenticated caller: a signed-in user, or an integrator's API token acting for one.
#[derive(Debug, Clone)]
pub struct Actor {
    pub user_id: Uuid,
    pub organization_id: Uuid,
    /// The device session of an access token; `None` for API tokens.
    pub session_id: Option<Uuid>,
    /// The API token an integrator authenticated with; `None` for a session.
    pub api_token_id: Option<Uuid>,
    pub server_admin: bool,
    pub grants: Vec<Grant>,
    /// An API token's ceiling: the caller never acts above this role, whatever its grants.
    pub role_ceiling: Option<Role>,
}

impl Actor {
    /// The strongest role the actor holds anywhere on `path`, capped by its token's ceiling.
    pub fn role_on(&self, path: &ScopePath) -> Option<Role> {
        if path.organization_id != self.organization_id {
            return None;
        }
        let role = self.grants.iter().filter(|g| path.contains(g)).map(|g| g.role).max()?;
        Some(match self.role_ceiling {
            Some(ceiling) => role.min(ceiling),
            None => role,
        })
    }

    /// Grants `permission` on `path`, or says why not without revealing what the caller cannot see.
    pub fn authorize(&self, permission: Permission, path: &ScopePath, what: &'static str) -> Result<(), CommonError> {
        match self.role_on(path) {
            None => Err(CommonError::NotFound(what)),
            Some(role) if role >= permission.least_role() => Ok(()),
            Some(role) => Err(CommonError::Forbidden(format!(
                "the {role} role cannot do this; it needs {}",
                permission.least_role()
            ))),
        }
    }

    /// Server administration (creating organizations) belongs to server administrators using a session.
    pub fn authorize_server_admin(&self) -> Result<(), CommonError> {
        if self.server_admin && self.role_ceiling.is_none() {
            Ok(())
        } else {
            Err(CommonError::Forbidden("only a server administrator can do this".into()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::new_id;

    fn actor(grants: Vec<Grant>, ceiling: Option<Role>) -> Actor {
        Actor {
            user_id: new_id(),
            organization_id: ORG.with(|o| *o),
            session_id: None,
            api_token_id: None,
            server_admin: false,
            grants,
            role_ceiling: ceiling,
        }
    }

    thread_local!(static ORG: Uuid = new_id());

    #[test]
    fn narrower_scope_inherits_broader_grants_not_the_reverse() {
        let org = ORG.with(|o| *o);
        let (ws, project, other_project) = (new_id(), new_id(), new_id());
        let a = actor(vec![Grant { role: Role::Member, scope_kind: ScopeKind::Project, scope_id: project }], None);
        assert!(a.authorize(Permission::WriteTasks, &ScopePath::project(org, ws, project), "task").is_ok());
        assert!(matches!(
            a.authorize(Permission::Read, &ScopePath::project(org, ws, other_project), "task"),
            Err(CommonError::NotFound(_))
        ));
        assert!(matches!(
            a.authorize(Permission::Read, &ScopePath::workspace(org, ws), "workspace"),
            Err(CommonError::NotFound(_))
        ));
        let admin = actor(vec![Grant { role: Role::Admin, scope_kind: ScopeKind::Organization, scope_id: org }], None);
        assert!(admin.authorize(Permission::Administer, &ScopePath::project(org, ws, project), "project").is_ok());
    }

    #[test]
    fn weaker_role_is_forbidden_and_other_tenant_not_found() {
        let org = ORG.with(|o| *o);
        let viewer =
            actor(vec![Grant { role: Role::Viewer, scope_kind: ScopeKind::Organization, scope_id: org }], None);
        assert!(matches!(
            viewer.authorize(Permission::WriteTasks, &ScopePath::organization(org), "task"),
            Err(CommonError::Forbidden(_))
        ));
        assert!(matches!(
            viewer.authorize(Permission::Read, &ScopePath::organization(new_id()), "task"),
            Err(CommonError::NotFound(_))
        ));
    }

    #[test]
    fn token_ceiling_caps_the_role() {
        let org = ORG.with(|o| *o);
        let owner_with_read_token = actor(
            vec![Grant { role: Role::Owner, scope_kind: ScopeKind::Organization, scope_id: org }],
            Some(Role::Viewer),
        );
        assert!(owner_with_read_token.authorize(Permission::Read, &ScopePath::organization(org), "x").is_ok());
        assert!(owner_with_read_token.authorize(Permission::WriteTasks, &ScopePath::organization(org), "x").is_err());
    }
}
