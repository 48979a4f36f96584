/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  mutation Logout {\n    logout\n  }\n": typeof types.LogoutDocument,
    "\n  fragment NotificationItem on Notification {\n    id\n    kind\n    title\n    body\n    subjectId\n    createdAt\n    readAt\n  }\n": typeof types.NotificationItemFragmentDoc,
    "\n  query Bell {\n    unreadNotificationCount\n    notifications(last: 20) {\n      nodes {\n        ...NotificationItem\n      }\n    }\n  }\n": typeof types.BellDocument,
    "\n  subscription NotificationAdded {\n    notificationAdded {\n      id\n    }\n  }\n": typeof types.NotificationAddedDocument,
    "\n  mutation MarkNotificationsRead($ids: [ID!]) {\n    markNotificationsRead(ids: $ids)\n  }\n": typeof types.MarkNotificationsReadDocument,
    "\n  fragment AuthTokens on AuthPayload {\n    accessToken\n    accessTokenExpiresAt\n    refreshToken\n  }\n": typeof types.AuthTokensFragmentDoc,
    "\n  mutation RefreshSession($refreshToken: String!) {\n    refreshSession(refreshToken: $refreshToken) {\n      ...AuthTokens\n    }\n  }\n": typeof types.RefreshSessionDocument,
    "\n  subscription RunEvents($runId: ID!, $after: String) {\n    runEvents(runId: $runId, after: $after) {\n      sequence\n      kind\n      data\n      occurredAt\n    }\n  }\n": typeof types.RunEventsDocument,
    "\n  query Viewer {\n    viewer {\n      id\n      email\n      displayName\n      organization {\n        id\n        name\n      }\n    }\n  }\n": typeof types.ViewerDocument,
    "\n  subscription ApprovalNotices {\n    approvalUpdated {\n      ...ApprovalItem\n    }\n  }\n": typeof types.ApprovalNoticesDocument,
    "\n  subscription RunNotices($projectId: ID!) {\n    runUpdated(projectId: $projectId) {\n      ...RunSummary\n      task {\n        id\n        title\n      }\n    }\n  }\n": typeof types.RunNoticesDocument,
    "\n  fragment ConnectorFields on Connector {\n    id\n    name\n    online\n    health\n    version\n    lastSeenAt\n    revokedAt\n  }\n": typeof types.ConnectorFieldsFragmentDoc,
    "\n  query Connectors($workspaceId: ID!) {\n    connectors(workspaceId: $workspaceId) {\n      ...ConnectorFields\n    }\n  }\n": typeof types.ConnectorsDocument,
    "\n  subscription ConnectorStatus($workspaceId: ID!) {\n    connectorStatus(workspaceId: $workspaceId) {\n      ...ConnectorFields\n    }\n  }\n": typeof types.ConnectorStatusDocument,
    "\n  mutation RevokeConnector($id: ID!) {\n    revokeConnector(id: $id) {\n      ...ConnectorFields\n    }\n  }\n": typeof types.RevokeConnectorDocument,
    "\n  mutation RemoveConnector($id: ID!) {\n    removeConnector(id: $id) {\n      ...ConnectorFields\n    }\n  }\n": typeof types.RemoveConnectorDocument,
    "\n  mutation CreateEnrollmentToken($workspaceId: ID!, $name: String!, $expiresIn: Int!) {\n    createEnrollmentToken(workspaceId: $workspaceId, name: $name, expiresIn: $expiresIn) {\n      token\n      enrollmentToken {\n        id\n        name\n        expiresAt\n      }\n    }\n  }\n": typeof types.CreateEnrollmentTokenDocument,
    "\n  fragment ApprovalItem on Approval {\n    id\n    subject\n    action\n    reason\n    details\n    status\n    expiresAt\n    createdAt\n    decisionReason\n    run {\n      # Not the run's status: an approval can be delivered with an older snapshot of its run\n      # than the run's own updates, and the cache would take the older one.\n      id\n      task {\n        id\n        title\n        project {\n          id\n          name\n        }\n      }\n      agent {\n        id\n        name\n      }\n    }\n    requestedBy {\n      id\n      email\n    }\n    wikiRevision {\n      id\n      number\n      title\n      path\n    }\n    wikiPage {\n      id\n    }\n  }\n": typeof types.ApprovalItemFragmentDoc,
    "\n  query Approvals {\n    approvals(first: 100) {\n      nodes {\n        ...ApprovalItem\n      }\n    }\n  }\n": typeof types.ApprovalsDocument,
    "\n  mutation DecideApproval($approvalId: ID!, $decision: ApprovalDecision!, $reason: String) {\n    decideApproval(approvalId: $approvalId, decision: $decision, reason: $reason) {\n      ...ApprovalItem\n    }\n  }\n": typeof types.DecideApprovalDocument,
    "\n  fragment ArtifactVersionItem on ArtifactVersion {\n    id\n    number\n    sha256\n    sizeBytes\n    mediaType\n    runId\n    createdAt\n    downloadPath\n  }\n": typeof types.ArtifactVersionItemFragmentDoc,
    "\n  query AuditEvents($before: String, $actions: [AuditAction!]) {\n    auditEvents(last: 50, before: $before, filter: { actions: $actions }) {\n      pageInfo {\n        hasPreviousPage\n        startCursor\n      }\n      nodes {\n        id\n        sequence\n        occurredAt\n        actorKind\n        actor {\n          id\n          email\n          displayName\n        }\n        action\n        targetKind\n        correlationId\n        details\n      }\n    }\n  }\n": typeof types.AuditEventsDocument,
    "\n  query VerifyAudit {\n    verifyAudit {\n      intact\n      events\n      checkpoints\n      firstBroken {\n        sequence\n        problem\n      }\n    }\n  }\n": typeof types.VerifyAuditDocument,
    "\n  fragment TaskCard on Task {\n    id\n    title\n    status\n    priority\n    labels\n    revision\n    dependencies {\n      id\n      title\n      status\n    }\n    acceptanceCriteria {\n      id\n      met\n    }\n    assignee {\n      id\n      displayName\n      email\n    }\n    latestRun {\n      id\n      status\n      # With its status always, so that an older answer does not win over a newer update (api/cache.ts).\n      updatedAt\n    }\n  }\n": typeof types.TaskCardFragmentDoc,
    "\n  query Board($projectId: ID!) {\n    node(id: $projectId) {\n      __typename\n      ... on Project {\n        id\n        name\n        workspace {\n          id\n          name\n        }\n      }\n    }\n    tasks(projectId: $projectId, first: 100) {\n      nodes {\n        ...TaskCard\n      }\n      pageInfo {\n        hasNextPage\n      }\n    }\n  }\n": typeof types.BoardDocument,
    "\n  subscription TaskEvents($projectId: ID!) {\n    taskEvents(projectId: $projectId) {\n      kind\n      taskId\n      task {\n        ...TaskCard\n      }\n    }\n  }\n": typeof types.TaskEventsDocument,
    "\n  mutation UpdateTaskStatus($id: ID!, $expectedRevision: Int!, $status: TaskStatus!) {\n    updateTask(input: { id: $id, expectedRevision: $expectedRevision, status: $status }) {\n      ...TaskCard\n    }\n  }\n": typeof types.UpdateTaskStatusDocument,
    "\n  mutation CreateTask($input: CreateTaskInput!) {\n    createTask(input: $input) {\n      ...TaskCard\n    }\n  }\n": typeof types.CreateTaskDocument,
    "\n  fragment CandidateItem on Candidate {\n    id\n    status\n    expectedRevision\n    settingsPatch\n    comparison\n    receipt\n    decisionReason\n    createdAt\n    baseline {\n      settings\n      skills {\n        id\n      }\n    }\n    candidate {\n      settings\n      skills {\n        id\n      }\n    }\n    baselineRun {\n      id\n      status\n      task {\n        id\n        project {\n          id\n        }\n      }\n    }\n    candidateRun {\n      id\n      status\n    }\n  }\n": typeof types.CandidateItemFragmentDoc,
    "\n  query CandidateScope($scopeId: ID!) {\n    candidates(scopeId: $scopeId) {\n      ...CandidateItem\n    }\n    effectiveSettings(scopeId: $scopeId) {\n      layers {\n        scopeId\n        revision\n      }\n    }\n    skillActivations(scopeId: $scopeId) {\n      id\n      status\n      scopeId\n      version {\n        id\n        skillId\n      }\n    }\n    skills(first: 50) {\n      nodes {\n        id\n        name\n        versions {\n          id\n          number\n          reviewState\n          hasScripts\n        }\n      }\n    }\n  }\n": typeof types.CandidateScopeDocument,
    "\n  query CandidateProjectWork($projectId: ID!) {\n    tasks(projectId: $projectId, first: 50) {\n      nodes {\n        id\n        title\n      }\n    }\n    agents(projectId: $projectId) {\n      id\n      name\n      online\n    }\n  }\n": typeof types.CandidateProjectWorkDocument,
    "\n  mutation ProposeCandidate($scopeId: ID!, $expectedRevision: Int!, $patch: CandidatePatchInput!) {\n    proposeCandidate(scopeId: $scopeId, expectedRevision: $expectedRevision, patch: $patch) {\n      ...CandidateItem\n    }\n  }\n": typeof types.ProposeCandidateDocument,
    "\n  mutation PrepareCandidate($candidateId: ID!, $taskId: ID!, $agentId: ID!) {\n    prepareCandidate(candidateId: $candidateId, taskId: $taskId, agentId: $agentId) {\n      ...CandidateItem\n    }\n  }\n": typeof types.PrepareCandidateDocument,
    "\n  mutation CompareCandidate($candidateId: ID!) {\n    compareCandidate(candidateId: $candidateId) {\n      ...CandidateItem\n    }\n  }\n": typeof types.CompareCandidateDocument,
    "\n  mutation DecideCandidate($candidateId: ID!, $decision: ApprovalDecision!, $reason: String) {\n    decideCandidate(candidateId: $candidateId, decision: $decision, reason: $reason) {\n      ...CandidateItem\n    }\n  }\n": typeof types.DecideCandidateDocument,
    "\n  mutation ApplyCandidate($candidateId: ID!) {\n    applyCandidate(candidateId: $candidateId) {\n      ...CandidateItem\n    }\n  }\n": typeof types.ApplyCandidateDocument,
    "\n  query FirstTask($projectId: ID!) {\n    tasks(projectId: $projectId, first: 1) {\n      nodes {\n        id\n      }\n    }\n  }\n": typeof types.FirstTaskDocument,
    "\n  query AnyRun {\n    runs(last: 1) {\n      edges {\n        node {\n          id\n        }\n      }\n    }\n  }\n": typeof types.AnyRunDocument,
    "\n  query AllConnectors {\n    connectors {\n      ...ConnectorFields\n      workspaceId\n    }\n  }\n": typeof types.AllConnectorsDocument,
    "\n  fragment HomeRun on TaskRun {\n    ...RunSummary\n    task {\n      id\n      title\n      project {\n        id\n        name\n      }\n    }\n  }\n": typeof types.HomeRunFragmentDoc,
    "\n  query HomeRuns($live: [RunStatus!]!, $failed: [RunStatus!]!, $recent: Int!) {\n    inProgress: runs(filter: { status: $live }, last: 100) {\n      edges {\n        node {\n          ...HomeRun\n        }\n      }\n    }\n    failures: runs(filter: { status: $failed, latestOfTask: true }, last: $recent) {\n      edges {\n        node {\n          ...HomeRun\n        }\n      }\n    }\n  }\n": typeof types.HomeRunsDocument,
    "\n  fragment MemoryEntryItem on MemoryEntry {\n    id\n    scopeKind\n    scopeId\n    kind\n    subject\n    revision\n    updatedAt\n    current {\n      id\n      number\n      content\n      verification\n    }\n  }\n": typeof types.MemoryEntryItemFragmentDoc,
    "\n  query MemoryRoles {\n    viewer {\n      id\n      roleBindings {\n        id\n        role\n        scopeId\n      }\n    }\n  }\n": typeof types.MemoryRolesDocument,
    "\n  query MemorySearch($scopeId: ID!, $query: String, $kinds: [MemoryKind!], $verification: [MemoryVerification!], $asOf: DateTime) {\n    memoryRetrievalMode\n    memory(scopeId: $scopeId, query: $query, kinds: $kinds, verification: $verification, asOf: $asOf) {\n      foundBy\n      entry {\n        ...MemoryEntryItem\n      }\n    }\n  }\n": typeof types.MemorySearchDocument,
    "\n  subscription MemoryUpdated($scopeId: ID!) {\n    memoryUpdated(scopeId: $scopeId) {\n      ...MemoryEntryItem\n    }\n  }\n": typeof types.MemoryUpdatedDocument,
    "\n  mutation WriteMemory($input: WriteMemoryInput!) {\n    writeMemory(input: $input) {\n      entry {\n        ...MemoryEntryItem\n      }\n      version {\n        id\n        number\n      }\n      conflict {\n        id\n      }\n    }\n  }\n": typeof types.WriteMemoryDocument,
    "\n  fragment MemoryVersionItem on MemoryVersion {\n    id\n    number\n    content\n    verification\n    sensitivity\n    createdById\n    createdAt\n    becameCurrentAt\n    verifiedById\n    verifiedAt\n  }\n": typeof types.MemoryVersionItemFragmentDoc,
    "\n  fragment MemoryConflictItem on MemoryConflict {\n    id\n    entryId\n    currentVersionId\n    proposedVersionId\n    status\n    resolution\n    resolvedById\n    resolvedAt\n    revision\n    createdAt\n  }\n": typeof types.MemoryConflictItemFragmentDoc,
    "\n  query MemoryEntryDetail($id: ID!) {\n    memoryEntry(id: $id) {\n      ...MemoryEntryItem\n      current {\n        ...MemoryVersionItem\n      }\n      versions {\n        ...MemoryVersionItem\n      }\n      conflicts {\n        ...MemoryConflictItem\n      }\n    }\n  }\n": typeof types.MemoryEntryDetailDocument,
    "\n  query PeopleNames {\n    users(first: 100) {\n      nodes {\n        id\n        displayName\n        email\n      }\n    }\n  }\n": typeof types.PeopleNamesDocument,
    "\n  mutation VerifyMemory($entryId: ID!, $expectedRevision: Int!, $verdict: MemoryVerdict!) {\n    verifyMemory(entryId: $entryId, expectedRevision: $expectedRevision, verdict: $verdict) {\n      ...MemoryEntryItem\n      current {\n        ...MemoryVersionItem\n      }\n    }\n  }\n": typeof types.VerifyMemoryDocument,
    "\n  mutation RetractMemory($entryId: ID!, $expectedRevision: Int!) {\n    retractMemory(entryId: $entryId, expectedRevision: $expectedRevision) {\n      ...MemoryEntryItem\n      current {\n        ...MemoryVersionItem\n      }\n    }\n  }\n": typeof types.RetractMemoryDocument,
    "\n  mutation ResolveMemoryConflict($conflictId: ID!, $expectedRevision: Int!, $resolution: MemoryConflictResolution!) {\n    resolveMemoryConflict(conflictId: $conflictId, expectedRevision: $expectedRevision, resolution: $resolution) {\n      ...MemoryConflictItem\n    }\n  }\n": typeof types.ResolveMemoryConflictDocument,
    "\n  query NotificationsPage {\n    notificationSettings {\n      emailAvailable\n      emailAddress\n      webPushPublicKey\n      pushDevices\n      preferences {\n        kind\n        channel\n        enabled\n      }\n    }\n    notifications(last: 100) {\n      nodes {\n        ...NotificationItem\n      }\n    }\n  }\n": typeof types.NotificationsPageDocument,
    "\n  mutation SetNotificationPreference($kind: NotificationKind!, $channel: NotificationChannel!, $enabled: Boolean!) {\n    setNotificationPreference(kind: $kind, channel: $channel, enabled: $enabled) {\n      kind\n      channel\n      enabled\n    }\n  }\n": typeof types.SetNotificationPreferenceDocument,
    "\n  mutation RegisterPushSubscription($endpoint: String!, $p256dh: String!, $auth: String!) {\n    registerPushSubscription(endpoint: $endpoint, p256dh: $p256dh, auth: $auth)\n  }\n": typeof types.RegisterPushSubscriptionDocument,
    "\n  mutation RemovePushSubscription($endpoint: String!) {\n    removePushSubscription(endpoint: $endpoint)\n  }\n": typeof types.RemovePushSubscriptionDocument,
    "\n  query People {\n    viewer {\n      id\n    }\n    users(first: 100) {\n      nodes {\n        id\n        email\n        displayName\n        disabled\n        roleBindings {\n          role\n        }\n      }\n      pageInfo {\n        hasNextPage\n      }\n    }\n  }\n": typeof types.PeopleDocument,
    "\n  mutation SetUserDisabled($id: ID!, $disabled: Boolean!) {\n    setUserDisabled(id: $id, disabled: $disabled) {\n      id\n      disabled\n    }\n  }\n": typeof types.SetUserDisabledDocument,
    "\n  query RunContext($runId: ID!) {\n    runContext(runId: $runId) {\n      runId\n      tokenBudget\n      tokensUsed\n      bundleHash\n      bundle\n      createdAt\n      items {\n        kind\n        source\n        title\n        contentHash\n        tokens\n        included\n        redactions\n      }\n    }\n  }\n": typeof types.RunContextDocument,
    "\n  query RunFiles($runId: ID!) {\n    node(id: $runId) {\n      __typename\n      ... on TaskRun {\n        id\n        artifacts {\n          id\n          name\n          versions {\n            ...ArtifactVersionItem\n          }\n        }\n      }\n    }\n  }\n": typeof types.RunFilesDocument,
    "\n  query Run($id: ID!) {\n    node(id: $id) {\n      __typename\n      ... on TaskRun {\n        ...RunDetail\n        skills {\n          name\n          number\n          digest\n        }\n      }\n    }\n  }\n": typeof types.RunDocument,
    "\n  fragment RunDetail on TaskRun {\n    id\n    status\n    statusReason\n    revision\n    input\n    maxAttempts\n    createdAt\n    updatedAt\n    task {\n      id\n      title\n      project {\n        id\n        name\n        workspace {\n          id\n          name\n        }\n      }\n    }\n    agent {\n      id\n      name\n      capabilities\n    }\n    handoffTarget {\n      id\n      name\n    }\n    requestedAgent {\n      id\n    }\n    attempts {\n      number\n      kind\n      status\n      agent {\n        id\n        name\n      }\n      leaseExpiresAt\n      endedAt\n      createdAt\n    }\n    approvals {\n      ...ApprovalItem\n    }\n    checkpoints {\n      reason\n      createdAt\n      targetAgent {\n        name\n      }\n    }\n  }\n": typeof types.RunDetailFragmentDoc,
    "\n  subscription RunLive($projectId: ID!) {\n    runUpdated(projectId: $projectId) {\n      ...RunDetail\n    }\n  }\n": typeof types.RunLiveDocument,
    "\n  mutation CancelRun($runId: ID!) {\n    cancelRun(runId: $runId) {\n      ...RunDetail\n    }\n  }\n": typeof types.CancelRunDocument,
    "\n  mutation RequestCheckpoint($runId: ID!, $reason: String) {\n    requestCheckpoint(runId: $runId, reason: $reason) {\n      ...RunDetail\n    }\n  }\n": typeof types.RequestCheckpointDocument,
    "\n  mutation RequestHandoff($runId: ID!, $targetAgentId: ID!, $reason: String) {\n    requestHandoff(runId: $runId, targetAgentId: $targetAgentId, reason: $reason) {\n      ...RunDetail\n    }\n  }\n": typeof types.RequestHandoffDocument,
    "\n  query Sessions {\n    sessions(first: 100) {\n      nodes {\n        id\n        deviceName\n        clientAddress\n        createdAt\n        lastUsedAt\n        revokedAt\n        revokedReason\n        current\n      }\n    }\n  }\n": typeof types.SessionsDocument,
    "\n  mutation RevokeSession($id: ID!) {\n    revokeSession(id: $id) {\n      id\n      revokedAt\n      revokedReason\n    }\n  }\n": typeof types.RevokeSessionDocument,
    "\n  query EffectiveSettings($scopeId: ID!) {\n    effectiveSettings(scopeId: $scopeId) {\n      scopeId\n      entries {\n        key\n        value\n        sourceScopeId\n        sourceScopeKind\n      }\n      layers {\n        scopeId\n        scopeKind\n        revision\n        settings\n      }\n    }\n  }\n": typeof types.EffectiveSettingsDocument,
    "\n  query KnownSettings {\n    knownSettings {\n      key\n      type\n      default\n      minimum\n      maximum\n      description\n    }\n  }\n": typeof types.KnownSettingsDocument,
    "\n  mutation SetSettings($scopeId: ID!, $patch: JSON!, $expectedRevision: Int!) {\n    setSettings(scopeId: $scopeId, patch: $patch, expectedRevision: $expectedRevision) {\n      id\n      scopeId\n      revision\n      settings\n    }\n  }\n": typeof types.SetSettingsDocument,
    "\n  query BootstrapRequired {\n    bootstrapRequired\n    signInProviders {\n      id\n      name\n    }\n  }\n": typeof types.BootstrapRequiredDocument,
    "\n  mutation BeginOidcSignIn($provider: String!, $redirectUri: String!) {\n    beginOidcSignIn(provider: $provider, redirectUri: $redirectUri) {\n      authorizationUrl\n      flow\n    }\n  }\n": typeof types.BeginOidcSignInDocument,
    "\n  mutation CompleteOidcSignIn($flow: String!, $code: String!, $state: String!, $issuer: String, $deviceName: String) {\n    completeOidcSignIn(flow: $flow, code: $code, state: $state, issuer: $issuer, deviceName: $deviceName) {\n      ...AuthTokens\n    }\n  }\n": typeof types.CompleteOidcSignInDocument,
    "\n  mutation Login($email: String!, $password: String!, $deviceName: String) {\n    login(email: $email, password: $password, deviceName: $deviceName) {\n      ...AuthTokens\n    }\n  }\n": typeof types.LoginDocument,
    "\n  mutation RedeemBootstrap(\n    $code: String!\n    $organizationName: String!\n    $email: String!\n    $password: String!\n    $displayName: String\n  ) {\n    redeemBootstrap(\n      code: $code\n      organizationName: $organizationName\n      email: $email\n      password: $password\n      displayName: $displayName\n    ) {\n      ...AuthTokens\n    }\n  }\n": typeof types.RedeemBootstrapDocument,
    "\n  fragment SkillVersionItem on SkillVersion {\n    id\n    number\n    description\n    digest\n    hasScripts\n    reviewState\n    reviewReason\n    signatureStatus\n    signerKeyId\n    createdAt\n    files {\n      path\n    }\n  }\n": typeof types.SkillVersionItemFragmentDoc,
    "\n  query Skills($after: String) {\n    skills(first: 20, after: $after) {\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        name\n        versions {\n          ...SkillVersionItem\n        }\n      }\n    }\n  }\n": typeof types.SkillsDocument,
    "\n  query SkillPublisherKeys {\n    skillPublisherKeys {\n      id\n      name\n      keyId\n      revokedAt\n    }\n  }\n": typeof types.SkillPublisherKeysDocument,
    "\n  query SkillActivations($scopeId: ID!) {\n    skillActivations(scopeId: $scopeId) {\n      id\n      status\n      scopeId\n      version {\n        id\n        number\n        skillId\n        description\n      }\n    }\n  }\n": typeof types.SkillActivationsDocument,
    "\n  mutation ReviewSkillVersion($versionId: ID!, $decision: ApprovalDecision!, $reason: String) {\n    reviewSkillVersion(versionId: $versionId, decision: $decision, reason: $reason) {\n      ...SkillVersionItem\n    }\n  }\n": typeof types.ReviewSkillVersionDocument,
    "\n  mutation RequestSkillReview($versionId: ID!) {\n    requestSkillReview(versionId: $versionId) {\n      ...SkillVersionItem\n    }\n  }\n": typeof types.RequestSkillReviewDocument,
    "\n  mutation RevokeSkillVersion($versionId: ID!, $reason: String) {\n    revokeSkillVersion(versionId: $versionId, reason: $reason) {\n      ...SkillVersionItem\n    }\n  }\n": typeof types.RevokeSkillVersionDocument,
    "\n  mutation ActivateSkill($versionId: ID!, $scopeId: ID!) {\n    activateSkill(versionId: $versionId, scopeId: $scopeId) {\n      activation {\n        id\n        status\n      }\n      approval {\n        id\n      }\n    }\n  }\n": typeof types.ActivateSkillDocument,
    "\n  mutation DeactivateSkill($activationId: ID!) {\n    deactivateSkill(activationId: $activationId) {\n      id\n      status\n    }\n  }\n": typeof types.DeactivateSkillDocument,
    "\n  mutation TrustSkillPublisherKey($name: String!, $publicKey: String!) {\n    trustSkillPublisherKey(name: $name, publicKey: $publicKey) {\n      id\n      name\n      keyId\n      revokedAt\n    }\n  }\n": typeof types.TrustSkillPublisherKeyDocument,
    "\n  mutation RevokeSkillPublisherKey($keyId: ID!) {\n    revokeSkillPublisherKey(keyId: $keyId) {\n      id\n      revokedAt\n    }\n  }\n": typeof types.RevokeSkillPublisherKeyDocument,
    "\n  query TaskArtifacts($projectId: ID!, $taskId: ID!) {\n    artifacts(projectId: $projectId, taskId: $taskId, first: 50) {\n      pageInfo {\n        hasNextPage\n      }\n      nodes {\n        id\n        name\n        revision\n        updatedAt\n        latest {\n          ...ArtifactVersionItem\n        }\n        versions {\n          ...ArtifactVersionItem\n        }\n      }\n    }\n  }\n": typeof types.TaskArtifactsDocument,
    "\n  query Task($id: ID!) {\n    node(id: $id) {\n      __typename\n      ... on Task {\n        ...TaskCard\n        description\n        createdAt\n        updatedAt\n        runs {\n          ...RunSummary\n        }\n        project {\n          id\n          name\n          workspace {\n            id\n            name\n          }\n        }\n        dependents {\n          id\n          title\n          status\n        }\n        acceptanceCriteria {\n          id\n          description\n          met\n          revision\n        }\n      }\n    }\n  }\n": typeof types.TaskDocument,
    "\n  fragment RunSummary on TaskRun {\n    id\n    status\n    statusReason\n    createdAt\n    updatedAt\n    agent {\n      id\n      name\n    }\n  }\n": typeof types.RunSummaryFragmentDoc,
    "\n  query ProjectTaskTitles($projectId: ID!) {\n    tasks(projectId: $projectId, first: 100) {\n      nodes {\n        id\n        title\n        dependencies {\n          id\n        }\n      }\n    }\n  }\n": typeof types.ProjectTaskTitlesDocument,
    "\n  query Agents($projectId: ID!) {\n    agents(projectId: $projectId) {\n      id\n      name\n      adapter\n      adapterVersion\n      runtimeVersion\n      capabilities\n      online\n      connector {\n        id\n        name\n      }\n    }\n  }\n": typeof types.AgentsDocument,
    "\n  subscription RunUpdated($projectId: ID!) {\n    runUpdated(projectId: $projectId) {\n      ...RunSummary\n      task {\n        id\n        title\n      }\n    }\n  }\n": typeof types.RunUpdatedDocument,
    "\n  mutation SetCriterionMet($id: ID!, $met: Boolean!, $expectedRevision: Int) {\n    setAcceptanceCriterionMet(id: $id, met: $met, expectedRevision: $expectedRevision) {\n      id\n      met\n      revision\n    }\n  }\n": typeof types.SetCriterionMetDocument,
    "\n  mutation AddCriterion($taskId: ID!, $description: String!) {\n    addAcceptanceCriterion(taskId: $taskId, description: $description) {\n      id\n      description\n      met\n      revision\n    }\n  }\n": typeof types.AddCriterionDocument,
    "\n  mutation AddDependency($taskId: ID!, $dependsOnId: ID!) {\n    addTaskDependency(taskId: $taskId, dependsOnId: $dependsOnId) {\n      ...TaskCard\n    }\n  }\n": typeof types.AddDependencyDocument,
    "\n  mutation RemoveDependency($taskId: ID!, $dependsOnId: ID!) {\n    removeTaskDependency(taskId: $taskId, dependsOnId: $dependsOnId) {\n      ...TaskCard\n    }\n  }\n": typeof types.RemoveDependencyDocument,
    "\n  mutation EditTask($input: UpdateTaskInput!) {\n    updateTask(input: $input) {\n      ...TaskCard\n      description\n    }\n  }\n": typeof types.EditTaskDocument,
    "\n  mutation DeleteTask($id: ID!, $expectedRevision: Int) {\n    deleteTask(id: $id, expectedRevision: $expectedRevision)\n  }\n": typeof types.DeleteTaskDocument,
    "\n  mutation StartRun($taskId: ID!, $agentId: ID, $input: JSON) {\n    startRun(taskId: $taskId, agentId: $agentId, input: $input) {\n      ...RunSummary\n    }\n  }\n": typeof types.StartRunDocument,
    "\n  query UsageSummary($scopeId: ID!, $from: DateTime!, $to: DateTime!, $groupBy: UsageGrouping!) {\n    usageSummary(scopeId: $scopeId, from: $from, to: $to, groupBy: $groupBy) {\n      total {\n        runs\n        requests\n        inputTokens\n        outputTokens\n        tokens\n        costUsd\n        cost\n      }\n      groups {\n        key\n        label\n        totals {\n          runs\n          inputTokens\n          outputTokens\n          tokens\n          costUsd\n          cost\n        }\n      }\n    }\n    days: usageSummary(scopeId: $scopeId, from: $from, to: $to, groupBy: DAY) {\n      groups {\n        key\n        totals {\n          inputTokens\n          outputTokens\n        }\n      }\n    }\n  }\n": typeof types.UsageSummaryDocument,
    "\n  query UsageRunStatistics($filter: RunFilter!) {\n    runStatistics(filter: $filter) {\n      total {\n        runs\n        finished\n        medianDurationMs\n        p95DurationMs\n        byStatus {\n          status\n          count\n        }\n      }\n    }\n  }\n": typeof types.UsageRunStatisticsDocument,
    "\n  query BudgetPolicies($scopeId: ID!) {\n    budgetPolicies(scopeId: $scopeId) {\n      id\n      scopeId\n      period\n      maxTokens\n      maxCostUsd\n      usedTokens\n      usedCostUsd\n      exceeded\n      periodEnd\n    }\n  }\n": typeof types.BudgetPoliciesDocument,
    "\n  mutation SetBudgetPolicy($scopeId: ID!, $period: BudgetPeriod!, $maxTokens: Int, $maxCostUsd: Float) {\n    setBudgetPolicy(scopeId: $scopeId, period: $period, maxTokens: $maxTokens, maxCostUsd: $maxCostUsd) {\n      id\n    }\n  }\n": typeof types.SetBudgetPolicyDocument,
    "\n  mutation RemoveBudgetPolicy($id: ID!) {\n    removeBudgetPolicy(id: $id)\n  }\n": typeof types.RemoveBudgetPolicyDocument,
    "\n  query UsageRoles {\n    viewer {\n      id\n      roleBindings {\n        id\n        role\n        scopeId\n      }\n    }\n  }\n": typeof types.UsageRolesDocument,
    "\n  query WikiNamespaces($scopeId: ID!) {\n    wikiNamespaces(scopeId: $scopeId) {\n      id\n      name\n      authoritative\n      acl\n    }\n  }\n": typeof types.WikiNamespacesDocument,
    "\n  query WikiPages($namespaceId: ID!) {\n    wikiPages(namespaceId: $namespaceId, first: 100) {\n      edges {\n        node {\n          id\n          path\n          title\n          revision\n          publishedRevision\n        }\n      }\n    }\n  }\n": typeof types.WikiPagesDocument,
    "\n  subscription WikiPageUpdated($namespaceId: ID!) {\n    wikiPageUpdated(namespaceId: $namespaceId) {\n      id\n      path\n      title\n      revision\n      publishedRevision\n    }\n  }\n": typeof types.WikiPageUpdatedDocument,
    "\n  query WikiSearch($scopeId: ID!, $query: String!) {\n    wikiSearch(scopeId: $scopeId, query: $query) {\n      score\n      foundBy\n      page {\n        id\n        path\n        title\n      }\n    }\n  }\n": typeof types.WikiSearchDocument,
    "\n  mutation CreateWikiNamespace($scopeId: ID!, $name: String!, $authoritative: Boolean!) {\n    createWikiNamespace(scopeId: $scopeId, name: $name, authoritative: $authoritative) {\n      id\n      name\n      authoritative\n    }\n  }\n": typeof types.CreateWikiNamespaceDocument,
    "\n  mutation SaveWikiPage($input: SaveWikiPageInput!) {\n    saveWikiPage(input: $input) {\n      id\n      path\n      title\n      revision\n      publishedRevision\n      latest {\n        id\n        number\n        source\n      }\n    }\n  }\n": typeof types.SaveWikiPageDocument,
    "\n  query WikiPageView($id: ID!) {\n    node(id: $id) {\n      __typename\n      ... on WikiPage {\n        id\n        namespaceId\n        namespace {\n          id\n          name\n          authoritative\n        }\n        path\n        title\n        revision\n        publishedRevision\n        latest {\n          id\n          number\n          source\n        }\n        links {\n          targetPath\n          page {\n            id\n            title\n          }\n        }\n        attachments {\n          id\n          name\n          number\n          sizeBytes\n          sha256\n          downloadPath\n        }\n      }\n    }\n    backlinks(pageId: $id) {\n      id\n      title\n    }\n    wikiRevisions(pageId: $id, last: 50) {\n      edges {\n        node {\n          id\n          number\n          path\n          title\n          createdAt\n          provenance\n        }\n      }\n    }\n  }\n": typeof types.WikiPageViewDocument,
    "\n  mutation RenameWikiPage($pageId: ID!, $path: String!, $expectedRevision: Int!) {\n    renameWikiPage(pageId: $pageId, path: $path, expectedRevision: $expectedRevision) {\n      id\n      path\n      revision\n    }\n  }\n": typeof types.RenameWikiPageDocument,
    "\n  mutation PublishWikiPage($pageId: ID!, $revision: Int!) {\n    publishWikiPage(pageId: $pageId, revision: $revision) {\n      id\n      publishedRevision\n    }\n  }\n": typeof types.PublishWikiPageDocument,
    "\n  mutation RequestWikiReview($pageId: ID!, $revision: Int!) {\n    requestWikiReview(pageId: $pageId, revision: $revision) {\n      id\n      status\n    }\n  }\n": typeof types.RequestWikiReviewDocument,
    "\n  query WikiDiff($pageId: ID!, $from: Int!, $to: Int!) {\n    wikiDiff(pageId: $pageId, from: $from, to: $to) {\n      unified\n      addedLines\n      removedLines\n    }\n  }\n": typeof types.WikiDiffDocument,
    "\n  mutation SetWikiNamespaceAcl($namespaceId: ID!, $userIds: [ID!]!) {\n    setWikiNamespaceAcl(namespaceId: $namespaceId, userIds: $userIds) {\n      id\n      acl\n    }\n  }\n": typeof types.SetWikiNamespaceAclDocument,
    "\n  query Workspaces {\n    workspaces(first: 20) {\n      pageInfo {\n        hasNextPage\n      }\n      nodes {\n        id\n        name\n        description\n        projects(first: 50) {\n          nodes {\n            id\n            name\n            description\n          }\n        }\n      }\n    }\n  }\n": typeof types.WorkspacesDocument,
    "\n  mutation CreateWorkspace($name: String!, $description: String!) {\n    createWorkspace(name: $name, description: $description) {\n      id\n      name\n    }\n  }\n": typeof types.CreateWorkspaceDocument,
    "\n  mutation CreateProject($workspaceId: ID!, $name: String!) {\n    createProject(workspaceId: $workspaceId, name: $name) {\n      id\n      name\n    }\n  }\n": typeof types.CreateProjectDocument,
    "\n  query Palette($typed: String!, $searching: Boolean!) {\n    workspaces(first: 10) {\n      nodes {\n        id\n        name\n        projects(first: 20) {\n          nodes {\n            id\n            name\n            tasks(first: 5, filter: { titleContains: $typed }) @include(if: $searching) {\n              nodes {\n                id\n                title\n              }\n            }\n          }\n        }\n      }\n    }\n    runs(last: 10) {\n      edges {\n        node {\n          id\n          status\n          updatedAt\n          createdAt\n          task {\n            id\n            title\n          }\n        }\n      }\n    }\n  }\n": typeof types.PaletteDocument,
};
const documents: Documents = {
    "\n  mutation Logout {\n    logout\n  }\n": types.LogoutDocument,
    "\n  fragment NotificationItem on Notification {\n    id\n    kind\n    title\n    body\n    subjectId\n    createdAt\n    readAt\n  }\n": types.NotificationItemFragmentDoc,
    "\n  query Bell {\n    unreadNotificationCount\n    notifications(last: 20) {\n      nodes {\n        ...NotificationItem\n      }\n    }\n  }\n": types.BellDocument,
    "\n  subscription NotificationAdded {\n    notificationAdded {\n      id\n    }\n  }\n": types.NotificationAddedDocument,
    "\n  mutation MarkNotificationsRead($ids: [ID!]) {\n    markNotificationsRead(ids: $ids)\n  }\n": types.MarkNotificationsReadDocument,
    "\n  fragment AuthTokens on AuthPayload {\n    accessToken\n    accessTokenExpiresAt\n    refreshToken\n  }\n": types.AuthTokensFragmentDoc,
    "\n  mutation RefreshSession($refreshToken: String!) {\n    refreshSession(refreshToken: $refreshToken) {\n      ...AuthTokens\n    }\n  }\n": types.RefreshSessionDocument,
    "\n  subscription RunEvents($runId: ID!, $after: String) {\n    runEvents(runId: $runId, after: $after) {\n      sequence\n      kind\n      data\n      occurredAt\n    }\n  }\n": types.RunEventsDocument,
    "\n  query Viewer {\n    viewer {\n      id\n      email\n      displayName\n      organization {\n        id\n        name\n      }\n    }\n  }\n": types.ViewerDocument,
    "\n  subscription ApprovalNotices {\n    approvalUpdated {\n      ...ApprovalItem\n    }\n  }\n": types.ApprovalNoticesDocument,
    "\n  subscription RunNotices($projectId: ID!) {\n    runUpdated(projectId: $projectId) {\n      ...RunSummary\n      task {\n        id\n        title\n      }\n    }\n  }\n": types.RunNoticesDocument,
    "\n  fragment ConnectorFields on Connector {\n    id\n    name\n    online\n    health\n    version\n    lastSeenAt\n    revokedAt\n  }\n": types.ConnectorFieldsFragmentDoc,
    "\n  query Connectors($workspaceId: ID!) {\n    connectors(workspaceId: $workspaceId) {\n      ...ConnectorFields\n    }\n  }\n": types.ConnectorsDocument,
    "\n  subscription ConnectorStatus($workspaceId: ID!) {\n    connectorStatus(workspaceId: $workspaceId) {\n      ...ConnectorFields\n    }\n  }\n": types.ConnectorStatusDocument,
    "\n  mutation RevokeConnector($id: ID!) {\n    revokeConnector(id: $id) {\n      ...ConnectorFields\n    }\n  }\n": types.RevokeConnectorDocument,
    "\n  mutation RemoveConnector($id: ID!) {\n    removeConnector(id: $id) {\n      ...ConnectorFields\n    }\n  }\n": types.RemoveConnectorDocument,
    "\n  mutation CreateEnrollmentToken($workspaceId: ID!, $name: String!, $expiresIn: Int!) {\n    createEnrollmentToken(workspaceId: $workspaceId, name: $name, expiresIn: $expiresIn) {\n      token\n      enrollmentToken {\n        id\n        name\n        expiresAt\n      }\n    }\n  }\n": types.CreateEnrollmentTokenDocument,
    "\n  fragment ApprovalItem on Approval {\n    id\n    subject\n    action\n    reason\n    details\n    status\n    expiresAt\n    createdAt\n    decisionReason\n    run {\n      # Not the run's status: an approval can be delivered with an older snapshot of its run\n      # than the run's own updates, and the cache would take the older one.\n      id\n      task {\n        id\n        title\n        project {\n          id\n          name\n        }\n      }\n      agent {\n        id\n        name\n      }\n    }\n    requestedBy {\n      id\n      email\n    }\n    wikiRevision {\n      id\n      number\n      title\n      path\n    }\n    wikiPage {\n      id\n    }\n  }\n": types.ApprovalItemFragmentDoc,
    "\n  query Approvals {\n    approvals(first: 100) {\n      nodes {\n        ...ApprovalItem\n      }\n    }\n  }\n": types.ApprovalsDocument,
    "\n  mutation DecideApproval($approvalId: ID!, $decision: ApprovalDecision!, $reason: String) {\n    decideApproval(approvalId: $approvalId, decision: $decision, reason: $reason) {\n      ...ApprovalItem\n    }\n  }\n": types.DecideApprovalDocument,
    "\n  fragment ArtifactVersionItem on ArtifactVersion {\n    id\n    number\n    sha256\n    sizeBytes\n    mediaType\n    runId\n    createdAt\n    downloadPath\n  }\n": types.ArtifactVersionItemFragmentDoc,
    "\n  query AuditEvents($before: String, $actions: [AuditAction!]) {\n    auditEvents(last: 50, before: $before, filter: { actions: $actions }) {\n      pageInfo {\n        hasPreviousPage\n        startCursor\n      }\n      nodes {\n        id\n        sequence\n        occurredAt\n        actorKind\n        actor {\n          id\n          email\n          displayName\n        }\n        action\n        targetKind\n        correlationId\n        details\n      }\n    }\n  }\n": types.AuditEventsDocument,
    "\n  query VerifyAudit {\n    verifyAudit {\n      intact\n      events\n      checkpoints\n      firstBroken {\n        sequence\n        problem\n      }\n    }\n  }\n": types.VerifyAuditDocument,
    "\n  fragment TaskCard on Task {\n    id\n    title\n    status\n    priority\n    labels\n    revision\n    dependencies {\n      id\n      title\n      status\n    }\n    acceptanceCriteria {\n      id\n      met\n    }\n    assignee {\n      id\n      displayName\n      email\n    }\n    latestRun {\n      id\n      status\n      # With its status always, so that an older answer does not win over a newer update (api/cache.ts).\n      updatedAt\n    }\n  }\n": types.TaskCardFragmentDoc,
    "\n  query Board($projectId: ID!) {\n    node(id: $projectId) {\n      __typename\n      ... on Project {\n        id\n        name\n        workspace {\n          id\n          name\n        }\n      }\n    }\n    tasks(projectId: $projectId, first: 100) {\n      nodes {\n        ...TaskCard\n      }\n      pageInfo {\n        hasNextPage\n      }\n    }\n  }\n": types.BoardDocument,
    "\n  subscription TaskEvents($projectId: ID!) {\n    taskEvents(projectId: $projectId) {\n      kind\n      taskId\n      task {\n        ...TaskCard\n      }\n    }\n  }\n": types.TaskEventsDocument,
    "\n  mutation UpdateTaskStatus($id: ID!, $expectedRevision: Int!, $status: TaskStatus!) {\n    updateTask(input: { id: $id, expectedRevision: $expectedRevision, status: $status }) {\n      ...TaskCard\n    }\n  }\n": types.UpdateTaskStatusDocument,
    "\n  mutation CreateTask($input: CreateTaskInput!) {\n    createTask(input: $input) {\n      ...TaskCard\n    }\n  }\n": types.CreateTaskDocument,
    "\n  fragment CandidateItem on Candidate {\n    id\n    status\n    expectedRevision\n    settingsPatch\n    comparison\n    receipt\n    decisionReason\n    createdAt\n    baseline {\n      settings\n      skills {\n        id\n      }\n    }\n    candidate {\n      settings\n      skills {\n        id\n      }\n    }\n    baselineRun {\n      id\n      status\n      task {\n        id\n        project {\n          id\n        }\n      }\n    }\n    candidateRun {\n      id\n      status\n    }\n  }\n": types.CandidateItemFragmentDoc,
    "\n  query CandidateScope($scopeId: ID!) {\n    candidates(scopeId: $scopeId) {\n      ...CandidateItem\n    }\n    effectiveSettings(scopeId: $scopeId) {\n      layers {\n        scopeId\n        revision\n      }\n    }\n    skillActivations(scopeId: $scopeId) {\n      id\n      status\n      scopeId\n      version {\n        id\n        skillId\n      }\n    }\n    skills(first: 50) {\n      nodes {\n        id\n        name\n        versions {\n          id\n          number\n          reviewState\n          hasScripts\n        }\n      }\n    }\n  }\n": types.CandidateScopeDocument,
    "\n  query CandidateProjectWork($projectId: ID!) {\n    tasks(projectId: $projectId, first: 50) {\n      nodes {\n        id\n        title\n      }\n    }\n    agents(projectId: $projectId) {\n      id\n      name\n      online\n    }\n  }\n": types.CandidateProjectWorkDocument,
    "\n  mutation ProposeCandidate($scopeId: ID!, $expectedRevision: Int!, $patch: CandidatePatchInput!) {\n    proposeCandidate(scopeId: $scopeId, expectedRevision: $expectedRevision, patch: $patch) {\n      ...CandidateItem\n    }\n  }\n": types.ProposeCandidateDocument,
    "\n  mutation PrepareCandidate($candidateId: ID!, $taskId: ID!, $agentId: ID!) {\n    prepareCandidate(candidateId: $candidateId, taskId: $taskId, agentId: $agentId) {\n      ...CandidateItem\n    }\n  }\n": types.PrepareCandidateDocument,
    "\n  mutation CompareCandidate($candidateId: ID!) {\n    compareCandidate(candidateId: $candidateId) {\n      ...CandidateItem\n    }\n  }\n": types.CompareCandidateDocument,
    "\n  mutation DecideCandidate($candidateId: ID!, $decision: ApprovalDecision!, $reason: String) {\n    decideCandidate(candidateId: $candidateId, decision: $decision, reason: $reason) {\n      ...CandidateItem\n    }\n  }\n": types.DecideCandidateDocument,
    "\n  mutation ApplyCandidate($candidateId: ID!) {\n    applyCandidate(candidateId: $candidateId) {\n      ...CandidateItem\n    }\n  }\n": types.ApplyCandidateDocument,
    "\n  query FirstTask($projectId: ID!) {\n    tasks(projectId: $projectId, first: 1) {\n      nodes {\n        id\n      }\n    }\n  }\n": types.FirstTaskDocument,
    "\n  query AnyRun {\n    runs(last: 1) {\n      edges {\n        node {\n          id\n        }\n      }\n    }\n  }\n": types.AnyRunDocument,
    "\n  query AllConnectors {\n    connectors {\n      ...ConnectorFields\n      workspaceId\n    }\n  }\n": types.AllConnectorsDocument,
    "\n  fragment HomeRun on TaskRun {\n    ...RunSummary\n    task {\n      id\n      title\n      project {\n        id\n        name\n      }\n    }\n  }\n": types.HomeRunFragmentDoc,
    "\n  query HomeRuns($live: [RunStatus!]!, $failed: [RunStatus!]!, $recent: Int!) {\n    inProgress: runs(filter: { status: $live }, last: 100) {\n      edges {\n        node {\n          ...HomeRun\n        }\n      }\n    }\n    failures: runs(filter: { status: $failed, latestOfTask: true }, last: $recent) {\n      edges {\n        node {\n          ...HomeRun\n        }\n      }\n    }\n  }\n": types.HomeRunsDocument,
    "\n  fragment MemoryEntryItem on MemoryEntry {\n    id\n    scopeKind\n    scopeId\n    kind\n    subject\n    revision\n    updatedAt\n    current {\n      id\n      number\n      content\n      verification\n    }\n  }\n": types.MemoryEntryItemFragmentDoc,
    "\n  query MemoryRoles {\n    viewer {\n      id\n      roleBindings {\n        id\n        role\n        scopeId\n      }\n    }\n  }\n": types.MemoryRolesDocument,
    "\n  query MemorySearch($scopeId: ID!, $query: String, $kinds: [MemoryKind!], $verification: [MemoryVerification!], $asOf: DateTime) {\n    memoryRetrievalMode\n    memory(scopeId: $scopeId, query: $query, kinds: $kinds, verification: $verification, asOf: $asOf) {\n      foundBy\n      entry {\n        ...MemoryEntryItem\n      }\n    }\n  }\n": types.MemorySearchDocument,
    "\n  subscription MemoryUpdated($scopeId: ID!) {\n    memoryUpdated(scopeId: $scopeId) {\n      ...MemoryEntryItem\n    }\n  }\n": types.MemoryUpdatedDocument,
    "\n  mutation WriteMemory($input: WriteMemoryInput!) {\n    writeMemory(input: $input) {\n      entry {\n        ...MemoryEntryItem\n      }\n      version {\n        id\n        number\n      }\n      conflict {\n        id\n      }\n    }\n  }\n": types.WriteMemoryDocument,
    "\n  fragment MemoryVersionItem on MemoryVersion {\n    id\n    number\n    content\n    verification\n    sensitivity\n    createdById\n    createdAt\n    becameCurrentAt\n    verifiedById\n    verifiedAt\n  }\n": types.MemoryVersionItemFragmentDoc,
    "\n  fragment MemoryConflictItem on MemoryConflict {\n    id\n    entryId\n    currentVersionId\n    proposedVersionId\n    status\n    resolution\n    resolvedById\n    resolvedAt\n    revision\n    createdAt\n  }\n": types.MemoryConflictItemFragmentDoc,
    "\n  query MemoryEntryDetail($id: ID!) {\n    memoryEntry(id: $id) {\n      ...MemoryEntryItem\n      current {\n        ...MemoryVersionItem\n      }\n      versions {\n        ...MemoryVersionItem\n      }\n      conflicts {\n        ...MemoryConflictItem\n      }\n    }\n  }\n": types.MemoryEntryDetailDocument,
    "\n  query PeopleNames {\n    users(first: 100) {\n      nodes {\n        id\n        displayName\n        email\n      }\n    }\n  }\n": types.PeopleNamesDocument,
    "\n  mutation VerifyMemory($entryId: ID!, $expectedRevision: Int!, $verdict: MemoryVerdict!) {\n    verifyMemory(entryId: $entryId, expectedRevision: $expectedRevision, verdict: $verdict) {\n      ...MemoryEntryItem\n      current {\n        ...MemoryVersionItem\n      }\n    }\n  }\n": types.VerifyMemoryDocument,
    "\n  mutation RetractMemory($entryId: ID!, $expectedRevision: Int!) {\n    retractMemory(entryId: $entryId, expectedRevision: $expectedRevision) {\n      ...MemoryEntryItem\n      current {\n        ...MemoryVersionItem\n      }\n    }\n  }\n": types.RetractMemoryDocument,
    "\n  mutation ResolveMemoryConflict($conflictId: ID!, $expectedRevision: Int!, $resolution: MemoryConflictResolution!) {\n    resolveMemoryConflict(conflictId: $conflictId, expectedRevision: $expectedRevision, resolution: $resolution) {\n      ...MemoryConflictItem\n    }\n  }\n": types.ResolveMemoryConflictDocument,
    "\n  query NotificationsPage {\n    notificationSettings {\n      emailAvailable\n      emailAddress\n      webPushPublicKey\n      pushDevices\n      preferences {\n        kind\n        channel\n        enabled\n      }\n    }\n    notifications(last: 100) {\n      nodes {\n        ...NotificationItem\n      }\n    }\n  }\n": types.NotificationsPageDocument,
    "\n  mutation SetNotificationPreference($kind: NotificationKind!, $channel: NotificationChannel!, $enabled: Boolean!) {\n    setNotificationPreference(kind: $kind, channel: $channel, enabled: $enabled) {\n      kind\n      channel\n      enabled\n    }\n  }\n": types.SetNotificationPreferenceDocument,
    "\n  mutation RegisterPushSubscription($endpoint: String!, $p256dh: String!, $auth: String!) {\n    registerPushSubscription(endpoint: $endpoint, p256dh: $p256dh, auth: $auth)\n  }\n": types.RegisterPushSubscriptionDocument,
    "\n  mutation RemovePushSubscription($endpoint: String!) {\n    removePushSubscription(endpoint: $endpoint)\n  }\n": types.RemovePushSubscriptionDocument,
    "\n  query People {\n    viewer {\n      id\n    }\n    users(first: 100) {\n      nodes {\n        id\n        email\n        displayName\n        disabled\n        roleBindings {\n          role\n        }\n      }\n      pageInfo {\n        hasNextPage\n      }\n    }\n  }\n": types.PeopleDocument,
    "\n  mutation SetUserDisabled($id: ID!, $disabled: Boolean!) {\n    setUserDisabled(id: $id, disabled: $disabled) {\n      id\n      disabled\n    }\n  }\n": types.SetUserDisabledDocument,
    "\n  query RunContext($runId: ID!) {\n    runContext(runId: $runId) {\n      runId\n      tokenBudget\n      tokensUsed\n      bundleHash\n      bundle\n      createdAt\n      items {\n        kind\n        source\n        title\n        contentHash\n        tokens\n        included\n        redactions\n      }\n    }\n  }\n": types.RunContextDocument,
    "\n  query RunFiles($runId: ID!) {\n    node(id: $runId) {\n      __typename\n      ... on TaskRun {\n        id\n        artifacts {\n          id\n          name\n          versions {\n            ...ArtifactVersionItem\n          }\n        }\n      }\n    }\n  }\n": types.RunFilesDocument,
    "\n  query Run($id: ID!) {\n    node(id: $id) {\n      __typename\n      ... on TaskRun {\n        ...RunDetail\n        skills {\n          name\n          number\n          digest\n        }\n      }\n    }\n  }\n": types.RunDocument,
    "\n  fragment RunDetail on TaskRun {\n    id\n    status\n    statusReason\n    revision\n    input\n    maxAttempts\n    createdAt\n    updatedAt\n    task {\n      id\n      title\n      project {\n        id\n        name\n        workspace {\n          id\n          name\n        }\n      }\n    }\n    agent {\n      id\n      name\n      capabilities\n    }\n    handoffTarget {\n      id\n      name\n    }\n    requestedAgent {\n      id\n    }\n    attempts {\n      number\n      kind\n      status\n      agent {\n        id\n        name\n      }\n      leaseExpiresAt\n      endedAt\n      createdAt\n    }\n    approvals {\n      ...ApprovalItem\n    }\n    checkpoints {\n      reason\n      createdAt\n      targetAgent {\n        name\n      }\n    }\n  }\n": types.RunDetailFragmentDoc,
    "\n  subscription RunLive($projectId: ID!) {\n    runUpdated(projectId: $projectId) {\n      ...RunDetail\n    }\n  }\n": types.RunLiveDocument,
    "\n  mutation CancelRun($runId: ID!) {\n    cancelRun(runId: $runId) {\n      ...RunDetail\n    }\n  }\n": types.CancelRunDocument,
    "\n  mutation RequestCheckpoint($runId: ID!, $reason: String) {\n    requestCheckpoint(runId: $runId, reason: $reason) {\n      ...RunDetail\n    }\n  }\n": types.RequestCheckpointDocument,
    "\n  mutation RequestHandoff($runId: ID!, $targetAgentId: ID!, $reason: String) {\n    requestHandoff(runId: $runId, targetAgentId: $targetAgentId, reason: $reason) {\n      ...RunDetail\n    }\n  }\n": types.RequestHandoffDocument,
    "\n  query Sessions {\n    sessions(first: 100) {\n      nodes {\n        id\n        deviceName\n        clientAddress\n        createdAt\n        lastUsedAt\n        revokedAt\n        revokedReason\n        current\n      }\n    }\n  }\n": types.SessionsDocument,
    "\n  mutation RevokeSession($id: ID!) {\n    revokeSession(id: $id) {\n      id\n      revokedAt\n      revokedReason\n    }\n  }\n": types.RevokeSessionDocument,
    "\n  query EffectiveSettings($scopeId: ID!) {\n    effectiveSettings(scopeId: $scopeId) {\n      scopeId\n      entries {\n        key\n        value\n        sourceScopeId\n        sourceScopeKind\n      }\n      layers {\n        scopeId\n        scopeKind\n        revision\n        settings\n      }\n    }\n  }\n": types.EffectiveSettingsDocument,
    "\n  query KnownSettings {\n    knownSettings {\n      key\n      type\n      default\n      minimum\n      maximum\n      description\n    }\n  }\n": types.KnownSettingsDocument,
    "\n  mutation SetSettings($scopeId: ID!, $patch: JSON!, $expectedRevision: Int!) {\n    setSettings(scopeId: $scopeId, patch: $patch, expectedRevision: $expectedRevision) {\n      id\n      scopeId\n      revision\n      settings\n    }\n  }\n": types.SetSettingsDocument,
    "\n  query BootstrapRequired {\n    bootstrapRequired\n    signInProviders {\n      id\n      name\n    }\n  }\n": types.BootstrapRequiredDocument,
    "\n  mutation BeginOidcSignIn($provider: String!, $redirectUri: String!) {\n    beginOidcSignIn(provider: $provider, redirectUri: $redirectUri) {\n      authorizationUrl\n      flow\n    }\n  }\n": types.BeginOidcSignInDocument,
    "\n  mutation CompleteOidcSignIn($flow: String!, $code: String!, $state: String!, $issuer: String, $deviceName: String) {\n    completeOidcSignIn(flow: $flow, code: $code, state: $state, issuer: $issuer, deviceName: $deviceName) {\n      ...AuthTokens\n    }\n  }\n": types.CompleteOidcSignInDocument,
    "\n  mutation Login($email: String!, $password: String!, $deviceName: String) {\n    login(email: $email, password: $password, deviceName: $deviceName) {\n      ...AuthTokens\n    }\n  }\n": types.LoginDocument,
    "\n  mutation RedeemBootstrap(\n    $code: String!\n    $organizationName: String!\n    $email: String!\n    $password: String!\n    $displayName: String\n  ) {\n    redeemBootstrap(\n      code: $code\n      organizationName: $organizationName\n      email: $email\n      password: $password\n      displayName: $displayName\n    ) {\n      ...AuthTokens\n    }\n  }\n": types.RedeemBootstrapDocument,
    "\n  fragment SkillVersionItem on SkillVersion {\n    id\n    number\n    description\n    digest\n    hasScripts\n    reviewState\n    reviewReason\n    signatureStatus\n    signerKeyId\n    createdAt\n    files {\n      path\n    }\n  }\n": types.SkillVersionItemFragmentDoc,
    "\n  query Skills($after: String) {\n    skills(first: 20, after: $after) {\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        name\n        versions {\n          ...SkillVersionItem\n        }\n      }\n    }\n  }\n": types.SkillsDocument,
    "\n  query SkillPublisherKeys {\n    skillPublisherKeys {\n      id\n      name\n      keyId\n      revokedAt\n    }\n  }\n": types.SkillPublisherKeysDocument,
    "\n  query SkillActivations($scopeId: ID!) {\n    skillActivations(scopeId: $scopeId) {\n      id\n      status\n      scopeId\n      version {\n        id\n        number\n        skillId\n        description\n      }\n    }\n  }\n": types.SkillActivationsDocument,
    "\n  mutation ReviewSkillVersion($versionId: ID!, $decision: ApprovalDecision!, $reason: String) {\n    reviewSkillVersion(versionId: $versionId, decision: $decision, reason: $reason) {\n      ...SkillVersionItem\n    }\n  }\n": types.ReviewSkillVersionDocument,
    "\n  mutation RequestSkillReview($versionId: ID!) {\n    requestSkillReview(versionId: $versionId) {\n      ...SkillVersionItem\n    }\n  }\n": types.RequestSkillReviewDocument,
    "\n  mutation RevokeSkillVersion($versionId: ID!, $reason: String) {\n    revokeSkillVersion(versionId: $versionId, reason: $reason) {\n      ...SkillVersionItem\n    }\n  }\n": types.RevokeSkillVersionDocument,
    "\n  mutation ActivateSkill($versionId: ID!, $scopeId: ID!) {\n    activateSkill(versionId: $versionId, scopeId: $scopeId) {\n      activation {\n        id\n        status\n      }\n      approval {\n        id\n      }\n    }\n  }\n": types.ActivateSkillDocument,
    "\n  mutation DeactivateSkill($activationId: ID!) {\n    deactivateSkill(activationId: $activationId) {\n      id\n      status\n    }\n  }\n": types.DeactivateSkillDocument,
    "\n  mutation TrustSkillPublisherKey($name: String!, $publicKey: String!) {\n    trustSkillPublisherKey(name: $name, publicKey: $publicKey) {\n      id\n      name\n      keyId\n      revokedAt\n    }\n  }\n": types.TrustSkillPublisherKeyDocument,
    "\n  mutation RevokeSkillPublisherKey($keyId: ID!) {\n    revokeSkillPublisherKey(keyId: $keyId) {\n      id\n      revokedAt\n    }\n  }\n": types.RevokeSkillPublisherKeyDocument,
    "\n  query TaskArtifacts($projectId: ID!, $taskId: ID!) {\n    artifacts(projectId: $projectId, taskId: $taskId, first: 50) {\n      pageInfo {\n        hasNextPage\n      }\n      nodes {\n        id\n        name\n        revision\n        updatedAt\n        latest {\n          ...ArtifactVersionItem\n        }\n        versions {\n          ...ArtifactVersionItem\n        }\n      }\n    }\n  }\n": types.TaskArtifactsDocument,
    "\n  query Task($id: ID!) {\n    node(id: $id) {\n      __typename\n      ... on Task {\n        ...TaskCard\n        description\n        createdAt\n        updatedAt\n        runs {\n          ...RunSummary\n        }\n        project {\n          id\n          name\n          workspace {\n            id\n            name\n          }\n        }\n        dependents {\n          id\n          title\n          status\n        }\n        acceptanceCriteria {\n          id\n          description\n          met\n          revision\n        }\n      }\n    }\n  }\n": types.TaskDocument,
    "\n  fragment RunSummary on TaskRun {\n    id\n    status\n    statusReason\n    createdAt\n    updatedAt\n    agent {\n      id\n      name\n    }\n  }\n": types.RunSummaryFragmentDoc,
    "\n  query ProjectTaskTitles($projectId: ID!) {\n    tasks(projectId: $projectId, first: 100) {\n      nodes {\n        id\n        title\n        dependencies {\n          id\n        }\n      }\n    }\n  }\n": types.ProjectTaskTitlesDocument,
    "\n  query Agents($projectId: ID!) {\n    agents(projectId: $projectId) {\n      id\n      name\n      adapter\n      adapterVersion\n      runtimeVersion\n      capabilities\n      online\n      connector {\n        id\n        name\n      }\n    }\n  }\n": types.AgentsDocument,
    "\n  subscription RunUpdated($projectId: ID!) {\n    runUpdated(projectId: $projectId) {\n      ...RunSummary\n      task {\n        id\n        title\n      }\n    }\n  }\n": types.RunUpdatedDocument,
    "\n  mutation SetCriterionMet($id: ID!, $met: Boolean!, $expectedRevision: Int) {\n    setAcceptanceCriterionMet(id: $id, met: $met, expectedRevision: $expectedRevision) {\n      id\n      met\n      revision\n    }\n  }\n": types.SetCriterionMetDocument,
    "\n  mutation AddCriterion($taskId: ID!, $description: String!) {\n    addAcceptanceCriterion(taskId: $taskId, description: $description) {\n      id\n      description\n      met\n      revision\n    }\n  }\n": types.AddCriterionDocument,
    "\n  mutation AddDependency($taskId: ID!, $dependsOnId: ID!) {\n    addTaskDependency(taskId: $taskId, dependsOnId: $dependsOnId) {\n      ...TaskCard\n    }\n  }\n": types.AddDependencyDocument,
    "\n  mutation RemoveDependency($taskId: ID!, $dependsOnId: ID!) {\n    removeTaskDependency(taskId: $taskId, dependsOnId: $dependsOnId) {\n      ...TaskCard\n    }\n  }\n": types.RemoveDependencyDocument,
    "\n  mutation EditTask($input: UpdateTaskInput!) {\n    updateTask(input: $input) {\n      ...TaskCard\n      description\n    }\n  }\n": types.EditTaskDocument,
    "\n  mutation DeleteTask($id: ID!, $expectedRevision: Int) {\n    deleteTask(id: $id, expectedRevision: $expectedRevision)\n  }\n": types.DeleteTaskDocument,
    "\n  mutation StartRun($taskId: ID!, $agentId: ID, $input: JSON) {\n    startRun(taskId: $taskId, agentId: $agentId, input: $input) {\n      ...RunSummary\n    }\n  }\n": types.StartRunDocument,
    "\n  query UsageSummary($scopeId: ID!, $from: DateTime!, $to: DateTime!, $groupBy: UsageGrouping!) {\n    usageSummary(scopeId: $scopeId, from: $from, to: $to, groupBy: $groupBy) {\n      total {\n        runs\n        requests\n        inputTokens\n        outputTokens\n        tokens\n        costUsd\n        cost\n      }\n      groups {\n        key\n        label\n        totals {\n          runs\n          inputTokens\n          outputTokens\n          tokens\n          costUsd\n          cost\n        }\n      }\n    }\n    days: usageSummary(scopeId: $scopeId, from: $from, to: $to, groupBy: DAY) {\n      groups {\n        key\n        totals {\n          inputTokens\n          outputTokens\n        }\n      }\n    }\n  }\n": types.UsageSummaryDocument,
    "\n  query UsageRunStatistics($filter: RunFilter!) {\n    runStatistics(filter: $filter) {\n      total {\n        runs\n        finished\n        medianDurationMs\n        p95DurationMs\n        byStatus {\n          status\n          count\n        }\n      }\n    }\n  }\n": types.UsageRunStatisticsDocument,
    "\n  query BudgetPolicies($scopeId: ID!) {\n    budgetPolicies(scopeId: $scopeId) {\n      id\n      scopeId\n      period\n      maxTokens\n      maxCostUsd\n      usedTokens\n      usedCostUsd\n      exceeded\n      periodEnd\n    }\n  }\n": types.BudgetPoliciesDocument,
    "\n  mutation SetBudgetPolicy($scopeId: ID!, $period: BudgetPeriod!, $maxTokens: Int, $maxCostUsd: Float) {\n    setBudgetPolicy(scopeId: $scopeId, period: $period, maxTokens: $maxTokens, maxCostUsd: $maxCostUsd) {\n      id\n    }\n  }\n": types.SetBudgetPolicyDocument,
    "\n  mutation RemoveBudgetPolicy($id: ID!) {\n    removeBudgetPolicy(id: $id)\n  }\n": types.RemoveBudgetPolicyDocument,
    "\n  query UsageRoles {\n    viewer {\n      id\n      roleBindings {\n        id\n        role\n        scopeId\n      }\n    }\n  }\n": types.UsageRolesDocument,
    "\n  query WikiNamespaces($scopeId: ID!) {\n    wikiNamespaces(scopeId: $scopeId) {\n      id\n      name\n      authoritative\n      acl\n    }\n  }\n": types.WikiNamespacesDocument,
    "\n  query WikiPages($namespaceId: ID!) {\n    wikiPages(namespaceId: $namespaceId, first: 100) {\n      edges {\n        node {\n          id\n          path\n          title\n          revision\n          publishedRevision\n        }\n      }\n    }\n  }\n": types.WikiPagesDocument,
    "\n  subscription WikiPageUpdated($namespaceId: ID!) {\n    wikiPageUpdated(namespaceId: $namespaceId) {\n      id\n      path\n      title\n      revision\n      publishedRevision\n    }\n  }\n": types.WikiPageUpdatedDocument,
    "\n  query WikiSearch($scopeId: ID!, $query: String!) {\n    wikiSearch(scopeId: $scopeId, query: $query) {\n      score\n      foundBy\n      page {\n        id\n        path\n        title\n      }\n    }\n  }\n": types.WikiSearchDocument,
    "\n  mutation CreateWikiNamespace($scopeId: ID!, $name: String!, $authoritative: Boolean!) {\n    createWikiNamespace(scopeId: $scopeId, name: $name, authoritative: $authoritative) {\n      id\n      name\n      authoritative\n    }\n  }\n": types.CreateWikiNamespaceDocument,
    "\n  mutation SaveWikiPage($input: SaveWikiPageInput!) {\n    saveWikiPage(input: $input) {\n      id\n      path\n      title\n      revision\n      publishedRevision\n      latest {\n        id\n        number\n        source\n      }\n    }\n  }\n": types.SaveWikiPageDocument,
    "\n  query WikiPageView($id: ID!) {\n    node(id: $id) {\n      __typename\n      ... on WikiPage {\n        id\n        namespaceId\n        namespace {\n          id\n          name\n          authoritative\n        }\n        path\n        title\n        revision\n        publishedRevision\n        latest {\n          id\n          number\n          source\n        }\n        links {\n          targetPath\n          page {\n            id\n            title\n          }\n        }\n        attachments {\n          id\n          name\n          number\n          sizeBytes\n          sha256\n          downloadPath\n        }\n      }\n    }\n    backlinks(pageId: $id) {\n      id\n      title\n    }\n    wikiRevisions(pageId: $id, last: 50) {\n      edges {\n        node {\n          id\n          number\n          path\n          title\n          createdAt\n          provenance\n        }\n      }\n    }\n  }\n": types.WikiPageViewDocument,
    "\n  mutation RenameWikiPage($pageId: ID!, $path: String!, $expectedRevision: Int!) {\n    renameWikiPage(pageId: $pageId, path: $path, expectedRevision: $expectedRevision) {\n      id\n      path\n      revision\n    }\n  }\n": types.RenameWikiPageDocument,
    "\n  mutation PublishWikiPage($pageId: ID!, $revision: Int!) {\n    publishWikiPage(pageId: $pageId, revision: $revision) {\n      id\n      publishedRevision\n    }\n  }\n": types.PublishWikiPageDocument,
    "\n  mutation RequestWikiReview($pageId: ID!, $revision: Int!) {\n    requestWikiReview(pageId: $pageId, revision: $revision) {\n      id\n      status\n    }\n  }\n": types.RequestWikiReviewDocument,
    "\n  query WikiDiff($pageId: ID!, $from: Int!, $to: Int!) {\n    wikiDiff(pageId: $pageId, from: $from, to: $to) {\n      unified\n      addedLines\n      removedLines\n    }\n  }\n": types.WikiDiffDocument,
    "\n  mutation SetWikiNamespaceAcl($namespaceId: ID!, $userIds: [ID!]!) {\n    setWikiNamespaceAcl(namespaceId: $namespaceId, userIds: $userIds) {\n      id\n      acl\n    }\n  }\n": types.SetWikiNamespaceAclDocument,
    "\n  query Workspaces {\n    workspaces(first: 20) {\n      pageInfo {\n        hasNextPage\n      }\n      nodes {\n        id\n        name\n        description\n        projects(first: 50) {\n          nodes {\n            id\n            name\n            description\n          }\n        }\n      }\n    }\n  }\n": types.WorkspacesDocument,
    "\n  mutation CreateWorkspace($name: String!, $description: String!) {\n    createWorkspace(name: $name, description: $description) {\n      id\n      name\n    }\n  }\n": types.CreateWorkspaceDocument,
    "\n  mutation CreateProject($workspaceId: ID!, $name: String!) {\n    createProject(workspaceId: $workspaceId, name: $name) {\n      id\n      name\n    }\n  }\n": types.CreateProjectDocument,
    "\n  query Palette($typed: String!, $searching: Boolean!) {\n    workspaces(first: 10) {\n      nodes {\n        id\n        name\n        projects(first: 20) {\n          nodes {\n            id\n            name\n            tasks(first: 5, filter: { titleContains: $typed }) @include(if: $searching) {\n              nodes {\n                id\n                title\n              }\n            }\n          }\n        }\n      }\n    }\n    runs(last: 10) {\n      edges {\n        node {\n          id\n          status\n          updatedAt\n          createdAt\n          task {\n            id\n            title\n          }\n        }\n      }\n    }\n  }\n": types.PaletteDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Logout {\n    logout\n  }\n"): (typeof documents)["\n  mutation Logout {\n    logout\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment NotificationItem on Notification {\n    id\n    kind\n    title\n    body\n    subjectId\n    createdAt\n    readAt\n  }\n"): (typeof documents)["\n  fragment NotificationItem on Notification {\n    id\n    kind\n    title\n    body\n    subjectId\n    createdAt\n    readAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Bell {\n    unreadNotificationCount\n    notifications(last: 20) {\n      nodes {\n        ...NotificationItem\n      }\n    }\n  }\n"): (typeof documents)["\n  query Bell {\n    unreadNotificationCount\n    notifications(last: 20) {\n      nodes {\n        ...NotificationItem\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription NotificationAdded {\n    notificationAdded {\n      id\n    }\n  }\n"): (typeof documents)["\n  subscription NotificationAdded {\n    notificationAdded {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MarkNotificationsRead($ids: [ID!]) {\n    markNotificationsRead(ids: $ids)\n  }\n"): (typeof documents)["\n  mutation MarkNotificationsRead($ids: [ID!]) {\n    markNotificationsRead(ids: $ids)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment AuthTokens on AuthPayload {\n    accessToken\n    accessTokenExpiresAt\n    refreshToken\n  }\n"): (typeof documents)["\n  fragment AuthTokens on AuthPayload {\n    accessToken\n    accessTokenExpiresAt\n    refreshToken\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RefreshSession($refreshToken: String!) {\n    refreshSession(refreshToken: $refreshToken) {\n      ...AuthTokens\n    }\n  }\n"): (typeof documents)["\n  mutation RefreshSession($refreshToken: String!) {\n    refreshSession(refreshToken: $refreshToken) {\n      ...AuthTokens\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription RunEvents($runId: ID!, $after: String) {\n    runEvents(runId: $runId, after: $after) {\n      sequence\n      kind\n      data\n      occurredAt\n    }\n  }\n"): (typeof documents)["\n  subscription RunEvents($runId: ID!, $after: String) {\n    runEvents(runId: $runId, after: $after) {\n      sequence\n      kind\n      data\n      occurredAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Viewer {\n    viewer {\n      id\n      email\n      displayName\n      organization {\n        id\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  query Viewer {\n    viewer {\n      id\n      email\n      displayName\n      organization {\n        id\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ApprovalNotices {\n    approvalUpdated {\n      ...ApprovalItem\n    }\n  }\n"): (typeof documents)["\n  subscription ApprovalNotices {\n    approvalUpdated {\n      ...ApprovalItem\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription RunNotices($projectId: ID!) {\n    runUpdated(projectId: $projectId) {\n      ...RunSummary\n      task {\n        id\n        title\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription RunNotices($projectId: ID!) {\n    runUpdated(projectId: $projectId) {\n      ...RunSummary\n      task {\n        id\n        title\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ConnectorFields on Connector {\n    id\n    name\n    online\n    health\n    version\n    lastSeenAt\n    revokedAt\n  }\n"): (typeof documents)["\n  fragment ConnectorFields on Connector {\n    id\n    name\n    online\n    health\n    version\n    lastSeenAt\n    revokedAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Connectors($workspaceId: ID!) {\n    connectors(workspaceId: $workspaceId) {\n      ...ConnectorFields\n    }\n  }\n"): (typeof documents)["\n  query Connectors($workspaceId: ID!) {\n    connectors(workspaceId: $workspaceId) {\n      ...ConnectorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ConnectorStatus($workspaceId: ID!) {\n    connectorStatus(workspaceId: $workspaceId) {\n      ...ConnectorFields\n    }\n  }\n"): (typeof documents)["\n  subscription ConnectorStatus($workspaceId: ID!) {\n    connectorStatus(workspaceId: $workspaceId) {\n      ...ConnectorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeConnector($id: ID!) {\n    revokeConnector(id: $id) {\n      ...ConnectorFields\n    }\n  }\n"): (typeof documents)["\n  mutation RevokeConnector($id: ID!) {\n    revokeConnector(id: $id) {\n      ...ConnectorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveConnector($id: ID!) {\n    removeConnector(id: $id) {\n      ...ConnectorFields\n    }\n  }\n"): (typeof documents)["\n  mutation RemoveConnector($id: ID!) {\n    removeConnector(id: $id) {\n      ...ConnectorFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateEnrollmentToken($workspaceId: ID!, $name: String!, $expiresIn: Int!) {\n    createEnrollmentToken(workspaceId: $workspaceId, name: $name, expiresIn: $expiresIn) {\n      token\n      enrollmentToken {\n        id\n        name\n        expiresAt\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateEnrollmentToken($workspaceId: ID!, $name: String!, $expiresIn: Int!) {\n    createEnrollmentToken(workspaceId: $workspaceId, name: $name, expiresIn: $expiresIn) {\n      token\n      enrollmentToken {\n        id\n        name\n        expiresAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ApprovalItem on Approval {\n    id\n    subject\n    action\n    reason\n    details\n    status\n    expiresAt\n    createdAt\n    decisionReason\n    run {\n      # Not the run's status: an approval can be delivered with an older snapshot of its run\n      # than the run's own updates, and the cache would take the older one.\n      id\n      task {\n        id\n        title\n        project {\n          id\n          name\n        }\n      }\n      agent {\n        id\n        name\n      }\n    }\n    requestedBy {\n      id\n      email\n    }\n    wikiRevision {\n      id\n      number\n      title\n      path\n    }\n    wikiPage {\n      id\n    }\n  }\n"): (typeof documents)["\n  fragment ApprovalItem on Approval {\n    id\n    subject\n    action\n    reason\n    details\n    status\n    expiresAt\n    createdAt\n    decisionReason\n    run {\n      # Not the run's status: an approval can be delivered with an older snapshot of its run\n      # than the run's own updates, and the cache would take the older one.\n      id\n      task {\n        id\n        title\n        project {\n          id\n          name\n        }\n      }\n      agent {\n        id\n        name\n      }\n    }\n    requestedBy {\n      id\n      email\n    }\n    wikiRevision {\n      id\n      number\n      title\n      path\n    }\n    wikiPage {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Approvals {\n    approvals(first: 100) {\n      nodes {\n        ...ApprovalItem\n      }\n    }\n  }\n"): (typeof documents)["\n  query Approvals {\n    approvals(first: 100) {\n      nodes {\n        ...ApprovalItem\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DecideApproval($approvalId: ID!, $decision: ApprovalDecision!, $reason: String) {\n    decideApproval(approvalId: $approvalId, decision: $decision, reason: $reason) {\n      ...ApprovalItem\n    }\n  }\n"): (typeof documents)["\n  mutation DecideApproval($approvalId: ID!, $decision: ApprovalDecision!, $reason: String) {\n    decideApproval(approvalId: $approvalId, decision: $decision, reason: $reason) {\n      ...ApprovalItem\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ArtifactVersionItem on ArtifactVersion {\n    id\n    number\n    sha256\n    sizeBytes\n    mediaType\n    runId\n    createdAt\n    downloadPath\n  }\n"): (typeof documents)["\n  fragment ArtifactVersionItem on ArtifactVersion {\n    id\n    number\n    sha256\n    sizeBytes\n    mediaType\n    runId\n    createdAt\n    downloadPath\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AuditEvents($before: String, $actions: [AuditAction!]) {\n    auditEvents(last: 50, before: $before, filter: { actions: $actions }) {\n      pageInfo {\n        hasPreviousPage\n        startCursor\n      }\n      nodes {\n        id\n        sequence\n        occurredAt\n        actorKind\n        actor {\n          id\n          email\n          displayName\n        }\n        action\n        targetKind\n        correlationId\n        details\n      }\n    }\n  }\n"): (typeof documents)["\n  query AuditEvents($before: String, $actions: [AuditAction!]) {\n    auditEvents(last: 50, before: $before, filter: { actions: $actions }) {\n      pageInfo {\n        hasPreviousPage\n        startCursor\n      }\n      nodes {\n        id\n        sequence\n        occurredAt\n        actorKind\n        actor {\n          id\n          email\n          displayName\n        }\n        action\n        targetKind\n        correlationId\n        details\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query VerifyAudit {\n    verifyAudit {\n      intact\n      events\n      checkpoints\n      firstBroken {\n        sequence\n        problem\n      }\n    }\n  }\n"): (typeof documents)["\n  query VerifyAudit {\n    verifyAudit {\n      intact\n      events\n      checkpoints\n      firstBroken {\n        sequence\n        problem\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TaskCard on Task {\n    id\n    title\n    status\n    priority\n    labels\n    revision\n    dependencies {\n      id\n      title\n      status\n    }\n    acceptanceCriteria {\n      id\n      met\n    }\n    assignee {\n      id\n      displayName\n      email\n    }\n    latestRun {\n      id\n      status\n      # With its status always, so that an older answer does not win over a newer update (api/cache.ts).\n      updatedAt\n    }\n  }\n"): (typeof documents)["\n  fragment TaskCard on Task {\n    id\n    title\n    status\n    priority\n    labels\n    revision\n    dependencies {\n      id\n      title\n      status\n    }\n    acceptanceCriteria {\n      id\n      met\n    }\n    assignee {\n      id\n      displayName\n      email\n    }\n    latestRun {\n      id\n      status\n      # With its status always, so that an older answer does not win over a newer update (api/cache.ts).\n      updatedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Board($projectId: ID!) {\n    node(id: $projectId) {\n      __typename\n      ... on Project {\n        id\n        name\n        workspace {\n          id\n          name\n        }\n      }\n    }\n    tasks(projectId: $projectId, first: 100) {\n      nodes {\n        ...TaskCard\n      }\n      pageInfo {\n        hasNextPage\n      }\n    }\n  }\n"): (typeof documents)["\n  query Board($projectId: ID!) {\n    node(id: $projectId) {\n      __typename\n      ... on Project {\n        id\n        name\n        workspace {\n          id\n          name\n        }\n      }\n    }\n    tasks(projectId: $projectId, first: 100) {\n      nodes {\n        ...TaskCard\n      }\n      pageInfo {\n        hasNextPage\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription TaskEvents($projectId: ID!) {\n    taskEvents(projectId: $projectId) {\n      kind\n      taskId\n      task {\n        ...TaskCard\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription TaskEvents($projectId: ID!) {\n    taskEvents(projectId: $projectId) {\n      kind\n      taskId\n      task {\n        ...TaskCard\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateTaskStatus($id: ID!, $expectedRevision: Int!, $status: TaskStatus!) {\n    updateTask(input: { id: $id, expectedRevision: $expectedRevision, status: $status }) {\n      ...TaskCard\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateTaskStatus($id: ID!, $expectedRevision: Int!, $status: TaskStatus!) {\n    updateTask(input: { id: $id, expectedRevision: $expectedRevision, status: $status }) {\n      ...TaskCard\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateTask($input: CreateTaskInput!) {\n    createTask(input: $input) {\n      ...TaskCard\n    }\n  }\n"): (typeof documents)["\n  mutation CreateTask($input: CreateTaskInput!) {\n    createTask(input: $input) {\n      ...TaskCard\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment CandidateItem on Candidate {\n    id\n    status\n    expectedRevision\n    settingsPatch\n    comparison\n    receipt\n    decisionReason\n    createdAt\n    baseline {\n      settings\n      skills {\n        id\n      }\n    }\n    candidate {\n      settings\n      skills {\n        id\n      }\n    }\n    baselineRun {\n      id\n      status\n      task {\n        id\n        project {\n          id\n        }\n      }\n    }\n    candidateRun {\n      id\n      status\n    }\n  }\n"): (typeof documents)["\n  fragment CandidateItem on Candidate {\n    id\n    status\n    expectedRevision\n    settingsPatch\n    comparison\n    receipt\n    decisionReason\n    createdAt\n    baseline {\n      settings\n      skills {\n        id\n      }\n    }\n    candidate {\n      settings\n      skills {\n        id\n      }\n    }\n    baselineRun {\n      id\n      status\n      task {\n        id\n        project {\n          id\n        }\n      }\n    }\n    candidateRun {\n      id\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CandidateScope($scopeId: ID!) {\n    candidates(scopeId: $scopeId) {\n      ...CandidateItem\n    }\n    effectiveSettings(scopeId: $scopeId) {\n      layers {\n        scopeId\n        revision\n      }\n    }\n    skillActivations(scopeId: $scopeId) {\n      id\n      status\n      scopeId\n      version {\n        id\n        skillId\n      }\n    }\n    skills(first: 50) {\n      nodes {\n        id\n        name\n        versions {\n          id\n          number\n          reviewState\n          hasScripts\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query CandidateScope($scopeId: ID!) {\n    candidates(scopeId: $scopeId) {\n      ...CandidateItem\n    }\n    effectiveSettings(scopeId: $scopeId) {\n      layers {\n        scopeId\n        revision\n      }\n    }\n    skillActivations(scopeId: $scopeId) {\n      id\n      status\n      scopeId\n      version {\n        id\n        skillId\n      }\n    }\n    skills(first: 50) {\n      nodes {\n        id\n        name\n        versions {\n          id\n          number\n          reviewState\n          hasScripts\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CandidateProjectWork($projectId: ID!) {\n    tasks(projectId: $projectId, first: 50) {\n      nodes {\n        id\n        title\n      }\n    }\n    agents(projectId: $projectId) {\n      id\n      name\n      online\n    }\n  }\n"): (typeof documents)["\n  query CandidateProjectWork($projectId: ID!) {\n    tasks(projectId: $projectId, first: 50) {\n      nodes {\n        id\n        title\n      }\n    }\n    agents(projectId: $projectId) {\n      id\n      name\n      online\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ProposeCandidate($scopeId: ID!, $expectedRevision: Int!, $patch: CandidatePatchInput!) {\n    proposeCandidate(scopeId: $scopeId, expectedRevision: $expectedRevision, patch: $patch) {\n      ...CandidateItem\n    }\n  }\n"): (typeof documents)["\n  mutation ProposeCandidate($scopeId: ID!, $expectedRevision: Int!, $patch: CandidatePatchInput!) {\n    proposeCandidate(scopeId: $scopeId, expectedRevision: $expectedRevision, patch: $patch) {\n      ...CandidateItem\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PrepareCandidate($candidateId: ID!, $taskId: ID!, $agentId: ID!) {\n    prepareCandidate(candidateId: $candidateId, taskId: $taskId, agentId: $agentId) {\n      ...CandidateItem\n    }\n  }\n"): (typeof documents)["\n  mutation PrepareCandidate($candidateId: ID!, $taskId: ID!, $agentId: ID!) {\n    prepareCandidate(candidateId: $candidateId, taskId: $taskId, agentId: $agentId) {\n      ...CandidateItem\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CompareCandidate($candidateId: ID!) {\n    compareCandidate(candidateId: $candidateId) {\n      ...CandidateItem\n    }\n  }\n"): (typeof documents)["\n  mutation CompareCandidate($candidateId: ID!) {\n    compareCandidate(candidateId: $candidateId) {\n      ...CandidateItem\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DecideCandidate($candidateId: ID!, $decision: ApprovalDecision!, $reason: String) {\n    decideCandidate(candidateId: $candidateId, decision: $decision, reason: $reason) {\n      ...CandidateItem\n    }\n  }\n"): (typeof documents)["\n  mutation DecideCandidate($candidateId: ID!, $decision: ApprovalDecision!, $reason: String) {\n    decideCandidate(candidateId: $candidateId, decision: $decision, reason: $reason) {\n      ...CandidateItem\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ApplyCandidate($candidateId: ID!) {\n    applyCandidate(candidateId: $candidateId) {\n      ...CandidateItem\n    }\n  }\n"): (typeof documents)["\n  mutation ApplyCandidate($candidateId: ID!) {\n    applyCandidate(candidateId: $candidateId) {\n      ...CandidateItem\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FirstTask($projectId: ID!) {\n    tasks(projectId: $projectId, first: 1) {\n      nodes {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  query FirstTask($projectId: ID!) {\n    tasks(projectId: $projectId, first: 1) {\n      nodes {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AnyRun {\n    runs(last: 1) {\n      edges {\n        node {\n          id\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query AnyRun {\n    runs(last: 1) {\n      edges {\n        node {\n          id\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AllConnectors {\n    connectors {\n      ...ConnectorFields\n      workspaceId\n    }\n  }\n"): (typeof documents)["\n  query AllConnectors {\n    connectors {\n      ...ConnectorFields\n      workspaceId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment HomeRun on TaskRun {\n    ...RunSummary\n    task {\n      id\n      title\n      project {\n        id\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  fragment HomeRun on TaskRun {\n    ...RunSummary\n    task {\n      id\n      title\n      project {\n        id\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query HomeRuns($live: [RunStatus!]!, $failed: [RunStatus!]!, $recent: Int!) {\n    inProgress: runs(filter: { status: $live }, last: 100) {\n      edges {\n        node {\n          ...HomeRun\n        }\n      }\n    }\n    failures: runs(filter: { status: $failed, latestOfTask: true }, last: $recent) {\n      edges {\n        node {\n          ...HomeRun\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query HomeRuns($live: [RunStatus!]!, $failed: [RunStatus!]!, $recent: Int!) {\n    inProgress: runs(filter: { status: $live }, last: 100) {\n      edges {\n        node {\n          ...HomeRun\n        }\n      }\n    }\n    failures: runs(filter: { status: $failed, latestOfTask: true }, last: $recent) {\n      edges {\n        node {\n          ...HomeRun\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment MemoryEntryItem on MemoryEntry {\n    id\n    scopeKind\n    scopeId\n    kind\n    subject\n    revision\n    updatedAt\n    current {\n      id\n      number\n      content\n      verification\n    }\n  }\n"): (typeof documents)["\n  fragment MemoryEntryItem on MemoryEntry {\n    id\n    scopeKind\n    scopeId\n    kind\n    subject\n    revision\n    updatedAt\n    current {\n      id\n      number\n      content\n      verification\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MemoryRoles {\n    viewer {\n      id\n      roleBindings {\n        id\n        role\n        scopeId\n      }\n    }\n  }\n"): (typeof documents)["\n  query MemoryRoles {\n    viewer {\n      id\n      roleBindings {\n        id\n        role\n        scopeId\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MemorySearch($scopeId: ID!, $query: String, $kinds: [MemoryKind!], $verification: [MemoryVerification!], $asOf: DateTime) {\n    memoryRetrievalMode\n    memory(scopeId: $scopeId, query: $query, kinds: $kinds, verification: $verification, asOf: $asOf) {\n      foundBy\n      entry {\n        ...MemoryEntryItem\n      }\n    }\n  }\n"): (typeof documents)["\n  query MemorySearch($scopeId: ID!, $query: String, $kinds: [MemoryKind!], $verification: [MemoryVerification!], $asOf: DateTime) {\n    memoryRetrievalMode\n    memory(scopeId: $scopeId, query: $query, kinds: $kinds, verification: $verification, asOf: $asOf) {\n      foundBy\n      entry {\n        ...MemoryEntryItem\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription MemoryUpdated($scopeId: ID!) {\n    memoryUpdated(scopeId: $scopeId) {\n      ...MemoryEntryItem\n    }\n  }\n"): (typeof documents)["\n  subscription MemoryUpdated($scopeId: ID!) {\n    memoryUpdated(scopeId: $scopeId) {\n      ...MemoryEntryItem\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation WriteMemory($input: WriteMemoryInput!) {\n    writeMemory(input: $input) {\n      entry {\n        ...MemoryEntryItem\n      }\n      version {\n        id\n        number\n      }\n      conflict {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation WriteMemory($input: WriteMemoryInput!) {\n    writeMemory(input: $input) {\n      entry {\n        ...MemoryEntryItem\n      }\n      version {\n        id\n        number\n      }\n      conflict {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment MemoryVersionItem on MemoryVersion {\n    id\n    number\n    content\n    verification\n    sensitivity\n    createdById\n    createdAt\n    becameCurrentAt\n    verifiedById\n    verifiedAt\n  }\n"): (typeof documents)["\n  fragment MemoryVersionItem on MemoryVersion {\n    id\n    number\n    content\n    verification\n    sensitivity\n    createdById\n    createdAt\n    becameCurrentAt\n    verifiedById\n    verifiedAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment MemoryConflictItem on MemoryConflict {\n    id\n    entryId\n    currentVersionId\n    proposedVersionId\n    status\n    resolution\n    resolvedById\n    resolvedAt\n    revision\n    createdAt\n  }\n"): (typeof documents)["\n  fragment MemoryConflictItem on MemoryConflict {\n    id\n    entryId\n    currentVersionId\n    proposedVersionId\n    status\n    resolution\n    resolvedById\n    resolvedAt\n    revision\n    createdAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MemoryEntryDetail($id: ID!) {\n    memoryEntry(id: $id) {\n      ...MemoryEntryItem\n      current {\n        ...MemoryVersionItem\n      }\n      versions {\n        ...MemoryVersionItem\n      }\n      conflicts {\n        ...MemoryConflictItem\n      }\n    }\n  }\n"): (typeof documents)["\n  query MemoryEntryDetail($id: ID!) {\n    memoryEntry(id: $id) {\n      ...MemoryEntryItem\n      current {\n        ...MemoryVersionItem\n      }\n      versions {\n        ...MemoryVersionItem\n      }\n      conflicts {\n        ...MemoryConflictItem\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PeopleNames {\n    users(first: 100) {\n      nodes {\n        id\n        displayName\n        email\n      }\n    }\n  }\n"): (typeof documents)["\n  query PeopleNames {\n    users(first: 100) {\n      nodes {\n        id\n        displayName\n        email\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation VerifyMemory($entryId: ID!, $expectedRevision: Int!, $verdict: MemoryVerdict!) {\n    verifyMemory(entryId: $entryId, expectedRevision: $expectedRevision, verdict: $verdict) {\n      ...MemoryEntryItem\n      current {\n        ...MemoryVersionItem\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation VerifyMemory($entryId: ID!, $expectedRevision: Int!, $verdict: MemoryVerdict!) {\n    verifyMemory(entryId: $entryId, expectedRevision: $expectedRevision, verdict: $verdict) {\n      ...MemoryEntryItem\n      current {\n        ...MemoryVersionItem\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RetractMemory($entryId: ID!, $expectedRevision: Int!) {\n    retractMemory(entryId: $entryId, expectedRevision: $expectedRevision) {\n      ...MemoryEntryItem\n      current {\n        ...MemoryVersionItem\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation RetractMemory($entryId: ID!, $expectedRevision: Int!) {\n    retractMemory(entryId: $entryId, expectedRevision: $expectedRevision) {\n      ...MemoryEntryItem\n      current {\n        ...MemoryVersionItem\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResolveMemoryConflict($conflictId: ID!, $expectedRevision: Int!, $resolution: MemoryConflictResolution!) {\n    resolveMemoryConflict(conflictId: $conflictId, expectedRevision: $expectedRevision, resolution: $resolution) {\n      ...MemoryConflictItem\n    }\n  }\n"): (typeof documents)["\n  mutation ResolveMemoryConflict($conflictId: ID!, $expectedRevision: Int!, $resolution: MemoryConflictResolution!) {\n    resolveMemoryConflict(conflictId: $conflictId, expectedRevision: $expectedRevision, resolution: $resolution) {\n      ...MemoryConflictItem\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NotificationsPage {\n    notificationSettings {\n      emailAvailable\n      emailAddress\n      webPushPublicKey\n      pushDevices\n      preferences {\n        kind\n        channel\n        enabled\n      }\n    }\n    notifications(last: 100) {\n      nodes {\n        ...NotificationItem\n      }\n    }\n  }\n"): (typeof documents)["\n  query NotificationsPage {\n    notificationSettings {\n      emailAvailable\n      emailAddress\n      webPushPublicKey\n      pushDevices\n      preferences {\n        kind\n        channel\n        enabled\n      }\n    }\n    notifications(last: 100) {\n      nodes {\n        ...NotificationItem\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetNotificationPreference($kind: NotificationKind!, $channel: NotificationChannel!, $enabled: Boolean!) {\n    setNotificationPreference(kind: $kind, channel: $channel, enabled: $enabled) {\n      kind\n      channel\n      enabled\n    }\n  }\n"): (typeof documents)["\n  mutation SetNotificationPreference($kind: NotificationKind!, $channel: NotificationChannel!, $enabled: Boolean!) {\n    setNotificationPreference(kind: $kind, channel: $channel, enabled: $enabled) {\n      kind\n      channel\n      enabled\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RegisterPushSubscription($endpoint: String!, $p256dh: String!, $auth: String!) {\n    registerPushSubscription(endpoint: $endpoint, p256dh: $p256dh, auth: $auth)\n  }\n"): (typeof documents)["\n  mutation RegisterPushSubscription($endpoint: String!, $p256dh: String!, $auth: String!) {\n    registerPushSubscription(endpoint: $endpoint, p256dh: $p256dh, auth: $auth)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemovePushSubscription($endpoint: String!) {\n    removePushSubscription(endpoint: $endpoint)\n  }\n"): (typeof documents)["\n  mutation RemovePushSubscription($endpoint: String!) {\n    removePushSubscription(endpoint: $endpoint)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query People {\n    viewer {\n      id\n    }\n    users(first: 100) {\n      nodes {\n        id\n        email\n        displayName\n        disabled\n        roleBindings {\n          role\n        }\n      }\n      pageInfo {\n        hasNextPage\n      }\n    }\n  }\n"): (typeof documents)["\n  query People {\n    viewer {\n      id\n    }\n    users(first: 100) {\n      nodes {\n        id\n        email\n        displayName\n        disabled\n        roleBindings {\n          role\n        }\n      }\n      pageInfo {\n        hasNextPage\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetUserDisabled($id: ID!, $disabled: Boolean!) {\n    setUserDisabled(id: $id, disabled: $disabled) {\n      id\n      disabled\n    }\n  }\n"): (typeof documents)["\n  mutation SetUserDisabled($id: ID!, $disabled: Boolean!) {\n    setUserDisabled(id: $id, disabled: $disabled) {\n      id\n      disabled\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RunContext($runId: ID!) {\n    runContext(runId: $runId) {\n      runId\n      tokenBudget\n      tokensUsed\n      bundleHash\n      bundle\n      createdAt\n      items {\n        kind\n        source\n        title\n        contentHash\n        tokens\n        included\n        redactions\n      }\n    }\n  }\n"): (typeof documents)["\n  query RunContext($runId: ID!) {\n    runContext(runId: $runId) {\n      runId\n      tokenBudget\n      tokensUsed\n      bundleHash\n      bundle\n      createdAt\n      items {\n        kind\n        source\n        title\n        contentHash\n        tokens\n        included\n        redactions\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RunFiles($runId: ID!) {\n    node(id: $runId) {\n      __typename\n      ... on TaskRun {\n        id\n        artifacts {\n          id\n          name\n          versions {\n            ...ArtifactVersionItem\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query RunFiles($runId: ID!) {\n    node(id: $runId) {\n      __typename\n      ... on TaskRun {\n        id\n        artifacts {\n          id\n          name\n          versions {\n            ...ArtifactVersionItem\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Run($id: ID!) {\n    node(id: $id) {\n      __typename\n      ... on TaskRun {\n        ...RunDetail\n        skills {\n          name\n          number\n          digest\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Run($id: ID!) {\n    node(id: $id) {\n      __typename\n      ... on TaskRun {\n        ...RunDetail\n        skills {\n          name\n          number\n          digest\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RunDetail on TaskRun {\n    id\n    status\n    statusReason\n    revision\n    input\n    maxAttempts\n    createdAt\n    updatedAt\n    task {\n      id\n      title\n      project {\n        id\n        name\n        workspace {\n          id\n          name\n        }\n      }\n    }\n    agent {\n      id\n      name\n      capabilities\n    }\n    handoffTarget {\n      id\n      name\n    }\n    requestedAgent {\n      id\n    }\n    attempts {\n      number\n      kind\n      status\n      agent {\n        id\n        name\n      }\n      leaseExpiresAt\n      endedAt\n      createdAt\n    }\n    approvals {\n      ...ApprovalItem\n    }\n    checkpoints {\n      reason\n      createdAt\n      targetAgent {\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  fragment RunDetail on TaskRun {\n    id\n    status\n    statusReason\n    revision\n    input\n    maxAttempts\n    createdAt\n    updatedAt\n    task {\n      id\n      title\n      project {\n        id\n        name\n        workspace {\n          id\n          name\n        }\n      }\n    }\n    agent {\n      id\n      name\n      capabilities\n    }\n    handoffTarget {\n      id\n      name\n    }\n    requestedAgent {\n      id\n    }\n    attempts {\n      number\n      kind\n      status\n      agent {\n        id\n        name\n      }\n      leaseExpiresAt\n      endedAt\n      createdAt\n    }\n    approvals {\n      ...ApprovalItem\n    }\n    checkpoints {\n      reason\n      createdAt\n      targetAgent {\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription RunLive($projectId: ID!) {\n    runUpdated(projectId: $projectId) {\n      ...RunDetail\n    }\n  }\n"): (typeof documents)["\n  subscription RunLive($projectId: ID!) {\n    runUpdated(projectId: $projectId) {\n      ...RunDetail\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CancelRun($runId: ID!) {\n    cancelRun(runId: $runId) {\n      ...RunDetail\n    }\n  }\n"): (typeof documents)["\n  mutation CancelRun($runId: ID!) {\n    cancelRun(runId: $runId) {\n      ...RunDetail\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RequestCheckpoint($runId: ID!, $reason: String) {\n    requestCheckpoint(runId: $runId, reason: $reason) {\n      ...RunDetail\n    }\n  }\n"): (typeof documents)["\n  mutation RequestCheckpoint($runId: ID!, $reason: String) {\n    requestCheckpoint(runId: $runId, reason: $reason) {\n      ...RunDetail\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RequestHandoff($runId: ID!, $targetAgentId: ID!, $reason: String) {\n    requestHandoff(runId: $runId, targetAgentId: $targetAgentId, reason: $reason) {\n      ...RunDetail\n    }\n  }\n"): (typeof documents)["\n  mutation RequestHandoff($runId: ID!, $targetAgentId: ID!, $reason: String) {\n    requestHandoff(runId: $runId, targetAgentId: $targetAgentId, reason: $reason) {\n      ...RunDetail\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Sessions {\n    sessions(first: 100) {\n      nodes {\n        id\n        deviceName\n        clientAddress\n        createdAt\n        lastUsedAt\n        revokedAt\n        revokedReason\n        current\n      }\n    }\n  }\n"): (typeof documents)["\n  query Sessions {\n    sessions(first: 100) {\n      nodes {\n        id\n        deviceName\n        clientAddress\n        createdAt\n        lastUsedAt\n        revokedAt\n        revokedReason\n        current\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeSession($id: ID!) {\n    revokeSession(id: $id) {\n      id\n      revokedAt\n      revokedReason\n    }\n  }\n"): (typeof documents)["\n  mutation RevokeSession($id: ID!) {\n    revokeSession(id: $id) {\n      id\n      revokedAt\n      revokedReason\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EffectiveSettings($scopeId: ID!) {\n    effectiveSettings(scopeId: $scopeId) {\n      scopeId\n      entries {\n        key\n        value\n        sourceScopeId\n        sourceScopeKind\n      }\n      layers {\n        scopeId\n        scopeKind\n        revision\n        settings\n      }\n    }\n  }\n"): (typeof documents)["\n  query EffectiveSettings($scopeId: ID!) {\n    effectiveSettings(scopeId: $scopeId) {\n      scopeId\n      entries {\n        key\n        value\n        sourceScopeId\n        sourceScopeKind\n      }\n      layers {\n        scopeId\n        scopeKind\n        revision\n        settings\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query KnownSettings {\n    knownSettings {\n      key\n      type\n      default\n      minimum\n      maximum\n      description\n    }\n  }\n"): (typeof documents)["\n  query KnownSettings {\n    knownSettings {\n      key\n      type\n      default\n      minimum\n      maximum\n      description\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetSettings($scopeId: ID!, $patch: JSON!, $expectedRevision: Int!) {\n    setSettings(scopeId: $scopeId, patch: $patch, expectedRevision: $expectedRevision) {\n      id\n      scopeId\n      revision\n      settings\n    }\n  }\n"): (typeof documents)["\n  mutation SetSettings($scopeId: ID!, $patch: JSON!, $expectedRevision: Int!) {\n    setSettings(scopeId: $scopeId, patch: $patch, expectedRevision: $expectedRevision) {\n      id\n      scopeId\n      revision\n      settings\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BootstrapRequired {\n    bootstrapRequired\n    signInProviders {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  query BootstrapRequired {\n    bootstrapRequired\n    signInProviders {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation BeginOidcSignIn($provider: String!, $redirectUri: String!) {\n    beginOidcSignIn(provider: $provider, redirectUri: $redirectUri) {\n      authorizationUrl\n      flow\n    }\n  }\n"): (typeof documents)["\n  mutation BeginOidcSignIn($provider: String!, $redirectUri: String!) {\n    beginOidcSignIn(provider: $provider, redirectUri: $redirectUri) {\n      authorizationUrl\n      flow\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CompleteOidcSignIn($flow: String!, $code: String!, $state: String!, $issuer: String, $deviceName: String) {\n    completeOidcSignIn(flow: $flow, code: $code, state: $state, issuer: $issuer, deviceName: $deviceName) {\n      ...AuthTokens\n    }\n  }\n"): (typeof documents)["\n  mutation CompleteOidcSignIn($flow: String!, $code: String!, $state: String!, $issuer: String, $deviceName: String) {\n    completeOidcSignIn(flow: $flow, code: $code, state: $state, issuer: $issuer, deviceName: $deviceName) {\n      ...AuthTokens\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Login($email: String!, $password: String!, $deviceName: String) {\n    login(email: $email, password: $password, deviceName: $deviceName) {\n      ...AuthTokens\n    }\n  }\n"): (typeof documents)["\n  mutation Login($email: String!, $password: String!, $deviceName: String) {\n    login(email: $email, password: $password, deviceName: $deviceName) {\n      ...AuthTokens\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RedeemBootstrap(\n    $code: String!\n    $organizationName: String!\n    $email: String!\n    $password: String!\n    $displayName: String\n  ) {\n    redeemBootstrap(\n      code: $code\n      organizationName: $organizationName\n      email: $email\n      password: $password\n      displayName: $displayName\n    ) {\n      ...AuthTokens\n    }\n  }\n"): (typeof documents)["\n  mutation RedeemBootstrap(\n    $code: String!\n    $organizationName: String!\n    $email: String!\n    $password: String!\n    $displayName: String\n  ) {\n    redeemBootstrap(\n      code: $code\n      organizationName: $organizationName\n      email: $email\n      password: $password\n      displayName: $displayName\n    ) {\n      ...AuthTokens\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SkillVersionItem on SkillVersion {\n    id\n    number\n    description\n    digest\n    hasScripts\n    reviewState\n    reviewReason\n    signatureStatus\n    signerKeyId\n    createdAt\n    files {\n      path\n    }\n  }\n"): (typeof documents)["\n  fragment SkillVersionItem on SkillVersion {\n    id\n    number\n    description\n    digest\n    hasScripts\n    reviewState\n    reviewReason\n    signatureStatus\n    signerKeyId\n    createdAt\n    files {\n      path\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Skills($after: String) {\n    skills(first: 20, after: $after) {\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        name\n        versions {\n          ...SkillVersionItem\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Skills($after: String) {\n    skills(first: 20, after: $after) {\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        name\n        versions {\n          ...SkillVersionItem\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SkillPublisherKeys {\n    skillPublisherKeys {\n      id\n      name\n      keyId\n      revokedAt\n    }\n  }\n"): (typeof documents)["\n  query SkillPublisherKeys {\n    skillPublisherKeys {\n      id\n      name\n      keyId\n      revokedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SkillActivations($scopeId: ID!) {\n    skillActivations(scopeId: $scopeId) {\n      id\n      status\n      scopeId\n      version {\n        id\n        number\n        skillId\n        description\n      }\n    }\n  }\n"): (typeof documents)["\n  query SkillActivations($scopeId: ID!) {\n    skillActivations(scopeId: $scopeId) {\n      id\n      status\n      scopeId\n      version {\n        id\n        number\n        skillId\n        description\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ReviewSkillVersion($versionId: ID!, $decision: ApprovalDecision!, $reason: String) {\n    reviewSkillVersion(versionId: $versionId, decision: $decision, reason: $reason) {\n      ...SkillVersionItem\n    }\n  }\n"): (typeof documents)["\n  mutation ReviewSkillVersion($versionId: ID!, $decision: ApprovalDecision!, $reason: String) {\n    reviewSkillVersion(versionId: $versionId, decision: $decision, reason: $reason) {\n      ...SkillVersionItem\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RequestSkillReview($versionId: ID!) {\n    requestSkillReview(versionId: $versionId) {\n      ...SkillVersionItem\n    }\n  }\n"): (typeof documents)["\n  mutation RequestSkillReview($versionId: ID!) {\n    requestSkillReview(versionId: $versionId) {\n      ...SkillVersionItem\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeSkillVersion($versionId: ID!, $reason: String) {\n    revokeSkillVersion(versionId: $versionId, reason: $reason) {\n      ...SkillVersionItem\n    }\n  }\n"): (typeof documents)["\n  mutation RevokeSkillVersion($versionId: ID!, $reason: String) {\n    revokeSkillVersion(versionId: $versionId, reason: $reason) {\n      ...SkillVersionItem\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ActivateSkill($versionId: ID!, $scopeId: ID!) {\n    activateSkill(versionId: $versionId, scopeId: $scopeId) {\n      activation {\n        id\n        status\n      }\n      approval {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ActivateSkill($versionId: ID!, $scopeId: ID!) {\n    activateSkill(versionId: $versionId, scopeId: $scopeId) {\n      activation {\n        id\n        status\n      }\n      approval {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeactivateSkill($activationId: ID!) {\n    deactivateSkill(activationId: $activationId) {\n      id\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation DeactivateSkill($activationId: ID!) {\n    deactivateSkill(activationId: $activationId) {\n      id\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TrustSkillPublisherKey($name: String!, $publicKey: String!) {\n    trustSkillPublisherKey(name: $name, publicKey: $publicKey) {\n      id\n      name\n      keyId\n      revokedAt\n    }\n  }\n"): (typeof documents)["\n  mutation TrustSkillPublisherKey($name: String!, $publicKey: String!) {\n    trustSkillPublisherKey(name: $name, publicKey: $publicKey) {\n      id\n      name\n      keyId\n      revokedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeSkillPublisherKey($keyId: ID!) {\n    revokeSkillPublisherKey(keyId: $keyId) {\n      id\n      revokedAt\n    }\n  }\n"): (typeof documents)["\n  mutation RevokeSkillPublisherKey($keyId: ID!) {\n    revokeSkillPublisherKey(keyId: $keyId) {\n      id\n      revokedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TaskArtifacts($projectId: ID!, $taskId: ID!) {\n    artifacts(projectId: $projectId, taskId: $taskId, first: 50) {\n      pageInfo {\n        hasNextPage\n      }\n      nodes {\n        id\n        name\n        revision\n        updatedAt\n        latest {\n          ...ArtifactVersionItem\n        }\n        versions {\n          ...ArtifactVersionItem\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query TaskArtifacts($projectId: ID!, $taskId: ID!) {\n    artifacts(projectId: $projectId, taskId: $taskId, first: 50) {\n      pageInfo {\n        hasNextPage\n      }\n      nodes {\n        id\n        name\n        revision\n        updatedAt\n        latest {\n          ...ArtifactVersionItem\n        }\n        versions {\n          ...ArtifactVersionItem\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Task($id: ID!) {\n    node(id: $id) {\n      __typename\n      ... on Task {\n        ...TaskCard\n        description\n        createdAt\n        updatedAt\n        runs {\n          ...RunSummary\n        }\n        project {\n          id\n          name\n          workspace {\n            id\n            name\n          }\n        }\n        dependents {\n          id\n          title\n          status\n        }\n        acceptanceCriteria {\n          id\n          description\n          met\n          revision\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Task($id: ID!) {\n    node(id: $id) {\n      __typename\n      ... on Task {\n        ...TaskCard\n        description\n        createdAt\n        updatedAt\n        runs {\n          ...RunSummary\n        }\n        project {\n          id\n          name\n          workspace {\n            id\n            name\n          }\n        }\n        dependents {\n          id\n          title\n          status\n        }\n        acceptanceCriteria {\n          id\n          description\n          met\n          revision\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RunSummary on TaskRun {\n    id\n    status\n    statusReason\n    createdAt\n    updatedAt\n    agent {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  fragment RunSummary on TaskRun {\n    id\n    status\n    statusReason\n    createdAt\n    updatedAt\n    agent {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ProjectTaskTitles($projectId: ID!) {\n    tasks(projectId: $projectId, first: 100) {\n      nodes {\n        id\n        title\n        dependencies {\n          id\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ProjectTaskTitles($projectId: ID!) {\n    tasks(projectId: $projectId, first: 100) {\n      nodes {\n        id\n        title\n        dependencies {\n          id\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Agents($projectId: ID!) {\n    agents(projectId: $projectId) {\n      id\n      name\n      adapter\n      adapterVersion\n      runtimeVersion\n      capabilities\n      online\n      connector {\n        id\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  query Agents($projectId: ID!) {\n    agents(projectId: $projectId) {\n      id\n      name\n      adapter\n      adapterVersion\n      runtimeVersion\n      capabilities\n      online\n      connector {\n        id\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription RunUpdated($projectId: ID!) {\n    runUpdated(projectId: $projectId) {\n      ...RunSummary\n      task {\n        id\n        title\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription RunUpdated($projectId: ID!) {\n    runUpdated(projectId: $projectId) {\n      ...RunSummary\n      task {\n        id\n        title\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetCriterionMet($id: ID!, $met: Boolean!, $expectedRevision: Int) {\n    setAcceptanceCriterionMet(id: $id, met: $met, expectedRevision: $expectedRevision) {\n      id\n      met\n      revision\n    }\n  }\n"): (typeof documents)["\n  mutation SetCriterionMet($id: ID!, $met: Boolean!, $expectedRevision: Int) {\n    setAcceptanceCriterionMet(id: $id, met: $met, expectedRevision: $expectedRevision) {\n      id\n      met\n      revision\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AddCriterion($taskId: ID!, $description: String!) {\n    addAcceptanceCriterion(taskId: $taskId, description: $description) {\n      id\n      description\n      met\n      revision\n    }\n  }\n"): (typeof documents)["\n  mutation AddCriterion($taskId: ID!, $description: String!) {\n    addAcceptanceCriterion(taskId: $taskId, description: $description) {\n      id\n      description\n      met\n      revision\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AddDependency($taskId: ID!, $dependsOnId: ID!) {\n    addTaskDependency(taskId: $taskId, dependsOnId: $dependsOnId) {\n      ...TaskCard\n    }\n  }\n"): (typeof documents)["\n  mutation AddDependency($taskId: ID!, $dependsOnId: ID!) {\n    addTaskDependency(taskId: $taskId, dependsOnId: $dependsOnId) {\n      ...TaskCard\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveDependency($taskId: ID!, $dependsOnId: ID!) {\n    removeTaskDependency(taskId: $taskId, dependsOnId: $dependsOnId) {\n      ...TaskCard\n    }\n  }\n"): (typeof documents)["\n  mutation RemoveDependency($taskId: ID!, $dependsOnId: ID!) {\n    removeTaskDependency(taskId: $taskId, dependsOnId: $dependsOnId) {\n      ...TaskCard\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EditTask($input: UpdateTaskInput!) {\n    updateTask(input: $input) {\n      ...TaskCard\n      description\n    }\n  }\n"): (typeof documents)["\n  mutation EditTask($input: UpdateTaskInput!) {\n    updateTask(input: $input) {\n      ...TaskCard\n      description\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteTask($id: ID!, $expectedRevision: Int) {\n    deleteTask(id: $id, expectedRevision: $expectedRevision)\n  }\n"): (typeof documents)["\n  mutation DeleteTask($id: ID!, $expectedRevision: Int) {\n    deleteTask(id: $id, expectedRevision: $expectedRevision)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation StartRun($taskId: ID!, $agentId: ID, $input: JSON) {\n    startRun(taskId: $taskId, agentId: $agentId, input: $input) {\n      ...RunSummary\n    }\n  }\n"): (typeof documents)["\n  mutation StartRun($taskId: ID!, $agentId: ID, $input: JSON) {\n    startRun(taskId: $taskId, agentId: $agentId, input: $input) {\n      ...RunSummary\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UsageSummary($scopeId: ID!, $from: DateTime!, $to: DateTime!, $groupBy: UsageGrouping!) {\n    usageSummary(scopeId: $scopeId, from: $from, to: $to, groupBy: $groupBy) {\n      total {\n        runs\n        requests\n        inputTokens\n        outputTokens\n        tokens\n        costUsd\n        cost\n      }\n      groups {\n        key\n        label\n        totals {\n          runs\n          inputTokens\n          outputTokens\n          tokens\n          costUsd\n          cost\n        }\n      }\n    }\n    days: usageSummary(scopeId: $scopeId, from: $from, to: $to, groupBy: DAY) {\n      groups {\n        key\n        totals {\n          inputTokens\n          outputTokens\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query UsageSummary($scopeId: ID!, $from: DateTime!, $to: DateTime!, $groupBy: UsageGrouping!) {\n    usageSummary(scopeId: $scopeId, from: $from, to: $to, groupBy: $groupBy) {\n      total {\n        runs\n        requests\n        inputTokens\n        outputTokens\n        tokens\n        costUsd\n        cost\n      }\n      groups {\n        key\n        label\n        totals {\n          runs\n          inputTokens\n          outputTokens\n          tokens\n          costUsd\n          cost\n        }\n      }\n    }\n    days: usageSummary(scopeId: $scopeId, from: $from, to: $to, groupBy: DAY) {\n      groups {\n        key\n        totals {\n          inputTokens\n          outputTokens\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UsageRunStatistics($filter: RunFilter!) {\n    runStatistics(filter: $filter) {\n      total {\n        runs\n        finished\n        medianDurationMs\n        p95DurationMs\n        byStatus {\n          status\n          count\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query UsageRunStatistics($filter: RunFilter!) {\n    runStatistics(filter: $filter) {\n      total {\n        runs\n        finished\n        medianDurationMs\n        p95DurationMs\n        byStatus {\n          status\n          count\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BudgetPolicies($scopeId: ID!) {\n    budgetPolicies(scopeId: $scopeId) {\n      id\n      scopeId\n      period\n      maxTokens\n      maxCostUsd\n      usedTokens\n      usedCostUsd\n      exceeded\n      periodEnd\n    }\n  }\n"): (typeof documents)["\n  query BudgetPolicies($scopeId: ID!) {\n    budgetPolicies(scopeId: $scopeId) {\n      id\n      scopeId\n      period\n      maxTokens\n      maxCostUsd\n      usedTokens\n      usedCostUsd\n      exceeded\n      periodEnd\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetBudgetPolicy($scopeId: ID!, $period: BudgetPeriod!, $maxTokens: Int, $maxCostUsd: Float) {\n    setBudgetPolicy(scopeId: $scopeId, period: $period, maxTokens: $maxTokens, maxCostUsd: $maxCostUsd) {\n      id\n    }\n  }\n"): (typeof documents)["\n  mutation SetBudgetPolicy($scopeId: ID!, $period: BudgetPeriod!, $maxTokens: Int, $maxCostUsd: Float) {\n    setBudgetPolicy(scopeId: $scopeId, period: $period, maxTokens: $maxTokens, maxCostUsd: $maxCostUsd) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveBudgetPolicy($id: ID!) {\n    removeBudgetPolicy(id: $id)\n  }\n"): (typeof documents)["\n  mutation RemoveBudgetPolicy($id: ID!) {\n    removeBudgetPolicy(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UsageRoles {\n    viewer {\n      id\n      roleBindings {\n        id\n        role\n        scopeId\n      }\n    }\n  }\n"): (typeof documents)["\n  query UsageRoles {\n    viewer {\n      id\n      roleBindings {\n        id\n        role\n        scopeId\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WikiNamespaces($scopeId: ID!) {\n    wikiNamespaces(scopeId: $scopeId) {\n      id\n      name\n      authoritative\n      acl\n    }\n  }\n"): (typeof documents)["\n  query WikiNamespaces($scopeId: ID!) {\n    wikiNamespaces(scopeId: $scopeId) {\n      id\n      name\n      authoritative\n      acl\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WikiPages($namespaceId: ID!) {\n    wikiPages(namespaceId: $namespaceId, first: 100) {\n      edges {\n        node {\n          id\n          path\n          title\n          revision\n          publishedRevision\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query WikiPages($namespaceId: ID!) {\n    wikiPages(namespaceId: $namespaceId, first: 100) {\n      edges {\n        node {\n          id\n          path\n          title\n          revision\n          publishedRevision\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription WikiPageUpdated($namespaceId: ID!) {\n    wikiPageUpdated(namespaceId: $namespaceId) {\n      id\n      path\n      title\n      revision\n      publishedRevision\n    }\n  }\n"): (typeof documents)["\n  subscription WikiPageUpdated($namespaceId: ID!) {\n    wikiPageUpdated(namespaceId: $namespaceId) {\n      id\n      path\n      title\n      revision\n      publishedRevision\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WikiSearch($scopeId: ID!, $query: String!) {\n    wikiSearch(scopeId: $scopeId, query: $query) {\n      score\n      foundBy\n      page {\n        id\n        path\n        title\n      }\n    }\n  }\n"): (typeof documents)["\n  query WikiSearch($scopeId: ID!, $query: String!) {\n    wikiSearch(scopeId: $scopeId, query: $query) {\n      score\n      foundBy\n      page {\n        id\n        path\n        title\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateWikiNamespace($scopeId: ID!, $name: String!, $authoritative: Boolean!) {\n    createWikiNamespace(scopeId: $scopeId, name: $name, authoritative: $authoritative) {\n      id\n      name\n      authoritative\n    }\n  }\n"): (typeof documents)["\n  mutation CreateWikiNamespace($scopeId: ID!, $name: String!, $authoritative: Boolean!) {\n    createWikiNamespace(scopeId: $scopeId, name: $name, authoritative: $authoritative) {\n      id\n      name\n      authoritative\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SaveWikiPage($input: SaveWikiPageInput!) {\n    saveWikiPage(input: $input) {\n      id\n      path\n      title\n      revision\n      publishedRevision\n      latest {\n        id\n        number\n        source\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SaveWikiPage($input: SaveWikiPageInput!) {\n    saveWikiPage(input: $input) {\n      id\n      path\n      title\n      revision\n      publishedRevision\n      latest {\n        id\n        number\n        source\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WikiPageView($id: ID!) {\n    node(id: $id) {\n      __typename\n      ... on WikiPage {\n        id\n        namespaceId\n        namespace {\n          id\n          name\n          authoritative\n        }\n        path\n        title\n        revision\n        publishedRevision\n        latest {\n          id\n          number\n          source\n        }\n        links {\n          targetPath\n          page {\n            id\n            title\n          }\n        }\n        attachments {\n          id\n          name\n          number\n          sizeBytes\n          sha256\n          downloadPath\n        }\n      }\n    }\n    backlinks(pageId: $id) {\n      id\n      title\n    }\n    wikiRevisions(pageId: $id, last: 50) {\n      edges {\n        node {\n          id\n          number\n          path\n          title\n          createdAt\n          provenance\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query WikiPageView($id: ID!) {\n    node(id: $id) {\n      __typename\n      ... on WikiPage {\n        id\n        namespaceId\n        namespace {\n          id\n          name\n          authoritative\n        }\n        path\n        title\n        revision\n        publishedRevision\n        latest {\n          id\n          number\n          source\n        }\n        links {\n          targetPath\n          page {\n            id\n            title\n          }\n        }\n        attachments {\n          id\n          name\n          number\n          sizeBytes\n          sha256\n          downloadPath\n        }\n      }\n    }\n    backlinks(pageId: $id) {\n      id\n      title\n    }\n    wikiRevisions(pageId: $id, last: 50) {\n      edges {\n        node {\n          id\n          number\n          path\n          title\n          createdAt\n          provenance\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RenameWikiPage($pageId: ID!, $path: String!, $expectedRevision: Int!) {\n    renameWikiPage(pageId: $pageId, path: $path, expectedRevision: $expectedRevision) {\n      id\n      path\n      revision\n    }\n  }\n"): (typeof documents)["\n  mutation RenameWikiPage($pageId: ID!, $path: String!, $expectedRevision: Int!) {\n    renameWikiPage(pageId: $pageId, path: $path, expectedRevision: $expectedRevision) {\n      id\n      path\n      revision\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PublishWikiPage($pageId: ID!, $revision: Int!) {\n    publishWikiPage(pageId: $pageId, revision: $revision) {\n      id\n      publishedRevision\n    }\n  }\n"): (typeof documents)["\n  mutation PublishWikiPage($pageId: ID!, $revision: Int!) {\n    publishWikiPage(pageId: $pageId, revision: $revision) {\n      id\n      publishedRevision\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RequestWikiReview($pageId: ID!, $revision: Int!) {\n    requestWikiReview(pageId: $pageId, revision: $revision) {\n      id\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation RequestWikiReview($pageId: ID!, $revision: Int!) {\n    requestWikiReview(pageId: $pageId, revision: $revision) {\n      id\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WikiDiff($pageId: ID!, $from: Int!, $to: Int!) {\n    wikiDiff(pageId: $pageId, from: $from, to: $to) {\n      unified\n      addedLines\n      removedLines\n    }\n  }\n"): (typeof documents)["\n  query WikiDiff($pageId: ID!, $from: Int!, $to: Int!) {\n    wikiDiff(pageId: $pageId, from: $from, to: $to) {\n      unified\n      addedLines\n      removedLines\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetWikiNamespaceAcl($namespaceId: ID!, $userIds: [ID!]!) {\n    setWikiNamespaceAcl(namespaceId: $namespaceId, userIds: $userIds) {\n      id\n      acl\n    }\n  }\n"): (typeof documents)["\n  mutation SetWikiNamespaceAcl($namespaceId: ID!, $userIds: [ID!]!) {\n    setWikiNamespaceAcl(namespaceId: $namespaceId, userIds: $userIds) {\n      id\n      acl\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Workspaces {\n    workspaces(first: 20) {\n      pageInfo {\n        hasNextPage\n      }\n      nodes {\n        id\n        name\n        description\n        projects(first: 50) {\n          nodes {\n            id\n            name\n            description\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Workspaces {\n    workspaces(first: 20) {\n      pageInfo {\n        hasNextPage\n      }\n      nodes {\n        id\n        name\n        description\n        projects(first: 50) {\n          nodes {\n            id\n            name\n            description\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateWorkspace($name: String!, $description: String!) {\n    createWorkspace(name: $name, description: $description) {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  mutation CreateWorkspace($name: String!, $description: String!) {\n    createWorkspace(name: $name, description: $description) {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateProject($workspaceId: ID!, $name: String!) {\n    createProject(workspaceId: $workspaceId, name: $name) {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  mutation CreateProject($workspaceId: ID!, $name: String!) {\n    createProject(workspaceId: $workspaceId, name: $name) {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Palette($typed: String!, $searching: Boolean!) {\n    workspaces(first: 10) {\n      nodes {\n        id\n        name\n        projects(first: 20) {\n          nodes {\n            id\n            name\n            tasks(first: 5, filter: { titleContains: $typed }) @include(if: $searching) {\n              nodes {\n                id\n                title\n              }\n            }\n          }\n        }\n      }\n    }\n    runs(last: 10) {\n      edges {\n        node {\n          id\n          status\n          updatedAt\n          createdAt\n          task {\n            id\n            title\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Palette($typed: String!, $searching: Boolean!) {\n    workspaces(first: 10) {\n      nodes {\n        id\n        name\n        projects(first: 20) {\n          nodes {\n            id\n            name\n            tasks(first: 5, filter: { titleContains: $typed }) @include(if: $searching) {\n              nodes {\n                id\n                title\n              }\n            }\n          }\n        }\n      }\n    }\n    runs(last: 10) {\n      edges {\n        node {\n          id\n          status\n          updatedAt\n          createdAt\n          task {\n            id\n            title\n          }\n        }\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;